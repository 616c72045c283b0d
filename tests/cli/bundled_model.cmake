# The bundled model (models/edgemt-en-de.emt) is what `translate` uses without --model:
# it is found from the build tree, loads and verifies, and turns each input line into
# exactly one non-empty output line; the file stays well under 25 MiB. Every bundled
# model (models/edgemt-<src>-<tgt>.emt) is what --from/--to pick, each under 25 MiB, and
# a pair none translates, or a --model that translates another pair, is a clear error.
# With CLD2, input in another language than the model's source gets one warning.
#   cmake -DTRANSLATE=... -DMODEL_FILE=... [-DEMULATOR=...] -P bundled_model.cmake
file(SIZE "${MODEL_FILE}" size)
math(EXPR limit "25 * 1024 * 1024")
if(size GREATER_EQUAL limit)
  message(FATAL_ERROR "${MODEL_FILE} is ${size} bytes, not under 25 MiB")
endif()
set(input "The file could not be opened.\n\nSave the document before closing the window.\n")
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/bundled_model_input.txt" "${input}")
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --stats
                INPUT_FILE "${CMAKE_CURRENT_BINARY_DIR}/bundled_model_input.txt"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "translate without --model failed (${rc}):\n${err}")
endif()
string(REGEX MATCHALL "[^\n]*\n" lines "${out}")
list(LENGTH lines n)
if(NOT n EQUAL 3)
  message(FATAL_ERROR "3 lines in, ${n} out:\n${out}")
endif()
list(GET lines 0 first)
list(GET lines 1 second)
list(GET lines 2 third)
if(first STREQUAL "\n" OR third STREQUAL "\n" OR NOT second STREQUAL "\n")
  message(FATAL_ERROR "expected a translation, an empty line, a translation; got:\n${out}")
endif()
if(NOT err MATCHES "model file:")
  message(FATAL_ERROR "translate --stats printed no model line:\n${err}")
endif()
message(STATUS "bundled model (${size} bytes):\n${out}${err}")

# --from/--to: each bundled pair.
get_filename_component(models_dir "${MODEL_FILE}" DIRECTORY)
file(GLOB bundled "${models_dir}/edgemt-*-*.emt")
list(LENGTH bundled n_bundled)
if(n_bundled LESS 2)
  message(FATAL_ERROR "expected English->German and German->English in ${models_dir}, found: ${bundled}")
endif()
set(samples_en "The file could not be opened.")
set(samples_de "Die Datei konnte nicht geöffnet werden.")
foreach(f IN LISTS bundled)
  get_filename_component(name "${f}" NAME)
  string(REGEX MATCH "^edgemt-([a-z]+)-([a-z]+)\\.emt$" pair "${name}")
  set(src "${CMAKE_MATCH_1}")
  set(tgt "${CMAKE_MATCH_2}")
  file(SIZE "${f}" size)
  if(size GREATER_EQUAL limit)
    message(FATAL_ERROR "${f} is ${size} bytes, not under 25 MiB")
  endif()
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --from ${src} --to ${tgt} --stats "${samples_${src}}"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR out STREQUAL "" OR out STREQUAL "\n" OR NOT err MATCHES "${name}")
    message(FATAL_ERROR "translate --from ${src} --to ${tgt} (${rc}) did not use ${name}:\n${out}${err}")
  endif()
  message(STATUS "${src}->${tgt}: ${samples_${src}} -> ${out}")
  # The other side alone names the same model when only one bundled model matches it.
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --to ${tgt} --stats "${samples_${src}}"
                  OUTPUT_VARIABLE out2 ERROR_VARIABLE err2 RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out2 STREQUAL out)
    message(FATAL_ERROR "translate --to ${tgt} (${rc}) differs from --from ${src} --to ${tgt}:\n${out2}${err2}")
  endif()
  # A model file that translates another pair is refused.
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${f}" --from ${tgt} "x"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(rc EQUAL 0 OR NOT err MATCHES "translates ${src}->${tgt}")
    message(FATAL_ERROR "--model ${name} --from ${tgt} was not refused (${rc}):\n${out}${err}")
  endif()
endforeach()
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --from xx --to yy "x"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT err MATCHES "no bundled model translates xx->yy; bundled: .*en->de")
  message(FATAL_ERROR "--from xx --to yy (${rc}) gave no clear error:\n${out}${err}")
endif()

# A line written in capitals goes to the model recased and comes back in capitals (the
# model mistranslates capitals: "DATEI NICHT FOUND" for the line as it is).
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" "FILE NOT FOUND" "File not found"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
string(REGEX MATCHALL "[^\n]+" caps_lines "${out}")
list(LENGTH caps_lines n_caps)
if(NOT rc EQUAL 0 OR NOT n_caps EQUAL 2)
  message(FATAL_ERROR "translate of capitals failed (${rc}):\n${out}${err}")
endif()
list(GET caps_lines 0 caps)
list(GET caps_lines 1 normal)
string(TOUPPER "${normal}" normal_upper)
if(NOT caps STREQUAL normal_upper OR caps MATCHES "[a-z]")
  message(FATAL_ERROR "capitals: expected [${normal_upper}] (the normal line's translation in capitals), got [${caps}]")
endif()

# With CLD2 (HAVE_CLD2): German text given to the English->German default is translated as
# asked, with one warning that names German and --from de; English text gets no warning,
# and neither does a single word or one foreign word among English lines.
if(HAVE_CLD2)
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" "Wo ist der nächste Bahnhof, bitte?" "Wie spät ist es jetzt?"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  string(REGEX MATCHALL "warning" warnings "${err}")
  list(LENGTH warnings n_warnings)
  if(NOT rc EQUAL 0 OR out STREQUAL "" OR NOT n_warnings EQUAL 1 OR NOT err MATCHES "'de'.*--from de")
    message(FATAL_ERROR "German input to en->de: expected a translation and one warning naming de (${rc}):\n${out}${err}")
  endif()
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" "Where is the nearest station, please?"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
    message(FATAL_ERROR "English input to en->de: no warning expected (${rc}):\n${out}${err}")
  endif()
  # A single technical word is no evidence (CLD2 calls "polyethylenimine" Estonian), nor is
  # one among English lines: the batch's text is judged together.
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" "polyethylenimine"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
    message(FATAL_ERROR "one word to en->de: no warning expected (${rc}):\n${out}${err}")
  endif()
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" "Automount-Masterdatei" "Save the document before closing the window."
                          "The file could not be opened." "Please restart your computer."
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
    message(FATAL_ERROR "English lines with one German word to en->de: no warning expected (${rc}):\n${out}${err}")
  endif()
  # Names are no evidence either (CLD2 calls this line German with its names).
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" "Müller and Schröder met in Düsseldorf yesterday."
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
    message(FATAL_ERROR "English with German names to en->de: no warning expected (${rc}):\n${out}${err}")
  endif()
endif()
