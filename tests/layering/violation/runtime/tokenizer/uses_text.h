// A tokenizer header that includes the text layer: tests/layering/layering.cmake must
// reject this folder (ctest layering_rejects_an_arrow_up).
#pragma once

#include "runtime/text/markup.h"
