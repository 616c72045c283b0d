// The one step search needs from a decoder: score the next token of some rows, and
// make hypotheses continue others (beam search). Search depends on this interface
// only, the decoder does not know search.
#pragma once

#include <cstddef>
#include <cstdint>

namespace edgemt {

class TokenScorer {
 public:
  virtual ~TokenScorer() = default;
  // Raw logits [rows][target vocab] of the next token of rows 0..rows-1 at step t (the
  // rows as the StepRows the scorer was built with describe them). Valid until the next
  // call; search may modify them in place.
  virtual float* score(size_t rows, size_t t) = 0;
  // The columns of score()'s rows: column j is token column_ids()[j], or token j when
  // column_ids() is null (then columns() is the target vocabulary). A lexical shortlist
  // scores its candidates only.
  virtual size_t columns() const = 0;
  virtual const uint32_t* column_ids() const = 0;
  // After score(), when the scorer aligns (else null): per row, the source token (its
  // index in the row's sentence) the step's output is aligned to, or -1.
  virtual const int32_t* aligned_sources() const { return nullptr; }
  // Slots first_slot + i (i < beams) continue slots first_slot + parents[i] (steps 0..t).
  virtual void reorder(size_t first_slot, const int32_t* parents, size_t beams, size_t t) = 0;
};

}  // namespace edgemt
