#include "runtime/nmt/search/search_state.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace edgemt {

void SearchState::declare(ArenaLayout& layout) {
  const Dims& d = c_.dims;
  layout.add(&rows.slot, "row slots", d.max_rows, kPhaseDecode, kPhaseDecode);
  layout.add(&rows.sentence, "row sentences", d.max_rows, kPhaseDecode, kPhaseDecode);
  layout.add(&rows.token, "row tokens", d.max_rows, kPhaseDecode, kPhaseDecode);
  layout.add(&hypotheses, "running hypotheses", 2 * d.max_rows * d.max_target, kPhaseDecode, kPhaseDecode);
  layout.add(&hypothesis_logprobs, "running log-probs", 2 * d.max_rows * d.max_target, kPhaseDecode,
             kPhaseDecode);
  layout.add(&hypothesis_sources, "running alignments", 2 * d.max_rows * d.max_target, kPhaseDecode,
             kPhaseDecode);
  layout.add(&output_sources, "output alignments", d.max_batch * d.max_target, kPhaseDecode, kPhaseResults);
  layout.add(&output_aligned, "output aligned", d.max_batch, kPhaseDecode, kPhaseResults);
  layout.add(&output_logprobs, "output log-probs", d.max_batch * d.max_target, kPhaseDecode, kPhaseResults);
  layout.add(&output_scored, "output scored", d.max_batch, kPhaseDecode, kPhaseResults);
  layout.add(&output_ids, "output ids", d.max_batch * d.max_target, kPhaseDecode, kPhaseResults);
  layout.add(&output_lengths, "output lengths", d.max_batch, kPhaseDecode, kPhaseResults);
  layout.add(&output_scores, "output scores", d.max_batch, kPhaseDecode, kPhaseResults);
  layout.add(&max_new, "length limits", d.max_batch, kPhaseDecode, kPhaseDecode);
  layout.add(&rng, "sampling generators", d.max_batch, kPhaseDecode, kPhaseDecode);
  const size_t k = std::min<size_t>(d.target_vocab, kMaxSamplingTopK);
  layout.add(&sample_values, "sampling candidates", k, kPhaseDecode, kPhaseDecode);
  layout.add(&sample_columns, "sampling candidate columns", k, kPhaseDecode, kPhaseDecode);
  layout.add(&top_values, "step top values", d.max_rows, kPhaseDecode, kPhaseDecode);
  layout.add(&top_columns, "step top columns", d.max_rows, kPhaseDecode, kPhaseDecode);
  layout.add(&row_lse, "step log-sum-exps", d.max_rows, kPhaseDecode, kPhaseDecode);
  if (c_.model->shortlist().present())
    layout.add(&shortlist_mask, "shortlist candidates", d.max_batch * d.target_vocab, kPhaseDecode,
               kPhaseDecode);
}

void SearchState::build_shortlist(std::span<const std::span<const int32_t>> sources, bool use) {
  const ShortlistView& sl = c_.model->shortlist();
  shortlist_active = use && sl.present();
  if (!shortlist_active) return;
  const size_t vocab = c_.dims.target_vocab, limit = sl.target_vocab;
  for (size_t s = 0; s < sources.size(); ++s) {
    uint8_t* m = shortlist_mask + s * vocab;
    std::memset(m, 0, vocab);
    size_t count = 0;
    auto mark = [&](size_t id) {
      if (id < limit && m[id] == 0) {
        m[id] = 1;
        ++count;
      }
    };
    for (size_t i = 0; i < sl.first_num && i < limit; ++i) mark(i);
    for (int32_t src : sources[s]) {
      const auto id = static_cast<size_t>(src);
      if (sl.add_source_ids) mark(id);
      if (id + 1 < sl.num_offsets)
        for (uint32_t j = sl.offsets[id]; j < sl.offsets[id + 1]; ++j) mark(sl.targets[j]);
    }
    // A multiple of 8 candidates (Marian pads for its int8 gemm): the smallest further ids.
    if (count == 0) mark(static_cast<size_t>(c_.config->eos_id));  // never an empty set
    for (size_t i = sl.first_num; i < limit && count % 8 != 0; ++i) mark(i);
  }
}

void SearchState::apply_shortlist(float* row, size_t columns, const uint32_t* ids, size_t sentence) const {
  apply_shortlist(row, 0, columns, ids, sentence);
}

void SearchState::apply_shortlist(float* x, size_t col0, size_t n, const uint32_t* ids,
                                  size_t sentence) const {
  if (!shortlist_active) return;
  constexpr float kNegInf = -std::numeric_limits<float>::infinity();
  const uint8_t* m = shortlist_mask + sentence * c_.dims.target_vocab;
  for (size_t j = 0; j < n; ++j)
    if (m[ids != nullptr ? ids[col0 + j] : col0 + j] == 0) x[j] = kNegInf;
}

namespace {

// The column of token `id` among `columns` (ids ascending; null: column id), or columns
// when it has none.
size_t column_of(int32_t id, size_t columns, const uint32_t* ids) {
  if (ids == nullptr) return static_cast<size_t>(id) < columns ? static_cast<size_t>(id) : columns;
  const uint32_t* it = std::lower_bound(ids, ids + columns, static_cast<uint32_t>(id));
  return it != ids + columns && *it == static_cast<uint32_t>(id) ? static_cast<size_t>(it - ids) : columns;
}

}  // namespace

void SearchState::process_logits(float* row, size_t columns, const uint32_t* ids, bool last_step) const {
  constexpr float kNegInf = -std::numeric_limits<float>::infinity();
  const GenerationDefaults& g = c_.model->generation();
  if (last_step && g.forced_eos_id >= 0) {
    for (size_t v = 0; v < columns; ++v) row[v] = kNegInf;
    if (const size_t c = column_of(g.forced_eos_id, columns, ids); c < columns) row[c] = 0.0f;
    return;
  }
  ban_tokens(row, 0, columns, columns, ids);
}

void SearchState::ban_tokens(float* x, size_t col0, size_t n, size_t columns, const uint32_t* ids) const {
  constexpr float kNegInf = -std::numeric_limits<float>::infinity();
  for (int32_t id : c_.model->generation().banned_ids)
    if (const size_t c = column_of(id, columns, ids); c >= col0 && c < col0 + n) x[c - col0] = kNegInf;
}

bool SearchState::loops(const int32_t* h, size_t len) {
  constexpr size_t kMaxPeriod = 16;
  for (size_t p = 1; p <= kMaxPeriod; ++p) {
    const size_t copies = p == 1 ? 8 : 4;
    if (copies * p > len) break;
    // h[len - copies*p .. len) is one p-gram `copies` times: each token equals the one p back.
    size_t k = 0;
    const size_t span = (copies - 1) * p;
    while (k < span && h[len - 1 - k] == h[len - 1 - k - p]) ++k;
    if (k == span) return true;
  }
  return false;
}

bool SearchState::plain_step(size_t rows_n, size_t t, const int32_t* histories, bool repetition_guard) const {
  const bool has_forced = c_.model->generation().forced_eos_id >= 0;
  for (size_t r = 0; r < rows_n; ++r) {
    const auto s = static_cast<size_t>(rows.sentence[r]);
    if (has_forced && t + 1 >= static_cast<size_t>(max_new[s])) return false;
    if (repetition_guard && loops(histories + static_cast<size_t>(rows.slot[r]) * c_.dims.max_target, t))
      return false;
  }
  return true;
}

bool SearchState::force_end(float* row, size_t columns, const uint32_t* ids) const {
  const auto eos = static_cast<uint32_t>(c_.config->eos_id);
  size_t col = columns;
  if (ids == nullptr) {
    col = eos < columns ? eos : columns;
  } else {
    const uint32_t* it = std::lower_bound(ids, ids + columns, eos);
    if (it != ids + columns && *it == eos) col = static_cast<size_t>(it - ids);
  }
  if (col == columns) return false;
  const float keep = row[col];
  std::fill(row, row + columns, -std::numeric_limits<float>::infinity());
  row[col] = keep;
  return true;
}

namespace {
// SplitMix64 (Steele, Lea, Flood 2014): a 64-bit state advanced by a constant, then mixed.
uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
}  // namespace

void SearchState::seed_sentences(std::span<const std::span<const int32_t>> sources, uint64_t seed) {
  for (size_t s = 0; s < sources.size(); ++s) {
    uint64_t h = 0xCBF29CE484222325ull;  // FNV-1a over the ids' bytes
    for (int32_t id : sources[s]) {
      auto u = static_cast<uint32_t>(id);
      for (int b = 0; b < 4; ++b, u >>= 8) h = (h ^ (u & 0xFFu)) * 0x100000001B3ull;
    }
    uint64_t st = seed ^ h;
    rng[s] = splitmix64(st);
  }
}

double SearchState::uniform(size_t s) { return static_cast<double>(splitmix64(rng[s]) >> 11) * 0x1.0p-53; }

void Trails::copy(size_t to, const Trails& src, size_t from, size_t n) const {
  std::memcpy(ids + to * stride, src.ids + from * src.stride, n * sizeof(int32_t));
  std::memcpy(lps + to * stride, src.lps + from * src.stride, n * sizeof(float));
  std::memcpy(sources + to * stride, src.sources + from * src.stride, n * sizeof(int32_t));
}

void SearchState::write_output(size_t s, const Trails& from, size_t row, size_t len, bool scored,
                               bool aligned) {
  const size_t T = c_.dims.max_target;
  const int32_t* toks = from.ids + row * from.stride;
  output_scored[s] = scored ? static_cast<int32_t>(len) : 0;
  if (scored) std::memcpy(output_logprobs + s * T, from.lps + row * from.stride, len * sizeof(float));
  output_aligned[s] = aligned ? static_cast<int32_t>(len) : 0;
  if (aligned) std::memcpy(output_sources + s * T, from.sources + row * from.stride, len * sizeof(int32_t));
  if (len > 0 && toks[len - 1] == c_.config->eos_id) --len;
  std::memcpy(output_ids + s * c_.dims.max_target, toks, len * sizeof(int32_t));
  output_lengths[s] = static_cast<int32_t>(len);
}

}  // namespace edgemt
