// LD_PRELOAD shim for the CLI allocation test: counts every call into the C allocator
// (malloc, calloc, realloc, free, aligned_alloc, posix_memalign, memalign; operator
// new/delete reach these) and writes the count to $EDGEMT_MALLOC_COUNT_FILE at exit;
// edgemt_malloc_count() returns it so far (the Python test reads it through ctypes).
#include <stdio.h>
#include <stdlib.h>

#include <atomic>

namespace {
std::atomic<long> g_calls{0};

__attribute__((destructor)) void report() {
  const long n = g_calls.load();
  const char* path = getenv("EDGEMT_MALLOC_COUNT_FILE");
  if (path == nullptr) return;
  if (FILE* f = fopen(path, "w")) {
    fprintf(f, "%ld\n", n);
    fclose(f);
  }
}
}  // namespace

static void edgemt_count_allocation() { g_calls.fetch_add(1, std::memory_order_relaxed); }
#include "tests/common/counting_malloc.h"

extern "C" __attribute__((visibility("default"))) long edgemt_malloc_count() { return g_calls.load(); }
