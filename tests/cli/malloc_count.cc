// LD_PRELOAD shim for the CLI allocation test: counts every call into the C allocator
// (malloc, calloc, realloc, free, aligned_alloc, posix_memalign, memalign; operator
// new/delete reach these) and writes the count to $EDGEMT_MALLOC_COUNT_FILE at exit.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <atomic>

extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void __libc_free(void*);
void* __libc_memalign(size_t, size_t);
}

namespace {
std::atomic<long> g_calls{0};
inline void count() { g_calls.fetch_add(1, std::memory_order_relaxed); }

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

extern "C" {
void* malloc(size_t n) {
  count();
  return __libc_malloc(n);
}
void* calloc(size_t a, size_t b) {
  count();
  return __libc_calloc(a, b);
}
void* realloc(void* p, size_t n) {
  count();
  return __libc_realloc(p, n);
}
void free(void* p) {
  if (p != nullptr) count();
  __libc_free(p);
}
void* aligned_alloc(size_t a, size_t n) {
  count();
  return __libc_memalign(a, n);
}
void* memalign(size_t a, size_t n) {
  count();
  return __libc_memalign(a, n);
}
int posix_memalign(void** out, size_t a, size_t n) {
  count();
  *out = __libc_memalign(a, n);
  return *out != nullptr ? 0 : ENOMEM;
}
}
