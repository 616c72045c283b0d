// What every part of the engine reads (the model, the kernels, the threads, the
// profiler, the dimensions it was planned for) and the layer operations they share:
// linear layers (float32 or int8), layer norms and residual additions.
//
// The parts, in the order data flows through them:
//   SourceBatch (source_batch.h)  source ids, positions and sentence offsets
//   Encoder (encoder.h)           embedding + encoder layers
//   CrossMemory (cross_attention.h)  each decoder layer's keys/values of the source
//   Decoder (decoder.h)           embedding + decoder layers + output layer: scores the
//                                 next token of each row; its DecoderState (KvCache) keeps
//                                 what earlier steps left
//   GreedySearch, BeamSearch (search/)  pick tokens, reorder the decoder state
// Each part states its arena buffers to one ArenaLayout (runtime/core/arena.h) with
// the phases below as lifetimes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ops/ops.h"
#include "runtime/core/profiler.h"
#include "runtime/core/thread_pool.h"
#include "runtime/model/model.h"
#include "runtime/nmt/params.h"

namespace edgemt {

// Buffer lifetimes: the phases of one run, in order.
enum Phase : int {
  kPhaseEncode = 0,       // embedding and encoder layers
  kPhaseCrossMemory = 1,  // cross-attention keys/values of every decoder layer
  kPhaseDecode = 2,       // decoder steps and search
  kPhaseResults = 3,      // output ids, readable until the next run
};

// Sizes the engine is built for, from the model's config and the engine's limits.
struct Dims {
  size_t model = 0;  // d_model
  size_t encoder_heads = 0, encoder_head_dim = 0;
  size_t decoder_heads = 0, decoder_head_dim = 0;
  size_t encoder_ffn = 0, decoder_ffn = 0;
  size_t encoder_layers = 0, decoder_layers = 0;
  size_t target_vocab = 0;
  size_t max_source = 0;  // source tokens per sentence, incl. eos
  size_t max_target = 0;  // generated tokens per sentence, incl. eos
  size_t max_batch = 0;   // sentences per run
  size_t max_beam = 0;
  size_t max_rows = 0;           // decoder rows: max_batch * max_beam
  size_t max_source_tokens = 0;  // max_batch * max_source
  size_t source_key_blocks = 0;  // ceil(max_source / ops::kKeyBlock)
  size_t target_key_blocks = 0;  // ceil(max_target / ops::kKeyBlock)
  // Row length of the wide buffers that hold either q|k|v or the FFN's hidden layer.
  size_t encoder_wide = 0, decoder_wide = 0;
  // Row length of int8 activations (k padded for the int8 gemm).
  size_t encoder_q8_row = 0, decoder_q8_row = 0;
  float encoder_attention_scale = 0.0f, decoder_attention_scale = 0.0f;
  bool quantized = false;  // some linear layer is int8: quantized activations needed
};

Dims make_dims(const Model& model, const EngineLimits& limits);

// The decoder's input rows of one step, written by search: row r continues the
// hypothesis kept in decoder-state slot slot[r], translates source sentence
// sentence[r], and its last token is token[r].
struct StepRows {
  int32_t* slot = nullptr;      // [max_rows]
  int32_t* sentence = nullptr;  // [max_rows]
  int32_t* token = nullptr;     // [max_rows]
};

// int8 activations of a linear layer's input: values [rows][row_bytes], one scale per row.
struct QuantBuffers {
  int8_t* values = nullptr;
  float* scales = nullptr;
  size_t row_bytes = 0;
};

struct NmtContext {
  const Model* model = nullptr;
  const ModelConfig* config = nullptr;
  const ModelWeights* weights = nullptr;
  const ops::Kernels* kernels = nullptr;
  ThreadPool* pool = nullptr;
  Profiler* profiler = nullptr;
  Dims dims;
  EngineLimits limits;
  EngineProbes probes;
  // Per-thread attention scratch (packed keys and scores), planned by the engine.
  float* attention_scratch = nullptr;
  size_t scratch_floats_per_thread = 0;

  float* scratch_of(int thread) const {
    return attention_scratch + static_cast<size_t>(thread) * scratch_floats_per_thread;
  }

  // y = act(x W^T + b) for `rows` rows, split over the pool by panels of 16 columns.
  // int8 layers quantize x into `q` first.
  void linear(const LinearWeights& w, size_t rows, const float* x, size_t ldx, float* y, size_t ldy,
              ops::Activation act, const QuantBuffers& q, ProfOp op, ProfOp quant_op) const;
  // linear() in parts, for callers that split the columns themselves: quantize_input once
  // (int8 layers; nothing for float32), then linear_panels for the columns of panels
  // [p0, p1) (16 columns each), written from y's column 0, on the calling thread.
  void quantize_input(const LinearWeights& w, size_t rows, const float* x, size_t ldx, const QuantBuffers& q,
                      ProfOp quant_op) const;
  void linear_panels(const LinearWeights& w, size_t rows, const float* x, size_t ldx, const QuantBuffers& q,
                     size_t p0, size_t p1, float* y, size_t ldy, ops::Activation act) const;
  // y = LN(x) (rows of dims.model).
  void layernorm(size_t rows, const float* x, float* y, const NormWeights& n, ProfOp op) const;
  // resid = LN(resid + x).
  void add_layernorm(size_t rows, const float* x, float* resid, const NormWeights& n, ProfOp op) const;
  // resid += x.
  void add_inplace(size_t rows, const float* x, float* resid) const;
};

// Where a residual sub-layer normalises: pre-norm normalises its input
// (x + f(LN(x))), post-norm its sum (LN(x + f(x))). One sub-layer is
//   in = res.input(rows, x, tmp, norm);  ...f(in) -> out...;  res.add(rows, out, x, norm);
class Residual {
 public:
  Residual(const NmtContext& c, ProfOp op)
      : c_(c), op_(op), pre_(c.config->norm_placement == NormPlacement::kPre) {}
  bool pre_norm() const { return pre_; }
  // The sub-layer's input: x (post-norm) or LN(x) written to tmp (pre-norm).
  const float* input(size_t rows, float* x, float* tmp, const NormWeights& n) const {
    if (!pre_) return x;
    c_.layernorm(rows, x, tmp, n, op_);
    return tmp;
  }
  // x += out (pre-norm) or x = LN(x + out) (post-norm).
  void add(size_t rows, const float* out, float* x, const NormWeights& n) const {
    if (pre_) {
      c_.add_inplace(rows, out, x);
    } else {
      c_.add_layernorm(rows, out, x, n, op_);
    }
  }

 private:
  const NmtContext& c_;
  ProfOp op_;
  bool pre_;
};

}  // namespace edgemt
