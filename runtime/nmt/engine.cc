#include "runtime/nmt/engine.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "ops/gemm/pack.h"

namespace edgemt {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
// transformers' beam search marks impossible continuations with this score.
constexpr float kBeamMasked = -1.0e9f;

size_t round_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

}  // namespace

// ---------------------------------------------------------------------------------
// Impl: dimensions, arena views and the forward passes.
// ---------------------------------------------------------------------------------
struct Engine::Impl {
  const Model* model = nullptr;
  const ModelConfig* cfg = nullptr;
  const ModelWeights* w = nullptr;
  const ops::Kernels* k = nullptr;
  ThreadPool* pool = nullptr;
  Profiler* prof = nullptr;
  EngineLimits lim;

  // Dimensions.
  size_t d = 0, he = 0, hd_e = 0, hdec = 0, hd_d = 0, fe = 0, fd = 0, vt = 0;
  size_t S = 0, T = 0, Bm = 0, Kmax = 0, K = 0, Rmax = 0, Nmax = 0, nbS = 0, nbT = 0;
  size_t ld_big_e = 0, ld_big_d = 0, ldq8_e = 0, ldq8_d = 0;
  size_t scratch_floats = 0;  // per thread
  size_t self_k_slot = 0;     // floats of one slot's keys in one layer (all heads)
  size_t cross_k_sent = 0;    // floats of one sentence's keys in one layer
  bool quantized = false;
  float scale_e = 0.0f, scale_d = 0.0f;

  // Arena views (see plan()).
  int32_t* src_ids = nullptr;   // [Nmax]
  int32_t* tok_sent = nullptr;  // [Nmax] sentence of each source token
  int32_t* tok_pos = nullptr;   // [Nmax] position of each source token
  int32_t* sent_off = nullptr;  // [Bm + 1]
  int32_t* sent_len = nullptr;  // [Bm]
  float* enc_x = nullptr;       // [Nmax][d]
  float* enc_big = nullptr;     // [Nmax][ld_big_e]
  float* enc_ctx = nullptr;     // [Nmax][d]
  float* enc_tmp = nullptr;     // [Nmax][d]
  int8_t* enc_q8 = nullptr;     // [Nmax][ldq8_e]
  float* enc_q8s = nullptr;     // [Nmax]
  float* scratch = nullptr;     // [threads][scratch_floats]
  float* cross_tmp = nullptr;   // [Nmax][2d]
  float* cross_k = nullptr;     // [L][Bm][H][nbS][hd][16]
  float* cross_v = nullptr;     // [L][Nmax][d]
  float* self_k = nullptr;      // [L][Bm*K][H][nbT][hd][16]
  float* self_v = nullptr;      // [L][Bm*K][T][d]
  float* dec_x = nullptr;       // [Rmax][d]
  float* dec_big = nullptr;     // [Rmax][ld_big_d]
  float* dec_ctx = nullptr;     // [Rmax][d]
  float* dec_tmp = nullptr;     // [Rmax][d]
  int8_t* dec_q8 = nullptr;     // [Rmax][ldq8_d]
  float* dec_q8s = nullptr;     // [Rmax]
  float* logits = nullptr;      // [Rmax][vt]
  float* first_logits = nullptr;  // [Rmax][vt] (debug outputs only)
  float* reorder_tmp = nullptr; // [K][self_k_slot + T*d]
  // Search state.
  int32_t* row_slot = nullptr;  // [Rmax]
  int32_t* row_sent = nullptr;  // [Rmax]
  int32_t* row_tok = nullptr;   // [Rmax] decoder input token of each row
  int32_t* run_tok = nullptr;   // [2][Bm*K][T] running hypotheses (double buffer)
  float* run_score = nullptr;   // [Bm*K]
  int32_t* fin_tok = nullptr;   // [Bm*K][T]
  int32_t* fin_len = nullptr;   // [Bm*K]
  float* fin_score = nullptr;   // [Bm*K]
  int32_t* fin_count = nullptr; // [Bm]
  uint8_t* done = nullptr;      // [Bm]
  float* cand_val = nullptr;    // [Rmax][2K] per-row top-2K
  uint32_t* cand_idx = nullptr; // [Rmax][2K]
  float* merge_val = nullptr;   // [K*2K]
  int32_t* merge_idx = nullptr; // [K*2K] flat index beam*vt + token
  int32_t* parents = nullptr;   // [Bm][K]
  int32_t* out_ids = nullptr;   // [Bm][T]
  int32_t* out_len = nullptr;   // [Bm]
  int cur = 0;                  // which run_tok buffer is current
  size_t last_tokens = 0;

  // ---- helpers ----------------------------------------------------------------
  float* scratch_of(int thread) const { return scratch + static_cast<size_t>(thread) * scratch_floats; }
  float* self_k_of(size_t l, size_t slot, size_t h) const {
    return self_k + ((l * Bm * Kmax + slot) * hdec + h) * nbT * hd_d * ops::kKeyBlock;
  }
  float* self_v_of(size_t l, size_t slot) const { return self_v + (l * Bm * Kmax + slot) * T * d; }
  float* cross_k_of(size_t l, size_t b, size_t h) const {
    return cross_k + ((l * Bm + b) * hdec + h) * nbS * hd_d * ops::kKeyBlock;
  }
  float* cross_v_of(size_t l) const { return cross_v + l * Nmax * d; }

  // y = act(x W^T + b) for m rows, split over the pool by panels of 16 columns.
  void linear(const LinearWeights& L, size_t m, const float* x, size_t ldx, float* y, size_t ldy,
              ops::Activation act, int8_t* q8, float* q8s, size_t ldq8, ProfOp op, ProfOp qop) {
    const size_t panels = (L.n + ops::kPanel - 1) / ops::kPanel;
    // At least ~64k multiply-adds per thread, or threads cost more than they save.
    const size_t per_panel = m * L.k * ops::kPanel;
    const size_t min_panels = std::max<size_t>(1, (size_t{1} << 16) / std::max<size_t>(per_panel, 1));
    if (L.type == WeightType::kF32) {
      ScopedProf sp(prof, op);
      pool->parallel_for(panels, [&](size_t b, size_t e, int) {
        const size_t j0 = b * ops::kPanel, j1 = std::min(e * ops::kPanel, L.n);
        ops::GemmEpilogue ep{L.bias != nullptr ? L.bias + j0 : nullptr, act};
        k->f32_gemm(m, j1 - j0, L.k, x, ldx, L.w + b * L.k * ops::kPanel, y + j0, ldy, ep);
      }, min_panels);
    } else {
      const size_t kp = ops::qs8_k_padded(L.k);
      {
        ScopedProf sq(prof, qop);
        pool->parallel_for(m, [&](size_t b, size_t e, int) {
          k->qs8_quantize(e - b, L.k, x + b * ldx, ldx, q8 + b * ldq8, ldq8, q8s + b);
        }, 16);
      }
      ScopedProf sp(prof, op);
      pool->parallel_for(panels, [&](size_t b, size_t e, int) {
        const size_t j0 = b * ops::kPanel, j1 = std::min(e * ops::kPanel, L.n);
        ops::GemmEpilogue ep{L.bias != nullptr ? L.bias + j0 : nullptr, act};
        k->qs8_gemm(m, j1 - j0, L.k, q8, ldq8, q8s, L.w8 + b * ops::kPanel * kp, L.scales + j0,
                    L.row_sums + j0, y + j0, ldy, ep);
      }, min_panels);
    }
  }

  void add_layernorm(size_t rows, const float* x, float* resid_out, const NormWeights& n, ProfOp op) {
    ScopedProf sp(prof, op);
    const float eps = cfg->layer_norm_epsilon;
    pool->parallel_for(rows, [&](size_t b, size_t e, int) {
      k->f32_add_layernorm(e - b, d, x + b * d, d, resid_out + b * d, d, n.gamma, n.beta, eps,
                           resid_out + b * d, d);
    }, 8);
  }
  // Pre-norm: y = LN(x).
  void layernorm(size_t rows, const float* x, float* y, const NormWeights& n, ProfOp op) {
    ScopedProf sp(prof, op);
    const float eps = cfg->layer_norm_epsilon;
    pool->parallel_for(rows, [&](size_t b, size_t e, int) {
      k->f32_add_layernorm(e - b, d, x + b * d, d, nullptr, 0, n.gamma, n.beta, eps, y + b * d, d);
    }, 8);
  }
  void add_inplace(size_t rows, const float* x, float* resid) {
    pool->parallel_for(rows, [&](size_t b, size_t e, int) {
      k->f32_add((e - b) * d, x + b * d, resid + b * d, resid + b * d);
    }, 8);
  }

  void embed_rows(const EmbeddingWeights& E, const float* positions, size_t rows, const int32_t* ids,
                  const int32_t* pos, int32_t fixed_pos, float scale, float* out, ProfOp op) {
    ScopedProf sp(prof, op);
    pool->parallel_for(rows, [&](size_t b, size_t e, int) {
      for (size_t r = b; r < e; ++r) {
        const size_t id = static_cast<size_t>(ids[r]);
        const size_t p = static_cast<size_t>(pos != nullptr ? pos[r] : fixed_pos);
        if (E.type == WeightType::kF32) {
          k->f32_embed(d, E.f32_row(id), E.f32_stride(), scale, positions + p * d, out + r * d);
        } else {
          k->qs8_embed(d, E.i8_row(id), E.i8_group_stride(), E.scales[id], scale, positions + p * d, out + r * d);
        }
      }
    }, 16);
  }

  // ---- encoder ----------------------------------------------------------------
  void encode(size_t nsent) {
    const size_t n = static_cast<size_t>(sent_off[nsent]);
    embed_rows(w->source_embed, w->source_positions, n, src_ids, tok_pos, 0, cfg->embedding_scale,
               enc_x, ProfOp::kEncEmbed);
    const bool pre = cfg->norm_placement == NormPlacement::kPre;
    for (const EncoderLayerWeights& L : w->encoder) {
      const float* attn_in = enc_x;
      if (pre) {
        layernorm(n, enc_x, enc_tmp, L.self_norm, ProfOp::kEncLayerNorm);
        attn_in = enc_tmp;
      }
      linear(L.qkv, n, attn_in, d, enc_big, ld_big_e, ops::Activation::kNone, enc_q8, enc_q8s, ldq8_e,
             ProfOp::kEncGemmQkv, ProfOp::kEncQuantize);
      {
        ScopedProf sp(prof, ProfOp::kEncAttention);
        pool->parallel_for(nsent * he, [&](size_t b, size_t e, int t) {
          float* kt = scratch_of(t);
          float* sc = kt + nbS * hd_e * ops::kKeyBlock;
          for (size_t task = b; task < e; ++task) {
            const size_t s = task / he, h = task % he;
            const size_t off = static_cast<size_t>(sent_off[s]), len = static_cast<size_t>(sent_len[s]);
            const float* base = enc_big + off * ld_big_e;
            k->f32_pack_keys(len, hd_e, base + d + h * hd_e, ld_big_e, kt, hd_e * ops::kKeyBlock, 0, true);
            k->f32_attention(len, len, hd_e, base + h * hd_e, ld_big_e, kt, hd_e * ops::kKeyBlock,
                             base + 2 * d + h * hd_e, ld_big_e, enc_ctx + off * d + h * hd_e, d, scale_e, sc);
          }
        });
      }
      linear(L.out, n, enc_ctx, d, enc_tmp, d, ops::Activation::kNone, enc_q8, enc_q8s, ldq8_e,
             ProfOp::kEncGemmOut, ProfOp::kEncQuantize);
      const float* ffn_in = enc_x;
      if (pre) {
        add_inplace(n, enc_tmp, enc_x);
        layernorm(n, enc_x, enc_tmp, L.final_norm, ProfOp::kEncLayerNorm);
        ffn_in = enc_tmp;
      } else {
        add_layernorm(n, enc_tmp, enc_x, L.self_norm, ProfOp::kEncLayerNorm);
      }
      linear(L.fc1, n, ffn_in, d, enc_big, ld_big_e, cfg->activation, enc_q8, enc_q8s, ldq8_e,
             ProfOp::kEncGemmFfn1, ProfOp::kEncQuantize);
      linear(L.fc2, n, enc_big, ld_big_e, enc_ctx, d, ops::Activation::kNone, enc_q8, enc_q8s, ldq8_e,
             ProfOp::kEncGemmFfn2, ProfOp::kEncQuantize);
      if (pre) {
        add_inplace(n, enc_ctx, enc_x);
      } else {
        add_layernorm(n, enc_ctx, enc_x, L.final_norm, ProfOp::kEncLayerNorm);
      }
    }
    if (pre) {
      layernorm(n, enc_x, enc_tmp, w->encoder_norm, ProfOp::kEncLayerNorm);
      std::memcpy(enc_x, enc_tmp, n * d * sizeof(float));
    }
  }

  // Cross-attention keys and values of every decoder layer, once per batch.
  void cross_kv(size_t nsent) {
    const size_t n = static_cast<size_t>(sent_off[nsent]);
    for (size_t l = 0; l < w->decoder.size(); ++l) {
      linear(w->decoder[l].cross_kv, n, enc_x, d, cross_tmp, 2 * d, ops::Activation::kNone, enc_q8,
             enc_q8s, ldq8_e, ProfOp::kCrossKv, ProfOp::kEncQuantize);
      ScopedProf sp(prof, ProfOp::kCrossKv);
      pool->parallel_for(nsent * hdec, [&](size_t b, size_t e, int) {
        for (size_t task = b; task < e; ++task) {
          const size_t s = task / hdec, h = task % hdec;
          const size_t off = static_cast<size_t>(sent_off[s]), len = static_cast<size_t>(sent_len[s]);
          k->f32_pack_keys(len, hd_d, cross_tmp + off * 2 * d + h * hd_d, 2 * d, cross_k_of(l, s, h),
                           hd_d * ops::kKeyBlock, 0, true);
        }
      });
      float* cv = cross_v_of(l);
      pool->parallel_for(n, [&](size_t b, size_t e, int) {
        for (size_t r = b; r < e; ++r) std::memcpy(cv + r * d, cross_tmp + r * 2 * d + d, d * sizeof(float));
      }, 64);
    }
  }

  // ---- decoder ----------------------------------------------------------------
  // One step for `rows` rows at position t: row r reads token row_tok[r], uses KV slot
  // row_slot[r] and source sentence row_sent[r]. Writes logits [rows][vt].
  void decode_step(size_t rows, size_t t) {
    embed_rows(w->target_embed, w->target_positions, rows, row_tok, nullptr, static_cast<int32_t>(t),
               cfg->embedding_scale, dec_x, ProfOp::kDecEmbed);
    const bool pre = cfg->norm_placement == NormPlacement::kPre;
    const size_t lk = t + 1;
    for (size_t l = 0; l < w->decoder.size(); ++l) {
      const DecoderLayerWeights& L = w->decoder[l];
      const float* in = dec_x;
      if (pre) {
        layernorm(rows, dec_x, dec_tmp, L.self_norm, ProfOp::kDecLayerNorm);
        in = dec_tmp;
      }
      linear(L.qkv, rows, in, d, dec_big, ld_big_d, ops::Activation::kNone, dec_q8, dec_q8s, ldq8_d,
             ProfOp::kDecGemmQkv, ProfOp::kDecQuantize);
      {
        ScopedProf sp(prof, ProfOp::kDecSelfAttention);
        pool->parallel_for(rows * hdec, [&](size_t b, size_t e, int th) {
          float* sc = scratch_of(th);
          for (size_t task = b; task < e; ++task) {
            const size_t r = task / hdec, h = task % hdec;
            const size_t slot = static_cast<size_t>(row_slot[r]);
            const float* row = dec_big + r * ld_big_d;
            float* kc = self_k_of(l, slot, h);
            float* vc = self_v_of(l, slot);
            // Append this step's key and value, then attend over positions 0..t.
            k->f32_pack_keys(1, hd_d, row + d + h * hd_d, hd_d, kc, hd_d * ops::kKeyBlock, t, t % ops::kKeyBlock == 0);
            std::memcpy(vc + t * d + h * hd_d, row + 2 * d + h * hd_d, hd_d * sizeof(float));
            k->f32_attention(1, lk, hd_d, row + h * hd_d, hd_d, kc, hd_d * ops::kKeyBlock, vc + h * hd_d, d,
                             dec_ctx + r * d + h * hd_d, d, scale_d, sc);
          }
        });
      }
      linear(L.out, rows, dec_ctx, d, dec_tmp, d, ops::Activation::kNone, dec_q8, dec_q8s, ldq8_d,
             ProfOp::kDecGemmOut, ProfOp::kDecQuantize);
      if (pre) {
        add_inplace(rows, dec_tmp, dec_x);
        layernorm(rows, dec_x, dec_tmp, L.cross_norm, ProfOp::kDecLayerNorm);
        in = dec_tmp;
      } else {
        add_layernorm(rows, dec_tmp, dec_x, L.self_norm, ProfOp::kDecLayerNorm);
        in = dec_x;
      }
      // Cross-attention: queries into dec_big, context into dec_ctx.
      linear(L.cross_q, rows, in, d, dec_big, d, ops::Activation::kNone, dec_q8, dec_q8s, ldq8_d,
             ProfOp::kDecGemmCrossQ, ProfOp::kDecQuantize);
      {
        ScopedProf sp(prof, ProfOp::kDecCrossAttention);
        const float* cv = cross_v_of(l);
        pool->parallel_for(rows * hdec, [&](size_t b, size_t e, int th) {
          float* sc = scratch_of(th);
          for (size_t task = b; task < e; ++task) {
            const size_t r = task / hdec, h = task % hdec;
            const size_t s = static_cast<size_t>(row_sent[r]);
            const size_t off = static_cast<size_t>(sent_off[s]), len = static_cast<size_t>(sent_len[s]);
            k->f32_attention(1, len, hd_d, dec_big + r * d + h * hd_d, hd_d, cross_k_of(l, s, h),
                             hd_d * ops::kKeyBlock, cv + off * d + h * hd_d, d, dec_ctx + r * d + h * hd_d, d,
                             scale_d, sc);
          }
        });
      }
      linear(L.cross_out, rows, dec_ctx, d, dec_tmp, d, ops::Activation::kNone, dec_q8, dec_q8s, ldq8_d,
             ProfOp::kDecGemmCrossOut, ProfOp::kDecQuantize);
      if (pre) {
        add_inplace(rows, dec_tmp, dec_x);
        layernorm(rows, dec_x, dec_tmp, L.final_norm, ProfOp::kDecLayerNorm);
        in = dec_tmp;
      } else {
        add_layernorm(rows, dec_tmp, dec_x, L.cross_norm, ProfOp::kDecLayerNorm);
        in = dec_x;
      }
      linear(L.fc1, rows, in, d, dec_big, ld_big_d, cfg->activation, dec_q8, dec_q8s, ldq8_d,
             ProfOp::kDecGemmFfn1, ProfOp::kDecQuantize);
      linear(L.fc2, rows, dec_big, ld_big_d, dec_ctx, d, ops::Activation::kNone, dec_q8, dec_q8s, ldq8_d,
             ProfOp::kDecGemmFfn2, ProfOp::kDecQuantize);
      if (pre) {
        add_inplace(rows, dec_ctx, dec_x);
      } else {
        add_layernorm(rows, dec_ctx, dec_x, L.final_norm, ProfOp::kDecLayerNorm);
      }
    }
    const float* fin = dec_x;
    if (pre) {
      layernorm(rows, dec_x, dec_tmp, w->decoder_norm, ProfOp::kDecLayerNorm);
      fin = dec_tmp;
    }
    // Output projection (+ final_logits_bias).
    LinearWeights out = w->output;
    if (w->final_logits_bias != nullptr) out.bias = w->final_logits_bias;
    linear(out, rows, fin, d, logits, vt, ops::Activation::kNone, dec_q8, dec_q8s, ldq8_d, ProfOp::kDecGemmLogits,
           ProfOp::kDecQuantize);
  }

  // Copies the KV cache of `src` slots into `dst` slots of one sentence (beam reorder).
  // parents[i] is the beam (0..K-1) whose history beam i continues; base is the
  // sentence's first slot; positions 0..t are valid.
  void reorder_cache(size_t base, const int32_t* par, size_t t) {
    ScopedProf sp(prof, ProfOp::kSearchReorder);
    bool identity = true;
    for (size_t i = 0; i < K; ++i) identity = identity && par[i] == static_cast<int32_t>(i);
    if (identity) return;
    bool needed[64] = {};
    bool moved[64] = {};
    for (size_t i = 0; i < K; ++i) {
      if (par[i] != static_cast<int32_t>(i)) {
        needed[par[i]] = true;
        moved[i] = true;
      }
    }
    const size_t blocks = t / ops::kKeyBlock + 1;
    const size_t kbytes = blocks * hd_d * ops::kKeyBlock * sizeof(float);  // one head
    const size_t vbytes = (t + 1) * d * sizeof(float);
    const size_t slot_floats = self_k_slot + T * d;
    for (size_t l = 0; l < w->decoder.size(); ++l) {
      // Save sources that are about to be overwritten.
      for (size_t s = 0; s < K; ++s) {
        if (!(needed[s] && moved[s])) continue;
        float* tmp = reorder_tmp + s * slot_floats;
        for (size_t h = 0; h < hdec; ++h)
          std::memcpy(tmp + h * nbT * hd_d * ops::kKeyBlock, self_k_of(l, base + s, h), kbytes);
        std::memcpy(tmp + self_k_slot, self_v_of(l, base + s), vbytes);
      }
      for (size_t i = 0; i < K; ++i) {
        if (!moved[i]) continue;
        const size_t p = static_cast<size_t>(par[i]);
        const bool saved = moved[p];
        const float* tmp = reorder_tmp + p * slot_floats;
        for (size_t h = 0; h < hdec; ++h) {
          const float* src = saved ? tmp + h * nbT * hd_d * ops::kKeyBlock : self_k_of(l, base + p, h);
          std::memcpy(self_k_of(l, base + i, h), src, kbytes);
        }
        std::memcpy(self_v_of(l, base + i), saved ? tmp + self_k_slot : self_v_of(l, base + p), vbytes);
      }
    }
  }

  // ---- search -------------------------------------------------------------------
  // Logits processors, in transformers' order: banned tokens, then forced eos at the
  // last step (all -inf, eos 0).
  void process_row(float* row, bool last_step) const {
    const GenerationDefaults& g = model->generation();
    if (last_step && g.forced_eos_id >= 0) {
      for (size_t v = 0; v < vt; ++v) row[v] = kNegInf;
      row[g.forced_eos_id] = 0.0f;
      return;
    }
    for (int32_t id : g.banned_ids) row[id] = kNegInf;
  }

  void write_output(size_t s, const int32_t* toks, size_t len) {
    const int32_t eos = cfg->eos_id;
    if (len > 0 && toks[len - 1] == eos) --len;
    std::memcpy(out_ids + s * T, toks, len * sizeof(int32_t));
    out_len[s] = static_cast<int32_t>(len);
  }

  void greedy(size_t nsent, size_t max_new) {
    size_t rows = nsent;
    for (size_t s = 0; s < nsent; ++s) {
      row_slot[s] = static_cast<int32_t>(s);
      row_sent[s] = static_cast<int32_t>(s);
      row_tok[s] = cfg->decoder_start_id;
      out_len[s] = 0;
    }
    for (size_t t = 0; t < max_new && rows > 0; ++t) {
      decode_step(rows, t);
      if (t == 0 && first_logits != nullptr) std::memcpy(first_logits, logits, rows * vt * sizeof(float));
      const bool last = t + 1 == max_new;
      size_t kept = 0;
      {
        ScopedProf sp(prof, ProfOp::kSearchTopK);
        for (size_t r = 0; r < rows; ++r) {
          float* row = logits + r * vt;
          process_row(row, last);
          float best_val;
          uint32_t best;
          k->f32_topk(vt, row, 1, &best_val, &best);
          const size_t s = static_cast<size_t>(row_sent[r]);
          int32_t* hist = run_tok + s * T;
          hist[t] = static_cast<int32_t>(best);
          if (static_cast<int32_t>(best) == cfg->eos_id || last) {
            write_output(s, hist, t + 1);
          } else {
            row_slot[kept] = row_slot[r];
            row_sent[kept] = row_sent[r];
            row_tok[kept] = static_cast<int32_t>(best);
            ++kept;
          }
        }
      }
      rows = kept;
    }
  }

  // Beam search with transformers' semantics (generation/utils.py, _beam_search):
  // top 2K candidates over K beams; eos candidates ranked in the top K finish (score
  // normalised by generated_length ** length_penalty); the next beams are the best K
  // candidates that did not finish; a sentence is done when it has K finished
  // hypotheses (early_stopping) or none of its running beams can beat the worst
  // finished one; at the length limit the top K candidates finish.
  void beam_search(size_t nsent, size_t max_new, float lp, EarlyStopping es) {
    const size_t K2 = 2 * K;
    for (size_t s = 0; s < nsent; ++s) {
      fin_count[s] = 0;
      done[s] = 0;
      out_len[s] = 0;
      for (size_t i = 0; i < K; ++i) {
        const size_t r = s * K + i;
        row_slot[r] = static_cast<int32_t>(r);
        row_sent[r] = static_cast<int32_t>(s);
        row_tok[r] = cfg->decoder_start_id;
        run_score[r] = i == 0 ? 0.0f : kBeamMasked;
      }
    }
    cur = 0;
    size_t rows = nsent * K;
    for (size_t t = 0; t < max_new && rows > 0; ++t) {
      decode_step(rows, t);
      if (t == 0 && first_logits != nullptr) std::memcpy(first_logits, logits, rows * vt * sizeof(float));
      const bool last = t + 1 == max_new;
      {
        // Per row: log-probs are logits - logsumexp(logits) (torch's log_softmax, over
        // every token), then the processors (banned -> -inf; at the last step forced eos
        // gets 0 and everything else -inf). Only the top 2K are needed, and the order of
        // logits is the order of log-probs, so the full log-softmax row is never written.
        ScopedProf sp(prof, ProfOp::kSearchSoftmax);
        const bool forced = last && model->generation().forced_eos_id >= 0;
        pool->parallel_for(rows, [&](size_t b, size_t e, int) {
          for (size_t r = b; r < e; ++r) {
            float* row = logits + r * vt;
            float* cv = cand_val + r * K2;
            uint32_t* ci = cand_idx + r * K2;
            if (forced) {
              process_row(row, true);
              k->f32_topk(vt, row, K2, cv, ci);
            } else {
              const float lse = k->f32_logsumexp(vt, row);
              process_row(row, false);
              k->f32_topk(vt, row, K2, cv, ci);
              for (size_t j = 0; j < K2; ++j) cv[j] = cv[j] - lse;
            }
          }
        }, 4);
      }
      rows = select_beams(t, max_new, last, lp, es, rows);
      // The kept sentences' caches follow their beams' parents.
      for (size_t r0 = 0; r0 < rows; r0 += K) {
        const size_t s = static_cast<size_t>(row_sent[r0]);
        reorder_cache(s * K, parents + s * K, t);
      }
      cur = 1 - cur;
    }
  }

  // Beam bookkeeping of one step (see beam_search): candidates -> finished hypotheses,
  // next beams (parents[s * K + i]) and done sentences. Returns the rows kept.
  size_t select_beams(size_t t, size_t max_new, bool last, float lp, EarlyStopping es, size_t rows) {
    const size_t K2 = 2 * K;
    ScopedProf sp(prof, ProfOp::kSearchTopK);
    {
      int32_t* cur_tok = run_tok + static_cast<size_t>(cur) * Bm * K * T;
      int32_t* nxt_tok = run_tok + static_cast<size_t>(1 - cur) * Bm * K * T;
      size_t kept = 0;
      for (size_t r0 = 0; r0 < rows; r0 += K) {
        const size_t s = static_cast<size_t>(row_sent[r0]);
        // Merge the K per-beam lists into the sentence's top 2K (ties: lower flat index).
        size_t nm = 0;
        for (size_t i = 0; i < K; ++i) {
          const float base = run_score[s * K + i];
          for (size_t j = 0; j < K2; ++j) {
            const float v = cand_val[(r0 + i) * K2 + j] + base;
            merge_val[nm] = std::isnan(v) ? kNegInf : v;
            merge_idx[nm] = static_cast<int32_t>(i * vt + cand_idx[(r0 + i) * K2 + j]);
            ++nm;
          }
        }
        // Selection of the best K2 of nm (small): insertion sort by (value desc, index asc).
        for (size_t a = 1; a < nm; ++a) {
          const float v = merge_val[a];
          const int32_t ix = merge_idx[a];
          size_t b = a;
          while (b > 0 && (merge_val[b - 1] < v || (merge_val[b - 1] == v && merge_idx[b - 1] > ix))) {
            merge_val[b] = merge_val[b - 1];
            merge_idx[b] = merge_idx[b - 1];
            --b;
          }
          merge_val[b] = v;
          merge_idx[b] = ix;
        }
        const float denom = static_cast<float>(std::pow(static_cast<double>(t + 1), static_cast<double>(lp)));
        // Finished hypotheses from the top K ranks.
        for (size_t j = 0; j < K; ++j) {
          const size_t beam = static_cast<size_t>(merge_idx[j]) / vt;
          const int32_t tok = static_cast<int32_t>(static_cast<size_t>(merge_idx[j]) % vt);
          if (!(tok == cfg->eos_id || last)) continue;
          const float score = merge_val[j] / denom;
          // Insert into the sentence's finished list (sorted, best first, at most K).
          int32_t& cnt = fin_count[s];
          size_t pos = static_cast<size_t>(cnt);
          if (cnt == static_cast<int32_t>(K)) {
            if (!(score > fin_score[s * K + K - 1])) continue;
            pos = K - 1;
          } else {
            ++cnt;
          }
          while (pos > 0 && score > fin_score[s * K + pos - 1]) {
            fin_score[s * K + pos] = fin_score[s * K + pos - 1];
            fin_len[s * K + pos] = fin_len[s * K + pos - 1];
            std::memcpy(fin_tok + (s * K + pos) * T, fin_tok + (s * K + pos - 1) * T,
                        static_cast<size_t>(fin_len[s * K + pos - 1]) * sizeof(int32_t));
            --pos;
          }
          fin_score[s * K + pos] = score;
          fin_len[s * K + pos] = static_cast<int32_t>(t + 1);
          std::memcpy(fin_tok + (s * K + pos) * T, cur_tok + (s * K + beam) * T, t * sizeof(int32_t));
          fin_tok[(s * K + pos) * T + t] = tok;
        }
        // Next running beams: the best K candidates that are not eos.
        bool is_done = last;
        if (!last) {
          size_t nb = 0;
          for (size_t j = 0; j < K2 && nb < K; ++j) {
            const size_t beam = static_cast<size_t>(merge_idx[j]) / vt;
            const int32_t tok = static_cast<int32_t>(static_cast<size_t>(merge_idx[j]) % vt);
            if (tok == cfg->eos_id) continue;
            parents[s * K + nb] = static_cast<int32_t>(beam);
            std::memcpy(nxt_tok + (s * K + nb) * T, cur_tok + (s * K + beam) * T, t * sizeof(int32_t));
            nxt_tok[(s * K + nb) * T + t] = tok;
            run_score[s * K + nb] = merge_val[j];
            ++nb;
          }
          for (; nb < K; ++nb) {  // cannot happen with one eos id; keep the state defined
            parents[s * K + nb] = 0;
            std::memcpy(nxt_tok + (s * K + nb) * T, cur_tok + s * K * T, (t + 1) * sizeof(int32_t));
            run_score[s * K + nb] = kNegInf;
          }
          // Is the sentence done?
          if (fin_count[s] == static_cast<int32_t>(K)) {
            if (es == EarlyStopping::kTrue) {
              is_done = true;
            } else {
              const double len = (es == EarlyStopping::kNever && lp > 0.0f) ? static_cast<double>(max_new)
                                                                            : static_cast<double>(t + 1);
              const float best = run_score[s * K] / static_cast<float>(std::pow(len, static_cast<double>(lp)));
              if (!(best > fin_score[s * K + K - 1])) is_done = true;
            }
          }
        }
        if (is_done) {
          done[s] = 1;
          if (fin_count[s] > 0) {
            write_output(s, fin_tok + s * K * T, static_cast<size_t>(fin_len[s * K]));
          } else {
            write_output(s, cur_tok + s * K * T, t);
          }
          continue;
        }
        for (size_t i = 0; i < K; ++i) {
          row_slot[kept + i] = static_cast<int32_t>(s * K + i);
          row_sent[kept + i] = static_cast<int32_t>(s);
          row_tok[kept + i] = nxt_tok[(s * K + i) * T + t];
        }
        kept += K;
      }
      return kept;
    }
  }
};

// ---------------------------------------------------------------------------------
// Creation: the arena plan.
// ---------------------------------------------------------------------------------
Expected<std::unique_ptr<Engine>> Engine::create(std::shared_ptr<const Model> model,
                                                 const EngineLimits& limits,
                                                 const ops::Kernels* isa) {
  if (model == nullptr) return invalid_argument("no model");
  const ModelConfig& cfg = model->config();
  if (limits.max_batch < 1 || limits.max_batch > 4096)
    return invalid_argument("max batch " + std::to_string(limits.max_batch) + " is outside [1, 4096]");
  if (limits.max_beam < 1 || limits.max_beam > 32)
    return invalid_argument("max beam " + std::to_string(limits.max_beam) + " is outside [1, 32]");
  if (limits.max_source_length < 1 || limits.max_source_length > cfg.max_positions)
    return invalid_argument("max source length " + std::to_string(limits.max_source_length) +
                            " is outside [1, " + std::to_string(cfg.max_positions) + "] (the model's positions)");
  if (limits.max_target_length < 1 || limits.max_target_length > cfg.max_positions)
    return invalid_argument("max target length " + std::to_string(limits.max_target_length) +
                            " is outside [1, " + std::to_string(cfg.max_positions) + "] (the model's positions)");
  if (limits.num_threads < 1 || limits.num_threads > 256)
    return invalid_argument("thread count " + std::to_string(limits.num_threads) + " is outside [1, 256]");
  const ModelWeights& w = model->weights();

  std::unique_ptr<Engine> e(new Engine());
  e->model_ = model;
  e->limits_ = limits;
  e->pool_ = std::make_unique<ThreadPool>(limits.num_threads);
  e->impl_ = std::make_unique<Impl>();
  Impl& m = *e->impl_;
  m.model = model.get();
  m.cfg = &model->config();
  m.w = &model->weights();
  m.k = isa != nullptr ? isa : &ops::kernels();
  m.pool = e->pool_.get();
  m.prof = &e->profiler_;
  m.lim = limits;

  m.d = static_cast<size_t>(cfg.d_model);
  m.he = static_cast<size_t>(cfg.encoder_heads);
  m.hd_e = m.d / m.he;
  m.hdec = static_cast<size_t>(cfg.decoder_heads);
  m.hd_d = m.d / m.hdec;
  m.fe = static_cast<size_t>(cfg.encoder_ffn_dim);
  m.fd = static_cast<size_t>(cfg.decoder_ffn_dim);
  m.vt = static_cast<size_t>(cfg.target_vocab_size);
  m.S = static_cast<size_t>(limits.max_source_length);
  m.T = static_cast<size_t>(limits.max_target_length);
  m.Bm = static_cast<size_t>(limits.max_batch);
  m.Kmax = static_cast<size_t>(limits.max_beam);
  m.K = m.Kmax;
  m.Rmax = m.Bm * m.Kmax;
  m.Nmax = m.Bm * m.S;
  m.nbS = (m.S + ops::kKeyBlock - 1) / ops::kKeyBlock;
  m.nbT = (m.T + ops::kKeyBlock - 1) / ops::kKeyBlock;
  m.ld_big_e = std::max(3 * m.d, m.fe);
  m.ld_big_d = std::max(3 * m.d, m.fd);
  m.ldq8_e = ops::qs8_k_padded(std::max(m.d, m.fe));
  m.ldq8_d = ops::qs8_k_padded(std::max(m.d, m.fd));
  m.quantized = model->is_quantized() || w.output.type == WeightType::kI8;
  m.scale_e = static_cast<float>(std::pow(static_cast<double>(m.hd_e), -0.5));
  m.scale_d = static_cast<float>(std::pow(static_cast<double>(m.hd_d), -0.5));
  const size_t kb = ops::kKeyBlock;
  const size_t lmax = std::max(m.S, m.T + 1);
  m.scratch_floats = round_up(m.nbS * m.hd_e * kb + 4 * round_up(lmax, kb), 16);
  m.self_k_slot = m.hdec * m.nbT * m.hd_d * kb;
  m.cross_k_sent = m.hdec * m.nbS * m.hd_d * kb;
  const size_t L = w.decoder.size();
  const size_t f = sizeof(float), i4 = sizeof(int32_t);

  // Steps: 0 encoder, 1 cross keys/values, 2 decoding, 3 results (until the next run).
  ArenaPlanner p;
  const int b_src = p.add("source ids", m.Nmax * i4, 0, 3);
  const int b_tok_sent = p.add("source token sentence", m.Nmax * i4, 0, 0);
  const int b_tok_pos = p.add("source token position", m.Nmax * i4, 0, 0);
  const int b_off = p.add("sentence offsets", (m.Bm + 1) * i4, 0, 3);
  const int b_len = p.add("sentence lengths", m.Bm * i4, 0, 3);
  // With debug outputs the encoder output stays readable after the run.
  const int b_enc_x = p.add("encoder hidden", m.Nmax * m.d * f, 0, limits.keep_first_logits ? 3 : 1);
  const int b_enc_big = p.add("encoder qkv/ffn", m.Nmax * m.ld_big_e * f, 0, 0);
  const int b_enc_ctx = p.add("encoder context", m.Nmax * m.d * f, 0, 0);
  const int b_enc_tmp = p.add("encoder sublayer out", m.Nmax * m.d * f, 0, 0);
  int b_enc_q8 = -1, b_enc_q8s = -1, b_dec_q8 = -1, b_dec_q8s = -1;
  if (m.quantized) {
    b_enc_q8 = p.add("encoder int8 activations", m.Nmax * m.ldq8_e, 0, 1);
    b_enc_q8s = p.add("encoder int8 scales", m.Nmax * f, 0, 1);
    b_dec_q8 = p.add("decoder int8 activations", m.Rmax * m.ldq8_d, 2, 2);
    b_dec_q8s = p.add("decoder int8 scales", m.Rmax * f, 2, 2);
  }
  const int b_scratch = p.add("attention scratch", static_cast<size_t>(limits.num_threads) * m.scratch_floats * f, 0, 2);
  const int b_cross_tmp = p.add("cross k/v projection", m.Nmax * 2 * m.d * f, 1, 1);
  const int b_cross_k = p.add("cross keys", L * m.Bm * m.cross_k_sent * f, 1, 2);
  const int b_cross_v = p.add("cross values", L * m.Nmax * m.d * f, 1, 2);
  const int b_self_k = p.add("self-attention key cache", L * m.Rmax * m.self_k_slot * f, 2, 2);
  const int b_self_v = p.add("self-attention value cache", L * m.Rmax * m.T * m.d * f, 2, 2);
  const int b_dec_x = p.add("decoder hidden", m.Rmax * m.d * f, 2, 2);
  const int b_dec_big = p.add("decoder qkv/ffn", m.Rmax * m.ld_big_d * f, 2, 2);
  const int b_dec_ctx = p.add("decoder context", m.Rmax * m.d * f, 2, 2);
  const int b_dec_tmp = p.add("decoder sublayer out", m.Rmax * m.d * f, 2, 2);
  const int b_logits = p.add("logits", m.Rmax * m.vt * f, 2, 2);
  const int b_first = limits.keep_first_logits ? p.add("first-step logits", m.Rmax * m.vt * f, 2, 3) : -1;
  const int b_reorder = p.add("beam reorder scratch", m.K > 1 ? m.K * (m.self_k_slot + m.T * m.d) * f : 0, 2, 2);
  const int b_row_slot = p.add("row slots", m.Rmax * i4, 2, 2);
  const int b_row_sent = p.add("row sentences", m.Rmax * i4, 2, 2);
  const int b_row_tok = p.add("row tokens", m.Rmax * i4, 2, 2);
  const int b_run_tok = p.add("running hypotheses", 2 * m.Rmax * m.T * i4, 2, 2);
  const int b_run_score = p.add("running scores", m.Rmax * f, 2, 2);
  const int b_fin_tok = p.add("finished hypotheses", m.Rmax * m.T * i4, 2, 2);
  const int b_fin_len = p.add("finished lengths", m.Rmax * i4, 2, 2);
  const int b_fin_score = p.add("finished scores", m.Rmax * f, 2, 2);
  const int b_fin_count = p.add("finished counts", m.Bm * i4, 2, 2);
  const int b_done = p.add("done flags", m.Bm, 2, 2);
  const int b_cand_val = p.add("candidate scores", m.Rmax * 2 * m.K * f, 2, 2);
  const int b_cand_idx = p.add("candidate ids", m.Rmax * 2 * m.K * i4, 2, 2);
  const int b_merge_val = p.add("merge scores", 2 * m.K * m.K * f, 2, 2);
  const int b_merge_idx = p.add("merge ids", 2 * m.K * m.K * i4, 2, 2);
  const int b_parents = p.add("beam parents", m.Rmax * i4, 2, 2);
  const int b_out = p.add("output ids", m.Bm * m.T * i4, 2, 3);
  const int b_out_len = p.add("output lengths", m.Bm * i4, 2, 3);
  p.plan();
  if (!p.verify()) return internal_error("arena plan overlaps live buffers");
  EDGEMT_RETURN_IF_ERROR(e->arena_.allocate(p.total_bytes()));
  Arena& a = e->arena_;
  m.src_ids = a.at<int32_t>(p.offset(b_src));
  m.tok_sent = a.at<int32_t>(p.offset(b_tok_sent));
  m.tok_pos = a.at<int32_t>(p.offset(b_tok_pos));
  m.sent_off = a.at<int32_t>(p.offset(b_off));
  m.sent_len = a.at<int32_t>(p.offset(b_len));
  m.enc_x = a.at<float>(p.offset(b_enc_x));
  m.enc_big = a.at<float>(p.offset(b_enc_big));
  m.enc_ctx = a.at<float>(p.offset(b_enc_ctx));
  m.enc_tmp = a.at<float>(p.offset(b_enc_tmp));
  if (m.quantized) {
    m.enc_q8 = a.at<int8_t>(p.offset(b_enc_q8));
    m.enc_q8s = a.at<float>(p.offset(b_enc_q8s));
    m.dec_q8 = a.at<int8_t>(p.offset(b_dec_q8));
    m.dec_q8s = a.at<float>(p.offset(b_dec_q8s));
  }
  m.scratch = a.at<float>(p.offset(b_scratch));
  m.cross_tmp = a.at<float>(p.offset(b_cross_tmp));
  m.cross_k = a.at<float>(p.offset(b_cross_k));
  m.cross_v = a.at<float>(p.offset(b_cross_v));
  m.self_k = a.at<float>(p.offset(b_self_k));
  m.self_v = a.at<float>(p.offset(b_self_v));
  m.dec_x = a.at<float>(p.offset(b_dec_x));
  m.dec_big = a.at<float>(p.offset(b_dec_big));
  m.dec_ctx = a.at<float>(p.offset(b_dec_ctx));
  m.dec_tmp = a.at<float>(p.offset(b_dec_tmp));
  m.logits = a.at<float>(p.offset(b_logits));
  if (b_first >= 0) m.first_logits = a.at<float>(p.offset(b_first));
  m.reorder_tmp = a.at<float>(p.offset(b_reorder));
  m.row_slot = a.at<int32_t>(p.offset(b_row_slot));
  m.row_sent = a.at<int32_t>(p.offset(b_row_sent));
  m.row_tok = a.at<int32_t>(p.offset(b_row_tok));
  m.run_tok = a.at<int32_t>(p.offset(b_run_tok));
  m.run_score = a.at<float>(p.offset(b_run_score));
  m.fin_tok = a.at<int32_t>(p.offset(b_fin_tok));
  m.fin_len = a.at<int32_t>(p.offset(b_fin_len));
  m.fin_score = a.at<float>(p.offset(b_fin_score));
  m.fin_count = a.at<int32_t>(p.offset(b_fin_count));
  m.done = a.at<uint8_t>(p.offset(b_done));
  m.cand_val = a.at<float>(p.offset(b_cand_val));
  m.cand_idx = a.at<uint32_t>(p.offset(b_cand_idx));
  m.merge_val = a.at<float>(p.offset(b_merge_val));
  m.merge_idx = a.at<int32_t>(p.offset(b_merge_idx));
  m.parents = a.at<int32_t>(p.offset(b_parents));
  m.out_ids = a.at<int32_t>(p.offset(b_out));
  m.out_len = a.at<int32_t>(p.offset(b_out_len));
  e->plan_text_ = p.describe();
  e->planned_unshared_ = p.unshared_bytes();
  return e;
}

Engine::~Engine() = default;

std::string Engine::describe_plan() const { return plan_text_; }

const float* Engine::last_encoder_output() const { return impl_->enc_x; }

const float* Engine::first_logits(int row) const {
  return impl_->first_logits == nullptr ? nullptr : impl_->first_logits + static_cast<size_t>(row) * impl_->vt;
}

Status Engine::run(std::span<const std::span<const int32_t>> sources, const SearchParams& params,
                   std::span<std::span<const int32_t>> results) {
  Impl& m = *impl_;
  const size_t n = sources.size();
  if (n == 0) return Status::ok();
  if (n > m.Bm) return out_of_range("batch of " + std::to_string(n) + " sentences exceeds the limit of " + std::to_string(m.Bm));
  if (results.size() < n) return invalid_argument("results has room for fewer sentences than sources");
  if (params.beam < 1 || static_cast<size_t>(params.beam) > m.K)
    return invalid_argument("beam " + std::to_string(params.beam) + " is outside [1, " + std::to_string(m.K) + "]");
  if (params.max_new_tokens < 1 || static_cast<size_t>(params.max_new_tokens) > m.T)
    return invalid_argument("max new tokens " + std::to_string(params.max_new_tokens) + " is outside [1, " +
                            std::to_string(m.T) + "]");
  const int32_t sv = m.cfg->source_vocab_size;
  size_t off = 0;
  for (size_t s = 0; s < n; ++s) {
    const auto src = sources[s];
    if (src.empty()) return invalid_argument("sentence " + std::to_string(s) + " has no tokens (it needs at least eos)");
    if (src.size() > m.S)
      return out_of_range("sentence " + std::to_string(s) + " has " + std::to_string(src.size()) +
                          " tokens, more than the limit of " + std::to_string(m.S));
    for (size_t i = 0; i < src.size(); ++i) {
      if (src[i] < 0 || src[i] >= sv)
        return invalid_argument("sentence " + std::to_string(s) + " has token id " + std::to_string(src[i]) +
                                " outside the source vocabulary [0, " + std::to_string(sv) + ")");
      m.src_ids[off + i] = src[i];
      m.tok_sent[off + i] = static_cast<int32_t>(s);
      m.tok_pos[off + i] = static_cast<int32_t>(i);
    }
    m.sent_off[s] = static_cast<int32_t>(off);
    m.sent_len[s] = static_cast<int32_t>(src.size());
    off += src.size();
  }
  m.sent_off[n] = static_cast<int32_t>(off);
  m.last_tokens = off;

  m.encode(n);
  m.cross_kv(n);
  const size_t max_new = static_cast<size_t>(params.max_new_tokens);
  if (params.beam == 1) {
    m.greedy(n, max_new);
  } else {
    // Buffers are laid out for the planned beam; a smaller beam uses a prefix.
    m.K = static_cast<size_t>(params.beam);
    m.beam_search(n, max_new, params.length_penalty, params.early_stopping);
    m.K = m.Kmax;
  }
  for (size_t s = 0; s < n; ++s)
    results[s] = std::span<const int32_t>(m.out_ids + s * m.T, static_cast<size_t>(m.out_len[s]));
  return Status::ok();
}

}  // namespace edgemt
