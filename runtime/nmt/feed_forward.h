// The position-wise feed-forward sub-layer: out = act(in W1 + b1) W2 + b2.
#pragma once

#include <cstddef>

#include "runtime/nmt/context.h"

namespace edgemt {

struct FeedForwardProf {
  ProfOp ffn1, ffn2, quantize;
};
inline constexpr FeedForwardProf kEncoderFeedForwardProf{ProfOp::kEncGemmFfn1, ProfOp::kEncGemmFfn2,
                                                         ProfOp::kEncQuantize};
inline constexpr FeedForwardProf kDecoderFeedForwardProf{ProfOp::kDecGemmFfn1, ProfOp::kDecGemmFfn2,
                                                         ProfOp::kDecQuantize};

// hidden: [rows][ld_hidden] (ld_hidden >= the layer's ffn dim), out: [rows][d].
inline void feed_forward(const NmtContext& c, const LinearWeights& fc1, const LinearWeights& fc2, size_t rows,
                         const float* in, float* hidden, size_t ld_hidden, float* out, const QuantBuffers& q,
                         const FeedForwardProf& prof) {
  c.linear(fc1, rows, in, c.dims.model, hidden, ld_hidden, c.config->activation, q, prof.ffn1, prof.quantize);
  c.linear(fc2, rows, hidden, ld_hidden, out, c.dims.model, ops::Activation::kNone, q, prof.ffn2,
           prof.quantize);
}

}  // namespace edgemt
