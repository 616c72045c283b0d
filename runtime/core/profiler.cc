#include "runtime/core/profiler.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace edgemt {

namespace {
constexpr const char* kNames[] = {
#define EDGEMT_PROF_NAME(id, name) name,
    EDGEMT_PROFILE_OPS(EDGEMT_PROF_NAME)
#undef EDGEMT_PROF_NAME
};
}  // namespace

const char* Profiler::name(ProfOp op) { return kNames[static_cast<int>(op)]; }

void Profiler::reset() {
  for (Entry& e : entries_) e = Entry{};
}

void Profiler::merge(const Profiler& other) {
  for (int i = 0; i < static_cast<int>(ProfOp::kCount); ++i) {
    entries_[i].calls += other.entries_[i].calls;
    entries_[i].ns += other.entries_[i].ns;
  }
}

std::string Profiler::report() const {
  std::vector<int> order;
  uint64_t total = 0;
  for (int i = 0; i < static_cast<int>(ProfOp::kCount); ++i) {
    if (entries_[i].calls > 0) order.push_back(i);
    total += entries_[i].ns;
  }
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return entries_[a].ns > entries_[b].ns; });
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "%-26s %10s %12s %12s %8s %8s\n", "op", "calls", "total ms", "avg us", "%",
                "cum %");
  out += line;
  double cum = 0.0;
  for (int i : order) {
    const Entry& e = entries_[i];
    const double pct = total > 0 ? 100.0 * static_cast<double>(e.ns) / static_cast<double>(total) : 0.0;
    cum += pct;
    std::snprintf(line, sizeof line, "%-26s %10llu %12.3f %12.2f %8.2f %8.2f\n", kNames[i],
                  static_cast<unsigned long long>(e.calls), static_cast<double>(e.ns) / 1e6,
                  static_cast<double>(e.ns) / 1e3 / static_cast<double>(e.calls), pct, cum);
    out += line;
  }
  std::snprintf(line, sizeof line, "%-26s %10s %12.3f\n", "total", "", static_cast<double>(total) / 1e6);
  out += line;
  return out;
}

}  // namespace edgemt
