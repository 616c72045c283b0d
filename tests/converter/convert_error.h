// Test helper for the converter's tests: the message of the ConvertError that f throws.
// Header-only.
#pragma once

#include <functional>
#include <string>

#include "converter/checkpoint.h"

namespace edgemt::testing {

// f's ConvertError message, or "(no error)" where f returns; any other exception passes
// through (the test then fails on it).
inline std::string convert_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const convert::ConvertError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace edgemt::testing
