# PDF through translate (--format pdf) on the bundled model and the sample PDF
# (tools/text/make_pdf_sample.py; needs pdftotext from poppler-utils):
#   the output is the PDF's paragraphs, one a line with a blank line between, each the
#   translation translate gives that paragraph as a line of text; input that is not a
#   PDF is an error naming it (exit 1), TEXT arguments and --ids are refused (exit 2).
#   cmake -DTRANSLATE=... -DMODEL=... -DDOCUMENTS=tests/data/documents [-DEMULATOR=...] -P pdf.cmake
function(fail what)
  message(FATAL_ERROR "${what}")
endfunction()

set(work "${CMAKE_CURRENT_BINARY_DIR}/pdf_work")
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}")

execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format pdf
                INPUT_FILE "${DOCUMENTS}/sample.pdf" OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  fail("translate --format pdf failed (${rc}): ${err}")
endif()

# The sample's paragraphs (as tests/runtime/office_test.cc reads them), as lines of text.
file(WRITE "${work}/paragraphs.txt"
     "Installing the program\n\n"
     "The file could not be opened because the connection to the server was lost while the program was "
     "reading the configuration file of the application. Please try again later.\n\n"
     "Do you want to delete this folder? The password is too short (at least eight characters), so the "
     "system cannot accept it as a replacement for the administrator account & the café.\n\n"
     "Save the document before closing the window.\n")
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" INPUT_FILE "${work}/paragraphs.txt"
                OUTPUT_VARIABLE want ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  fail("translate of the paragraphs failed (${rc}): ${err}")
endif()
if(NOT out STREQUAL want)
  fail("--format pdf gave\n${out}\ninstead of the paragraphs' translations\n${want}")
endif()
string(REGEX MATCHALL "\n\n" blanks "${out}")
list(LENGTH blanks nblanks)
if(NOT nblanks EQUAL 3 OR out MATCHES "Installing|Save the")
  fail("--format pdf: not four translated paragraphs:\n${out}")
endif()

# Not a PDF: exit 1, saying so.
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format pdf
                INPUT_FILE "${DOCUMENTS}/letter.txt" OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "not a PDF")
  fail("--format pdf on a text file: exit ${rc}, '${err}'")
endif()
# A cut PDF: pdftotext cannot read it.
file(READ "${DOCUMENTS}/sample.pdf" head LIMIT 60)
file(WRITE "${work}/cut.pdf" "${head}")
execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" --format pdf
                INPUT_FILE "${work}/cut.pdf" OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "could not read the PDF")
  fail("--format pdf on a cut PDF: exit ${rc}, '${err}'")
endif()
foreach(args "--format;pdf;Some text." "--format;pdf;--ids")
  execute_process(COMMAND ${EMULATOR} "${TRANSLATE}" --model "${MODEL}" ${args}
                  INPUT_FILE "${DOCUMENTS}/sample.pdf" OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "--format pdf")
    fail("translate ${args}: exit ${rc}, '${err}'")
  endif()
endforeach()
