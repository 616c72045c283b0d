// A read-only memory mapping of a whole file. Model weights are used in place from it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/core/status.h"

namespace edgemt {

class MappedFile {
 public:
  static Expected<MappedFile> open(const std::string& path);
  MappedFile() = default;
  ~MappedFile();
  MappedFile(MappedFile&& o) noexcept;
  MappedFile& operator=(MappedFile&& o) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  bool contains(const void* p, size_t bytes) const {
    const auto* b = static_cast<const uint8_t*>(p);
    return b >= data_ && bytes <= size_ && b <= data_ + (size_ - bytes);
  }

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace edgemt
