#include "runtime/nmt/search/search_state.h"

#include <cstring>
#include <limits>

namespace edgemt {

void SearchState::declare(ArenaLayout& layout) {
  const Dims& d = c_.dims;
  layout.add(&rows.slot, "row slots", d.max_rows, kPhaseDecode, kPhaseDecode);
  layout.add(&rows.sentence, "row sentences", d.max_rows, kPhaseDecode, kPhaseDecode);
  layout.add(&rows.token, "row tokens", d.max_rows, kPhaseDecode, kPhaseDecode);
  layout.add(&hypotheses, "running hypotheses", 2 * d.max_rows * d.max_target, kPhaseDecode, kPhaseDecode);
  layout.add(&output_ids, "output ids", d.max_batch * d.max_target, kPhaseDecode, kPhaseResults);
  layout.add(&output_lengths, "output lengths", d.max_batch, kPhaseDecode, kPhaseResults);
  layout.add(&max_new, "length limits", d.max_batch, kPhaseDecode, kPhaseDecode);
}

void SearchState::process_logits(float* row, bool last_step) const {
  constexpr float kNegInf = -std::numeric_limits<float>::infinity();
  const GenerationDefaults& g = c_.model->generation();
  if (last_step && g.forced_eos_id >= 0) {
    const size_t vocab = c_.dims.target_vocab;
    for (size_t v = 0; v < vocab; ++v) row[v] = kNegInf;
    row[g.forced_eos_id] = 0.0f;
    return;
  }
  for (int32_t id : g.banned_ids) row[id] = kNegInf;
}

void SearchState::write_output(size_t s, const int32_t* toks, size_t len) {
  if (len > 0 && toks[len - 1] == c_.config->eos_id) --len;
  std::memcpy(output_ids + s * c_.dims.max_target, toks, len * sizeof(int32_t));
  output_lengths[s] = static_cast<int32_t>(len);
}

}  // namespace edgemt
