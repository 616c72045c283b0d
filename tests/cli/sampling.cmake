# translate --sampling-topk: the same seed gives the same translations (also one by one,
# --batch 1), three seeds do not all agree, jsonl works with it, and bad uses are refused
# with exit code 2 (with --beam or --n-best, --seed or --sampling-temperature alone, out
# of range values).
#   cmake -DTRANSLATE=... -DMODEL=... [-DEMULATOR=...] -P sampling.cmake
set(input "She wisely avoided mentioning that incident.\nThe file could not be opened.\nPlease enter your password again!\nThe disk is full.\n")
get_filename_component(dir "${MODEL}" DIRECTORY)
file(WRITE "${dir}/sampling_input.txt" "${input}")
function(sample out_var)
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --sampling-topk 50
                          --sampling-temperature 1.5 ${ARGN}
                  INPUT_FILE "${dir}/sampling_input.txt" OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "translate --sampling-topk ${ARGN} failed (${rc}): ${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()
sample(a --seed 7)
sample(b --seed 7 --batch 1)
if(NOT a STREQUAL b)
  message(FATAL_ERROR "seed 7 gave different samples in a batch and one by one:\n${a}\n---\n${b}")
endif()
sample(c --seed 8)
sample(d --seed 9)
if(a STREQUAL c AND a STREQUAL d)
  message(FATAL_ERROR "seeds 7, 8 and 9 gave the same samples:\n${a}")
endif()
string(REGEX MATCHALL "[^\n]*\n" lines "${a}")
list(LENGTH lines n)
if(NOT n EQUAL 4)
  message(FATAL_ERROR "4 lines in, ${n} out:\n${a}")
endif()
sample(j --seed 7 --output jsonl)
string(REGEX MATCHALL "[^\n]*\n" jl "${j}")
foreach(i RANGE 3)
  list(GET jl ${i} line)
  list(GET lines ${i} text)
  string(STRIP "${text}" text)
  string(JSON translation GET "${line}" translation)
  string(JSON confidence GET "${line}" confidence)
  if(NOT translation STREQUAL text OR NOT confidence GREATER 0)
    message(FATAL_ERROR "line ${i}: jsonl ${line}, text '${text}'")
  endif()
endforeach()
foreach(args "--sampling-topk;5;--beam;4" "--sampling-topk;5;--output;jsonl;--n-best;2" "--seed;3"
             "--sampling-temperature;0.5" "--sampling-topk;0" "--sampling-topk;2000" "--sampling-topk;5;--seed;-1"
             "--sampling-topk;5;--sampling-temperature;0" "--sampling-topk;5;--seed")
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" ${args} "Hello."
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 2 OR err STREQUAL "")
    message(FATAL_ERROR "translate ${args}: exit ${rc} (want 2), error [${err}]")
  endif()
endforeach()
message(STATUS "translate --sampling-topk: seeded, varied, jsonl, bad uses refused")
