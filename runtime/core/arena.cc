#include "runtime/core/arena.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace edgemt {

int ArenaPlanner::add(std::string name, size_t bytes, int first, int last) {
  buffers_.push_back(Buffer{std::move(name), align_up(bytes, kArenaAlignment), first, last, 0});
  return static_cast<int>(buffers_.size()) - 1;
}

void ArenaPlanner::plan() {
  std::vector<int> order(buffers_.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return buffers_[a].bytes > buffers_[b].bytes; });
  std::vector<int> placed;
  total_ = 0;
  for (int id : order) {
    Buffer& b = buffers_[id];
    // Intervals of placed buffers that live at the same time, sorted by offset.
    std::vector<std::pair<size_t, size_t>> busy;
    for (int p : placed) {
      const Buffer& o = buffers_[p];
      if (o.first <= b.last && b.first <= o.last && o.bytes > 0)
        busy.emplace_back(o.offset, o.offset + o.bytes);
    }
    std::sort(busy.begin(), busy.end());
    size_t candidate = 0;
    for (const auto& [lo, hi] : busy) {
      if (candidate + b.bytes <= lo) break;
      candidate = std::max(candidate, hi);
    }
    b.offset = candidate;
    total_ = std::max(total_, candidate + b.bytes);
    placed.push_back(id);
  }
}

size_t ArenaPlanner::unshared_bytes() const {
  size_t s = 0;
  for (const Buffer& b : buffers_) s += b.bytes;
  return s;
}

std::string ArenaPlanner::describe() const {
  std::string out;
  char line[256];
  for (const Buffer& b : buffers_) {
    std::snprintf(line, sizeof line, "%-28s %12zu bytes  steps %3d..%-3d  offset %zu\n", b.name.c_str(),
                  b.bytes, b.first, b.last, b.offset);
    out += line;
  }
  return out;
}

bool ArenaPlanner::verify() const {
  for (size_t i = 0; i < buffers_.size(); ++i) {
    for (size_t j = i + 1; j < buffers_.size(); ++j) {
      const Buffer& a = buffers_[i];
      const Buffer& b = buffers_[j];
      const bool live = a.first <= b.last && b.first <= a.last;
      const bool mem = a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes;
      if (live && mem && a.bytes > 0 && b.bytes > 0) return false;
    }
  }
  for (const Buffer& b : buffers_)
    if (b.offset % kArenaAlignment != 0 || b.offset + b.bytes > total_) return false;
  return true;
}

Arena::~Arena() {
  if (data_ != nullptr) munmap(data_, size_);
}

Status Arena::allocate(size_t bytes) {
  if (data_ != nullptr) {
    munmap(data_, size_);
    data_ = nullptr;
    size_ = 0;
  }
  if (bytes == 0) bytes = kArenaAlignment;
  // Anonymous mapping: page aligned (so 64-byte aligned), zero-filled, and pages
  // become resident only when touched.
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    return Status(StatusCode::kOutOfRange, "cannot reserve an arena of " + std::to_string(bytes) + " bytes");
  }
  data_ = static_cast<uint8_t*>(p);
  size_ = bytes;
  return Status::ok();
}

Status ArenaLayout::allocate(Arena& arena) {
  planner_.plan();
  if (!planner_.verify()) return internal_error("arena plan overlaps live buffers");
  EDGEMT_RETURN_IF_ERROR(arena.allocate(planner_.total_bytes()));
  for (const Bind& b : binds_) b.set(arena.data() + planner_.offset(b.id));
  return Status::ok();
}

}  // namespace edgemt
