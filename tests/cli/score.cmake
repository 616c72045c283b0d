# translate --score on the bundled model: "source<TAB>target" lines in, one
# log-probability out per line (empty lines kept; a line without a tab gets an empty line,
# a message and a non-zero exit, the others are still scored); the model's own translation
# scores far above an unrelated sentence; --output jsonl gives the same sum with the
# target's tokens and their log-probabilities; --score with --ids is refused.
#   cmake -DTRANSLATE=... -DMODEL=... [-DEMULATOR=...] -P score.cmake
set(src "The file could not be opened.")
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --beam 1 "${src}"
                OUTPUT_VARIABLE own OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR own STREQUAL "")
  message(FATAL_ERROR "translate failed (${rc}): ${own}")
endif()
set(input "${CMAKE_CURRENT_BINARY_DIR}/score_input.txt")
file(WRITE "${input}" "${src}\t${own}\n${src}\tDas Wetter ist heute sehr schön.\n\nno tab here\n${src}\t\n")
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --score INPUT_FILE "${input}"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
string(REGEX MATCHALL "[^\n]*\n" lines "${out}")
list(LENGTH lines n)
if(rc EQUAL 0 OR NOT n EQUAL 5 OR NOT err MATCHES "no tab")
  message(FATAL_ERROR "5 lines in (one without a tab): expected 5 lines out, a message and a failure; got ${rc}:\n${out}${err}")
endif()
list(GET lines 0 own_score)
list(GET lines 1 other_score)
list(GET lines 2 blank)
list(GET lines 3 no_tab)
list(GET lines 4 empty_target)
string(STRIP "${own_score}" own_score)
string(STRIP "${other_score}" other_score)
string(STRIP "${empty_target}" empty_target)
foreach(v own_score other_score empty_target)
  if(NOT "${${v}}" MATCHES "^-[0-9.]+(e[-+][0-9]+)?$")
    message(FATAL_ERROR "${v}: not a negative log-probability: '${${v}}'\n${out}")
  endif()
endforeach()
if(NOT blank STREQUAL "\n" OR NOT no_tab STREQUAL "\n")
  message(FATAL_ERROR "a blank line and a line without a tab should give empty lines:\n${out}")
endif()
# The model's own translation is far likelier than an unrelated sentence.
string(REGEX REPLACE "^-" "" own_abs "${own_score}")
string(REGEX REPLACE "^-" "" other_abs "${other_score}")
if(NOT own_abs LESS other_abs OR other_abs LESS 10)
  message(FATAL_ERROR "own translation ${own_score} should score well above an unrelated one ${other_score}")
endif()

file(WRITE "${input}" "${src}\t${own}\n")
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --score --output jsonl INPUT_FILE "${input}"
                OUTPUT_VARIABLE json RESULT_VARIABLE rc)
# The number as translate printed it (string(JSON GET) would reformat it: -0.945008 comes
# back as -0.94500799999999996).
string(REGEX MATCH "\"log_prob\": *([-+0-9.eE]+)" lp_match "${json}")
set(lp "${CMAKE_MATCH_1}")
string(JSON ntok LENGTH "${json}" tokens)
string(JSON nlp LENGTH "${json}" log_probs)
math(EXPR last "${ntok} - 1")
string(JSON end GET "${json}" tokens ${last})
if(NOT rc EQUAL 0 OR NOT ntok EQUAL nlp OR NOT end STREQUAL "</s>" OR ntok LESS 3)
  message(FATAL_ERROR "--score --output jsonl: ${json}")
endif()
if(NOT lp STREQUAL own_score)
  message(FATAL_ERROR "jsonl log_prob ${lp} is not the text output's ${own_score}")
endif()
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --score --ids INPUT_FILE "${input}"
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT e MATCHES "--score")
  message(FATAL_ERROR "--score --ids should be refused: ${rc} ${o}${e}")
endif()
message(STATUS "own ${own}: ${own_score}; unrelated: ${other_score}; ${json}")
