# translate --ids allocates nothing per line after its first batches, as a user runs it:
# a mix of lines (30 different lengths, 4 to 120 ids; some repeated back to back; empty
# lines; one malformed line; then the same lines in reverse order) is translated as 10
# and as 100 copies under an LD_PRELOAD counter of the C allocator, in several
# configurations (the default batch, 1, 3 and 64; greedy and beam 2 and 4; threads 1 and
# 2). The mix's length is prime to 4 x every batch, so each line lands in every place of a
# batch. The 90 extra copies may cost at most a few allocations in all (a buffer that
# doubles once more for a batch longer than any before), not one per line or per batch.
#   cmake -DTRANSLATE=... -DSHIM=... -DMODEL=... -DREFERENCE=... -DWORK=dir -P ids_allocations.cmake
include(${CMAKE_CURRENT_LIST_DIR}/ids_line.cmake)
file(READ "${REFERENCE}" ref)
string(JSON src GET "${ref}" src_ids)
string(JSON n LENGTH "${src}")
math(EXPR last "${n} - 1")
set(forward "")
set(backward "")
foreach(i RANGE ${last})
  string(JSON row GET "${src}" ${i})
  ids_line("${row}" line)
  set(entry "${line}\n")
  math(EXPR third "${i} % 3")
  math(EXPR fifth "${i} % 5")
  if(third EQUAL 0)  # repeated back to back
    string(APPEND entry "${line}\n")
  endif()
  if(fifth EQUAL 4)
    string(APPEND entry "\n")
  endif()
  string(APPEND forward "${entry}")
  string(PREPEND backward "${entry}")
endforeach()
set(block "${forward}not ids\n${backward}")
string(REGEX MATCHALL "\n" block_lines "${block}")
list(LENGTH block_lines block_n)
# pad to a length prime to 2 and 3, and so to every 4 x batch (batch 1, 3, 8, 64)
foreach(k RANGE 5)
  math(EXPR m2 "${block_n} % 2")
  math(EXPR m3 "${block_n} % 3")
  if(NOT m2 EQUAL 0 AND NOT m3 EQUAL 0)
    break()
  endif()
  string(APPEND block "\n")
  math(EXPR block_n "${block_n} + 1")
endforeach()
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
math(EXPR small_n "${block_n} * 10")
math(EXPR large_n "${block_n} * 100")
math(EXPR extra_lines "${large_n} - ${small_n}")
set(max_extra 8)

# name | options (the CLI reads 4 x batch lines at a time; the default batch is 8)
set(configs
  "default|--threads 1"
  "batch1_beam4|--batch 1 --beam 4 --threads 2"
  "batch3_beam2|--batch 3 --beam 2 --threads 2"
  "batch64_greedy|--batch 64 --beam 1 --threads 2"
  "batch8_beam4|--batch 8 --beam 4 --threads 1")
set(failures "")
foreach(config IN LISTS configs)
  string(REPLACE "|" ";" parts "${config}")
  list(GET parts 0 name)
  list(GET parts 1 options)
  separate_arguments(options UNIX_COMMAND "${options}")
  foreach(which small large)
    execute_process(
      COMMAND ${CMAKE_COMMAND} -E env LD_PRELOAD=${SHIM} EDGEMT_MALLOC_COUNT_FILE=${WORK}/${name}_${which}.count
              ${TRANSLATE} --model ${MODEL} --ids ${options}
      INPUT_FILE "${WORK}/${which}.txt"
      OUTPUT_FILE "${WORK}/${name}_${which}.out"
      ERROR_VARIABLE err
      RESULT_VARIABLE rc)
    # The malformed line makes the exit code 1; anything else is a failure.
    if(NOT rc EQUAL 1)
      message(FATAL_ERROR "translate --ids ${options} (${which}) exited with ${rc}: ${err}")
    endif()
    file(READ "${WORK}/${name}_${which}.out" out_text)
    string(REGEX MATCHALL "\n" out_nl "${out_text}")
    list(LENGTH out_nl out_n)
    if(NOT out_n EQUAL ${which}_n)
      message(FATAL_ERROR "${name} ${which}: ${out_n} output lines for ${${which}_n} input lines")
    endif()
    if(NOT EXISTS "${WORK}/${name}_${which}.count")
      message(FATAL_ERROR "the allocation counter (${SHIM}) wrote no count")
    endif()
    file(STRINGS "${WORK}/${name}_${which}.count" ${which}_count)
  endforeach()
  # The 100 copies' output is the 10 copies' ten times over (and so every line's the same
  # wherever it came in a batch).
  file(READ "${WORK}/${name}_small.out" small_out)
  file(READ "${WORK}/${name}_large.out" large_out)
  set(tenfold "")
  foreach(i RANGE 9)
    string(APPEND tenfold "${small_out}")
  endforeach()
  if(NOT large_out STREQUAL tenfold)
    message(FATAL_ERROR "${name}: the 100 copies were not translated as 10 copies ten times over")
  endif()
  if(small_count LESS 10)
    message(FATAL_ERROR "the counter saw only ${small_count} allocations: it is not counting")
  endif()
  math(EXPR extra "${large_count} - ${small_count}")
  message(STATUS "${name} (${options}): ${small_count} allocator calls for ${small_n} lines, ${large_count} "
                 "for ${large_n} (${extra} for ${extra_lines} more lines)")
  if(extra GREATER max_extra)
    string(APPEND failures "\n  ${name} (${options}): ${extra} allocator calls for ${extra_lines} more lines")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "translate --ids allocates per line (at most ${max_extra} allocator calls allowed for the "
                      "${extra_lines} extra lines):${failures}")
endif()
