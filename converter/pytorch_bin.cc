// pytorch_model.bin reader, without Python.
//
// torch.save (since torch 1.6) writes a zip archive whose entries sit under one folder
// <prefix>/ (the archive name, e.g. "archive" or "pytorch_model"):
//   <prefix>/data.pkl     a pickle (protocol 2) of the state dict: an OrderedDict
//                         name -> torch._utils._rebuild_tensor_v2(storage, storage_offset,
//                         size, stride, requires_grad, backward_hooks), where storage is
//                         a persistent id ('storage', torch.FloatStorage, key, location,
//                         numel) resolved by BINPERSID;
//   <prefix>/data/<key>   each storage's raw little-endian bytes (tied tensors share one);
//   <prefix>/version, <prefix>/byteorder ("little"), <prefix>/.data/serialization_id ...
// torch writes every entry "stored" (uncompressed, 64-byte aligned data).
//
// The zip reader reads the central directory (with zip64 extensions) and only stored
// entries. The pickle machine implements the opcodes torch.save emits for state dicts
// and builds plain values; it never calls anything: the only callables it accepts are
// OrderedDict and torch's tensor/parameter rebuild functions, which it interprets
// itself. Everything is checked (bounds, overflow, types, storage sizes, strides), so a
// malformed file gives a ConvertError naming the file and the problem.

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

#include "converter/checkpoint.h"
#include "converter/float16.h"
#include "converter/zip.h"

namespace edgemt::convert {
namespace {

// ---------------------------------------------------------------------------------
// Pickle.

enum class DType : uint8_t { kF32, kF16, kBF16, kF64, kOther };

struct StorageType {
  const char* name;
  DType dtype;
  size_t bytes;
};
constexpr StorageType kStorageTypes[] = {
    {"FloatStorage", DType::kF32, 4},     {"HalfStorage", DType::kF16, 2},
    {"BFloat16Storage", DType::kBF16, 2}, {"DoubleStorage", DType::kF64, 8},
    {"LongStorage", DType::kOther, 8},    {"IntStorage", DType::kOther, 4},
    {"ShortStorage", DType::kOther, 2},   {"CharStorage", DType::kOther, 1},
    {"ByteStorage", DType::kOther, 1},    {"BoolStorage", DType::kOther, 1},
};

struct TensorInfo {
  std::string storage_type;  // "FloatStorage", ...
  DType dtype = DType::kF32;
  size_t elem_bytes = 4;
  const ZipEntry* storage = nullptr;
  std::string storage_name;  // zip entry
  uint64_t storage_numel = 0;
  uint64_t offset = 0;
  std::vector<int64_t> shape, stride;
  uint64_t numel = 1;
};

// Values live in one pool and refer to each other by index, so self-referencing or
// deeply nested pickles neither leak nor recurse.
enum class Kind : uint8_t {
  kNone,
  kBool,
  kInt,
  kFloat,
  kString,
  kBytes,
  kTuple,
  kList,
  kDict,
  kGlobal,
  kStorage,
  kTensor
};

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::kNone:
      return "None";
    case Kind::kBool:
      return "a bool";
    case Kind::kInt:
      return "an int";
    case Kind::kFloat:
      return "a float";
    case Kind::kString:
      return "a string";
    case Kind::kBytes:
      return "bytes";
    case Kind::kTuple:
      return "a tuple";
    case Kind::kList:
      return "a list";
    case Kind::kDict:
      return "a dict";
    case Kind::kGlobal:
      return "a global";
    case Kind::kStorage:
      return "a storage";
    case Kind::kTensor:
      return "a tensor";
  }
  return "?";
}

struct Value {
  Kind kind = Kind::kNone;
  int64_t i = 0;                // int, bool; tensor: index into tensors
  double f = 0;                 // float
  std::string s;                // string, bytes; global: "module.name"
  std::vector<uint32_t> items;  // tuple, list; dict: key, value, key, value...
  // storage
  const StorageType* storage_type = nullptr;
  std::string storage_key;
};

class Unpickler {
 public:
  Unpickler(std::string_view in, const Zip& zip, const std::string& prefix, const std::string& file)
      : in_(in), zip_(zip), prefix_(prefix), file_(file) {}

  // Runs to STOP; returns the index of the result.
  uint32_t run() {
    for (;;) {
      const uint8_t op = byte();
      switch (op) {
        case 0x80: {  // PROTO
          const uint8_t v = byte();
          if (v > 5) fail("uses pickle protocol " + std::to_string(v));
          break;
        }
        case 0x95:
          take(8);
          break;   // FRAME: framing only
        case '.':  // STOP
          if (stack_.empty()) fail("ends with an empty stack");
          return stack_.back();
        case 'N':
          push(make(Kind::kNone));
          break;
        case 0x88:
        case 0x89: {  // NEWTRUE, NEWFALSE
          Value v;
          v.kind = Kind::kBool;
          v.i = op == 0x88;
          push(add(std::move(v)));
          break;
        }
        case 'J':
          push(make_int(static_cast<int32_t>(le32(take(4)))));
          break;  // BININT
        case 'K':
          push(make_int(byte()));
          break;  // BININT1
        case 'M':
          push(make_int(le16(take(2))));
          break;      // BININT2
        case 0x8a: {  // LONG1
          const uint8_t n = byte();
          if (n > 8) fail("has an integer of " + std::to_string(n) + " bytes");
          const uint8_t* p = take(n);
          uint64_t u = 0;
          for (int k = n - 1; k >= 0; --k) u = (u << 8) | p[k];
          if (n > 0 && n < 8 && (p[n - 1] & 0x80)) u |= ~uint64_t{0} << (8 * n);  // sign-extend
          push(make_int(static_cast<int64_t>(u)));
          break;
        }
        case 'G': {  // BINFLOAT: big-endian double
          const uint8_t* p = take(8);
          uint64_t u = 0;
          for (int k = 0; k < 8; ++k) u = (u << 8) | p[k];
          Value v;
          v.kind = Kind::kFloat;
          std::memcpy(&v.f, &u, 8);
          push(add(std::move(v)));
          break;
        }
        case 'X':
          push(make_string(Kind::kString, le32(take(4))));
          break;  // BINUNICODE
        case 0x8c:
          push(make_string(Kind::kString, byte()));
          break;  // SHORT_BINUNICODE
        case 0x8d:
          push(make_string(Kind::kString, le64(take(8))));
          break;  // BINUNICODE8
        case 'T':
          push(make_string(Kind::kBytes, le32(take(4))));
          break;  // BINSTRING
        case 'U':
          push(make_string(Kind::kBytes, byte()));
          break;  // SHORT_BINSTRING
        case 'B':
          push(make_string(Kind::kBytes, le32(take(4))));
          break;  // BINBYTES
        case 'C':
          push(make_string(Kind::kBytes, byte()));
          break;  // SHORT_BINBYTES
        case ')':
          push(make(Kind::kTuple));
          break;  // EMPTY_TUPLE
        case ']':
          push(make(Kind::kList));
          break;  // EMPTY_LIST
        case '}':
          push(make(Kind::kDict));
          break;  // EMPTY_DICT
        case '(':
          marks_.push_back(stack_.size());
          break;     // MARK
        case 't': {  // TUPLE
          const size_t m = pop_mark();
          const uint32_t t = make(Kind::kTuple);
          pool_[t].items.assign(stack_.begin() + static_cast<std::ptrdiff_t>(m), stack_.end());
          stack_.resize(m);
          push(t);
          break;
        }
        case 0x85:
        case 0x86:
        case 0x87: {  // TUPLE1..3
          const size_t n = static_cast<size_t>(op - 0x84);
          need(n);
          const uint32_t t = make(Kind::kTuple);
          pool_[t].items.assign(stack_.end() - static_cast<std::ptrdiff_t>(n), stack_.end());
          stack_.resize(stack_.size() - n);
          push(t);
          break;
        }
        case '0':
          pop();
          break;  // POP
        case '1':
          stack_.resize(pop_mark());
          break;  // POP_MARK
        case '2':
          push(top());
          break;  // DUP
        case 'q':
          memo_put(byte());
          break;  // BINPUT
        case 'r':
          memo_put(le32(take(4)));
          break;  // LONG_BINPUT
        case 0x94:
          memo_put(memo_.size());
          break;  // MEMOIZE
        case 'h':
          push(memo_get(byte()));
          break;  // BINGET
        case 'j':
          push(memo_get(le32(take(4))));
          break;     // LONG_BINGET
        case 'c': {  // GLOBAL "module\nname\n"
          std::string module = line(), name = line();
          push(make_global(module, name));
          break;
        }
        case 0x93: {  // STACK_GLOBAL
          const uint32_t name = pop(), module = pop();
          if (pool_[name].kind != Kind::kString || pool_[module].kind != Kind::kString)
            fail("has a STACK_GLOBAL whose module or name is not a string");
          push(make_global(pool_[module].s, pool_[name].s));
          break;
        }
        case 'Q': {  // BINPERSID
          const uint32_t pid = pop();
          push(storage(pid));
          break;
        }
        case 'R':     // REDUCE
        case 0x81: {  // NEWOBJ
          const uint32_t args = pop(), fn = pop();
          push(reduce(fn, args));
          break;
        }
        case 'b': {  // BUILD: object state (OrderedDict's _metadata, a tensor's attributes) is not needed
          pop();
          const Kind k = pool_[top()].kind;
          if (k != Kind::kDict && k != Kind::kTensor) fail("sets the state of " + std::string(kind_name(k)));
          break;
        }
        case 's': {  // SETITEM
          const uint32_t v = pop(), k = pop();
          dict_at(top()).items.insert(dict_at(top()).items.end(), {k, v});
          break;
        }
        case 'u': {  // SETITEMS
          const size_t m = pop_mark();
          if ((stack_.size() - m) % 2 != 0) fail("has SETITEMS with an odd number of items");
          need_below(m, 1);
          Value& d = dict_at(stack_[m - 1]);
          d.items.insert(d.items.end(), stack_.begin() + static_cast<std::ptrdiff_t>(m), stack_.end());
          stack_.resize(m);
          break;
        }
        case 'a': {  // APPEND
          const uint32_t v = pop();
          list_at(top()).items.push_back(v);
          break;
        }
        case 'e': {  // APPENDS
          const size_t m = pop_mark();
          need_below(m, 1);
          Value& l = list_at(stack_[m - 1]);
          l.items.insert(l.items.end(), stack_.begin() + static_cast<std::ptrdiff_t>(m), stack_.end());
          stack_.resize(m);
          break;
        }
        default: {
          char hex[8];
          std::snprintf(hex, sizeof hex, "0x%02x", op);
          fail("uses pickle opcode " + std::string(hex) + " at byte " + std::to_string(pos_ - 1) +
               ", which torch.save does not emit for state dicts");
        }
      }
    }
  }

  const Value& value(uint32_t i) const { return pool_[i]; }
  std::vector<TensorInfo>& tensors() { return tensors_; }

  [[noreturn]] void fail(const std::string& what) const { throw ConvertError(file_ + ": data.pkl " + what); }

 private:
  uint8_t byte() { return *take(1); }
  const uint8_t* take(uint64_t n) {
    if (n > in_.size() - pos_) fail("is truncated (at byte " + std::to_string(pos_) + ")");
    const auto* p = reinterpret_cast<const uint8_t*>(in_.data() + pos_);
    pos_ += static_cast<size_t>(n);
    return p;
  }
  std::string line() {
    const size_t nl = in_.find('\n', pos_);
    if (nl == std::string_view::npos || nl - pos_ > 256) fail("has a malformed GLOBAL");
    std::string s(in_.substr(pos_, nl - pos_));
    pos_ = nl + 1;
    return s;
  }

  uint32_t add(Value v) {
    if (pool_.size() >= std::numeric_limits<uint32_t>::max()) fail("has too many values");
    pool_.push_back(std::move(v));
    return static_cast<uint32_t>(pool_.size() - 1);
  }
  uint32_t make(Kind k) {
    Value v;
    v.kind = k;
    return add(std::move(v));
  }
  uint32_t make_int(int64_t i) {
    Value v;
    v.kind = Kind::kInt;
    v.i = i;
    return add(std::move(v));
  }
  uint32_t make_string(Kind k, uint64_t n) {
    Value v;
    v.kind = k;
    const uint8_t* p = take(n);
    v.s.assign(reinterpret_cast<const char*>(p), static_cast<size_t>(n));
    return add(std::move(v));
  }
  uint32_t make_global(const std::string& module, const std::string& name) {
    Value v;
    v.kind = Kind::kGlobal;
    v.s = module + "." + name;
    return add(std::move(v));
  }

  void push(uint32_t v) { stack_.push_back(v); }
  void need(size_t n) {
    const size_t floor = marks_.empty() ? 0 : marks_.back();
    if (stack_.size() < floor + n) fail("pops from an empty stack (at byte " + std::to_string(pos_) + ")");
  }
  void need_below(size_t m, size_t n) {
    const size_t floor = marks_.empty() ? 0 : marks_.back();
    if (m < floor + n) fail("pops from an empty stack (at byte " + std::to_string(pos_) + ")");
  }
  uint32_t pop() {
    need(1);
    const uint32_t v = stack_.back();
    stack_.pop_back();
    return v;
  }
  uint32_t top() {
    need(1);
    return stack_.back();
  }
  size_t pop_mark() {
    if (marks_.empty()) fail("has no MARK to pop (at byte " + std::to_string(pos_) + ")");
    const size_t m = marks_.back();
    marks_.pop_back();
    return m;
  }
  void memo_put(uint64_t key) { memo_[key] = top(); }
  uint32_t memo_get(uint64_t key) {
    const auto it = memo_.find(key);
    if (it == memo_.end()) fail("reads memo entry " + std::to_string(key) + ", which was never stored");
    return it->second;
  }
  Value& dict_at(uint32_t i) {
    if (pool_[i].kind != Kind::kDict) fail("sets an item of " + std::string(kind_name(pool_[i].kind)));
    return pool_[i];
  }
  Value& list_at(uint32_t i) {
    if (pool_[i].kind != Kind::kList) fail("appends to " + std::string(kind_name(pool_[i].kind)));
    return pool_[i];
  }

  int64_t int_of(uint32_t i, const char* what) const {
    if (pool_[i].kind != Kind::kInt && pool_[i].kind != Kind::kBool)
      fail("has a tensor whose " + std::string(what) + " is " + kind_name(pool_[i].kind) + ", not an int");
    return pool_[i].i;
  }

  // ('storage', torch.<T>Storage, key, location, numel) -> a storage value.
  uint32_t storage(uint32_t pid) {
    const Value& t = pool_[pid];
    if (t.kind != Kind::kTuple || t.items.size() != 5 || pool_[t.items[0]].kind != Kind::kString ||
        pool_[t.items[0]].s != "storage")
      fail("has a persistent id that is not ('storage', type, key, location, numel)");
    const Value& type = pool_[t.items[1]];
    const Value& key = pool_[t.items[2]];
    if (type.kind != Kind::kGlobal) fail("has a storage whose type is not a torch storage class");
    if (key.kind != Kind::kString) fail("has a storage whose key is not a string");
    const StorageType* st = nullptr;
    for (const StorageType& s : kStorageTypes)
      if (type.s == std::string("torch.") + s.name) st = &s;
    if (st == nullptr) fail("has a storage of unsupported type " + type.s);
    Value v;
    v.kind = Kind::kStorage;
    v.storage_type = st;
    v.storage_key = key.s;
    v.i = int_of(t.items[4], "storage size");
    if (v.i < 0) fail("has a storage of negative size");
    return add(std::move(v));
  }

  uint32_t reduce(uint32_t fn, uint32_t args) {
    const Value& f = pool_[fn];
    if (f.kind != Kind::kGlobal)
      fail("calls " + std::string(kind_name(f.kind)) + ", which is not a function");
    const std::string name = f.s;  // a copy: add() may move the pool
    if (pool_[args].kind != Kind::kTuple) fail("calls " + name + " with arguments that are not a tuple");
    const std::vector<uint32_t>& a = pool_[args].items;
    if (name == "collections.OrderedDict") {
      if (!a.empty()) fail("builds an OrderedDict from arguments (torch.save passes none)");
      return make(Kind::kDict);
    }
    if (name == "torch._utils._rebuild_tensor_v2") {
      if (a.size() < 4 || a.size() > 7)
        fail("rebuilds a tensor from " + std::to_string(a.size()) + " arguments");
      return rebuild_tensor(std::vector<uint32_t>(a));
    }
    if (name == "torch._utils._rebuild_parameter" || name == "torch._utils._rebuild_parameter_with_state") {
      if (a.empty() || pool_[a[0]].kind != Kind::kTensor)
        fail("rebuilds a parameter from something not a tensor");
      return a[0];
    }
    fail("calls " + name + ", which is not supported (a state dict holds only tensors in dicts)");
  }

  // _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks[, metadata])
  uint32_t rebuild_tensor(const std::vector<uint32_t>& a) {
    if (a.size() < 4 || a.size() > 7)
      fail("rebuilds a tensor from " + std::to_string(a.size()) + " arguments");
    const Value& s = pool_[a[0]];
    if (s.kind != Kind::kStorage)
      fail("rebuilds a tensor from " + std::string(kind_name(s.kind)) + ", not a storage");
    const Value& size = pool_[a[2]];
    const Value& stride = pool_[a[3]];
    if (size.kind != Kind::kTuple || stride.kind != Kind::kTuple || size.items.size() != stride.items.size())
      fail("rebuilds a tensor whose size and stride are not tuples of the same length");
    if (size.items.size() > 32)
      fail("rebuilds a tensor of " + std::to_string(size.items.size()) + " dimensions");
    TensorInfo t;
    t.storage_type = s.storage_type->name;
    t.dtype = s.storage_type->dtype;
    t.elem_bytes = s.storage_type->bytes;
    t.storage_name = prefix_ + "data/" + s.storage_key;
    t.storage_numel = static_cast<uint64_t>(s.i);
    const int64_t offset = int_of(a[1], "storage offset");
    if (offset < 0) fail("rebuilds a tensor at a negative storage offset");
    t.offset = static_cast<uint64_t>(offset);
    for (size_t k = 0; k < size.items.size(); ++k) {
      const int64_t n = int_of(size.items[k], "size"), st = int_of(stride.items[k], "stride");
      if (n < 0 || st < 0) fail("rebuilds a tensor with a negative size or stride");
      t.shape.push_back(n);
      t.stride.push_back(st);
    }
    t.storage = zip_.find(t.storage_name);
    if (t.storage == nullptr)
      fail("refers to storage " + s.storage_key + ", but the archive has no " + t.storage_name);
    tensors_.push_back(std::move(t));
    Value v;
    v.kind = Kind::kTensor;
    v.i = static_cast<int64_t>(tensors_.size() - 1);
    return add(std::move(v));
  }

  std::string_view in_;
  size_t pos_ = 0;
  const Zip& zip_;
  std::string prefix_;
  std::string file_;
  std::vector<Value> pool_;
  std::vector<uint32_t> stack_;
  std::vector<size_t> marks_;
  std::unordered_map<uint64_t, uint32_t> memo_;
  std::vector<TensorInfo> tensors_;
};

// ---------------------------------------------------------------------------------

class PytorchBinCheckpoint : public Checkpoint {
 public:
  PytorchBinCheckpoint(std::string file, std::unique_ptr<Blob> blob)
      : file_(std::move(file)),
        blob_(std::move(blob)),
        zip_(file_, blob_->data(), blob_->size(), "torch.save's format",
             "torch.save stores entries uncompressed: re-save the checkpoint with torch.save") {
    if (blob_->size() >= 2 && blob_->data()[0] == 0x80 && blob_->data()[1] <= 5)
      fail(
          "is a pickle in the legacy (before torch 1.6) torch.save format, which is not supported; re-save "
          "it with a recent torch (torch.save(torch.load(f), f))");
    zip_.read_directory();
    // The pickle: "<prefix>/data.pkl" with a prefix of one folder.
    std::string pkl;
    for (const auto& [name, e] : zip_.entries()) {
      const size_t slash = name.find('/');
      if (slash != std::string::npos && name.compare(slash, std::string::npos, "/data.pkl") == 0) {
        if (!pkl.empty()) fail("has more than one data.pkl (" + pkl + ", " + name + ")");
        pkl = name;
      }
    }
    if (pkl.empty()) fail("has no <archive>/data.pkl: it is a zip archive but not a torch.save checkpoint");
    const std::string prefix = pkl.substr(0, pkl.size() - 8);  // keeps the '/'
    if (zip_.find(prefix + "constants.pkl") != nullptr)
      fail("is a TorchScript archive (torch.jit.save), not a state dict saved with torch.save");
    if (const ZipEntry* bo = zip_.find(prefix + "byteorder"); bo != nullptr) {
      const std::string_view order = zip_.bytes(prefix + "byteorder", *bo, true);
      if (order != "little")
        fail("was saved on a " + std::string(order.substr(0, 16)) +
             "-endian machine; only little-endian is supported");
    }

    Unpickler u(zip_.bytes(pkl, *zip_.find(pkl), true), zip_, prefix, file_);
    const Value& root = u.value(u.run());
    if (root.kind != Kind::kDict)
      fail("holds " + std::string(kind_name(root.kind)) + ", not a state dict (a dict of name -> tensor)");
    std::vector<TensorInfo>& infos = u.tensors();
    for (size_t k = 0; k + 1 < root.items.size(); k += 2) {
      const Value& key = u.value(root.items[k]);
      const Value& val = u.value(root.items[k + 1]);
      if (key.kind != Kind::kString)
        fail("holds a dict with a key that is " + std::string(kind_name(key.kind)) + ", not a string");
      if (val.kind != Kind::kTensor)
        fail("holds entry " + key.s + " that is " + kind_name(val.kind) +
             ", not a tensor (is it a training checkpoint "
             "rather than a state dict?)");
      TensorInfo t = infos[static_cast<size_t>(val.i)];  // a copy: one tensor may appear under several names
      check(key.s, &t);
      if (!tensors_.emplace(key.s, std::move(t)).second) fail("has tensor " + key.s + " twice");
    }
  }

  bool has(const std::string& name) const override { return tensors_.count(name) != 0; }
  std::vector<int64_t> shape(const std::string& name) const override { return get(name).shape; }
  std::vector<std::string> names() const override {
    std::vector<std::string> out;
    for (const auto& [k, v] : tensors_) out.push_back(k);
    return out;
  }

  FloatTensor read(const std::string& name) const override {
    const TensorInfo& t = get(name);
    if (t.dtype == DType::kOther)
      throw ConvertError(file_ + ": tensor " + name + " is a " + t.storage_type +
                         " tensor; supported: FloatStorage, HalfStorage, BFloat16Storage, DoubleStorage");
    const std::string_view bytes = storage_bytes(t);
    const auto* src = reinterpret_cast<const uint8_t*>(bytes.data());
    FloatTensor out;
    out.shape = t.shape;
    out.data.resize(static_cast<size_t>(t.numel));
    if (t.numel == 0) return out;
    // Walk the elements in row-major order; the innermost dimension is a strided run.
    const size_t rank = t.shape.size();
    const uint64_t inner_n = rank == 0 ? 1 : static_cast<uint64_t>(t.shape[rank - 1]);
    const uint64_t inner_s = rank == 0 ? 1 : static_cast<uint64_t>(t.stride[rank - 1]);
    std::vector<int64_t> idx(rank, 0);
    uint64_t base = t.offset;
    float* dst = out.data.data();
    for (uint64_t done = 0; done < t.numel; done += inner_n) {
      for (uint64_t i = 0; i < inner_n; ++i) *dst++ = element(t, src, base + i * inner_s);
      // Advance the outer index (odometer), keeping base = offset + sum(idx * stride).
      for (size_t d = rank >= 1 ? rank - 1 : 0; d-- > 0;) {
        base += static_cast<uint64_t>(t.stride[d]);
        if (++idx[d] < t.shape[d]) break;
        base -= static_cast<uint64_t>(t.stride[d]) * static_cast<uint64_t>(t.shape[d]);
        idx[d] = 0;
      }
    }
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw ConvertError(file_ + " " + what); }

  const TensorInfo& get(const std::string& name) const {
    auto it = tensors_.find(name);
    if (it == tensors_.end())
      throw ConvertError("tensor " + name + " is missing from the checkpoint " + file_);
    return it->second;
  }

  // Sizes, strides and offset must stay inside the storage; no arithmetic may overflow.
  void check(const std::string& name, TensorInfo* t) const {
    const auto bad = [&](const std::string& why) { fail("has tensor " + name + " " + why); };
    uint64_t bytes = 0;
    if (__builtin_mul_overflow(t->storage_numel, t->elem_bytes, &bytes) || bytes != t->storage->size)
      bad("whose " + t->storage_type + " of " + std::to_string(t->storage_numel) + " elements should have " +
          std::to_string(t->storage_numel) + " x " + std::to_string(t->elem_bytes) + " bytes, but " +
          t->storage_name + " has " + std::to_string(t->storage->size));
    uint64_t numel = 1, last = t->offset;
    for (size_t d = 0; d < t->shape.size(); ++d) {
      const auto n = static_cast<uint64_t>(t->shape[d]), s = static_cast<uint64_t>(t->stride[d]);
      if (__builtin_mul_overflow(numel, n, &numel)) bad("with too many elements");
      uint64_t reach = 0;
      if (n > 0 && (__builtin_mul_overflow(n - 1, s, &reach) || __builtin_add_overflow(last, reach, &last)))
        bad("with strides that overflow");
    }
    t->numel = numel;
    if (numel == 0) return;
    if (last >= t->storage_numel)
      bad("of shape " + shape_to_string(t->shape) + ", stride " + shape_to_string(t->stride) +
          " and offset " + std::to_string(t->offset) + ", which reaches element " + std::to_string(last) +
          " of a storage of " + std::to_string(t->storage_numel));
    // Stride-0 (expanded) tensors may be larger than their storage; bound what read() allocates.
    if (numel > t->storage_numel && numel > (uint64_t{1} << 24))
      bad("of " + std::to_string(numel) + " elements expanded from a storage of " +
          std::to_string(t->storage_numel));
  }

  std::string_view storage_bytes(const TensorInfo& t) const {
    // Each storage's CRC is checked once, by the first tensor that reads it.
    const bool first = crc_checked_.insert(t.storage_name).second;
    return zip_.bytes(t.storage_name, *t.storage, first);
  }

  static float element(const TensorInfo& t, const uint8_t* src, uint64_t i) {
    switch (t.dtype) {
      case DType::kF32: {
        float v;
        std::memcpy(&v, src + 4 * i, 4);
        return v;
      }
      case DType::kF16:
        return half_to_float(le16(src + 2 * i));
      case DType::kBF16:
        return bf16_to_float(le16(src + 2 * i));
      case DType::kF64: {
        double v;
        std::memcpy(&v, src + 8 * i, 8);
        // Out of float's range the conversion is undefined: saturate to infinity.
        if (std::fabs(v) > static_cast<double>(std::numeric_limits<float>::max()) && std::isfinite(v))
          return v > 0 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
        return static_cast<float>(v);
      }
      case DType::kOther:
        break;
    }
    return 0.0f;
  }

  std::string file_;
  std::unique_ptr<Blob> blob_;
  Zip zip_;
  std::map<std::string, TensorInfo> tensors_;
  mutable std::set<std::string> crc_checked_;
};

}  // namespace

std::unique_ptr<Checkpoint> open_pytorch_bin(const std::string& path) {
  return std::make_unique<PytorchBinCheckpoint>(path, std::make_unique<Blob>(Blob::FromFile{}, path));
}

std::unique_ptr<Checkpoint> open_pytorch_bin_bytes(const std::string& name, std::string bytes) {
  return std::make_unique<PytorchBinCheckpoint>(name,
                                                std::make_unique<Blob>(Blob::FromBytes{}, std::move(bytes)));
}

}  // namespace edgemt::convert
