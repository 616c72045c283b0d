# translate --rerank on the bundled pair: it translates (the reverse model found beside the
# model), --stats names the reranker, --rerank-weight 0 gives the search's own translation,
# and a model of the same direction, --beam 1 or --ids are refused with a message.
#   cmake -DTRANSLATE=... -DMODEL=... [-DEMULATOR=...] -P rerank.cmake
set(src "I would like a cup of coffee, please.")
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --beam 4 "${src}"
                OUTPUT_VARIABLE plain OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR plain STREQUAL "")
  message(FATAL_ERROR "translate failed (${rc}): ${plain}")
endif()
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --beam 4 --rerank --stats "${src}"
                OUTPUT_VARIABLE out ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR out STREQUAL "" OR NOT err MATCHES "reranker: +[^\n]*edgemt-de-en\\.emt")
  message(FATAL_ERROR "translate --rerank failed or did not name the reverse model (${rc}):\n${out}\n${err}")
endif()
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --beam 4 --rerank-weight 0 "${src}"
                OUTPUT_VARIABLE zero OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT zero STREQUAL plain)
  message(FATAL_ERROR "--rerank-weight 0 should give the search's translation '${plain}', got (${rc}) '${zero}'")
endif()
foreach(bad "--rerank-with;${MODEL}" "--rerank;--beam;1" "--rerank;--ids" "--rerank-weight;-1")
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" ${bad} "${src}"
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  if(rc EQUAL 0 OR NOT e MATCHES "translate: ")
    message(FATAL_ERROR "translate ${bad} should fail with a message; got ${rc}: ${o}${e}")
  endif()
endforeach()
