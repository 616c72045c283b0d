# Installs the build into a temporary prefix and builds tests/capi/capi_smoke.c against
# the installed library the two ways users do: with pkg-config (edgemt.pc) and with
# CMake (find_package(edgemt) -> edgemt::edgemt). Runs both on a model.
#   cmake -DBUILD=... -DWORK=... -DSOURCE=... -DMODEL=... -DCC=... -P install_consumers.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(prefix "${WORK}/prefix")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run("cmake --install" ${CMAKE_COMMAND} --install "${BUILD}" --prefix "${prefix}")
file(GLOB_RECURSE pc "${prefix}/*/edgemt.pc")
file(GLOB_RECURSE lib "${prefix}/*/libedgemt.so")
if(NOT pc OR NOT lib OR NOT EXISTS "${prefix}/include/edgemt.h")
  message(FATAL_ERROR "the install lacks edgemt.pc, libedgemt.so or include/edgemt.h")
endif()
get_filename_component(pcdir "${pc}" DIRECTORY)
get_filename_component(libdir "${lib}" DIRECTORY)

# pkg-config
run("pkg-config" ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${pcdir} pkg-config --cflags --libs edgemt)
string(STRIP "${last_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run("cc with pkg-config flags" ${CC} -std=c11 -Wall -Werror "${SOURCE}" ${flags} -o "${WORK}/smoke_pkgconfig")
run("the pkg-config build" ${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${libdir} "${WORK}/smoke_pkgconfig" "${MODEL}")
message(STATUS "pkg-config: ${last_output}")

# CMake package
file(MAKE_DIRECTORY "${WORK}/consumer")
file(WRITE "${WORK}/consumer/CMakeLists.txt" "cmake_minimum_required(VERSION 3.16)
project(edgemt_consumer LANGUAGES C)
find_package(edgemt 0.1 REQUIRED)
add_executable(smoke \"${SOURCE}\")
target_link_libraries(smoke PRIVATE edgemt::edgemt)
")
run("consumer configure" ${CMAKE_COMMAND} -S "${WORK}/consumer" -B "${WORK}/consumer/build"
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_C_COMPILER=${CC})
run("consumer build" ${CMAKE_COMMAND} --build "${WORK}/consumer/build")
run("the CMake build" "${WORK}/consumer/build/smoke" "${MODEL}")
message(STATUS "find_package: ${last_output}")
