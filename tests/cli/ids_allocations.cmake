# translate --ids allocates nothing per line once its buffers have grown: the same
# mix of lines (different lengths, empty lines, one malformed line) is translated as
# N and as 10 N lines under an LD_PRELOAD allocation counter; the extra 9 N lines may
# cost at most one allocation per 100 lines (stdio and the error message path).
#   cmake -DTRANSLATE=... -DSHIM=... -DMODEL=... -DREFERENCE=... -DWORK=dir -P ids_allocations.cmake
include(${CMAKE_CURRENT_LIST_DIR}/ids_line.cmake)
file(READ "${REFERENCE}" ref)
string(JSON src GET "${ref}" src_ids)
string(JSON n LENGTH "${src}")
math(EXPR last "${n} - 1")
set(block "")
foreach(i RANGE ${last})
  string(JSON row GET "${src}" ${i})
  ids_line("${row}" line)
  string(APPEND block "${line}\n\n")
endforeach()
string(APPEND block "not ids\n")
file(MAKE_DIRECTORY "${WORK}")
set(small "")
foreach(i RANGE 9)
  string(APPEND small "${block}")
endforeach()
set(large "")
foreach(i RANGE 9)
  string(APPEND large "${small}")
endforeach()
file(WRITE "${WORK}/small.txt" "${small}")
file(WRITE "${WORK}/large.txt" "${large}")
string(REGEX MATCHALL "\n" small_lines "${small}")
list(LENGTH small_lines small_n)
string(REGEX MATCHALL "\n" large_lines "${large}")
list(LENGTH large_lines large_n)

foreach(which small large)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env LD_PRELOAD=${SHIM} EDGEMT_MALLOC_COUNT_FILE=${WORK}/${which}.count
            ${TRANSLATE} --model ${MODEL} --ids --beam 2 --batch 4 --threads 2
    INPUT_FILE "${WORK}/${which}.txt"
    OUTPUT_FILE "${WORK}/${which}.out"
    ERROR_VARIABLE err
    RESULT_VARIABLE rc)
  # The malformed line makes the exit code 1; anything else is a failure.
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "translate --ids (${which}) exited with ${rc}: ${err}")
  endif()
  file(STRINGS "${WORK}/${which}.out" out_lines)
  file(READ "${WORK}/${which}.out" out_text)
  string(REGEX MATCHALL "\n" out_nl "${out_text}")
  list(LENGTH out_nl out_n)
  if(NOT out_n EQUAL ${which}_n)
    message(FATAL_ERROR "${which}: ${out_n} output lines for ${${which}_n} input lines")
  endif()
  if(NOT EXISTS "${WORK}/${which}.count")
    message(FATAL_ERROR "the allocation counter (${SHIM}) wrote no count")
  endif()
  file(STRINGS "${WORK}/${which}.count" ${which}_count)
endforeach()
math(EXPR extra_lines "${large_n} - ${small_n}")
math(EXPR extra_allocs "${large_count} - ${small_count}")
message(STATUS "allocations: ${small_count} for ${small_n} lines, ${large_count} for ${large_n} lines "
               "(${extra_allocs} for ${extra_lines} more lines)")
if(small_count LESS 10)
  message(FATAL_ERROR "the counter saw only ${small_count} allocations: it is not counting")
endif()
math(EXPR allowed "${extra_lines} / 100")
if(extra_allocs GREATER allowed)
  message(FATAL_ERROR "translate --ids allocates per line: ${extra_allocs} allocations for ${extra_lines} more lines "
                      "(at most ${allowed} allowed)")
endif()
