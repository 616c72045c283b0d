# translate keeps protected spans verbatim (the default): URLs, e-mail addresses, file
# paths, backquoted code, placeholders and numbers with units come out of the model's
# translation exactly as they went in, and a line of nothing but such spans is given
# back untranslated. The model sees the spans as they are; a line whose translation changed
# one (the bundled model makes "Documents" in a Windows path "Dokumente") is translated again
# with markers. Characters the model's vocabulary lacks (the bundled models' lack "€", "ç",
# "ã", emoji and CJK) come through too, and a line of nothing but those is given back.
#   cmake -DTRANSLATE=... -DMODEL=... [-DEMULATOR=...] -P protect.cmake
set(dir "${CMAKE_CURRENT_BINARY_DIR}")
set(spans "https://example.org/download.html?id=7" "jane.doe@example.com" "/etc/edgemt/server.conf"
          "`make install`" "{count}" "%s" "5 GB" "C:\\Users\\jane\\Documents\\report.docx"
          "~/Documents/report.odt" "20 €" "François" "São" "🙂")
file(WRITE "${dir}/protect_input.txt"
     "Download it from https://example.org/download.html?id=7 today.\n"
     "Send an e-mail to jane.doe@example.com or open /etc/edgemt/server.conf in your editor.\n"
     "Run `make install` in the terminal.\n"
     "You have {count} new messages from %s.\n"
     "The disk has 5 GB free.\n"
     "https://example.org/ (%s)\n"
     "Open C:\\Users\\jane\\Documents\\report.docx or ~/Documents/report.odt.\n"
     "The ticket costs 20 € at the station in São Paulo, says François 🙂.\n"
     "日本語のテキスト。\n")
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" INPUT_FILE "${dir}/protect_input.txt"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "translate failed (${rc}): ${err}")
endif()
string(REGEX MATCHALL "[^\n]*\n" lines "${out}")
list(LENGTH lines n)
if(NOT n EQUAL 9)
  message(FATAL_ERROR "9 lines in, ${n} out:\n${out}")
endif()
foreach(s IN LISTS spans)
  string(FIND "${out}" "${s}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "'${s}' did not come through verbatim:\n${out}")
  endif()
endforeach()
list(GET lines 5 last)
if(NOT last STREQUAL "https://example.org/ (%s)\n")
  message(FATAL_ERROR "a line of spans only was changed: [${last}]")
endif()
list(GET lines 8 cjk)
if(NOT cjk STREQUAL "日本語のテキスト。\n")
  message(FATAL_ERROR "a line the model has no pieces for was changed: [${cjk}]")
endif()
list(GET lines 0 first)
if(first STREQUAL "Download it from https://example.org/download.html?id=7 today.\n")
  message(FATAL_ERROR "the prose around the spans was not translated: ${first}")
endif()
