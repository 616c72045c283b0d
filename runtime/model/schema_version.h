#pragma once

#include <cstdint>

namespace edgemt {

// Version of schema/edgemt.fbs that this build writes and reads. Bumped on every schema
// change; a reader accepts files with a version <= its own (fields are only appended).
inline constexpr uint32_t kSchemaVersion = 3;
inline constexpr const char* kFileIdentifier = "EMT1";

}  // namespace edgemt
