#include "runtime/model/tensor_table.h"

#include <string>

#include "ops/gemm/pack.h"
#include "runtime/model/names.h"
#include "runtime/model/weights.h"
#include "schema/edgemt_generated.h"

namespace edgemt {
namespace {

std::string shape_str(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(s[i]);
  }
  return out + "]";
}

std::string shape_str(const flatbuffers::Vector<int64_t>* s) {
  std::vector<int64_t> v;
  if (s != nullptr) v.assign(s->begin(), s->end());
  return shape_str(v);
}

const char* dtype_name(fb::DType t) {
  switch (t) {
    case fb::DType::F32:
      return "f32";
    case fb::DType::I8:
      return "i8";
    case fb::DType::I32:
      return "i32";
  }
  return "unknown";
}

}  // namespace

Status TensorTable::index(const fb::Model* model) {
  const auto* tensors = model->tensors();
  if (tensors == nullptr) return invalid_model("the model has no tensors");
  for (const fb::Tensor* t : *tensors) {
    const std::string_view name(t->name()->c_str(), t->name()->size());
    if (!by_name_.emplace(name, t).second)
      return invalid_model("tensor " + std::string(name) + " appears twice");
    // The Verifier checks a vector's length field (4-byte aligned), not that 8-byte
    // elements are 8-byte aligned: reading a misaligned shape is undefined behaviour
    // (and faults on 32-bit ARM), so such a file is rejected.
    if (t->shape() != nullptr && reinterpret_cast<uintptr_t>(t->shape()->Data()) % alignof(int64_t) != 0)
      return invalid_model("tensor " + std::string(name) + " has a misaligned shape vector");
  }
  return Status::ok();
}

Status TensorTable::f32(std::string_view name, const std::vector<int64_t>& shape, const float** out) const {
  const fb::Tensor* t = nullptr;
  EDGEMT_RETURN_IF_ERROR(find(name, &t));
  if (t->dtype() != fb::DType::F32 || t->layout() != fb::Layout::RowMajor)
    return invalid_model("tensor " + std::string(name) + " is " + dtype_name(t->dtype()) + " (layout " +
                         std::to_string(static_cast<int>(t->layout())) + "), expected f32 row-major");
  EDGEMT_RETURN_IF_ERROR(check_shape(name, t, shape));
  size_t count = 1;
  for (int64_t d : shape) count *= static_cast<size_t>(d);
  const void* p = nullptr;
  EDGEMT_RETURN_IF_ERROR(check_data(name, t, count * sizeof(float), &p));
  *out = static_cast<const float*>(p);
  return Status::ok();
}

Status TensorTable::linear(std::string_view module, size_t n, size_t k, LinearWeights* w) const {
  const std::string wname = names::weight(module);
  const fb::Tensor* t = nullptr;
  EDGEMT_RETURN_IF_ERROR(find(wname, &t));
  EDGEMT_RETURN_IF_ERROR(check_shape(wname, t, {static_cast<int64_t>(n), static_cast<int64_t>(k)}));
  w->n = n;
  w->k = k;
  const void* p = nullptr;
  if (t->dtype() == fb::DType::F32) {
    if (t->layout() != fb::Layout::PanelF32x16)
      return invalid_model("tensor " + wname + " is f32 but not in the PanelF32x16 layout");
    EDGEMT_RETURN_IF_ERROR(check_data(wname, t, ops::f32_panel_size(n, k) * sizeof(float), &p));
    w->type = WeightType::kF32;
    w->w = static_cast<const float*>(p);
  } else if (t->dtype() == fb::DType::I8) {
    if (t->layout() != fb::Layout::PanelI8x16x4)
      return invalid_model("tensor " + wname + " is i8 but not in the PanelI8x16x4 layout");
    EDGEMT_RETURN_IF_ERROR(check_data(wname, t, ops::qs8_panel_size(n, k), &p));
    w->type = WeightType::kI8;
    w->w8 = static_cast<const int8_t*>(p);
    EDGEMT_RETURN_IF_ERROR(check_scales(wname, t, n, &w->scales));
    if (t->row_sums() == nullptr || t->row_sums()->size() != n)
      return invalid_model("tensor " + wname + " has no row sums for its " + std::to_string(n) + " channels");
    EDGEMT_RETURN_IF_ERROR(check_aligned(wname, t->row_sums()->Data()));
    w->row_sums = t->row_sums()->data();
    w->w7 = t->max_abs() != 0 && t->max_abs() <= 64;
  } else {
    return invalid_model("tensor " + wname + " has dtype " + dtype_name(t->dtype()) + ", expected f32 or i8");
  }
  const std::string bname = names::bias(module);
  if (has(bname)) {
    EDGEMT_RETURN_IF_ERROR(f32(bname, {static_cast<int64_t>(n)}, &w->bias));
  } else {
    w->bias = nullptr;
  }
  return Status::ok();
}

Status TensorTable::embedding(std::string_view name, size_t rows, size_t d, EmbeddingWeights* e) const {
  const fb::Tensor* t = nullptr;
  EDGEMT_RETURN_IF_ERROR(find(name, &t));
  EDGEMT_RETURN_IF_ERROR(check_shape(name, t, {static_cast<int64_t>(rows), static_cast<int64_t>(d)}));
  const bool i8_panel = t->dtype() == fb::DType::I8 && t->layout() == fb::Layout::PanelI8x16x4;
  const bool f32_panel = t->dtype() == fb::DType::F32 && t->layout() == fb::Layout::PanelF32x16;
  if (t->layout() != fb::Layout::RowMajor && !i8_panel && !f32_panel)
    return invalid_model("tensor " + std::string(name) + " must be row-major or in its dtype's panel layout");
  e->rows = rows;
  e->d = d;
  const void* p = nullptr;
  if (t->dtype() == fb::DType::F32) {
    EDGEMT_RETURN_IF_ERROR(
        check_data(name, t, (f32_panel ? ops::f32_panel_size(rows, d) : rows * d) * sizeof(float), &p));
    e->type = WeightType::kF32;
    e->f32 = static_cast<const float*>(p);
    e->panel = f32_panel;
  } else if (t->dtype() == fb::DType::I8) {
    EDGEMT_RETURN_IF_ERROR(check_data(name, t, i8_panel ? ops::qs8_panel_size(rows, d) : rows * d, &p));
    e->type = WeightType::kI8;
    e->i8 = static_cast<const int8_t*>(p);
    e->panel = i8_panel;
    EDGEMT_RETURN_IF_ERROR(check_scales(name, t, rows, &e->scales));
    if (i8_panel) {
      if (t->row_sums() == nullptr || t->row_sums()->size() != rows)
        return invalid_model("tensor " + std::string(name) + " has no row sums for its " +
                             std::to_string(rows) + " rows");
      EDGEMT_RETURN_IF_ERROR(check_aligned(name, t->row_sums()->Data()));
      e->row_sums = t->row_sums()->data();
      e->w7 = t->max_abs() != 0 && t->max_abs() <= 64;
    }
  } else {
    return invalid_model("tensor " + std::string(name) + " has dtype " + dtype_name(t->dtype()) +
                         ", expected f32 or i8");
  }
  return Status::ok();
}

Status TensorTable::norm(std::string_view module, size_t d, NormWeights* n) const {
  EDGEMT_RETURN_IF_ERROR(f32(names::weight(module), {static_cast<int64_t>(d)}, &n->gamma));
  return f32(names::bias(module), {static_cast<int64_t>(d)}, &n->beta);
}

Status TensorTable::find(std::string_view name, const fb::Tensor** t) const {
  const auto it = by_name_.find(name);
  if (it == by_name_.end()) return invalid_model("tensor " + std::string(name) + " is missing");
  *t = it->second;
  return Status::ok();
}

Status TensorTable::check_shape(std::string_view name, const fb::Tensor* t,
                                const std::vector<int64_t>& want) {
  const auto* s = t->shape();
  bool ok = s != nullptr && s->size() == want.size();
  for (size_t i = 0; ok && i < want.size(); ++i)
    ok = s->Get(static_cast<flatbuffers::uoffset_t>(i)) == want[i];
  if (!ok)
    return invalid_model("tensor " + std::string(name) + " has shape " + shape_str(s) + ", expected " +
                         shape_str(want));
  return Status::ok();
}

Status TensorTable::check_aligned(std::string_view name, const void* p) const {
  const auto off = static_cast<size_t>(static_cast<const uint8_t*>(p) - base_);
  if (off % 64 != 0)
    return invalid_model("tensor " + std::string(name) + " data is not 64-byte aligned (offset " +
                         std::to_string(off) + ")");
  return Status::ok();
}

Status TensorTable::check_data(std::string_view name, const fb::Tensor* t, size_t bytes,
                               const void** p) const {
  if (t->data() == nullptr) return invalid_model("tensor " + std::string(name) + " has no data");
  if (t->data()->size() != bytes)
    return invalid_model("tensor " + std::string(name) + " has " + std::to_string(t->data()->size()) +
                         " bytes of data, expected " + std::to_string(bytes));
  EDGEMT_RETURN_IF_ERROR(check_aligned(name, t->data()->Data()));
  *p = t->data()->Data();
  return Status::ok();
}

Status TensorTable::check_scales(std::string_view name, const fb::Tensor* t, size_t n,
                                 const float** out) const {
  if (t->scales() == nullptr || t->scales()->size() != n)
    return invalid_model("tensor " + std::string(name) + " needs " + std::to_string(n) + " scales");
  EDGEMT_RETURN_IF_ERROR(check_aligned(name, t->scales()->Data()));
  const float* s = t->scales()->data();
  for (size_t i = 0; i < n; ++i) {
    if (!(s[i] > 0.0f) || !(s[i] < 1e30f))
      return invalid_model("tensor " + std::string(name) + " has an invalid scale at row " +
                           std::to_string(i));
  }
  *out = s;
  return Status::ok();
}

}  // namespace edgemt
