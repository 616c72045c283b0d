// edgemt-bench-ops: per-op latency of the kernels at the real shapes of bench/shapes.h,
// on the ISA the process selects (force one with EDGEMT_ISA=avx2 ...), single thread,
// with OpenBLAS sgemm on the same shapes in the same run as the baseline.
//
// Counters: GFLOP/s for compute-bound ops (2*m*n*k per gemm), GB/s for memory-bound
// ones (bytes read + written once). Compare rows of one run: e.g.
//   gemm/f32/opus/ffn1/m:16  vs  gemm/openblas/opus/ffn1/m:16
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "bench/shapes.h"
#include "ops/gemm/pack.h"
#include "ops/ops.h"

#if EDGEMT_HAVE_OPENBLAS
#include <cblas.h>
extern "C" void openblas_set_num_threads(int);
#endif

namespace edgemt::bench {
namespace {

const ops::Kernels& K() { return ops::kernels(); }

struct Buf {
  explicit Buf(size_t n) : p(static_cast<float*>(std::aligned_alloc(64, (n * 4 + 63) / 64 * 64 + 64))), n(n) {
    std::mt19937 g(static_cast<uint32_t>(n));
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (size_t i = 0; i < n; ++i) p[i] = u(g);
  }
  ~Buf() { std::free(p); }
  Buf(const Buf&) = delete;
  float* p;
  size_t n;
};

void set_gemm_counters(benchmark::State& st, size_t m, size_t n, size_t k, size_t weight_bytes) {
  st.counters["GFLOP/s"] = benchmark::Counter(2.0 * m * n * k, benchmark::Counter::kIsIterationInvariantRate,
                                              benchmark::Counter::kIs1000);
  st.counters["GB/s"] =
      benchmark::Counter(static_cast<double>(weight_bytes + 4 * (m * k + m * n)),
                         benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

void BM_f32_gemm(benchmark::State& st, ModelShape ms, Layer layer, size_t m) {
  size_t n = 0, k = 0;
  layer_dims(ms, layer, &n, &k);
  Buf a(m * k), w(ops::f32_panel_size(n, k)), bias(n), c(m * n);
  const ops::GemmEpilogue ep{bias.p, layer == Layer::kFfn1 ? ops::Activation::kRelu : ops::Activation::kNone};
  for (auto _ : st) {
    K().f32_gemm(m, n, k, a.p, k, w.p, c.p, n, ep);
    benchmark::DoNotOptimize(c.p);
    benchmark::ClobberMemory();
  }
  set_gemm_counters(st, m, n, k, ops::f32_panel_size(n, k) * 4);
}

void BM_qs8_gemm(benchmark::State& st, ModelShape ms, Layer layer, size_t m, bool w7) {
  size_t n = 0, k = 0;
  layer_dims(ms, layer, &n, &k);
  const size_t kp = ops::qs8_k_padded(k);
  Buf a(m * k), bias(n), c(m * n), sw(n);
  std::vector<int8_t> q(m * kp), w(ops::qs8_panel_size(n, k));
  std::vector<float> sa(m);
  std::vector<int32_t> sums(n, 0);
  for (size_t i = 0; i < w.size(); ++i)
    w[i] =
        static_cast<int8_t>(w7 ? static_cast<int>(i * 31 % 127) - 63 : static_cast<int>(i * 31 % 255) - 127);
  const ops::Qs8GemmFn gemm = w7 ? K().qs8_gemm_w7 : K().qs8_gemm;
  for (size_t i = 0; i < n; ++i) sw.p[i] = 0.01f;
  const ops::GemmEpilogue ep{bias.p, ops::Activation::kNone};
  for (auto _ : st) {
    // Includes the per-row quantization of activations, as in the runtime.
    K().qs8_quantize(m, k, a.p, k, q.data(), kp, sa.data());
    gemm(m, n, k, q.data(), kp, sa.data(), w.data(), sw.p, sums.data(), c.p, n, ep);
    benchmark::DoNotOptimize(c.p);
    benchmark::ClobberMemory();
  }
  set_gemm_counters(st, m, n, k, ops::qs8_panel_size(n, k));
}

#if EDGEMT_HAVE_OPENBLAS
void BM_openblas_sgemm(benchmark::State& st, ModelShape ms, Layer layer, size_t m) {
  size_t n = 0, k = 0;
  layer_dims(ms, layer, &n, &k);
  Buf a(m * k), w(n * k), c(m * n);
  openblas_set_num_threads(1);
  for (auto _ : st) {
    // C = A W^T with W row-major [n][k], PyTorch's layout.
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(m), static_cast<int>(n),
                static_cast<int>(k), 1.0f, a.p, static_cast<int>(k), w.p, static_cast<int>(k), 0.0f, c.p,
                static_cast<int>(n));
    benchmark::DoNotOptimize(c.p);
    benchmark::ClobberMemory();
  }
  set_gemm_counters(st, m, n, k, n * k * 4);
}
#endif

void set_bytes(benchmark::State& st, double bytes) {
  st.counters["GB/s"] =
      benchmark::Counter(bytes, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

// Bandwidth baseline for the memory-bound ops: copying the same bytes they read and
// write (memcpy), in the same run.
void BM_copy(benchmark::State& st, size_t n) {
  Buf x(n), y(n);
  for (auto _ : st) {
    std::memcpy(y.p, x.p, n * sizeof(float));
    benchmark::DoNotOptimize(y.p);
    benchmark::ClobberMemory();
  }
  set_bytes(st, 8.0 * n);
}

void BM_softmax(benchmark::State& st, size_t n) {
  Buf x(n), y(n);
  for (auto _ : st) {
    K().f32_softmax(n, n, x.p, y.p);
    benchmark::DoNotOptimize(y.p);
  }
  set_bytes(st, 8.0 * n);
}

void BM_logsumexp(benchmark::State& st, size_t n) {
  Buf x(n);
  for (auto _ : st) benchmark::DoNotOptimize(K().f32_logsumexp(n, x.p));
  set_bytes(st, 4.0 * n);
}

void BM_add_layernorm(benchmark::State& st, size_t rows, size_t d) {
  Buf x(rows * d), r(rows * d), g(d), b(d);
  for (auto _ : st) {
    K().f32_add_layernorm(rows, d, x.p, d, r.p, d, g.p, b.p, 1e-5f, r.p, d);
    benchmark::DoNotOptimize(r.p);
  }
  set_bytes(st, 12.0 * rows * d);
}

void BM_activation(benchmark::State& st, ops::Activation act, size_t n) {
  Buf x(n), y(n);
  for (auto _ : st) {
    K().f32_activation(n, x.p, y.p, act);
    benchmark::DoNotOptimize(y.p);
  }
  set_bytes(st, 8.0 * n);
}

void BM_embed(benchmark::State& st, size_t rows, size_t d, size_t vocab) {
  Buf e(vocab * d), p(512 * d), y(rows * d);
  std::mt19937 g(1);
  std::vector<size_t> ids(rows);
  for (auto& i : ids) i = g() % vocab;
  for (auto _ : st) {
    for (size_t r = 0; r < rows; ++r)
      K().f32_embed(d, e.p + ids[r] * d, 1, 22.6f, p.p + (r % 512) * d, y.p + r * d);
    benchmark::DoNotOptimize(y.p);
  }
  set_bytes(st, 12.0 * rows * d);
}

// One head: decode (lq = 1 over lk keys) or encoder (lq = lk).
void BM_attention(benchmark::State& st, size_t lq, size_t lk, size_t hd) {
  const size_t nb = (lk + ops::kKeyBlock - 1) / ops::kKeyBlock;
  Buf q(lq * hd), keys(lk * hd), kt(nb * hd * ops::kKeyBlock), v(lk * hd), o(lq * hd),
      scratch(4 * nb * ops::kKeyBlock);
  K().f32_pack_keys(lk, hd, keys.p, hd, kt.p, hd * ops::kKeyBlock, 0, true);
  const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
  for (auto _ : st) {
    K().f32_attention(lq, lk, hd, q.p, hd, kt.p, hd * ops::kKeyBlock, v.p, hd, o.p, hd, scale, scratch.p);
    benchmark::DoNotOptimize(o.p);
  }
  st.counters["GFLOP/s"] = benchmark::Counter(
      4.0 * lq * lk * hd, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}

void BM_topk(benchmark::State& st, size_t n, size_t k) {
  Buf x(n);
  std::vector<float> v(k);
  std::vector<uint32_t> idx(k);
  for (auto _ : st) {
    K().f32_topk(n, x.p, 0, k, 0, v.data(), idx.data());
    benchmark::DoNotOptimize(idx.data());
  }
  set_bytes(st, 4.0 * n);
}

void BM_quantize(benchmark::State& st, size_t rows, size_t k) {
  const size_t kp = ops::qs8_k_padded(k);
  Buf a(rows * k);
  std::vector<int8_t> q(rows * kp);
  std::vector<float> sa(rows);
  for (auto _ : st) {
    K().qs8_quantize(rows, k, a.p, k, q.data(), kp, sa.data());
    benchmark::DoNotOptimize(q.data());
  }
  set_bytes(st, 5.0 * rows * k);
}

void BM_add(benchmark::State& st, size_t n) {
  Buf x(n), r(n);
  for (auto _ : st) {
    K().f32_add(n, x.p, r.p, r.p);
    benchmark::DoNotOptimize(r.p);
  }
  set_bytes(st, 12.0 * n);
}

void BM_ssru(benchmark::State& st, size_t rows, size_t d) {
  Buf x(rows * d), g(rows * d), c(rows * d), y(rows * d);
  for (auto _ : st) {
    for (size_t r = 0; r < rows; ++r)
      K().f32_ssru(d, x.p + r * d, g.p + r * d, c.p + r * d, false, y.p + r * d);
    benchmark::DoNotOptimize(y.p);
  }
  set_bytes(st, 20.0 * rows * d);
}

void BM_embed_int8(benchmark::State& st, size_t rows, size_t d, size_t vocab) {
  std::vector<int8_t> e(vocab * d);
  for (size_t i = 0; i < e.size(); ++i) e[i] = static_cast<int8_t>(static_cast<int>(i * 31 % 255) - 127);
  Buf p(512 * d), y(rows * d);
  std::mt19937 g(1);
  std::vector<size_t> ids(rows);
  for (auto& i : ids) i = g() % vocab;
  for (auto _ : st) {
    for (size_t r = 0; r < rows; ++r)
      K().qs8_embed(d, e.data() + ids[r] * d, 4, 0.01f, 22.6f, p.p + (r % 512) * d, y.p + r * d);
    benchmark::DoNotOptimize(y.p);
  }
  set_bytes(st, 9.0 * rows * d);
}

void BM_pack_keys(benchmark::State& st, size_t len, size_t hd) {
  const size_t nb = (len + ops::kKeyBlock - 1) / ops::kKeyBlock;
  Buf keys(len * hd), kt(nb * hd * ops::kKeyBlock);
  for (auto _ : st) {
    K().f32_pack_keys(len, hd, keys.p, hd, kt.p, hd * ops::kKeyBlock, 0, true);
    benchmark::DoNotOptimize(kt.p);
  }
  set_bytes(st, 8.0 * len * hd);
}

// ---- registration: one function per kernel of ops/kernel_list.h (bench_<name>; a
// kernel without one does not compile), plus the baselines ----------------------------
std::string shape_name(const ModelShape& ms) { return ms.name; }

// gemm/<kind>/<shape>/<layer>/m:<rows> for every model shape, layer and row count.
template <class... Extra>
void register_gemms(const std::string& kind,
                    void (*bm)(benchmark::State&, ModelShape, Layer, size_t, Extra...),
                    std::type_identity_t<Extra>... extra) {
  for (const ModelShape& ms : kModels)
    for (Layer l : kLayers)
      for (size_t m : kRows)
        benchmark::RegisterBenchmark(
            ("gemm/" + kind + "/" + shape_name(ms) + "/" + layer_name(l) + "/m:" + std::to_string(m)).c_str(),
            bm, ms, l, m, extra...)
            ->Unit(benchmark::kMicrosecond);
}
void bench_f32_gemm() { register_gemms("f32", BM_f32_gemm); }
// The int8 gemms include the activations' quantization, as in the runtime.
void bench_qs8_gemm() { register_gemms("qs8", BM_qs8_gemm, false); }
void bench_qs8_gemm_w7() { register_gemms("qs8w7", BM_qs8_gemm, true); }  // 7-bit weights (ops.h)
void bench_qs8_quantize() {
  for (const ModelShape& ms : kModels)
    for (size_t rows : {1, 16})
      benchmark::RegisterBenchmark(
          ("quantize/" + shape_name(ms) + "/ffn/rows:" + std::to_string(rows)).c_str(), BM_quantize, rows,
          ms.ffn);
}
void bench_f32_activation() {
  for (const ModelShape& ms : kModels)
    for (auto [act, name] :
         {std::pair{ops::Activation::kRelu, "relu"}, std::pair{ops::Activation::kGelu, "gelu"},
          std::pair{ops::Activation::kSwish, "swish"}})
      benchmark::RegisterBenchmark(("activation/" + std::string(name) + "/" + ms.name + "/ffn_x16").c_str(),
                                   BM_activation, act, 16 * ms.ffn);
}
void bench_f32_softmax() {
  for (const ModelShape& ms : kModels)
    benchmark::RegisterBenchmark(("softmax/" + shape_name(ms) + "/vocab").c_str(), BM_softmax, ms.vocab);
}
void bench_f32_logsumexp() {
  for (const ModelShape& ms : kModels)
    benchmark::RegisterBenchmark(("logsumexp/" + shape_name(ms) + "/vocab").c_str(), BM_logsumexp, ms.vocab);
}
void bench_f32_add_layernorm() {
  for (const ModelShape& ms : kModels)
    for (size_t rows : {1, 16, 256})
      benchmark::RegisterBenchmark(
          ("add_layernorm/" + shape_name(ms) + "/rows:" + std::to_string(rows)).c_str(), BM_add_layernorm,
          rows, ms.d_model);
}
void bench_f32_add() {
  for (const ModelShape& ms : kModels)
    benchmark::RegisterBenchmark(("add/" + shape_name(ms) + "/rows:256xd").c_str(), BM_add, 256 * ms.d_model);
}
void bench_f32_ssru() {
  for (const ModelShape& ms : kModels)
    for (size_t rows : {1, 16})
      benchmark::RegisterBenchmark(("ssru/" + shape_name(ms) + "/rows:" + std::to_string(rows)).c_str(),
                                   BM_ssru, rows, ms.d_model);
}
void bench_f32_embed() {
  for (const ModelShape& ms : kModels)
    benchmark::RegisterBenchmark(("embed/" + shape_name(ms) + "/rows:64").c_str(), BM_embed, 64, ms.d_model,
                                 ms.vocab);
}
void bench_qs8_embed() {
  for (const ModelShape& ms : kModels)
    benchmark::RegisterBenchmark(("embed_int8/" + shape_name(ms) + "/rows:64").c_str(), BM_embed_int8, 64,
                                 ms.d_model, ms.vocab);
}
void bench_f32_attention() {
  for (const ModelShape& ms : kModels) {
    const size_t hd = ms.d_model / ms.heads;
    for (size_t lk : {16, 64, 256})
      benchmark::RegisterBenchmark(
          ("attention/decode/" + shape_name(ms) + "/lk:" + std::to_string(lk)).c_str(), BM_attention, 1, lk,
          hd);
    for (size_t l : {32, 128})
      benchmark::RegisterBenchmark(
          ("attention/encoder/" + shape_name(ms) + "/len:" + std::to_string(l)).c_str(), BM_attention, l, l,
          hd);
  }
}
void bench_f32_pack_keys() {
  for (const ModelShape& ms : kModels)
    benchmark::RegisterBenchmark(("pack_keys/" + shape_name(ms) + "/len:128").c_str(), BM_pack_keys, 128,
                                 ms.d_model / ms.heads);
}
void bench_f32_topk() {
  for (const ModelShape& ms : kModels)
    benchmark::RegisterBenchmark(("topk/" + shape_name(ms) + "/vocab/k:8").c_str(), BM_topk, ms.vocab, 8);
}

// Baselines in the same run: OpenBLAS sgemm at the same shapes, and memcpy of the bytes
// the memory-bound ops move.
void bench_baselines() {
  for (const ModelShape& ms : kModels) {
#if EDGEMT_HAVE_OPENBLAS
    for (Layer l : kLayers)
      for (size_t m : kRows)
        benchmark::RegisterBenchmark(
            ("gemm/openblas/" + shape_name(ms) + "/" + layer_name(l) + "/m:" + std::to_string(m)).c_str(),
            BM_openblas_sgemm, ms, l, m)
            ->Unit(benchmark::kMicrosecond);
#endif
    benchmark::RegisterBenchmark(("copy/" + shape_name(ms) + "/vocab").c_str(), BM_copy, ms.vocab);
    benchmark::RegisterBenchmark(("copy/" + shape_name(ms) + "/rows:256xd").c_str(), BM_copy,
                                 256 * ms.d_model);
  }
}

void register_all() {
#define EDGEMT_KERNEL_BENCH(name, type, source, folder, unused) bench_##name();
  EDGEMT_KERNELS(EDGEMT_KERNEL_BENCH, 0)
#undef EDGEMT_KERNEL_BENCH
  bench_baselines();
}

}  // namespace
}  // namespace edgemt::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::AddCustomContext("edgemt_isa", edgemt::ops::isa_name(edgemt::ops::active_isa()));
  edgemt::bench::register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
