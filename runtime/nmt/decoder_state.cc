#include "runtime/nmt/decoder_state.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace edgemt {

void KvCache::declare(ArenaLayout& layout) {
  const Dims& d = c_.dims;
  const size_t slots = d.decoder_layers * d.max_rows;
  layout.add(&keys_, "self-attention key cache", slots * slot_key_floats(), kPhaseDecode, kPhaseDecode);
  layout.add(&values_, "self-attention value cache", slots * d.max_target * d.model, kPhaseDecode,
             kPhaseDecode);
  const size_t scratch = d.max_beam > 1 ? d.max_beam * (slot_key_floats() + d.max_target * d.model) : 0;
  layout.add(&reorder_scratch_, "beam reorder scratch", scratch, kPhaseDecode, kPhaseDecode);
}

void KvCache::append(size_t layer, size_t slot, size_t head, size_t t, const float* key,
                     const float* value) const {
  const size_t hd = c_.dims.decoder_head_dim;
  c_.kernels->f32_pack_keys(1, hd, key, hd, keys(layer, slot, head), hd * ops::kKeyBlock, t,
                            t % ops::kKeyBlock == 0);
  std::memcpy(values(layer, slot) + t * c_.dims.model + head * hd, value, hd * sizeof(float));
}

void KvCache::reorder(size_t first_slot, const int32_t* parents, size_t beams, size_t t) {
  ScopedProf sp(c_.profiler, ProfOp::kSearchReorder);
  bool identity = true;
  for (size_t i = 0; i < beams; ++i) identity = identity && parents[i] == static_cast<int32_t>(i);
  if (identity) return;
  // A slot is saved before it is overwritten when another slot still needs it.
  bool needed[64] = {};
  bool moved[64] = {};
  for (size_t i = 0; i < beams; ++i) {
    if (parents[i] != static_cast<int32_t>(i)) {
      needed[parents[i]] = true;
      moved[i] = true;
    }
  }
  const Dims& d = c_.dims;
  const size_t heads = d.decoder_heads;
  const size_t key_bytes =
      (t / ops::kKeyBlock + 1) * d.decoder_head_dim * ops::kKeyBlock * sizeof(float);  // one head
  const size_t value_bytes = (t + 1) * d.model * sizeof(float);
  const size_t saved_floats = slot_key_floats() + d.max_target * d.model;
  for (size_t l = 0; l < d.decoder_layers; ++l) {
    for (size_t s = 0; s < beams; ++s) {
      if (!(needed[s] && moved[s])) continue;
      float* tmp = reorder_scratch_ + s * saved_floats;
      for (size_t h = 0; h < heads; ++h)
        std::memcpy(tmp + h * head_key_floats(), keys(l, first_slot + s, h), key_bytes);
      std::memcpy(tmp + slot_key_floats(), values(l, first_slot + s), value_bytes);
    }
    for (size_t i = 0; i < beams; ++i) {
      if (!moved[i]) continue;
      const size_t p = static_cast<size_t>(parents[i]);
      const bool saved = moved[p];
      const float* tmp = reorder_scratch_ + p * saved_floats;
      for (size_t h = 0; h < heads; ++h) {
        const float* src = saved ? tmp + h * head_key_floats() : keys(l, first_slot + p, h);
        std::memcpy(keys(l, first_slot + i, h), src, key_bytes);
      }
      std::memcpy(values(l, first_slot + i), saved ? tmp + slot_key_floats() : values(l, first_slot + p),
                  value_bytes);
    }
  }
}

void SsruState::declare(ArenaLayout& layout) {
  const Dims& d = c_.dims;
  layout.add(&cells_, "ssru cell states", d.decoder_layers * d.max_rows * d.model, kPhaseDecode,
             kPhaseDecode);
  layout.add(&scratch_, "ssru reorder scratch", d.max_beam > 1 ? d.max_beam * d.model : 0, kPhaseDecode,
             kPhaseDecode);
}

void SsruState::step(size_t layer, size_t rows, const int32_t* slots, size_t t, const float* proj,
                     size_t proj_ld, float* out) const {
  ScopedProf sp(c_.profiler, ProfOp::kDecSsru);
  const size_t d = c_.dims.model;
  for (size_t r = 0; r < rows; ++r) {
    const float* x = proj + r * proj_ld;  // W x, then the gate's Wf x + bf
    c_.kernels->f32_ssru(d, x, x + d, cell(layer, static_cast<size_t>(slots[r])), t == 0, out + r * d);
  }
}

void SsruState::reorder(size_t first_slot, const int32_t* parents, size_t beams, size_t /*t*/) {
  ScopedProf sp(c_.profiler, ProfOp::kSearchReorder);
  const size_t d = c_.dims.model;
  // Parents may lie past `beams` (a shrinking beam, Marian's search): save them too.
  size_t saved = beams;
  for (size_t i = 0; i < beams; ++i) saved = std::max(saved, static_cast<size_t>(parents[i]) + 1);
  for (size_t l = 0; l < c_.dims.decoder_layers; ++l) {
    for (size_t i = 0; i < saved; ++i)
      std::memcpy(scratch_ + i * d, cell(l, first_slot + i), d * sizeof(float));
    for (size_t i = 0; i < beams; ++i)
      std::memcpy(cell(l, first_slot + i), scratch_ + static_cast<size_t>(parents[i]) * d, d * sizeof(float));
  }
}

}  // namespace edgemt
