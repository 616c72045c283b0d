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
  layout.add(&buffer_of_, "self-attention cache of each slot", d.max_rows, kPhaseDecode, kPhaseDecode);
}

void KvCache::reset() const {
  for (size_t i = 0; i < c_.dims.max_rows; ++i) buffer_of_[i] = static_cast<int32_t>(i);
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
  // The sentence's slots in play: the children, and parents past them (Marian's search
  // shrinks the beam as hypotheses end). Beams are at most 32 (Engine limits).
  size_t range = beams;
  for (size_t i = 0; i < beams; ++i) range = std::max(range, static_cast<size_t>(parents[i]) + 1);
  constexpr size_t kMax = 64;
  if (range > kMax) range = kMax;
  int32_t* map = buffer_of_ + first_slot;
  int32_t old[kMax];
  std::copy(map, map + range, old);
  // A parent's buffer goes, unchanged, to its first child; its other children get buffers
  // no child continues (hypotheses that ended or fell out of the beam), copied from it.
  bool taken[kMax] = {};
  bool copy[kMax] = {};
  for (size_t i = 0; i < beams; ++i) {
    const auto p = static_cast<size_t>(parents[i]);
    if (!taken[p]) {
      taken[p] = true;
      map[i] = old[p];
    } else {
      copy[i] = true;
    }
  }
  size_t free = 0;
  const auto next_free = [&] {
    while (taken[free]) ++free;
    taken[free] = true;
    return old[free];
  };
  for (size_t i = 0; i < beams; ++i)
    if (copy[i]) map[i] = next_free();
  for (size_t i = beams; i < range; ++i) map[i] = next_free();  // the rest stay a permutation
  const Dims& d = c_.dims;
  const size_t key_bytes =
      (t / ops::kKeyBlock + 1) * d.decoder_head_dim * ops::kKeyBlock * sizeof(float);  // one head
  const size_t value_bytes = (t + 1) * d.model * sizeof(float);
  for (size_t i = 0; i < beams; ++i) {
    if (!copy[i]) continue;
    const auto from = static_cast<size_t>(old[parents[i]]), to = static_cast<size_t>(map[i]);
    for (size_t l = 0; l < d.decoder_layers; ++l) {
      for (size_t h = 0; h < d.decoder_heads; ++h)
        std::memcpy(buffer_keys(l, to, h), buffer_keys(l, from, h), key_bytes);
      std::memcpy(buffer_values(l, to), buffer_values(l, from), value_bytes);
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
