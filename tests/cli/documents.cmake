# Real documents through translate (issue 15 item 6), on the bundled model:
#   an HTML page (--format html): every tag, attribute, comment, doctype and the content
#     of script, style, pre and code elements and of elements marked translate="no" or
#     class="notranslate" come back byte for byte, in order (but for the root's lang,
#     now the target's); the text between tags is translated and escaped again (no bare
#     '&' or '<' in it), a sentence around inline code or a kept span too;
#   an .srt subtitle file (plain text): one line out per line in, cue numbers, time codes
#     and blank lines unchanged, every subtitle line translated;
#   subtitle files (--format srt, --format vtt): numbers, times, blank lines, WebVTT's
#     header, notes and styles unchanged; a cue's lines translated together (the same
#     words as the joined sentence's translation) and broken into as many lines; a
#     dialogue cue line by line, dashes kept; tags around the words; '&' as written;
#   a hard-wrapped letter (--format wrapped): a paragraph's lines translated together
#     (the same words as the joined paragraph's translation) and wrapped again, short
#     lines (greeting, signature) translated alone, blank lines kept;
#   a gettext catalog (--format po): every untranslated message (plural forms, context,
#     multi-line) filled and flagged fuzzy, translated ones kept, the result valid for
#     msgfmt --check (placeholders, plural forms; where gettext is installed), and a
#     second pass changes nothing; a malformed catalog is an error naming its line;
#   a README (--format markdown): code blocks (fenced, indented), code spans, link and
#     image destinations, HTML, the table's delimiter row and link definitions come back
#     byte for byte; headings, list items and table rows keep their markers and pipes;
#     the prose is translated.
#   cmake -DTRANSLATE=... -DMODEL=... -DDOCUMENTS=tests/data/documents [-DEMULATOR=...] -P documents.cmake
function(fail what)
  message(FATAL_ERROR "${what}")
endfunction()

# --- HTML
file(READ "${DOCUMENTS}/page.html" in)
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format html
                INPUT_FILE "${DOCUMENTS}/page.html" OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  fail("translate --format html failed (${rc}): ${err}")
endif()
# Tags (and comments, the doctype) in order. Text between them has '<' escaped, so the
# same pattern cuts input and output at the same places when the markup is kept.
string(REGEX MATCHALL "<[^>]*>" tags_in "${in}")
string(REGEX MATCHALL "<[^>]*>" tags_out "${out}")
list(LENGTH tags_in n_in)
list(LENGTH tags_out n_out)
if(NOT n_in EQUAL n_out OR n_in LESS 40)
  fail("${n_in} tags in, ${n_out} out:\n${out}")
endif()
foreach(i RANGE 0 ${n_in})
  if(i EQUAL n_in)
    break()
  endif()
  list(GET tags_in ${i} a)
  list(GET tags_out ${i} b)
  # The page says it is in the translation's language now (the model's target).
  if(a STREQUAL "<html lang=\"en\">")
    set(a "<html lang=\"de\">")
  endif()
  if(NOT a STREQUAL b)
    fail("tag ${i} changed: '${a}' -> '${b}'\n${out}")
  endif()
endforeach()
# Raw elements, elements marked not to be translated, the comment and an attribute
# holding '>' come back as written.
foreach(pattern "<style>[^<]*</style>" "<script>[^<]*</script>" "<pre><code>[^<]*</code></pre>"
        "<code>backup --list</code>" "<p translate=\"no\">[^<]*</p>" "<span class=\"notranslate\">[^<]*</span>"
        "<!--[^>]*-->" "<p class=\"note\" data-hint=\"a > b\">"
        "<a href=\"download.html\\?os=linux&amp;arch=arm64\">")
  string(REGEX MATCH "${pattern}" block "${in}")
  if(block STREQUAL "")
    fail("the test page lacks ${pattern}")
  endif()
  string(FIND "${out}" "${block}" at)
  if(at EQUAL -1)
    fail("not kept byte for byte: ${block}\n${out}")
  endif()
endforeach()
# The prose is translated, and escaped again.
foreach(source "Backing up your files" "The program copies your documents" "Restoring a file"
        "Select the file you want to restore" "If the disk is full" "to see all copies" "Copies go to")
  string(FIND "${out}" "${source}" at)
  if(NOT at EQUAL -1)
    fail("not translated: '${source}'\n${out}")
  endif()
endforeach()
string(REGEX REPLACE "<(style|script)>[^<]*</(style|script)>" "" text_out "${out}")
string(REGEX REPLACE "<[^>]*>" "" text_out "${text_out}")
if(text_out MATCHES "&[^a-z#]")
  fail("a bare '&' in the translated text:\n${out}")
endif()
# A URL in the text (a protected span) holds an entity: decoded for translation, kept,
# and escaped again.
string(FIND "${out}" "https://example.org/help?page=2&amp;lang=en" at)
if(at EQUAL -1)
  fail("the URL in the text did not come back escaped:\n${out}")
endif()

# --- .srt subtitles
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}"
                INPUT_FILE "${DOCUMENTS}/subtitles.srt" OUTPUT_VARIABLE srt ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  fail("translate on an .srt failed (${rc}): ${err}")
endif()
string(REGEX MATCHALL "[^\n]*\n" srt_out "${srt}")
list(LENGTH srt_out n_out)
file(READ "${DOCUMENTS}/subtitles.srt" srt_raw)
string(REGEX MATCHALL "[^\n]*\n" srt_in "${srt_raw}")
list(LENGTH srt_in n_in)
if(NOT n_in EQUAL n_out)
  fail("${n_in} subtitle lines in, ${n_out} out:\n${srt}")
endif()
math(EXPR last "${n_in} - 1")
set(translated 0)
foreach(i RANGE 0 ${last})
  list(GET srt_in ${i} a)
  list(GET srt_out ${i} b)
  if(a MATCHES "^[0-9]+\n$" OR a MATCHES "^[0-9:,]+ --> [0-9:,]+\n$" OR a STREQUAL "\n")
    if(NOT a STREQUAL b)
      fail("line ${i} changed: '${a}' -> '${b}'")
    endif()
  elseif(a STREQUAL b)
    fail("subtitle line ${i} not translated: ${a}")
  else()
    math(EXPR translated "${translated} + 1")
  endif()
endforeach()
if(translated LESS 4)
  fail("only ${translated} subtitle lines translated:\n${srt}")
endif()

# --- gettext catalog
file(READ "${DOCUMENTS}/messages.po" po_in)
# Outputs go to the build tree (the test's working directory), never beside the model.
set(dir "${CMAKE_CURRENT_BINARY_DIR}/documents_work")
file(MAKE_DIRECTORY "${dir}")
set(po_out_file "${dir}/messages.translated.po")
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format po
                INPUT_FILE "${DOCUMENTS}/messages.po" OUTPUT_FILE "${po_out_file}" ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  fail("translate --format po failed (${rc}): ${err}")
endif()
if(err MATCHES "looks like")
  fail("translate --format po judged the catalog's language wrongly: ${err}")
endif()
# A catalog of a few short English messages: its language is judged by its messages, not
# by its msgid/msgstr keywords (which CLD2 once called Javanese).
file(WRITE "${dir}/short.po" "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n"
     "#: main.c:10\nmsgid \"Could not open file %s.\"\nmsgstr \"\"\n\n"
     "msgid \"One file\"\nmsgid_plural \"%d files\"\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n")
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format po
                INPUT_FILE "${dir}/short.po" OUTPUT_VARIABLE short_po ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR err MATCHES "looks like")
  fail("translate --format po on short.po (${rc}): ${err}")
endif()
file(READ "${po_out_file}" po)
# No message is left empty (the header's msgstr and the multi-line one go on with a string).
string(REGEX MATCHALL "\nmsgstr(\\[[0-9]+\\])? \"\"\n[^\"]" empty "${po}")
list(LENGTH empty n_empty)
if(NOT n_empty EQUAL 0)
  fail("${n_empty} messages left untranslated:\n${po}")
endif()
# 6 messages filled and flagged, the one fuzzy before kept as it was.
string(REGEX MATCHALL "fuzzy" fuzzy "${po}")
list(LENGTH fuzzy n_fuzzy)
if(NOT n_fuzzy EQUAL 7)
  fail("${n_fuzzy} fuzzy flags, want 7:\n${po}")
endif()
foreach(kept "msgid \"Save\"\nmsgstr \"Speichern\"\n" "#, fuzzy\nmsgid \"Close the window\"\nmsgstr \"Fenster schliessen\"\n"
             "#~ msgid \"Old message\"\n#~ msgstr \"Alte Nachricht\"\n" "msgctxt \"menu\"\nmsgid \"Open\"\n"
             "\"Language: de\\n\"\n\"MIME-Version: 1.0\\n\"\n")
  string(FIND "${po}" "${kept}" at)
  if(at EQUAL -1)
    fail("'${kept}' is not in the translated catalog:\n${po}")
  endif()
endforeach()
find_program(MSGFMT msgfmt)
if(MSGFMT)
  execute_process(COMMAND "${MSGFMT}" --check -o /dev/null "${po_out_file}" ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    fail("msgfmt --check refuses the translated catalog: ${err}\n${po}")
  endif()
  # A catalog whose header asks for three forms (Russian's) of a template's two entries.
  file(WRITE "${dir}/three.po"
       "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n"
       "\"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
       "(n%100<10 || n%100>=20) ? 1 : 2);\\n\"\n\n"
       "#, c-format\nmsgid \"%d file was deleted.\"\nmsgid_plural \"%d files were deleted.\"\n"
       "msgstr[0] \"\"\nmsgstr[1] \"\"\n")
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format po INPUT_FILE "${dir}/three.po"
                  OUTPUT_FILE "${dir}/three.out.po" ERROR_VARIABLE err RESULT_VARIABLE rc)
  file(READ "${dir}/three.out.po" three)
  if(NOT rc EQUAL 0 OR NOT three MATCHES "msgstr\\[2\\] \"[^\"]")
    fail("the three-form catalog did not get msgstr[2] (${rc}, ${err}):\n${three}")
  endif()
  execute_process(COMMAND "${MSGFMT}" --check -o /dev/null "${dir}/three.out.po" ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    fail("msgfmt --check refuses the three-form catalog: ${err}\n${three}")
  endif()
else()
  message(STATUS "msgfmt not found: the catalog's format is not checked by gettext")
endif()
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format po
                INPUT_FILE "${po_out_file}" OUTPUT_VARIABLE po2 ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT po2 STREQUAL po)
  fail("a second pass over the translated catalog changed it (${rc}, ${err}):\n${po2}")
endif()
file(WRITE "${dir}/bad.po" "msgid \"a\"\nmsgstr \"\"\n\nmsgid \"unterminated\nmsgstr \"\"\n")
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format po INPUT_FILE "${dir}/bad.po"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT err MATCHES "po line 4")
  fail("a malformed catalog: exit ${rc}, error [${err}]")
endif()

# --- Markdown
file(READ "${DOCUMENTS}/readme.md" md_in)
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format markdown
                INPUT_FILE "${DOCUMENTS}/readme.md" OUTPUT_VARIABLE md ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  fail("translate --format markdown failed (${rc}): ${err}")
endif()
foreach(kept "```sh\ntranslate \"Hello world.\"\n```\n" "\n    indented code stays\n" "(docs/install.md)"
             "`sudo apt install ./edgemt.deb`" "\n|--------|---------|\n" "| `--beam N` |" "\n![logo](img/logo.png)\n"
             "<kbd>" "</kbd>" "<https://example.org>" "\n---\n" "\n==============\n"
             "\n[docs]: https://example.org/docs\n")
  string(FIND "${md}" "${kept}" at)
  if(at EQUAL -1)
    fail("'${kept}' is not in the translated README:\n${md}")
  endif()
endforeach()
# Markers and pipes, line by line in order.
string(REGEX MATCHALL "\n(#+ |[0-9]+\\. |- > |- |\\| )" marks_in "\n${md_in}")
string(REGEX MATCHALL "\n(#+ |[0-9]+\\. |- > |- |\\| )" marks_out "\n${md}")
if(NOT marks_in STREQUAL marks_out)
  fail("block markers changed: [${marks_in}] -> [${marks_out}]\n${md}")
endif()
string(REGEX MATCHALL "[^\n]*\\|[^\n]*\n" rows_in "${md_in}")
string(REGEX MATCHALL "[^\n]*\\|[^\n]*\n" rows_out "${md}")
list(LENGTH rows_in n_rows)
list(LENGTH rows_out n_rows_out)
if(NOT n_rows EQUAL 4 OR NOT n_rows_out EQUAL 4)
  fail("table rows: ${n_rows} in, ${n_rows_out} out:\n${md}")
endif()
foreach(r RANGE 3)
  list(GET rows_in ${r} a)
  list(GET rows_out ${r} b)
  string(REGEX REPLACE "[^|]" "" pa "${a}")
  string(REGEX REPLACE "[^|]" "" pb "${b}")
  if(NOT pa STREQUAL pb)
    fail("table row ${r} has other pipes: '${a}' -> '${b}'")
  endif()
endforeach()
foreach(prose "This tool translates text offline." "Download the package." "Save the document before closing")
  string(FIND "${md}" "${prose}" at)
  if(NOT at EQUAL -1)
    fail("'${prose}' was not translated:\n${md}")
  endif()
endforeach()

# Bad uses are refused before anything is translated.
foreach(args "--format;rst" "--format;html;--ids" "--format;html;--output;jsonl" "--format;po;--ids" "--format;markdown;--output;jsonl" "--format")
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" ${args} "x"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 2 OR NOT out STREQUAL "" OR NOT err MATCHES "format")
    message(FATAL_ERROR "translate ${args}: exit ${rc}, output [${out}], error [${err}]")
  endif()
endforeach()

# --- --format srt and vtt: cues translated whole
# translate_one(OUT TEXT): the plain-text translation of one sentence.
function(translate_one var text)
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" "${text}"
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE r OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT r EQUAL 0)
    fail("translate '${text}' failed (${r}): ${e}")
  endif()
  set(${var} "${o}" PARENT_SCOPE)
endfunction()
foreach(kind srt vtt)
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format ${kind}
                  INPUT_FILE "${DOCUMENTS}/subtitles_cues.${kind}" OUTPUT_VARIABLE out_${kind} ERROR_VARIABLE err
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    fail("translate --format ${kind} failed (${rc}): ${err}")
  endif()
  message(STATUS "--format ${kind}:\n${out_${kind}}")
endforeach()
# Cues: the lines after each timing line up to a blank line (or the end).
# cues(OUT TEXT): "text line|text line;..." per cue, and the other lines in order.
function(cues var rest_var text)
  string(REPLACE ";" "\\;" text "${text}")
  string(REGEX MATCHALL "[^\n]*\n" lines "${text}")
  set(all "")
  set(rest "")
  set(cur "")
  set(in_cue FALSE)
  foreach(l IN LISTS lines)
    string(REGEX REPLACE "\n$" "" l "${l}")
    if(in_cue AND NOT l STREQUAL "")
      if(cur STREQUAL "")
        set(cur "${l}")
      else()
        set(cur "${cur}|${l}")
      endif()
      continue()
    endif()
    if(in_cue)
      list(APPEND all "${cur}")
      set(cur "")
      set(in_cue FALSE)
    endif()
    list(APPEND rest "${l}")
    if(l MATCHES " --> ")
      set(in_cue TRUE)
    endif()
  endforeach()
  if(in_cue)
    list(APPEND all "${cur}")
  endif()
  set(${var} "${all}" PARENT_SCOPE)
  set(${rest_var} "${rest}" PARENT_SCOPE)
endfunction()
file(READ "${DOCUMENTS}/subtitles_cues.srt" srt_in)
cues(cues_in rest_in "${srt_in}")
cues(cues_out rest_out "${out_srt}")
if(NOT rest_in STREQUAL rest_out)
  fail("--format srt changed numbers, times or blank lines:\n${out_srt}")
endif()
list(LENGTH cues_out n)
if(NOT n EQUAL 4)
  fail("--format srt: 4 cues in, ${n} out:\n${out_srt}")
endif()
# Cue 1: two lines of one sentence, translated together, broken into two lines.
list(GET cues_out 0 c1)
string(REPLACE "|" ";" c1_lines "${c1}")
list(LENGTH c1_lines n1)
string(REPLACE "|" " " c1_joined "${c1}")
translate_one(want1 "Please save the document before you close the window.")
if(NOT n1 EQUAL 2 OR NOT c1_joined STREQUAL want1)
  fail("--format srt cue 1 is not the sentence's translation in two lines: '${c1}' (want '${want1}')")
endif()
# Cue 2: dialogue, line by line, dashes kept.
list(GET cues_out 1 c2)
translate_one(want2a "Where is the file?")
translate_one(want2b "The file could not be opened.")
if(NOT c2 STREQUAL "- ${want2a}|- ${want2b}")
  fail("--format srt dialogue cue: '${c2}' (want '- ${want2a}|- ${want2b}')")
endif()
# Cue 3: the italics around the translation.
list(GET cues_out 2 c3)
if(NOT c3 STREQUAL "<i>${want2b}</i>")
  fail("--format srt cue 3: '${c3}' (want '<i>${want2b}</i>')")
endif()
# Cue 4: '&' as SubRip writes it, not escaped.
list(GET cues_out 3 c4)
if(NOT c4 MATCHES "^Tom & Jerry" OR c4 MATCHES "&amp;")
  fail("--format srt cue 4 lost its '&': '${c4}'")
endif()
# WebVTT: header, note, style and the cue's identifier and settings kept; the cue as in
# the SubRip file.
file(READ "${DOCUMENTS}/subtitles_cues.vtt" vtt_in)
cues(vcues_in vrest_in "${vtt_in}")
cues(vcues_out vrest_out "${out_vtt}")
if(NOT vrest_in STREQUAL vrest_out OR NOT vcues_out STREQUAL c1)
  fail("--format vtt: '${vrest_out}' / '${vcues_out}' (want '${vrest_in}' / '${c1}'):\n${out_vtt}")
endif()

# --- --format wrapped: a hard-wrapped letter
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format wrapped
                INPUT_FILE "${DOCUMENTS}/letter.txt" OUTPUT_VARIABLE letter ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  fail("translate --format wrapped failed (${rc}): ${err}")
endif()
message(STATUS "--format wrapped:\n${letter}")
# Paragraphs: runs of lines between blank lines.
string(REPLACE ";" "\\;" letter_esc "${letter}")
string(REPLACE "\n\n" ";" paragraphs "${letter_esc}")
list(LENGTH paragraphs n)
if(NOT n EQUAL 4)
  fail("--format wrapped: 4 paragraphs in, ${n} out:\n${letter}")
endif()
list(GET paragraphs 0 p0)
list(GET paragraphs 1 p1)
list(GET paragraphs 2 p2)
list(GET paragraphs 3 p3)
translate_one(w0 "Dear customer,")
string(REPLACE "\n" " " p1_joined "${p1}")
translate_one(w1 "thank you for your order. The package will be shipped tomorrow morning and should arrive within three working days.")
string(REPLACE "\n" " " p2_joined "${p2}")
translate_one(w2 "If you have any questions, please contact our support team. We are happy to help.")
translate_one(w3a "Best regards,")
translate_one(w3b "The shop team")
if(NOT p0 STREQUAL w0 OR NOT p1_joined STREQUAL w1 OR NOT p2_joined STREQUAL w2 OR NOT p3 STREQUAL "${w3a}\n${w3b}\n")
  fail("--format wrapped: got\n${letter}\nwant the paragraphs '${w0}', '${w1}', '${w2}' and the lines '${w3a}', '${w3b}'")
endif()
if(NOT p1 MATCHES "\n")
  fail("--format wrapped: the paragraph was not wrapped again: '${p1}'")
endif()

# --format srt on text that is no subtitle file: given back as it was, with a warning.
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format srt "Hello world."
                OUTPUT_VARIABLE not_srt ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT not_srt STREQUAL "Hello world.\n" OR NOT err MATCHES "no subtitle cue")
  fail("--format srt on plain text (${rc}): '${not_srt}' / '${err}'")
endif()
