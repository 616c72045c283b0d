// One arena per translator: every buffer the runtime will ever use is planned once,
// when the translator is created, from the buffers' sizes and lifetimes; buffers whose
// lifetimes do not overlap share memory. Nothing is allocated afterwards.
//
// The planner is the greedy-by-size scheme TFLite Micro uses: place the largest
// buffers first, each at the lowest offset that does not collide with an already
// placed buffer whose lifetime overlaps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runtime/core/status.h"

namespace edgemt {

inline constexpr size_t kArenaAlignment = 64;

constexpr size_t align_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

class ArenaPlanner {
 public:
  // Declares a buffer of `bytes` used from step `first` to step `last` (inclusive);
  // steps are any increasing numbering of the program's phases. Returns its id.
  int add(std::string name, size_t bytes, int first, int last);
  // Computes offsets. Sizes are rounded up to kArenaAlignment.
  void plan();
  size_t offset(int id) const { return buffers_[id].offset; }
  size_t bytes(int id) const { return buffers_[id].bytes; }
  size_t total_bytes() const { return total_; }
  // Sum of all buffer sizes (what a plan without reuse would need).
  size_t unshared_bytes() const;
  // One line per buffer: name, bytes, lifetime, offset.
  std::string describe() const;
  // True when no two buffers with overlapping lifetimes overlap in memory.
  bool verify() const;

 private:
  struct Buffer {
    std::string name;
    size_t bytes;
    int first, last;
    size_t offset;
  };
  std::vector<Buffer> buffers_;
  size_t total_ = 0;
};

// A 64-byte aligned block of memory, owned. Pages are only touched when used, so an
// arena planned for the worst case costs resident memory only for what runs.
class Arena {
 public:
  Arena() = default;
  ~Arena();
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  Arena(Arena&& o) noexcept : data_(o.data_), size_(o.size_) {
    o.data_ = nullptr;
    o.size_ = 0;
  }

  Status allocate(size_t bytes);
  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  template <class T>
  T* at(size_t offset) const {
    return reinterpret_cast<T*>(data_ + offset);
  }

 private:
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

// The planner plus the typed pointers its buffers are bound to: each part of a program
// states its buffers (where to put the pointer, name, element count, lifetime), and
// one call plans, reserves and binds them all.
//
//   ArenaLayout layout;
//   layout.add(&hidden, "encoder hidden", rows * d, kEncode, kCrossMemory);  // float* hidden
//   EDGEMT_RETURN_IF_ERROR(layout.allocate(arena));  // hidden now points into arena
class ArenaLayout {
 public:
  template <class T>
  void add(T** where, std::string name, size_t count, int first, int last) {
    const int id = planner_.add(std::move(name), count * sizeof(T), first, last);
    binds_.push_back({id, [where](uint8_t* p) { *where = reinterpret_cast<T*>(p); }});
  }
  // Plans (checking the plan), reserves `arena` and sets every pointer added.
  Status allocate(Arena& arena);
  const ArenaPlanner& planner() const { return planner_; }

 private:
  struct Bind {
    int id;
    std::function<void(uint8_t*)> set;
  };
  ArenaPlanner planner_;
  std::vector<Bind> binds_;
};

}  // namespace edgemt
