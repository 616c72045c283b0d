# Dependencies point one way: ops <- core <- model/tokenizer <- nmt (the engine) and
# core <- text (the text pipeline) <- formats (the document formats), all <- api <-
# cli/server. Each folder's sources may not include a header of a folder above it or
# beside it, and the engine's library may not link the text layer's libraries (zlib,
# ICU, CLD2).
#   cmake -DROOT=<source dir> [-DENGINE_LIBS=a|b|c] -P layering.cmake
# ROOT may be a copy of a few folders (tests/layering/violation is one that must fail).
if(NOT ROOT)
  message(FATAL_ERROR "layering.cmake: pass -DROOT=<source dir>")
endif()

# folder | include prefixes it must not use (a regular expression on the quoted path)
set(rules
  "ops|^runtime/"
  "runtime/core|^runtime/(model|tokenizer|nmt|text|formats|api|cli|server)/"
  "runtime/model|^runtime/(nmt|text|formats|api|cli|server)/"
  "runtime/tokenizer|^runtime/(model|nmt|text|formats|api|cli|server)/"
  "runtime/nmt|^runtime/(text|formats|api|cli|server)/"
  "runtime/text|^(ops|runtime/(model|tokenizer|nmt|formats|api|cli|server))/"
  "runtime/formats|^(ops|runtime/(model|tokenizer|nmt|api|cli|server))/"
  "runtime/api|^runtime/(cli|server)/")

get_filename_component(ROOT "${ROOT}" ABSOLUTE)
set(violations "")
set(checked 0)
foreach(rule IN LISTS rules)
  string(REPLACE "|" ";" parts "${rule}")
  list(GET parts 0 folder)
  list(SUBLIST parts 1 -1 alternatives)
  list(JOIN alternatives "|" forbidden)
  file(GLOB_RECURSE sources "${ROOT}/${folder}/*.h" "${ROOT}/${folder}/*.cc" "${ROOT}/${folder}/*.inc")
  foreach(source IN LISTS sources)
    math(EXPR checked "${checked} + 1")
    file(STRINGS "${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\".*" "\\1" header "${line}")
      if(header MATCHES "${forbidden}")
        file(RELATIVE_PATH rel "${ROOT}" "${source}")
        string(APPEND violations "  ${rel} includes ${header} (${folder} may not include ${forbidden})\n")
      endif()
    endforeach()
  endforeach()
endforeach()

if(DEFINED ENGINE_LIBS)
  string(REPLACE "|" ";" engine_libs "${ENGINE_LIBS}")
  foreach(lib IN LISTS engine_libs)
    if(lib MATCHES "ZLIB|[Zz]lib|libz|ICU|icu|cld2|edgemt_text|edgemt_formats|edgemt_runtime")
      string(APPEND violations "  edgemt_engine links ${lib} (the engine links no text-layer library)\n")
    endif()
  endforeach()
endif()

if(checked EQUAL 0)
  message(FATAL_ERROR "layering: no source found under ${ROOT}")
endif()
if(violations)
  message(FATAL_ERROR "layering: dependencies that point the wrong way:\n${violations}")
endif()
message(STATUS "layering: ${checked} files, every include points one way")
