// Packing of linear-layer weights into the layouts the gemm kernels read in place.
// Used by the converter (which writes packed weights into the model file) and by
// tests and benchmarks. Pure functions: the caller owns every buffer.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ops/ops.h"

namespace edgemt::ops {

// Number of floats of a PanelF32x16 weight of logical shape [n, k].
constexpr size_t f32_panel_size(size_t n, size_t k) { return (n + kPanel - 1) / kPanel * kPanel * k; }

// W row-major [n][k] (PyTorch Linear weight [out, in]) -> panels [ceil(n/16)][k][16];
// columns past n are zero.
inline void pack_f32_panels(size_t n, size_t k, const float* w, float* out) {
  const size_t panels = (n + kPanel - 1) / kPanel;
  for (size_t p = 0; p < panels; ++p) {
    for (size_t kk = 0; kk < k; ++kk) {
      for (size_t j = 0; j < kPanel; ++j) {
        const size_t row = p * kPanel + j;
        out[(p * k + kk) * kPanel + j] = row < n ? w[row * k + kk] : 0.0f;
      }
    }
  }
}

// Offset (in floats) of row `row`'s first element in a PanelF32x16 weight with inner
// size k; its elements follow every kPanel floats.
constexpr size_t f32_panel_row_offset(size_t k, size_t row) {
  return (row / kPanel) * k * kPanel + row % kPanel;
}

// Element (row, col) of a PanelF32x16 weight.
inline float f32_panel_at(const float* packed, size_t k, size_t row, size_t col) {
  return packed[((row / kPanel) * k + col) * kPanel + row % kPanel];
}

// K rounded up to the int8 group of 4.
constexpr size_t qs8_k_padded(size_t k) { return (k + kPanelK8 - 1) / kPanelK8 * kPanelK8; }

// Number of bytes of a PanelI8x16x4 weight of logical shape [n, k].
constexpr size_t qs8_panel_size(size_t n, size_t k) {
  return (n + kPanel - 1) / kPanel * kPanel * qs8_k_padded(k);
}

// int8 W row-major [n][k] -> panels [ceil(n/16)][ceil(k/4)][16][4]; padding zero.
inline void pack_qs8_panels(size_t n, size_t k, const int8_t* w, int8_t* out) {
  const size_t panels = (n + kPanel - 1) / kPanel;
  const size_t kg = qs8_k_padded(k) / kPanelK8;
  for (size_t p = 0; p < panels; ++p) {
    for (size_t g = 0; g < kg; ++g) {
      for (size_t j = 0; j < kPanel; ++j) {
        for (size_t t = 0; t < kPanelK8; ++t) {
          const size_t row = p * kPanel + j, col = g * kPanelK8 + t;
          out[((p * kg + g) * kPanel + j) * kPanelK8 + t] =
              (row < n && col < k) ? w[row * k + col] : int8_t{0};
        }
      }
    }
  }
}

// Byte offset of row `row`'s first group in a PanelI8x16x4 weight with inner size k;
// its groups of 4 bytes follow every 64 bytes (kPanel * kPanelK8).
constexpr size_t qs8_panel_row_offset(size_t k, size_t row) {
  return (row / kPanel) * (qs8_k_padded(k) / kPanelK8) * kPanel * kPanelK8 + (row % kPanel) * kPanelK8;
}

inline int8_t qs8_panel_at(const int8_t* packed, size_t k, size_t row, size_t col) {
  const size_t kg = qs8_k_padded(k) / kPanelK8;
  return packed[(((row / kPanel) * kg + col / kPanelK8) * kPanel + row % kPanel) * kPanelK8 + col % kPanelK8];
}

}  // namespace edgemt::ops
