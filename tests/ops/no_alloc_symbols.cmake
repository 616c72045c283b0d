# ops/ never allocates and never throws (ops/ops.h): the kernel library may not reference
# the heap (malloc family, operator new/delete) or the throw machinery.
#   cmake -DNM=... -DLIB=libedgemt_ops.a -P no_alloc_symbols.cmake
execute_process(COMMAND "${NM}" --undefined-only "${LIB}" OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} ${LIB} failed (${rc}): ${err}")
endif()
set(bad "")
foreach(sym malloc calloc realloc free posix_memalign aligned_alloc _Znwm _Znam _Znwj _Znaj _ZdlPv _ZdaPv
            __cxa_throw __cxa_allocate_exception __cxa_rethrow)
  if(out MATCHES "U ${sym}[ \n@]" OR out MATCHES "U ${sym}[A-Za-z0-9_]*[\n@]")
    list(APPEND bad ${sym})
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "${LIB} references ${bad}:\n${out}")
endif()
message(STATUS "${LIB}: no allocation or throw symbols")
