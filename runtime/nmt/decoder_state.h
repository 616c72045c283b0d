// What a decoder keeps between steps, per layer and hypothesis slot, behind one
// interface that search uses: after each beam step, a sentence's hypotheses take the
// state of the hypotheses they continue.
//
// KvCache (self-attention: keys and values of every earlier position, growing with
// the output); SsruState (a recurrent layer: one vector per layer and slot, whatever
// the output length).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/arena.h"
#include "runtime/nmt/context.h"

namespace edgemt {

class DecoderState {
 public:
  virtual ~DecoderState() = default;
  // Hypothesis i (slot first_slot + i, i < beams) continues hypothesis parents[i] of the
  // same sentence: its state for steps 0..t becomes a copy of that one's.
  virtual void reorder(size_t first_slot, const int32_t* parents, size_t beams, size_t t) = 0;
};

// Self-attention keys and values of every decoder layer and slot. Keys are stored in
// the attention kernel's blocked layout ([heads][key blocks][head_dim][kKeyBlock]),
// values row-major ([max_target][d]). A slot's hypothesis lives in one of max_rows
// buffers (one per layer), found through a slot -> buffer map: reorder() hands a
// parent's buffer to its first continuation and copies only for further ones.
class KvCache final : public DecoderState {
 public:
  KvCache(const NmtContext& c) : c_(c) {}
  void declare(ArenaLayout& layout);
  // Each slot in its own buffer (slot i in buffer i); at the first step of a run.
  void reset() const;

  float* keys(size_t layer, size_t slot, size_t head) const {
    return buffer_keys(layer, static_cast<size_t>(buffer_of_[slot]), head);
  }
  float* values(size_t layer, size_t slot) const {
    return buffer_values(layer, static_cast<size_t>(buffer_of_[slot]));
  }
  // Appends position t's key and value (one row of one head) for `slot`.
  void append(size_t layer, size_t slot, size_t head, size_t t, const float* key, const float* value) const;

  void reorder(size_t first_slot, const int32_t* parents, size_t beams, size_t t) override;

 private:
  size_t head_key_floats() const {
    return c_.dims.target_key_blocks * c_.dims.decoder_head_dim * ops::kKeyBlock;
  }
  size_t slot_key_floats() const { return c_.dims.decoder_heads * head_key_floats(); }
  float* buffer_keys(size_t layer, size_t buffer, size_t head) const {
    return keys_ + ((layer * c_.dims.max_rows + buffer) * c_.dims.decoder_heads + head) * head_key_floats();
  }
  float* buffer_values(size_t layer, size_t buffer) const {
    return values_ + (layer * c_.dims.max_rows + buffer) * c_.dims.max_target * c_.dims.model;
  }

  const NmtContext& c_;
  float* keys_ = nullptr;         // [layers][max_rows buffers][heads][key blocks][head_dim][kKeyBlock]
  float* values_ = nullptr;       // [layers][max_rows buffers][max_target][d]
  int32_t* buffer_of_ = nullptr;  // [max_rows] each slot's buffer (a permutation within each sentence)
};

// SSRU cell states c[layer][slot][d] (Marian's SSRU, rnn/cells.h): at step t,
//   x = W in, f = sigmoid(Wf in + bf), c_t = f * c_{t-1} + (1 - f) * x (c_{-1} = 0),
// and the layer's output is relu(c_t).
class SsruState final : public DecoderState {
 public:
  SsruState(const NmtContext& c) : c_(c) {}
  void declare(ArenaLayout& layout);

  float* cell(size_t layer, size_t slot) const {
    return cells_ + (layer * c_.dims.max_rows + slot) * c_.dims.model;
  }
  // One step for `rows` rows: proj[r] holds x (d values) then Wf in + bf (d values) of
  // row r, whose hypothesis lives in slot slots[r]; out[r] receives relu(c_t).
  void step(size_t layer, size_t rows, const int32_t* slots, size_t t, const float* proj, size_t proj_ld,
            float* out) const;

  void reorder(size_t first_slot, const int32_t* parents, size_t beams, size_t t) override;

 private:
  const NmtContext& c_;
  float* cells_ = nullptr;    // [layers][max_rows][d]
  float* scratch_ = nullptr;  // [max_beam][d]
};

}  // namespace edgemt
