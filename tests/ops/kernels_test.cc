// Every kernel of kernel_list.h against its scalar reference, on every ISA level this
// machine can run (levels it cannot run are skipped, not failed), over shapes that
// cross the SIMD widths: 1, odd sizes, primes, tile +- 1, large. Fixed seeds.
// Tolerances are stated per family; integer kernels are bit-exact.
// Adding a kernel to the list without a test here is a compile error.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "ops/declarations.h"
#include "ops/gemm/pack.h"
#include "ops/ops.h"

namespace edgemt::ops {
namespace {

const Kernels& ref() {
  static const Kernels* k = kernels_for(Isa::ref);
  return *k;
}

struct Aligned {
  explicit Aligned(size_t n)
      : n_(n), p_(static_cast<float*>(std::aligned_alloc(64, (n * 4 + 127) / 64 * 64))) {}
  ~Aligned() { std::free(p_); }
  Aligned(const Aligned&) = delete;
  float* data() { return p_; }
  float& operator[](size_t i) { return p_[i]; }
  size_t size() const { return n_; }
  size_t n_;
  float* p_;
};

std::vector<float> random_floats(size_t n, uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = u(g);
  return v;
}

// |got - want| <= atol + rtol * |want|, reporting the first failure with context.
::testing::AssertionResult close(const float* got, const float* want, size_t n, float atol, float rtol,
                                 const std::string& what) {
  for (size_t i = 0; i < n; ++i) {
    const float diff = std::fabs(got[i] - want[i]);
    if (!(diff <= atol + rtol * std::fabs(want[i])) && !(std::isinf(got[i]) && got[i] == want[i])) {
      return ::testing::AssertionFailure() << what << ": index " << i << " got " << got[i] << " want "
                                           << want[i] << " (diff " << diff << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

class KernelTest : public ::testing::TestWithParam<Isa> {
 protected:
  void SetUp() override {
    if (!isa_supported(GetParam())) GTEST_SKIP() << isa_name(GetParam()) << " is not supported by this CPU";
    k_ = kernels_for(GetParam());
    ASSERT_NE(k_, nullptr);
  }
  const Kernels& k() const { return *k_; }
  const Kernels* k_ = nullptr;
};

const std::vector<size_t> kRows = {1, 2, 3, 5, 6, 7, 12, 13, 17, 64};
const std::vector<size_t> kCols = {1, 15, 16, 17, 31, 33, 48, 100};
const std::vector<size_t> kDepth = {1, 3, 8, 16, 31, 64, 129};
const Activation kActs[] = {Activation::kNone, Activation::kRelu, Activation::kGelu, Activation::kSwish,
                            Activation::kGeluTanh};

// ---- gemm: |err| <= 1e-5 * sum_k |a||w| (+ activation tolerance) ------------------------
void test_f32_gemm(const Kernels& k) {
  uint32_t seed = 1;
  for (size_t m : kRows)
    for (size_t n : kCols)
      for (size_t kk : kDepth) {
        const auto a = random_floats(m * kk + 3, seed++);
        const auto w = random_floats(n * kk, seed++);
        const auto bias = random_floats(n, seed++);
        Aligned packed(f32_panel_size(n, kk) + 16);
        pack_f32_panels(n, kk, w.data(), packed.data());
        for (Activation act : kActs) {
          std::vector<float> got(m * (n + 2), 7.0f), want(m * (n + 2), 7.0f);
          const GemmEpilogue ep{bias.data(), act};
          k.f32_gemm(m, n, kk, a.data(), kk, packed.data(), got.data(), n + 2, ep);
          ref().f32_gemm(m, n, kk, a.data(), kk, packed.data(), want.data(), n + 2, ep);
          const std::string what = "f32_gemm m=" + std::to_string(m) + " n=" + std::to_string(n) +
                                   " k=" + std::to_string(kk) +
                                   " act=" + std::to_string(static_cast<int>(act));
          // Columns past n (ldc padding) must stay untouched.
          ASSERT_TRUE(close(got.data(), want.data(), got.size(), 2e-5f * static_cast<float>(kk) + 1e-5f,
                            1e-4f, what));
        }
      }
}

// ---- int8: bit-exact ------------------------------------------------------------------
void test_qs8_quantize(const Kernels& k) {
  uint32_t seed = 200;
  for (size_t m : kRows)
    for (size_t kk : kDepth) {
      auto a = random_floats(m * kk, seed++, -3.0f, 3.0f);
      if (m > 2)
        std::fill(a.begin() + static_cast<std::ptrdiff_t>(kk),
                  a.begin() + static_cast<std::ptrdiff_t>(2 * kk), 0.0f);  // a zero row
      const size_t ldq = qs8_k_padded(kk);
      std::vector<int8_t> q1(m * ldq, 55), q2(m * ldq, 66);
      std::vector<float> s1(m), s2(m);
      k.qs8_quantize(m, kk, a.data(), kk, q1.data(), ldq, s1.data());
      ref().qs8_quantize(m, kk, a.data(), kk, q2.data(), ldq, s2.data());
      ASSERT_EQ(q1, q2) << "qs8_quantize m=" << m << " k=" << kk;
      ASSERT_EQ(0, std::memcmp(s1.data(), s2.data(), m * 4)) << "qs8_quantize scales m=" << m << " k=" << kk;
    }
}

// gemm(...) against the reference qs8_gemm, weights in [-wmax, wmax] (the extremes
// included), activations in [-127, 127].
void check_qs8_gemm(Qs8GemmFn gemm, int wmax) {
  uint32_t seed = 300;
  std::mt19937 g(7);
  std::uniform_int_distribution<int> dist(-127, 127), wdist(-wmax, wmax);
  auto check = [&](size_t m, size_t n, size_t kk) {
    const size_t ldq = qs8_k_padded(kk);
    std::vector<int8_t> q(m * ldq, 0), w(n * kk);
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < kk; ++j) q[i * ldq + j] = static_cast<int8_t>(dist(g));
    // Include the extremes, where saturating instructions would go wrong.
    for (auto& x : w) x = static_cast<int8_t>(wdist(g));
    if (!w.empty()) w[0] = static_cast<int8_t>(-wmax);
    if (w.size() > 1) w[1] = static_cast<int8_t>(wmax);
    if (!q.empty()) q[0] = -127;
    std::vector<int8_t> packed(qs8_panel_size(n, kk) + 64);
    pack_qs8_panels(n, kk, w.data(), packed.data());
    std::vector<int32_t> sums(n, 0);
    for (size_t r = 0; r < n; ++r)
      for (size_t c = 0; c < kk; ++c) sums[r] += w[r * kk + c];
    const auto sa = random_floats(m, seed++, 0.001f, 0.05f);
    const auto sw = random_floats(n, seed++, 0.001f, 0.05f);
    const auto bias = random_floats(n, seed++);
    std::vector<float> got(m * n), want(m * n);
    const GemmEpilogue ep{bias.data(), Activation::kNone};
    gemm(m, n, kk, q.data(), ldq, sa.data(), packed.data(), sw.data(), sums.data(), got.data(), n, ep);
    ref().qs8_gemm(m, n, kk, q.data(), ldq, sa.data(), packed.data(), sw.data(), sums.data(), want.data(), n,
                   ep);
    ASSERT_EQ(0, std::memcmp(got.data(), want.data(), got.size() * 4))
        << "qs8_gemm not bit-exact, m=" << m << " n=" << n << " k=" << kk;
  };
  for (size_t m : kRows)
    for (size_t n : kCols)
      for (size_t kk : kDepth) {
        check(m, n, kk);
        if (::testing::Test::HasFatalFailure()) return;
      }
  // Depths beyond the widening levels' stack buffer (K > 8192), which they widen chunk by
  // chunk, with every tile height.
  for (size_t m : {1, 2, 4, 5, 6, 7, 13})
    for (size_t kk : {8193, 9000}) {
      check(m, 17, kk);
      if (::testing::Test::HasFatalFailure()) return;
    }
}

void test_qs8_gemm(const Kernels& k) { check_qs8_gemm(k.qs8_gemm, 127); }

// 7-bit weights at their bound, where the AVX2 level's VPMADDUBSW pair sums are largest
// (q = 127 -> 255 unsigned, times 64, twice: 32640).
void test_qs8_gemm_w7(const Kernels& k) { check_qs8_gemm(k.qs8_gemm_w7, 64); }

// ---- rows ------------------------------------------------------------------------------
void test_f32_activation(const Kernels& k) {
  for (size_t n : {1, 3, 7, 8, 9, 16, 17, 100, 1027}) {
    const auto x = random_floats(n, static_cast<uint32_t>(n), -8.0f, 8.0f);
    for (Activation act : kActs) {
      std::vector<float> got(n), want(n);
      k.f32_activation(n, x.data(), got.data(), act);
      ref().f32_activation(n, x.data(), want.data(), act);
      ASSERT_TRUE(close(got.data(), want.data(), n, 2e-6f, 2e-6f, "f32_activation n=" + std::to_string(n)));
    }
  }
}

void test_f32_softmax(const Kernels& k) {
  for (size_t n : {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 100, 513, 4099}) {
    const auto x = random_floats(n + 5, static_cast<uint32_t>(n), -20.0f, 20.0f);
    std::vector<float> got(n + 5, 3.0f), want(n + 5, 3.0f);
    k.f32_softmax(n, n + 3, x.data(), got.data());
    ref().f32_softmax(n, n + 3, x.data(), want.data());
    ASSERT_TRUE(close(got.data(), want.data(), n + 5, 1e-7f, 2e-6f, "f32_softmax n=" + std::to_string(n)));
    // In place.
    std::vector<float> inplace(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n));
    k.f32_softmax(n, n, inplace.data(), inplace.data());
    ASSERT_TRUE(close(inplace.data(), want.data(), n, 1e-7f, 2e-6f, "f32_softmax in place"));
  }
}

void test_f32_logsumexp(const Kernels& k) {
  for (size_t n : {1, 2, 3, 7, 8, 9, 17, 100, 513, 32003}) {
    auto x = random_floats(n, static_cast<uint32_t>(n) + 1, -20.0f, 20.0f);
    if (n > 4) x[3] = -INFINITY;
    const float got = k.f32_logsumexp(n, x.data());
    const float want = ref().f32_logsumexp(n, x.data());
    ASSERT_TRUE(close(&got, &want, 1, 1e-5f, 1e-6f, "f32_logsumexp n=" + std::to_string(n)));
    double s = 0;
    for (float v : x) s += std::exp(static_cast<double>(v));
    ASSERT_NEAR(want, std::log(s), 1e-4) << "reference against double, n=" << n;
  }
}

void test_f32_add_layernorm(const Kernels& k) {
  for (size_t d : {1, 3, 8, 15, 16, 17, 40, 256, 512, 1001}) {
    for (size_t rows : {1, 3, 7}) {
      const auto x = random_floats(rows * (d + 1), static_cast<uint32_t>(d), -4.0f, 4.0f);
      const auto r = random_floats(rows * (d + 2), static_cast<uint32_t>(d) + 9, -4.0f, 4.0f);
      const auto gamma = random_floats(d, 3, 0.5f, 1.5f);
      const auto beta = random_floats(d, 4);
      for (bool with_r : {true, false}) {
        std::vector<float> got(rows * (d + 3)), want(rows * (d + 3));
        k.f32_add_layernorm(rows, d, x.data(), d + 1, with_r ? r.data() : nullptr, d + 2, gamma.data(),
                            beta.data(), 1e-5f, got.data(), d + 3);
        ref().f32_add_layernorm(rows, d, x.data(), d + 1, with_r ? r.data() : nullptr, d + 2, gamma.data(),
                                beta.data(), 1e-5f, want.data(), d + 3);
        ASSERT_TRUE(close(got.data(), want.data(), got.size(), 1e-5f, 1e-5f,
                          "f32_add_layernorm d=" + std::to_string(d)));
      }
    }
  }
}

// The SSRU step over several steps (the cell carried), first step included.
void test_f32_ssru(const Kernels& k) {
  for (size_t n : {1, 3, 7, 8, 9, 16, 17, 100, 1027}) {
    std::vector<float> c_got(n, 5.0f), c_want(n, -5.0f);  // ignored by the first step
    for (int step = 0; step < 4; ++step) {
      const auto x = random_floats(n, static_cast<uint32_t>(n * 7 + step), -4.0f, 4.0f);
      const auto g = random_floats(n, static_cast<uint32_t>(n * 11 + step), -12.0f, 12.0f);
      std::vector<float> got(n), want(n);
      k.f32_ssru(n, x.data(), g.data(), c_got.data(), step == 0, got.data());
      ref().f32_ssru(n, x.data(), g.data(), c_want.data(), step == 0, want.data());
      const std::string what = "f32_ssru n=" + std::to_string(n) + " step " + std::to_string(step);
      ASSERT_TRUE(close(got.data(), want.data(), n, 2e-6f, 2e-6f, what));
      ASSERT_TRUE(close(c_got.data(), c_want.data(), n, 2e-6f, 2e-6f, what + " cell"));
      size_t negative = 0;
      for (size_t i = 0; i < n; ++i) {
        ASSERT_GE(want[i], 0.0f) << what;
        negative += c_want[i] < 0.0f;
        if (c_want[i] > 0.0f) {
          ASSERT_EQ(want[i], c_want[i]) << what;
        }
      }
      if (n >= 100) {
        ASSERT_GT(negative, 0u) << what << ": the relu is never exercised";
      }
    }
  }
}

void test_f32_add(const Kernels& k) {
  for (size_t n : {1, 5, 8, 33, 1000}) {
    const auto x = random_floats(n, 1), r = random_floats(n, 2);
    std::vector<float> got(n), want(n);
    k.f32_add(n, x.data(), r.data(), got.data());
    ref().f32_add(n, x.data(), r.data(), want.data());
    ASSERT_TRUE(close(got.data(), want.data(), n, 0.0f, 0.0f, "f32_add"));
  }
}

void test_f32_embed(const Kernels& k) {
  for (size_t d : {1, 7, 8, 16, 40, 512}) {
    for (size_t stride : {1, 16}) {
      const auto e = random_floats(d * stride, 5), p = random_floats(d, 6);
      for (bool with_p : {true, false}) {
        std::vector<float> got(d), want(d);
        k.f32_embed(d, e.data(), stride, 22.627417f, with_p ? p.data() : nullptr, got.data());
        ref().f32_embed(d, e.data(), stride, 22.627417f, with_p ? p.data() : nullptr, want.data());
        ASSERT_TRUE(close(got.data(), want.data(), d, 0.0f, 0.0f, "f32_embed d=" + std::to_string(d)));
      }
    }
  }
  // A panel row reads the same values as the row-major row it was packed from.
  const size_t n = 37, d = 24;
  const auto rows = random_floats(n * d, 8);
  Aligned packed(f32_panel_size(n, d));
  pack_f32_panels(n, d, rows.data(), packed.data());
  for (size_t r : {0, 5, 16, 36}) {
    std::vector<float> a(d), b(d);
    k.f32_embed(d, rows.data() + r * d, 1, 1.0f, nullptr, a.data());
    k.f32_embed(d, packed.data() + f32_panel_row_offset(d, r), kPanel, 1.0f, nullptr, b.data());
    ASSERT_EQ(a, b) << "panel row " << r;
  }
}

void test_qs8_embed(const Kernels& k) {
  for (size_t d : {1, 7, 8, 16, 40, 512}) {
    for (size_t gs : {4, 64}) {
      std::vector<int8_t> e((d / 4 + 1) * gs);
      for (size_t i = 0; i < e.size(); ++i) e[i] = static_cast<int8_t>(static_cast<int>(i * 37 % 255) - 127);
      const auto p = random_floats(d, 6);
      std::vector<float> got(d), want(d);
      k.qs8_embed(d, e.data(), gs, 0.01f, 16.0f, p.data(), got.data());
      ref().qs8_embed(d, e.data(), gs, 0.01f, 16.0f, p.data(), want.data());
      ASSERT_TRUE(close(got.data(), want.data(), d, 0.0f, 0.0f, "qs8_embed d=" + std::to_string(d)));
    }
  }
  // A panel row reads the same values as the row-major row it was packed from.
  const size_t n = 37, d = 24;
  std::vector<int8_t> rows(n * d), packed(qs8_panel_size(n, d));
  for (size_t i = 0; i < rows.size(); ++i)
    rows[i] = static_cast<int8_t>(static_cast<int>(i * 13 % 255) - 127);
  pack_qs8_panels(n, d, rows.data(), packed.data());
  for (size_t r : {0, 5, 16, 36}) {
    std::vector<float> a(d), b(d);
    k.qs8_embed(d, rows.data() + r * d, 4, 1.0f, 1.0f, nullptr, a.data());
    k.qs8_embed(d, packed.data() + qs8_panel_row_offset(d, r), 64, 1.0f, 1.0f, nullptr, b.data());
    ASSERT_EQ(a, b) << "panel row " << r;
  }
}

// ---- attention: 1e-5 ---------------------------------------------------------------------
void test_f32_attention(const Kernels& k) {
  for (size_t hd : {1, 4, 8, 12, 16, 33, 64})
    for (size_t lk : {1, 2, 15, 16, 17, 31, 63, 130})
      for (size_t lq : {1, 2, 3, 4, 5, 9}) {
        const size_t ldq = hd + 3, ldv = hd + 5, ldo = hd + 1;
        const size_t nb = (lk + kKeyBlock - 1) / kKeyBlock, ldkb = hd * kKeyBlock + 16;
        const auto q = random_floats(lq * ldq, static_cast<uint32_t>(hd * 7 + lk), -2.0f, 2.0f);
        const auto keys = random_floats(lk * hd, static_cast<uint32_t>(lk * 3 + hd), -2.0f, 2.0f);
        const auto v = random_floats(lk * ldv, static_cast<uint32_t>(lq + lk + hd));
        Aligned kt(nb * ldkb + 16);
        for (size_t i = 0; i < kt.size(); ++i) kt[i] = 1e30f;  // unused slots must not matter
        ref().f32_pack_keys(lk, hd, keys.data(), hd, kt.data(), ldkb, 0, true);
        Aligned scratch(4 * nb * kKeyBlock + 16);
        std::vector<float> got(lq * ldo, 5.0f), want(lq * ldo, 5.0f);
        const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
        k.f32_attention(lq, lk, hd, q.data(), ldq, kt.data(), ldkb, v.data(), ldv, got.data(), ldo, scale,
                        scratch.data());
        ref().f32_attention(lq, lk, hd, q.data(), ldq, kt.data(), ldkb, v.data(), ldv, want.data(), ldo,
                            scale, scratch.data());
        ASSERT_TRUE(close(got.data(), want.data(), got.size(), 1e-5f, 1e-5f,
                          "f32_attention hd=" + std::to_string(hd) + " lk=" + std::to_string(lk) +
                              " lq=" + std::to_string(lq)));
      }
}

void test_f32_pack_keys(const Kernels& k) {
  for (size_t hd : {1, 5, 16, 64})
    for (size_t n : {1, 3, 16, 17, 40})
      for (size_t j0 : {0, 1, 15, 16, 33}) {
        const size_t nb = (j0 + n + kKeyBlock - 1) / kKeyBlock + 1, ldkb = hd * kKeyBlock;
        const auto keys = random_floats(n * (hd + 2), static_cast<uint32_t>(hd + n + j0));
        std::vector<float> got(nb * ldkb, 9.0f), want(nb * ldkb, 9.0f);
        k.f32_pack_keys(n, hd, keys.data(), hd + 2, got.data(), ldkb, j0, true);
        ref().f32_pack_keys(n, hd, keys.data(), hd + 2, want.data(), ldkb, j0, true);
        ASSERT_EQ(got, want) << "f32_pack_keys hd=" << hd << " n=" << n << " j0=" << j0;
      }
}

// ---- search: exact -----------------------------------------------------------------------
void test_f32_topk(const Kernels& k) {
  for (size_t n : {1, 2, 7, 8, 9, 64, 100, 1000, 58101})
    for (size_t kk : {1, 2, 4, 8, 16}) {
      if (kk > n) continue;
      auto x = random_floats(n, static_cast<uint32_t>(n + kk), -5.0f, 5.0f);
      for (size_t i = 0; i < n; i += 7) x[i] = 1.25f;  // ties
      if (n > 10) x[5] = -INFINITY;
      std::vector<float> gv(kk), wv(kk);
      std::vector<uint32_t> gi(kk), wi(kk);
      ASSERT_EQ(kk, k.f32_topk(n, x.data(), 0, kk, 0, gv.data(), gi.data()));
      ASSERT_EQ(kk, ref().f32_topk(n, x.data(), 0, kk, 0, wv.data(), wi.data()));
      ASSERT_EQ(gi, wi) << "f32_topk n=" << n << " k=" << kk;
      ASSERT_EQ(gv, wv);
      // In parts (uneven blocks, the first shorter than k): the same list.
      for (size_t part : {size_t{1}, size_t{3}, size_t{1000}}) {
        std::vector<float> pv(kk);
        std::vector<uint32_t> pi(kk);
        size_t filled = 0;
        for (size_t i0 = 0; i0 < n; i0 += part)
          filled = k.f32_topk(std::min(part, n - i0), x.data() + i0, static_cast<uint32_t>(i0), kk, filled,
                              pv.data(), pi.data());
        ASSERT_EQ(kk, filled);
        ASSERT_EQ(pi, wi) << "f32_topk in parts of " << part << ", n=" << n << " k=" << kk;
        ASSERT_EQ(pv, wv);
      }
      // The reference itself: sorted, and no unlisted element beats the last one.
      for (size_t i = 1; i < kk; ++i) ASSERT_GE(wv[i - 1], wv[i]);
      for (size_t i = 0; i < n; ++i) {
        bool listed = false;
        for (uint32_t j : wi) listed = listed || j == i;
        if (!listed) {
          ASSERT_LE(x[i], wv[kk - 1]);
        }
      }
    }
}

#define EDGEMT_KERNEL_TEST(name, type, source, folder, unused) \
  TEST_P(KernelTest, name) { test_##name(k()); }
EDGEMT_KERNELS(EDGEMT_KERNEL_TEST, 0)
#undef EDGEMT_KERNEL_TEST

// Every level whose CPU has FMA (all but ref and sse4_2) fuses the GEMM's multiply-adds:
// one rounding each, as the speed of the AVX2/AVX-512/NEON kernels depends on (xsimd
// 8.1 has no AVX-512 fma and fell back to a multiply and an add). With a = (-1, 1 + e),
// w = (1 + 2e, 1 + e), e = 2^-12: the second product is 1 + 2e + e^2 exactly, e^2 = 2^-24
// is half an ulp of 1, so a multiply then an add gives 0 and a fused one gives e^2.
TEST_P(KernelTest, GemmFusesMultiplyAddWhereTheCpuCan) {
  const float e = std::ldexp(1.0f, -12);
  const size_t m = 3, n = 33, kk = 2;  // several rows and a partial panel: every tile shape
  std::vector<float> a(m * kk), w(n * kk);
  for (size_t i = 0; i < m; ++i) {
    a[i * kk] = -1.0f;
    a[i * kk + 1] = 1.0f + e;
  }
  for (size_t j = 0; j < n; ++j) {
    w[j * kk] = 1.0f + 2.0f * e;
    w[j * kk + 1] = 1.0f + e;
  }
  Aligned packed(f32_panel_size(n, kk));
  pack_f32_panels(n, kk, w.data(), packed.data());
  std::vector<float> c(m * n, -7.0f);
  k().f32_gemm(m, n, kk, a.data(), kk, packed.data(), c.data(), n, GemmEpilogue{});
  const bool fused = GetParam() != Isa::ref && std::strcmp(isa_name(GetParam()), "sse4_2") != 0;
  for (size_t i = 0; i < m * n; ++i)
    ASSERT_EQ(c[i], fused ? e * e : 0.0f) << isa_name(GetParam()) << " element " << i;
}

std::vector<Isa> all_isas() {
  std::vector<Isa> v;
  for (size_t i = 0; i < static_cast<size_t>(Isa::kCount); ++i) v.push_back(static_cast<Isa>(i));
  return v;
}

INSTANTIATE_TEST_SUITE_P(AllIsas, KernelTest, ::testing::ValuesIn(all_isas()),
                         [](const ::testing::TestParamInfo<Isa>& info) {
                           return std::string(isa_name(info.param));
                         });

// ---- the same bits on every level ----------------------------------------------------
// Levels differ in vector width and in having FMA. Every kernel gives the same bits on
// every level with FMA; those without a multiply-add to fuse (relu, gelu, layer norm,
// the int8 gemm without an exp in its epilogue) on sse4_2 too. int8 models quantize
// activations, where one last-bit difference can change a code and then the translation:
// these tests are why an int8 model translates the same on every x86 CPU from AVX2 up.
bool fuses(Isa i) { return i != Isa::ref && std::strcmp(isa_name(i), "sse4_2") != 0; }

std::vector<Isa> comparable_levels(bool fma_only) {
  std::vector<Isa> v;
  for (Isa i : all_isas())
    if (i != Isa::ref && isa_supported(i) && (!fma_only || fuses(i))) v.push_back(i);
  return v;
}

// One case: a kernel call on fixed inputs. fma: the case's bits depend on fusing (every
// FMA level agrees, sse4_2 and ref need not): the gemm, attention, and whatever calls
// k_exp (softmax, log-sum-exp, the gelus, swish, the SSRU gate).
bool uses_exp(Activation act) {
  return act == Activation::kSwish || act == Activation::kGeluTanh || act == Activation::kGelu;
}

struct BitCase {
  std::string name;
  bool fma;
  std::function<std::vector<float>(const Kernels&)> run;
};

std::vector<BitCase> bit_cases() {
  std::vector<BitCase> cases;
  for (size_t n : {1, 7, 17, 33, 4099}) {
    auto x = random_floats(n, static_cast<uint32_t>(n) + 40, -12.0f, 12.0f);
    const float extremes[] = {-100.0f, 100.0f, -87.5f, 88.5f, 0.0f, -0.0f, 1e-30f};
    for (size_t i = 0; i < n && i < 7; ++i) x[i * 5 % n] = extremes[i];
    for (Activation act : kActs)
      cases.push_back({"f32_activation/n" + std::to_string(n) + "/act" + std::to_string(int(act)),
                       uses_exp(act), [x, n, act](const Kernels& k) {
                         std::vector<float> y(n);
                         k.f32_activation(n, x.data(), y.data(), act);
                         return y;
                       }});
  }
  for (size_t n : {1, 5, 31, 32, 33, 100, 4099, 32003}) {
    auto x = random_floats(n, static_cast<uint32_t>(n) + 50, -30.0f, 30.0f);
    if (n > 10) x[7] = -INFINITY;
    cases.push_back({"f32_softmax/n" + std::to_string(n), true, [x, n](const Kernels& k) {
                       std::vector<float> y(n + 3);
                       k.f32_softmax(n, n + 3, x.data(), y.data());
                       return y;
                     }});
    cases.push_back({"f32_logsumexp/n" + std::to_string(n), true,
                     [x, n](const Kernels& k) { return std::vector<float>{k.f32_logsumexp(n, x.data())}; }});
  }
  for (size_t d : {1, 7, 31, 33, 256, 512, 1001}) {
    const size_t rows = 3;
    const auto x = random_floats(rows * d, static_cast<uint32_t>(d) + 60, -4.0f, 4.0f);
    const auto r = random_floats(rows * d, static_cast<uint32_t>(d) + 61, -4.0f, 4.0f);
    const auto gamma = random_floats(d, 62, 0.5f, 1.5f), beta = random_floats(d, 63);
    cases.push_back({"f32_add_layernorm/d" + std::to_string(d), false, [=](const Kernels& k) {
                       std::vector<float> y(rows * d);
                       k.f32_add_layernorm(rows, d, x.data(), d, r.data(), d, gamma.data(), beta.data(),
                                           1e-5f, y.data(), d);
                       return y;
                     }});
  }
  for (size_t n : {3, 33, 1027}) {
    const auto x = random_floats(n, static_cast<uint32_t>(n) + 70, -4.0f, 4.0f);
    const auto g = random_floats(n, static_cast<uint32_t>(n) + 71, -12.0f, 12.0f);
    cases.push_back({"f32_ssru/n" + std::to_string(n), true, [=](const Kernels& k) {
                       std::vector<float> c(n), y(2 * n);
                       k.f32_ssru(n, x.data(), g.data(), c.data(), true, y.data());
                       k.f32_ssru(n, g.data(), x.data(), c.data(), false, y.data() + n);
                       y.insert(y.end(), c.begin(), c.end());
                       return y;
                     }});
  }
  {
    const size_t m = 5, n = 83, kk = 77, ldq = qs8_k_padded(kk);
    std::mt19937 g(11);
    std::uniform_int_distribution<int> dist(-127, 127);
    auto q = std::make_shared<std::vector<int8_t>>(m * ldq, 0);
    std::vector<int8_t> w(n * kk);
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < kk; ++j) (*q)[i * ldq + j] = static_cast<int8_t>(dist(g));
    for (auto& v : w) v = static_cast<int8_t>(dist(g) / 2);
    auto packed = std::make_shared<std::vector<int8_t>>(qs8_panel_size(n, kk) + 64);
    pack_qs8_panels(n, kk, w.data(), packed->data());
    std::vector<int32_t> sums(n, 0);
    for (size_t r = 0; r < n; ++r)
      for (size_t c = 0; c < kk; ++c) sums[r] += w[r * kk + c];
    const auto sa = random_floats(m, 80, 0.001f, 0.05f), sw = random_floats(n, 81, 0.001f, 0.05f);
    const auto bias = random_floats(n, 82);
    for (Activation act : kActs)
      cases.push_back({"qs8_gemm/act" + std::to_string(int(act)), uses_exp(act), [=](const Kernels& k) {
                         std::vector<float> c(m * n);
                         k.qs8_gemm(m, n, kk, q->data(), ldq, sa.data(), packed->data(), sw.data(),
                                    sums.data(), c.data(), n, GemmEpilogue{bias.data(), act});
                         return c;
                       }});
  }
  for (size_t kk : {64, 77})
    for (size_t n : {17, 83}) {
      const size_t m = 5;
      const auto a = random_floats(m * kk, 90), w = random_floats(n * kk, 91), bias = random_floats(n, 92);
      auto packed = std::make_shared<Aligned>(f32_panel_size(n, kk) + 16);
      pack_f32_panels(n, kk, w.data(), packed->data());
      for (Activation act : kActs)
        cases.push_back(
            {"f32_gemm/k" + std::to_string(kk) + "/n" + std::to_string(n) + "/act" + std::to_string(int(act)),
             true, [=](const Kernels& k) {
               std::vector<float> c(m * n);
               k.f32_gemm(m, n, kk, a.data(), kk, packed->data(), c.data(), n,
                          GemmEpilogue{bias.data(), act});
               return c;
             }});
    }
  for (size_t hd : {12, 64})
    for (size_t lk : {9, 130})
      for (size_t lq : {1, 5}) {
        const size_t nb = (lk + kKeyBlock - 1) / kKeyBlock, ldkb = hd * kKeyBlock;
        const auto q = random_floats(lq * hd, 93, -2.0f, 2.0f),
                   keys = random_floats(lk * hd, 94, -2.0f, 2.0f);
        const auto v = random_floats(lk * hd, 95);
        auto kt = std::make_shared<Aligned>(nb * ldkb + 16);
        ref().f32_pack_keys(lk, hd, keys.data(), hd, kt->data(), ldkb, 0, true);
        cases.push_back({"f32_attention/hd" + std::to_string(hd) + "/lk" + std::to_string(lk) + "/lq" +
                             std::to_string(lq),
                         true, [=](const Kernels& k) {
                           Aligned scratch(4 * nb * kKeyBlock + 16);
                           std::vector<float> o(lq * hd);
                           k.f32_attention(lq, lk, hd, q.data(), hd, kt->data(), ldkb, v.data(), hd, o.data(),
                                           hd, 0.125f, scratch.data());
                           return o;
                         }});
      }
  return cases;
}

// FNV-1a over the values' bytes (little-endian on every target).
uint64_t digest(const std::vector<float>& v) {
  uint64_t h = 1469598103934665603ull;
  for (float f : v) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    for (int i = 0; i < 4; ++i) {
      h ^= (b >> (8 * i)) & 0xffu;
      h *= 1099511628211ull;
    }
  }
  return h;
}

TEST(SameBitsOnEveryLevel, EveryCase) {
  size_t compared = 0;
  for (const BitCase& c : bit_cases()) {
    const std::vector<Isa> levels = comparable_levels(c.fma);
    if (levels.size() < 2) continue;
    const std::vector<float> first = c.run(*kernels_for(levels[0]));
    for (size_t l = 1; l < levels.size(); ++l) {
      const std::vector<float> got = c.run(*kernels_for(levels[l]));
      ASSERT_EQ(got.size(), first.size());
      size_t differ = 0, at = 0;
      for (size_t i = 0; i < got.size(); ++i)
        if (std::memcmp(&got[i], &first[i], 4) != 0 && differ++ == 0) at = i;
      EXPECT_EQ(differ, 0u) << c.name << ": " << isa_name(levels[l]) << " vs " << isa_name(levels[0]) << ", "
                            << differ << " of " << got.size() << " values differ, the first at " << at << " ("
                            << got[at] << " vs " << first[at] << ")";
      ++compared;
    }
  }
  if (compared == 0) GTEST_SKIP() << "this CPU runs fewer than two levels";
}

// The same bits on other architectures: each case's digest on this CPU's active level
// against tests/ops/kernel_bits.txt, written on x86 with AVX2 or better by
//   EDGEMT_WRITE_KERNEL_BITS=tests/ops/kernel_bits.txt edgemt_ops_test --gtest_filter='SameBitsAsX86.*'
// The ARM stages run it under qemu: a Pi then translates as a PC does. The fma cases are
// skipped on levels without FMA.
TEST(SameBitsAsX86, EveryCase) {
  const std::vector<BitCase> cases = bit_cases();
  if (const char* out = std::getenv("EDGEMT_WRITE_KERNEL_BITS")) {
    ASSERT_TRUE(fuses(active_isa()) && std::strncmp(isa_name(active_isa()), "avx", 3) == 0)
        << "write the digests on an x86 level with FMA";
    FILE* f = std::fopen(out, "w");
    ASSERT_NE(f, nullptr) << out;
    std::fprintf(f, "# case digest [x86]: tests/ops/kernels_test.cc, SameBitsAsX86 (written on %s)\n",
                 isa_name(active_isa()));
    for (const BitCase& c : cases)
      std::fprintf(f, "%s %016llx\n", c.name.c_str(),
                   static_cast<unsigned long long>(digest(c.run(kernels()))));
    std::fclose(f);
    GTEST_SKIP() << "wrote " << out;
  }
  if (active_isa() == Isa::ref) GTEST_SKIP() << "the scalar reference uses the C library's math";
  FILE* f = std::fopen(EDGEMT_KERNEL_BITS_FILE, "r");
  ASSERT_NE(f, nullptr) << EDGEMT_KERNEL_BITS_FILE;
  std::vector<std::string> lines;
  char buf[512];
  while (std::fgets(buf, sizeof buf, f) != nullptr) lines.emplace_back(buf);
  std::fclose(f);
  size_t checked = 0;
  for (const BitCase& c : cases) {
    if (c.fma && !fuses(active_isa())) continue;
    std::string want;
    for (const std::string& line : lines)
      if (line.compare(0, c.name.size() + 1, c.name + " ") == 0) want = line.substr(c.name.size() + 1, 16);
    ASSERT_EQ(want.size(), 16u) << c.name << " is not in " << EDGEMT_KERNEL_BITS_FILE;
    char got[17];
    std::snprintf(got, sizeof got, "%016llx", static_cast<unsigned long long>(digest(c.run(kernels()))));
    EXPECT_EQ(std::string(got), want) << c.name << " on " << isa_name(active_isa());
    ++checked;
  }
  EXPECT_GT(checked, 0u);
}

// The reference oracle itself, against double-precision math.
TEST(Reference, GemmMatchesDouble) {
  const size_t m = 5, n = 19, kk = 37;
  const auto a = random_floats(m * kk, 1), w = random_floats(n * kk, 2);
  Aligned packed(f32_panel_size(n, kk));
  pack_f32_panels(n, kk, w.data(), packed.data());
  std::vector<float> c(m * n);
  ref().f32_gemm(m, n, kk, a.data(), kk, packed.data(), c.data(), n, GemmEpilogue{});
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      double s = 0;
      for (size_t t = 0; t < kk; ++t) s += static_cast<double>(a[i * kk + t]) * w[j * kk + t];
      EXPECT_NEAR(c[i * n + j], s, 1e-5);
    }
}

TEST(Reference, SoftmaxSumsToOne) {
  const auto x = random_floats(100, 3, -30.0f, 30.0f);
  std::vector<float> y(100);
  ref().f32_softmax(100, 100, x.data(), y.data());
  double s = 0;
  for (float v : y) s += v;
  EXPECT_NEAR(s, 1.0, 1e-5);
}

TEST(Dispatch, NamesRoundTrip) {
  for (Isa i : all_isas()) {
    Isa back;
    ASSERT_TRUE(isa_from_name(isa_name(i), &back));
    EXPECT_EQ(back, i);
  }
  Isa x;
  EXPECT_FALSE(isa_from_name("pentium", &x));
  EXPECT_TRUE(isa_supported(Isa::ref));
  EXPECT_TRUE(isa_supported(best_isa()));
}

// Run-time CPU detection. EDGEMT_EXPECT_ISA names the level the CPU must select (set by
// scripts/cross-test and the rpi test presets for each emulated CPU: cortex-a72 ->
// neon64, cortex-a76 -> neon64_dot, cortex-a7 -> neon); unset, the test only reports.
TEST(Dispatch, SelectsExpectedIsa) {
  std::string supported;
  for (Isa i : all_isas())
    if (isa_supported(i)) supported += std::string(supported.empty() ? "" : " ") + isa_name(i);
  std::printf("edgemt isa: best %s, active %s, supported: %s\n", isa_name(best_isa()), isa_name(active_isa()),
              supported.c_str());
  // Levels are ordered within a family: every level below the best one is supported, but
  // an int8-only level (its generic kernels are another level's) may be missing where a
  // higher level is present (avxvnni on AVX-512 without VNNI).
  constexpr bool kInt8Only[] = {
#define EDGEMT_INT8_ONLY(token, family, base, arch, flags, detect) std::string_view(#token) != #base,
      EDGEMT_ISAS(EDGEMT_INT8_ONLY)
#undef EDGEMT_INT8_ONLY
  };
  for (size_t i = 0; i <= static_cast<size_t>(best_isa()); ++i) {
    if (!kInt8Only[i] || i == static_cast<size_t>(best_isa())) {
      EXPECT_TRUE(isa_supported(static_cast<Isa>(i))) << isa_name(static_cast<Isa>(i));
    }
  }
  EXPECT_NE(kernels_for(best_isa()), nullptr);
  const char* expect = std::getenv("EDGEMT_EXPECT_ISA");
  if (expect == nullptr || *expect == '\0') GTEST_SKIP() << "EDGEMT_EXPECT_ISA not set";
  EXPECT_STREQ(isa_name(best_isa()), expect);
}

// EDGEMT_ISA forces a lower level (ref on every machine, neon64 on a dot-product CPU);
// an unknown or unsupported name falls back to the best level.
TEST(Dispatch, ForcedIsaIsHonoured) {
  const char* forced = std::getenv("EDGEMT_ISA");
  Isa want = best_isa();
  if (forced != nullptr && *forced != '\0') {
    Isa f;
    if (isa_from_name(forced, &f) && isa_supported(f)) want = f;
  }
  EXPECT_STREQ(isa_name(active_isa()), isa_name(want));
}

}  // namespace
}  // namespace edgemt::ops
