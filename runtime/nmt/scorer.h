// The one step search needs from a decoder: score the next token of some rows, and
// make hypotheses continue others (beam search). Search depends on this interface
// only, the decoder does not know search.
#pragma once

#include <cstddef>
#include <cstdint>

namespace edgemt {

// What a search step does to a row's logits before it picks candidates, for score_top():
// in place, on columns [col0, col0 + n) of row r (blocks of a row come in any order).
class LogitFilter {
 public:
  virtual ~LogitFilter() = default;
  // Before the log-sum-exp (a lexical shortlist's -inf: Marian normalises over the
  // candidates), then after it (banned tokens).
  virtual void before_normalizer(size_t r, size_t col0, float* x, size_t n) const = 0;
  virtual void after_normalizer(size_t r, size_t col0, float* x, size_t n) const = 0;
};

// score_top()'s results: per row the k best filtered logits (descending, ties to the lower
// column, as f32_topk) and their columns, and the log-sum-exp of the row after
// before_normalizer (when lse is not null).
struct TopColumns {
  size_t k = 1;
  float* values = nullptr;      // [rows][k]
  uint32_t* columns = nullptr;  // [rows][k]
  float* lse = nullptr;         // [rows], or null: not wanted
};

class TokenScorer {
 public:
  virtual ~TokenScorer() = default;
  // Raw logits [rows][target vocab] of the next token of rows 0..rows-1 at step t (the
  // rows as the StepRows the scorer was built with describe them). Valid until the next
  // call; search may modify them in place.
  virtual float* score(size_t rows, size_t t) = 0;
  // score() for a step that needs only each row's k best columns and log-sum-exp: the
  // same logits, filtered, reduced block by block as they are computed, so no [rows][vocab]
  // matrix is written and read again. False (and nothing done) when the scorer cannot
  // (k too large, or a probe wants the full logits): then call score().
  virtual bool score_top(size_t rows, size_t t, const LogitFilter& filter, const TopColumns& out) {
    (void)rows, (void)t, (void)filter, (void)out;
    return false;
  }
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
