# Pivot translation: two models in turn.
# - `--model A --model B` answers as B on A's output: text lines (a paragraph, a blank
#   line) and a --format html document with inline tags.
# - --from/--to chain the bundled models where none translates the pair: a copy of
#   translate beside a models/ folder holding edgemt-en-de.emt (the bundled en-de) and
#   edgemt-de-xx.emt (a Marian test model that names no languages) translates en -> xx as
#   the explicit chain does; en -> de still takes the one model.
# - A gettext catalog and an XLIFF file are filled in once, with their texts through both
#   models.
# - Clear errors: a round trip, models that do not chain, a third --model, jsonl through a
#   pivot.
#   cmake -DTRANSLATE=... -DMODEL=en-de.emt -DDE_EN=de-en.emt -DSECOND=de-xx.emt -DWORK=dir
#         [-DEMULATOR=...] -P pivot.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/bin/models")
set(input "${WORK}/input.txt")
file(WRITE "${input}" "The file could not be opened. Please try again later.\n\nSave the document before closing the window.\n")
set(page "${WORK}/page.html")
file(WRITE "${page}" "<p>Save the <b>document</b> before closing the <a href=\"w\">window</a>.</p>\n")

# run(OUT RC INPUT args...): translate's stdout (and its stderr in OUT_err).
function(run out_var input)
  execute_process(COMMAND ${EMULATOR} ${ARGN} INPUT_FILE "${input}"
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ARGN} < ${input} failed (${rc}):\n${o}${e}")
  endif()
  set(${out_var} "${o}" PARENT_SCOPE)
  set(${out_var}_err "${e}" PARENT_SCOPE)
endfunction()

# Explicit chain = the second model on the first's output.
foreach(fmt text html)
  set(in "${input}")
  if(fmt MATCHES "^html$")
    set(in "${page}")
  endif()
  run(mid "${in}" "${TRANSLATE}" --model "${MODEL}" --format ${fmt})
  file(WRITE "${WORK}/mid.${fmt}" "${mid}")
  run(want "${WORK}/mid.${fmt}" "${TRANSLATE}" --model "${DE_EN}" --format ${fmt})
  run(got "${in}" "${TRANSLATE}" --model "${MODEL}" --model "${DE_EN}" --format ${fmt} --stats)
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "--format ${fmt}: the chain gave\n${got}\nnot the second model on the first's output:\n${want}")
  endif()
  if(got STREQUAL mid OR got STREQUAL "")
    message(FATAL_ERROR "--format ${fmt}: the chain gave the first model's output:\n${got}")
  endif()
  string(REGEX MATCHALL "model file:" files "${got_err}")
  list(LENGTH files n_files)
  if(NOT n_files EQUAL 2)
    message(FATAL_ERROR "--stats should name both models:\n${got_err}")
  endif()
  message(STATUS "en -> de -> en (${fmt}): ${got}")
endforeach()
string(REGEX MATCHALL "[^\n]*\n" lines "${got}")
run(got "${input}" "${TRANSLATE}" --model "${MODEL}" --model "${DE_EN}")
string(REGEX MATCHALL "[^\n]*\n" lines "${got}")
list(LENGTH lines n)
list(GET lines 1 blank)
if(NOT n EQUAL 3 OR NOT blank STREQUAL "\n")
  message(FATAL_ERROR "3 lines in (the second blank), got:\n${got}")
endif()

# A gettext catalog and an XLIFF file: their texts through both models, filled in once (a
# first translation that filled them in would leave nothing for the second model).
set(sentence "Save the document before closing the window.")
file(WRITE "${WORK}/s.txt" "${sentence}\n")
run(chain_text "${WORK}/s.txt" "${TRANSLATE}" --model "${MODEL}" --model "${DE_EN}")
run(chain_html "${WORK}/s.txt" "${TRANSLATE}" --model "${MODEL}" --model "${DE_EN}" --format html)
run(first_text "${WORK}/s.txt" "${TRANSLATE}" --model "${MODEL}")
string(STRIP "${chain_text}" chain_text)
string(STRIP "${chain_html}" chain_html)
string(STRIP "${first_text}" first_text)
file(WRITE "${WORK}/a.po" "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\nmsgid \"${sentence}\"\nmsgstr \"\"\n")
run(got "${WORK}/a.po" "${TRANSLATE}" --model "${MODEL}" --model "${DE_EN}" --format po)
string(FIND "${got}" "msgstr \"${chain_text}\"" at)
if(at EQUAL -1 OR chain_text STREQUAL first_text)
  message(FATAL_ERROR "--format po through the chain: expected msgstr \"${chain_text}\" (not the first model's \"${first_text}\"), got\n${got}")
endif()
file(WRITE "${WORK}/a.xlf" "<xliff version=\"1.2\"><file source-language=\"en\"><body><trans-unit id=\"t\"><source>${sentence}</source></trans-unit></body></file></xliff>\n")
run(got "${WORK}/a.xlf" "${TRANSLATE}" --model "${MODEL}" --model "${DE_EN}" --format xliff)
string(FIND "${got}" "target-language=\"en\"" lang_at)
string(FIND "${got}" "mt-suggestion\">${chain_html}</target>" at)
if(at EQUAL -1 OR lang_at EQUAL -1)
  message(FATAL_ERROR "--format xliff through the chain: expected an English target \"${chain_html}\", got\n${got}")
endif()
# An Xcode String Catalog: the last target's localization, from the key through both.
file(WRITE "${WORK}/a.xcstrings" "{\n  \"sourceLanguage\" : \"x\",\n  \"strings\" : {\n    \"${sentence}\" : {\n\n    }\n  }\n}\n")
run(got "${WORK}/a.xcstrings" "${TRANSLATE}" --model "${MODEL}" --model "${DE_EN}" --format xcstrings)
string(FIND "${got}" "\"en\" : {\n          \"stringUnit\" : {\n            \"state\" : \"needs_review\",\n            \"value\" : \"${chain_text}\"" at)
string(FIND "${got}" "\"de\" :" de_at)
if(at EQUAL -1 OR NOT de_at EQUAL -1)
  message(FATAL_ERROR "--format xcstrings through the chain: expected one English localization \"${chain_text}\", got\n${got}")
endif()
# YAML: translated step by step, its language key renamed each time.
file(WRITE "${WORK}/en.yml" "en:\n  a: \"${sentence}\"\n")
run(got "${WORK}/en.yml" "${TRANSLATE}" --model "${MODEL}" --model "${DE_EN}" --format yaml)
string(FIND "${got}" "en:\n  a: " lang_at)
string(FIND "${got}" "${chain_text}" at)
if(at EQUAL -1 OR NOT lang_at EQUAL 0)
  message(FATAL_ERROR "--format yaml through the chain: expected \"${chain_text}\" under en:, got\n${got}")
endif()
message(STATUS "po, xliff, xcstrings and yaml through en -> de -> en: ${chain_text}")

# Bundled models chained by --from/--to.
file(COPY "${TRANSLATE}" DESTINATION "${WORK}/bin")
get_filename_component(exe_name "${TRANSLATE}" NAME)
set(local "${WORK}/bin/${exe_name}")
file(CREATE_LINK "${MODEL}" "${WORK}/bin/models/edgemt-en-de.emt" COPY_ON_ERROR SYMBOLIC)
file(CREATE_LINK "${SECOND}" "${WORK}/bin/models/edgemt-de-xx.emt" COPY_ON_ERROR SYMBOLIC)
run(want "${input}" "${TRANSLATE}" --model "${MODEL}" --model "${SECOND}")
run(got "${input}" "${local}" --from en --to xx --stats)
if(NOT got STREQUAL want OR NOT got_err MATCHES "edgemt-de-xx.emt")
  message(FATAL_ERROR "--from en --to xx gave\n${got}${got_err}\nnot the chain en-de, de-xx:\n${want}")
endif()
run(direct "${input}" "${TRANSLATE}" --model "${MODEL}")
run(got "${input}" "${local}" --from en --to de)
if(NOT got STREQUAL direct)
  message(FATAL_ERROR "--from en --to de should take edgemt-en-de.emt alone:\n${got}\n${direct}")
endif()
message(STATUS "en -> de -> xx: ${want}")

# Errors.
foreach(case "--from;en;--to;en" "--from;xx;--to;en" "--from;en;--to;xx;--output;jsonl" "--from;en;--to;xx;--score"
             "--model;${MODEL};--model;${MODEL}" "--model;${MODEL};--model;${DE_EN};--model;${MODEL}"
             "--model;${MODEL};--model;${DE_EN};--ids")
  execute_process(COMMAND ${EMULATOR} "${local}" ${case} INPUT_FILE "${input}"
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  if(rc EQUAL 0 OR NOT e MATCHES "^translate: " OR NOT o STREQUAL "")
    message(FATAL_ERROR "translate ${case}: expected a clear error, got ${rc}:\n${o}${e}")
  endif()
  message(STATUS "${case}: ${e}")
endforeach()
