// Replaces the C allocator (malloc, calloc, realloc, free, aligned_alloc, memalign,
// posix_memalign) with versions that call edgemt_count_allocation() and then glibc's.
// The includer defines edgemt_count_allocation() (what counts, and when) before
// including this file, in exactly one translation unit. Used by the in-process
// allocation test and by the LD_PRELOAD counter of the CLI test.
#pragma once

#include <errno.h>
#include <stddef.h>

extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void __libc_free(void*);
void* __libc_memalign(size_t, size_t);

void* malloc(size_t n) {
  edgemt_count_allocation();
  return __libc_malloc(n);
}
void* calloc(size_t a, size_t b) {
  edgemt_count_allocation();
  return __libc_calloc(a, b);
}
void* realloc(void* p, size_t n) {
  edgemt_count_allocation();
  return __libc_realloc(p, n);
}
void free(void* p) {
  if (p != nullptr) edgemt_count_allocation();
  __libc_free(p);
}
void* aligned_alloc(size_t a, size_t n) {
  edgemt_count_allocation();
  return __libc_memalign(a, n);
}
void* memalign(size_t a, size_t n) {
  edgemt_count_allocation();
  return __libc_memalign(a, n);
}
int posix_memalign(void** out, size_t a, size_t n) {
  edgemt_count_allocation();
  *out = __libc_memalign(a, n);
  return *out != nullptr ? 0 : ENOMEM;
}
}
