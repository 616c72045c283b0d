// A persistent pool of worker threads, created with the translator. Running a job
// allocates nothing and creates no thread: the job is a function pointer and a
// context, published through an atomic generation counter. Work is split statically
// (task range i of T goes to thread i), and every kernel computes each output element
// the same way whatever the split, so results are identical for any thread count.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace edgemt {

class ThreadPool {
 public:
  // num_threads >= 1 (the calling thread is thread 0; num_threads - 1 workers).
  explicit ThreadPool(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return num_threads_; }

  using Fn = void (*)(void* ctx, size_t begin, size_t end, int thread);
  // Calls fn(ctx, begin, end, thread) on disjoint ranges covering [0, n), at most one
  // range per thread; returns when all are done. Not reentrant.
  void run(size_t n, Fn fn, void* ctx, size_t min_per_thread = 1);

  // Convenience: f(begin, end, thread).
  template <class F>
  void parallel_for(size_t n, const F& f, size_t min_per_thread = 1) {
    run(n, [](void* ctx, size_t b, size_t e, int t) { (*static_cast<const F*>(ctx))(b, e, t); },
        const_cast<F*>(&f), min_per_thread);
  }

 private:
  void worker(int index);

  int num_threads_;
  std::vector<std::thread> workers_;
  // Current job.
  Fn fn_ = nullptr;
  void* ctx_ = nullptr;
  size_t n_ = 0;
  int active_ = 0;  // threads taking part in the current job
  std::atomic<uint64_t> generation_{0};
  std::atomic<int> pending_{0};
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<int> sleepers_{0};
};

}  // namespace edgemt
