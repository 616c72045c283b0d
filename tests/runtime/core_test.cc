// Arena planner, thread pool and status: the runtime's foundations.
#include <gtest/gtest.h>

#include <atomic>
#include <numeric>
#include <vector>

#include "runtime/core/arena.h"
#include "runtime/core/status.h"
#include "runtime/core/thread_pool.h"

namespace edgemt {
namespace {

TEST(ArenaPlanner, ReusesMemoryOfBuffersThatDoNotOverlapInTime) {
  ArenaPlanner p;
  const int a = p.add("a", 1000, 0, 0);
  const int b = p.add("b", 1000, 1, 1);
  const int c = p.add("c", 500, 0, 1);
  p.plan();
  EXPECT_TRUE(p.verify());
  // a and b never live together: they share memory. c lives with both.
  EXPECT_EQ(p.offset(a), p.offset(b));
  EXPECT_LE(p.total_bytes(), align_up(1000, 64) + align_up(500, 64));
  EXPECT_EQ(p.unshared_bytes(), 2 * align_up(1000, 64) + align_up(500, 64));
  for (int id : {a, b, c}) EXPECT_EQ(p.offset(id) % kArenaAlignment, 0u);
}

TEST(ArenaPlanner, NeverOverlapsLiveBuffers) {
  ArenaPlanner p;
  uint32_t s = 12345;
  for (int i = 0; i < 200; ++i) {
    s = s * 1103515245 + 12345;
    const int first = static_cast<int>(s % 10);
    const int last = first + static_cast<int>((s >> 8) % 5);
    p.add("buf" + std::to_string(i), 1 + (s >> 12) % 100000, first, last);
  }
  p.plan();
  EXPECT_TRUE(p.verify());
  EXPECT_LT(p.total_bytes(), p.unshared_bytes());
}

TEST(Arena, IsAlignedAndZeroed) {
  Arena a;
  ASSERT_TRUE(a.allocate(1 << 20).is_ok());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a.data()) % 64, 0u);
  EXPECT_EQ(a.data()[12345], 0);
}

class PoolTest : public ::testing::TestWithParam<int> {};

TEST_P(PoolTest, CoversEveryIndexExactlyOnce) {
  ThreadPool pool(GetParam());
  for (size_t n : {0, 1, 2, 3, 7, 64, 1000, 100000}) {
    std::vector<std::atomic<int>> hits(n);
    for (auto& h : hits) h = 0;
    for (int rep = 0; rep < 3; ++rep) {
      pool.parallel_for(n, [&](size_t b, size_t e, int t) {
        ASSERT_GE(t, 0);
        ASSERT_LT(t, pool.size());
        for (size_t i = b; i < e; ++i) hits[i].fetch_add(1);
      });
    }
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 3) << "index " << i << " of " << n;
  }
}

TEST_P(PoolTest, ManyShortJobs) {
  ThreadPool pool(GetParam());
  std::atomic<long> sum{0};
  for (int job = 0; job < 20000; ++job)
    pool.parallel_for(4, [&](size_t b, size_t e, int) { sum.fetch_add(static_cast<long>(e - b)); });
  EXPECT_EQ(sum.load(), 80000);
}

TEST_P(PoolTest, RespectsMinimumWorkPerThread) {
  ThreadPool pool(GetParam());
  std::atomic<int> calls{0};
  pool.parallel_for(
      10, [&](size_t, size_t, int) { calls.fetch_add(1); }, 100);
  EXPECT_EQ(calls.load(), 1);
}

TEST_P(PoolTest, RangesAreAtLeastTheMinimumAndThreadsRunOneAtATime) {
  ThreadPool pool(GetParam());
  // Per-thread scratch is indexed by `thread`: two ranges may never run at once on it.
  std::vector<std::atomic<int>> busy(static_cast<size_t>(pool.size()));
  for (auto& b : busy) b = 0;
  std::atomic<int> overlaps{0}, short_ranges{0};
  std::atomic<size_t> covered{0};
  for (int rep = 0; rep < 200; ++rep) {
    for (size_t n : {size_t{5}, size_t{33}, size_t{640}}) {
      covered = 0;
      pool.parallel_for(
          n,
          [&](size_t b, size_t e, int t) {
            if (busy[static_cast<size_t>(t)].fetch_add(1) != 0) overlaps.fetch_add(1);
            if (e - b < 8 && n >= 8) short_ranges.fetch_add(1);
            volatile double x = 0;
            for (size_t i = b; i < e; ++i) x = x + static_cast<double>(i);
            covered.fetch_add(e - b);
            busy[static_cast<size_t>(t)].fetch_sub(1);
          },
          8);
      ASSERT_EQ(covered.load(), n);
    }
  }
  EXPECT_EQ(overlaps.load(), 0);
  EXPECT_EQ(short_ranges.load(), 0);
}

INSTANTIATE_TEST_SUITE_P(Threads, PoolTest, ::testing::Values(1, 2, 4));

TEST(Status, CarriesCodeAndMessage) {
  const Status s = invalid_model("tensor x is missing");
  EXPECT_FALSE(s.is_ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidModel);
  EXPECT_EQ(s.to_string(), "invalid model: tensor x is missing");
  Expected<int> e(s);
  EXPECT_FALSE(e.has_value());
  EXPECT_EQ(e.status().message(), "tensor x is missing");
  Expected<int> v(7);
  EXPECT_TRUE(v.has_value());
  EXPECT_EQ(*v, 7);
}

}  // namespace
}  // namespace edgemt
