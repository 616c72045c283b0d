// ModelConfig's enums to and from the schema's (schema/edgemt.fbs): the one place
// that maps them, used by the converter's writer and the runtime's loader.
#pragma once

#include <optional>

#include "runtime/model/config.h"
#include "schema/edgemt_generated.h"

namespace edgemt {

inline fb::Activation to_schema(ops::Activation a) {
  switch (a) {
    case ops::Activation::kRelu:
      return fb::Activation::Relu;
    case ops::Activation::kGelu:
      return fb::Activation::Gelu;
    case ops::Activation::kSwish:
      return fb::Activation::Swish;
    case ops::Activation::kGeluTanh:
      return fb::Activation::GeluTanh;
    default:
      break;
  }
  return fb::Activation::Swish;
}
inline std::optional<ops::Activation> from_schema(fb::Activation a) {
  switch (a) {
    case fb::Activation::Relu:
      return ops::Activation::kRelu;
    case fb::Activation::Gelu:
      return ops::Activation::kGelu;
    case fb::Activation::Swish:
      return ops::Activation::kSwish;
    case fb::Activation::GeluTanh:
      return ops::Activation::kGeluTanh;
  }
  return std::nullopt;
}

inline fb::NormPlacement to_schema(NormPlacement p) {
  return p == NormPlacement::kPre ? fb::NormPlacement::Pre : fb::NormPlacement::Post;
}
inline std::optional<NormPlacement> from_schema(fb::NormPlacement p) {
  switch (p) {
    case fb::NormPlacement::Post:
      return NormPlacement::kPost;
    case fb::NormPlacement::Pre:
      return NormPlacement::kPre;
  }
  return std::nullopt;
}

inline fb::PositionKind to_schema(PositionKind k) {
  switch (k) {
    case PositionKind::kSinusoidalSplit:
      return fb::PositionKind::SinusoidalSplit;
    case PositionKind::kSinusoidalInterleaved:
      return fb::PositionKind::SinusoidalInterleaved;
    case PositionKind::kLearned:
      return fb::PositionKind::Learned;
  }
  return fb::PositionKind::SinusoidalSplit;
}
inline std::optional<PositionKind> from_schema(fb::PositionKind k) {
  switch (k) {
    case fb::PositionKind::SinusoidalSplit:
      return PositionKind::kSinusoidalSplit;
    case fb::PositionKind::SinusoidalInterleaved:
      return PositionKind::kSinusoidalInterleaved;
    case fb::PositionKind::Learned:
      return PositionKind::kLearned;
  }
  return std::nullopt;
}

// Values are equal on both sides; one the schema does not name is written as it is
// (tests use that to make files from a "newer" converter).
inline fb::DecoderLayerKind to_schema(DecoderLayerKind k) { return static_cast<fb::DecoderLayerKind>(k); }
inline std::optional<DecoderLayerKind> from_schema(fb::DecoderLayerKind k) {
  switch (k) {
    case fb::DecoderLayerKind::Transformer:
      return DecoderLayerKind::kTransformer;
    case fb::DecoderLayerKind::Ssru:
      return DecoderLayerKind::kSsru;
  }
  return std::nullopt;
}

}  // namespace edgemt
