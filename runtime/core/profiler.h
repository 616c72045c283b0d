// Per-op profile of translations (translate --profile): calls and time per op, with
// fixed storage (no allocation while recording). Disabled, it costs one branch.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace edgemt {

// X(id, name)
#define EDGEMT_PROFILE_OPS(X)                      \
  X(kTokenize, "tokenize")                         \
  X(kDetokenize, "detokenize")                     \
  X(kEncEmbed, "encoder.embed")                    \
  X(kEncGemmQkv, "encoder.gemm_qkv")               \
  X(kEncAttention, "encoder.attention")            \
  X(kEncGemmOut, "encoder.gemm_attn_out")          \
  X(kEncLayerNorm, "encoder.add_layernorm")        \
  X(kEncGemmFfn1, "encoder.gemm_ffn1")             \
  X(kEncGemmFfn2, "encoder.gemm_ffn2")             \
  X(kEncQuantize, "encoder.quantize")              \
  X(kCrossKv, "decoder.gemm_cross_kv")             \
  X(kDecEmbed, "decoder.embed")                    \
  X(kDecGemmQkv, "decoder.gemm_qkv")               \
  X(kDecKvAppend, "decoder.kv_append")             \
  X(kDecSelfAttention, "decoder.self_attention")   \
  X(kDecGemmSsru, "decoder.gemm_ssru")             \
  X(kDecSsru, "decoder.ssru")                      \
  X(kDecGemmOut, "decoder.gemm_attn_out")          \
  X(kDecLayerNorm, "decoder.add_layernorm")        \
  X(kDecGemmCrossQ, "decoder.gemm_cross_q")        \
  X(kDecCrossAttention, "decoder.cross_attention") \
  X(kDecGemmCrossOut, "decoder.gemm_cross_out")    \
  X(kDecGemmFfn1, "decoder.gemm_ffn1")             \
  X(kDecGemmFfn2, "decoder.gemm_ffn2")             \
  X(kDecQuantize, "decoder.quantize")              \
  X(kDecGemmLogits, "decoder.gemm_logits")         \
  X(kDecLogitsTop, "decoder.logits_lse_topk")      \
  X(kDecShortlist, "decoder.shortlist")            \
  X(kSearchSoftmax, "search.logsumexp_topk")       \
  X(kSearchTopK, "search.select")                  \
  X(kSearchReorder, "search.kv_reorder")

enum class ProfOp : uint8_t {
#define EDGEMT_PROF_ENUM(id, name) id,
  EDGEMT_PROFILE_OPS(EDGEMT_PROF_ENUM)
#undef EDGEMT_PROF_ENUM
      kCount
};

class Profiler {
 public:
  void set_enabled(bool on) { enabled_ = on; }
  bool enabled() const { return enabled_; }
  void reset();
  void add(ProfOp op, uint64_t ns) {
    Entry& e = entries_[static_cast<int>(op)];
    ++e.calls;
    e.ns += ns;
  }
  uint64_t calls(ProfOp op) const { return entries_[static_cast<int>(op)].calls; }
  uint64_t nanoseconds(ProfOp op) const { return entries_[static_cast<int>(op)].ns; }
  static const char* name(ProfOp op);
  // Table sorted by time: op, calls, total ms, average us, % of time, cumulative %.
  std::string report() const;
  // Adds another profile (e.g. of another worker).
  void merge(const Profiler& other);

 private:
  struct Entry {
    uint64_t calls = 0;
    uint64_t ns = 0;
  };
  bool enabled_ = false;
  Entry entries_[static_cast<int>(ProfOp::kCount)];
};

// Times a scope into a profiler (null or disabled: nothing is measured).
class ScopedProf {
 public:
  ScopedProf(Profiler* p, ProfOp op) : p_(p != nullptr && p->enabled() ? p : nullptr), op_(op) {
    if (p_ != nullptr) start_ = std::chrono::steady_clock::now();
  }
  ~ScopedProf() {
    if (p_ != nullptr) {
      const auto d = std::chrono::steady_clock::now() - start_;
      p_->add(op_, static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count()));
    }
  }
  ScopedProf(const ScopedProf&) = delete;
  ScopedProf& operator=(const ScopedProf&) = delete;

 private:
  Profiler* p_;
  ProfOp op_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace edgemt
