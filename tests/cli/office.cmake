# Office documents and e-books through translate (--format docx, pptx, xlsx, odt, odp, ods,
# epub) on the bundled model, files made by python-docx, python-pptx, openpyxl, odfpy and
# EbookLib (tools/text/make_office_samples.py):
#   the output is a ZIP archive that CMake's own reader (libarchive) extracts, with the
#   same entries; every entry but the text parts (and the styles that name the text's
#   language) is byte for byte the same; the text parts no longer hold the English
#   sentences; Word's styles say the text is German (de-DE); Word's bold run, page-number field and
#   hyperlink, OpenDocument's bold span and link, Excel's bold run, formula and number,
#   the number in an OpenDocument spreadsheet, and the EPUB chapter's <b> are there;
#   a file that is not such a document, and TEXT arguments, are clear errors.
#   cmake -DTRANSLATE=... -DMODEL=... -DDOCUMENTS=tests/data/documents [-DEMULATOR=...] -P office.cmake
function(fail what)
  message(FATAL_ERROR "${what}")
endfunction()

set(work "${CMAKE_CURRENT_BINARY_DIR}/office_work")
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}")

# extension!main part!the parts with text or the language's defaults (a regex)
set(cases
    "docx!word/document.xml!^word/(document|header[0-9]*|footer[0-9]*|styles|comments)\\.xml$"
    "pptx!ppt/slides/slide1.xml!^ppt/(slides/slide[0-9]+|notesSlides/notesSlide[0-9]+|presentation|slideMasters/slideMaster[0-9]+|charts/chart[0-9]+)\\.xml$"
    "xlsx!xl/worksheets/sheet1.xml!^xl/(sharedStrings|worksheets/sheet[0-9]+|charts/chart[0-9]+)\\.xml$"
    "odt!content.xml!^(content|styles)\\.xml$"
    "ods!content.xml!^(content|styles)\\.xml$"
    "odp!content.xml!^(content|styles)\\.xml$"
    "epub!EPUB/chap_01.xhtml!\\.(xhtml|ncx|opf)$")
foreach(c ${cases})
  string(REPLACE "!" ";" c "${c}")
  list(GET c 0 ext)
  list(GET c 1 main)
  list(GET c 2 text_parts)
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format ${ext}
                  INPUT_FILE "${DOCUMENTS}/sample.${ext}" OUTPUT_FILE "${work}/out.${ext}"
                  ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    fail("translate --format ${ext} failed (${rc}): ${err}")
  endif()
  foreach(side src dst)
    file(MAKE_DIRECTORY "${work}/${side}_${ext}")
    if(side STREQUAL "src")
      set(archive "${DOCUMENTS}/sample.${ext}")
    else()
      set(archive "${work}/out.${ext}")
    endif()
    execute_process(COMMAND ${CMAKE_COMMAND} -E tar xf "${archive}" WORKING_DIRECTORY "${work}/${side}_${ext}"
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      fail("${ext}: the ${side} file does not extract: ${err}")
    endif()
    file(GLOB_RECURSE files_${side} RELATIVE "${work}/${side}_${ext}" "${work}/${side}_${ext}/*")
    list(SORT files_${side})
  endforeach()
  if(NOT files_src STREQUAL files_dst)
    fail("${ext}: the entries changed:\n${files_src}\n->\n${files_dst}")
  endif()
  set(translated 0)
  foreach(f ${files_src})
    file(SHA256 "${work}/src_${ext}/${f}" a)
    file(SHA256 "${work}/dst_${ext}/${f}" b)
    if(f MATCHES "${text_parts}")
      if(NOT a STREQUAL b)
        math(EXPR translated "${translated} + 1")
      endif()
    elseif(NOT a STREQUAL b)
      fail("${ext}: ${f} changed, and it holds no text to translate")
    endif()
  endforeach()
  if(translated EQUAL 0)
    fail("${ext}: no text part changed")
  endif()
  file(READ "${work}/src_${ext}/${main}" in)
  file(READ "${work}/dst_${ext}/${main}" out)
  foreach(english "Please restart your computer" "The program starts faster than before." "Welcome to the new version")
    string(FIND "${in}" "${english}" was)
    string(FIND "${out}" "${english}" is)
    if(NOT was EQUAL -1 AND NOT is EQUAL -1)
      fail("${ext}: '${english}' is still in ${main}:\n${out}")
    endif()
  endforeach()
  set(patterns)
  if(ext STREQUAL "docx")
    set(patterns "<w:rPr><w:b/></w:rPr><w:t xml:space=\"preserve\">[^<]+</w:t>" "<w:instrText> PAGE </w:instrText>"
                 "<w:hyperlink r:id=\"[^\"]+\"><w:r><w:t xml:space=\"preserve\">[^<]+</w:t></w:r></w:hyperlink>"
                 "<w:tab/>" "<w:br/>")
  elseif(ext STREQUAL "odt")
    set(patterns "<text:span text:style-name=\"Bold\">[^<]+</text:span>"
                 "<text:a xlink:href=\"https://example.org/manual\" xlink:type=\"simple\">[^<]+</text:a>"
                 "<text:line-break/>")
  elseif(ext STREQUAL "xlsx")
    set(patterns "<r><rPr><b val=\"1\"/></rPr><t xml:space=\"preserve\">[^<]+</t></r>" "<f>B2\\*2</f>" "<v>12.5</v>")
  elseif(ext STREQUAL "ods")
    set(patterns "office:value=\"12.5\"><text:p>12.5</text:p>")
  elseif(ext STREQUAL "pptx")
    set(patterns "<a:rPr i=\"1\"/><a:t>[^<]+</a:t>")
  elseif(ext STREQUAL "epub")
    set(patterns "<b>[^<]+</b>")
  endif()
  if(ext STREQUAL "docx")
    file(READ "${work}/dst_${ext}/word/styles.xml" styles)
    if(NOT styles MATCHES "<w:lang w:val=\"de-DE\"" OR styles MATCHES "<w:lang w:val=\"en-US\"")
      fail("docx: word/styles.xml does not say the text is German")
    endif()
  endif()
  foreach(p ${patterns})
    if(NOT out MATCHES "${p}")
      fail("${ext}: ${main} lacks ${p}:\n${out}")
    endif()
  endforeach()
endforeach()

# Errors: not an office document; a document given as a TEXT argument.
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format docx
                INPUT_FILE "${DOCUMENTS}/letter.txt" OUTPUT_FILE "${work}/bad.docx"
                ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT err MATCHES "not a \\.docx")
  fail("a text file as --format docx: rc ${rc}, '${err}'")
endif()
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format odt "Hello"
                OUTPUT_FILE "${work}/bad.odt" ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "standard input")
  fail("--format odt with a TEXT argument: rc ${rc}, '${err}'")
endif()
file(REMOVE_RECURSE "${work}")
