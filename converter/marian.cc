// Marian (marian-nmt) transformer .npz -> SourceModel (packed by pack.h).
//
// What a Marian transformer computes (src/models/transformer.h, layers/generic.h,
// graph/node_initializers.cpp), and how it maps onto edgemt's model description:
// - parameters are x.W matrices [in, out] (transposed here to edgemt's [out, in]); biases
//   and layer-norm parameters are [1, n]; layer i of a stack is "encoder_l{i+1}_...";
// - embeddings: "Wemb" when shared (tied-embeddings-all or -src), else "encoder_Wemb" and
//   "decoder_Wemb"; multiplied by sqrt(dim-emb), plus sinusoidal positions: for
//   i < d/2, v = p * exp(-i * ln(10000) / (d/2 - 1)) in float, sin(v) in column i and
//   cos(v) in column d/2 + i (the frequency step differs from transformers' MarianMT);
// - post-norm blocks ("dan": dropout, add, layer norm), layer norm eps 1e-6;
// - SSRU decoders (transformer-decoder-autoreg rnn, dec-cell ssru: Firefox Translations'
//   students) replace each decoder self-attention block by an SSRU block,
//   LN(in + relu(c_t)) with c_t = f * c_{t-1} + (1 - f) * (in . rnn_W),
//   f = sigmoid(in . rnn_Wf + rnn_bf), its norm "rnn_ffn_ln_*" (rnn/cells.h, transformer.h);
// - the output layer is the decoder embeddings (tied-embeddings or tied-embeddings-all)
//   or "decoder_ff_logit_out_Wt" [vocab, d] ("_W" [d, vocab] before Marian 1.12), plus
//   "decoder_ff_logit_out_b" unless output-omit-bias;
// - the decoder starts from an all-zero embedding (no start token exists): the
//   converter appends a zero row to the target embeddings, and that id is the decoder
//   start, never generated (its logit is 0 + 0 for a tied output);
// - vocabularies are SentencePiece models whose ids are the model's ids ("</s>" 0 and
//   "<unk>" 1 as Marian trains them), or Marian word vocabularies (.yml/.json "piece:
//   id", OPUS-MT's) over the pieces of SentencePiece models beside them (source.spm,
//   target.spm); there is no padding token.
#include "converter/marian.h"

#include <sentencepiece_processor.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_map>

#include "converter/decompress.h"
#include "converter/marian_bin.h"
#include "converter/marian_yaml.h"
#include "converter/npz.h"
#include "converter/zip.h"  // le32, le64
#include "runtime/model/names.h"

namespace edgemt::convert {
namespace {

namespace fs = std::filesystem;

std::string read_text_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw ConvertError("cannot read " + p.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

// A Marian binary model starts with the format version, 1 (64-bit).
bool is_marian_bin(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  unsigned char v[8] = {};
  if (!in.read(reinterpret_cast<char*>(v), 8)) return false;
  return v[0] == 1 && v[1] == 0 && v[2] == 0 && v[3] == 0 && v[4] == 0 && v[5] == 0 && v[6] == 0 && v[7] == 0;
}

// A model file by its name: *.npz less Marian's training state (*.optimizer.npz), or a
// Marian .bin less the shortlist (lex.*.bin, *.s2t.bin) and quality model files that
// Firefox ships beside it.
bool is_model_name(const std::string& n) {
  if (ends_with(n, ".npz")) return !ends_with(n, ".optimizer.npz");
  return ends_with(n, ".bin") && !starts_with(n, "lex.") && n.find(".s2t.") == std::string::npos &&
         !starts_with(n, "qualityModel");
}

std::vector<fs::path> model_files(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string n = e.path().filename().string();
    if (e.is_regular_file() && is_model_name(n) && (ends_with(n, ".npz") || is_marian_bin(e.path())))
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A model file compressed as Firefox ships them (model.*.bin.gz, model.npz.zst): by its
// name less the suffix, and for a .bin, by the version that starts its decompressed data.
bool is_compressed_model(const fs::path& p) {
  const std::string name = p.filename().string();
  const Compression c = compression_of(name);
  if (c == Compression::kNone) return false;
  const std::string plain = without_compression_suffix(name);
  if (!is_model_name(plain)) return false;
  // Without libzstd a .zst cannot be looked into: taken by its name, so that reading
  // it says why it cannot be read.
  if (ends_with(plain, ".npz") || (c == Compression::kZstd && !have_zstd())) return true;
  const std::string v = decompressed_prefix(p, c, 8);
  return v.size() == 8 && v == std::string("\x01\0\0\0\0\0\0\0", 8);
}

// A file of a Marian model's directory that is worth decompressing: the model, its
// vocabularies, configurations and shortlist (not, say, Firefox's quality model).
bool is_model_part(const std::string& plain) {
  return is_model_name(plain) || ends_with(plain, ".spm") || ends_with(plain, ".yml") ||
         ends_with(plain, ".yaml") || ends_with(plain, ".json") || starts_with(plain, "lex");
}

// A model whose files are compressed (some or all), read uncompressed: a private
// temporary directory in which each compressed part of the model's directory is
// decompressed under its name less the suffix, and every other file is a symbolic link
// to the original. A file there uncompressed wins over a compressed one of the same
// name. The directory is removed when reading is done: the SourceModel owns its data
// and nothing stays mapped from it. Messages and the model's metadata name the files
// the user gave, never the temporary ones.
class Staging {
 public:
  // Whether `input` (a model file, or the directory of one) has compressed parts.
  static bool needed(const fs::path& input) {
    std::error_code ec;
    if (fs::is_regular_file(input, ec)) {
      if (compression_of(input.filename().string()) != Compression::kNone) return true;
    } else if (!fs::is_directory(input, ec)) {
      return false;
    }
    const fs::path dir = fs::is_directory(input, ec) ? input : parent_of(input);
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const std::string n = e.path().filename().string();
      if (e.is_regular_file(ec) && compression_of(n) != Compression::kNone &&
          is_model_part(without_compression_suffix(n)))
        return true;
    }
    return false;
  }

  explicit Staging(const fs::path& input) {
    std::error_code ec;
    const bool is_dir = fs::is_directory(input, ec);
    original_dir_ = fs::absolute(is_dir ? input : parent_of(input)).lexically_normal();
    std::string tmpl = (fs::temp_directory_path(ec) / "edgemt-convert-XXXXXX").string();
    if (ec || ::mkdtemp(tmpl.data()) == nullptr)
      throw ConvertError("cannot create a temporary directory to decompress " + input.string() +
                         " in (set TMPDIR to a writable directory)");
    dir_ = tmpl;
    try {
      fill(input, is_dir);
    } catch (...) {
      fs::remove_all(dir_, ec);
      throw;
    }
  }
  ~Staging() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  const fs::path& input() const { return input_; }
  const fs::path& original_dir() const { return original_dir_; }
  // A staged path as the user knows it: the compressed file it came from, or the
  // original beside which it is linked.
  std::string original(const std::string& staged) const {
    for (const auto& [from, to] : names_)
      if (staged == from) return to;
    return replace(staged);
  }
  // A message with every staged path replaced by its original.
  std::string replace(std::string msg) const {
    for (const auto& [from, to] : names_) replace_all(msg, from, to);
    replace_all(msg, dir_.string(), original_dir_.string());
    return msg;
  }

 private:
  void fill(const fs::path& input, bool is_dir) {
    std::error_code ec;
    std::vector<fs::path> entries;
    for (const auto& e : fs::directory_iterator(original_dir_, ec))
      if (e.is_regular_file(ec)) entries.push_back(e.path());
    std::sort(entries.begin(), entries.end());
    const std::string named = is_dir ? std::string() : input.filename().string();
    for (const fs::path& from : entries) {
      const std::string n = from.filename().string();
      const Compression c = compression_of(n);
      const std::string plain = without_compression_suffix(n);
      const bool wanted = n == named || is_model_part(plain);
      if (c == Compression::kNone || !wanted || fs::exists(original_dir_ / plain) ||
          fs::exists(dir_ / plain)) {
        if (fs::exists(dir_ / n)) continue;
        fs::create_symlink(from, dir_ / n, ec);
        if (ec)
          throw ConvertError("cannot link " + from.string() + " into " + dir_.string() + ": " + ec.message());
        continue;
      }
      decompress_file(from, dir_ / plain, c, from.string());
      names_.emplace_back((dir_ / plain).string(), from.string());
    }
    input_ = is_dir ? dir_ : dir_ / without_compression_suffix(named);
    if (!is_dir && !fs::exists(input_)) input_ = dir_ / named;
  }
  static fs::path parent_of(const fs::path& p) {
    return p.parent_path().empty() ? fs::path(".") : p.parent_path();
  }
  static void replace_all(std::string& s, const std::string& from, const std::string& to) {
    if (from.empty()) return;
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  }
  fs::path dir_, original_dir_, input_;
  std::vector<std::pair<std::string, std::string>> names_;  // decompressed -> compressed original
};

// Files in `dir` whose name starts with `prefix` and ends with `suffix`.
std::vector<fs::path> files_like(const fs::path& dir, std::string_view prefix, std::string_view suffix) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string n = e.path().filename().string();
    if (e.is_regular_file() && starts_with(n, prefix) && ends_with(n, suffix)) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A path from a configuration: relative to the configuration's directory (Marian's
// --relative-paths), else as given.
// A staged model's configuration resolves a path that leaves its directory ("../x")
// against the original directory.
fs::path config_path(const fs::path& config_dir, const std::string& p, const Staging* staging) {
  const fs::path rel = config_dir / p;
  if (fs::path(p).is_relative()) {
    if (staging && p.find("..") != std::string::npos) {
      const fs::path orig = staging->original_dir() / p;
      if (fs::exists(orig)) return orig;
    }
    if (fs::exists(rel)) return rel;
    // model.bin.gz named by a decoder.yml: staged as model.bin.
    if (const fs::path plain = config_dir / without_compression_suffix(p); staging && fs::exists(plain))
      return plain;
  }
  return fs::path(p);
}

bool is_word_vocab(const fs::path& p) {
  const std::string n = p.filename().string();
  return ends_with(n, ".yml") || ends_with(n, ".yaml") || ends_with(n, ".json");
}

struct Located {
  fs::path model;
  std::vector<fs::path> vocabs;  // 1 (joint) or 2 (source, target); empty: look beside
  // The lexical shortlist: named by the decoder configuration ("shortlist: [file,
  // first, best, threshold]" for the text form, "[file, check]" for the binary), else
  // the one lex*.s2t(.bin) file beside the model (Firefox's layout). Empty: none.
  fs::path shortlist;
  std::vector<std::string> shortlist_args;
  // The decoder configuration's search settings (beam-size, normalize, word-penalty,
  // max-length-factor) as written; absent keys are absent.
  std::map<std::string, std::string> search;
  std::string search_file;
};

// A search setting of a decoder configuration as a number in [lo, hi].
float search_number(const Located& loc, const std::string& key, float fallback, float lo, float hi) {
  const auto it = loc.search.find(key);
  if (it == loc.search.end()) return fallback;
  char* end = nullptr;
  const float v = std::strtof(it->second.c_str(), &end);
  if (it->second.empty() || *end != '\0' || !(v >= lo && v <= hi))
    throw ConvertError(loc.search_file + ": " + key + " is '" + it->second + "', not a number in [" +
                       std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

Located locate(const std::string& input, const Staging* staging) {
  Located out;
  const fs::path in(input);
  fs::path dir;
  if (fs::is_regular_file(in)) {
    out.model = in;
    dir = in.parent_path().empty() ? fs::path(".") : in.parent_path();
  } else {
    dir = in;
    // A decoder configuration names the model and vocabularies.
    std::vector<fs::path> configs;
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string n = e.path().filename().string();
      if (e.is_regular_file() && (ends_with(n, ".yml") || ends_with(n, ".yaml")) &&
          (n == "decoder.yml" || ends_with(n, ".decoder.yml") || starts_with(n, "config")))
        configs.push_back(e.path());
    }
    std::sort(configs.begin(), configs.end());
    for (const fs::path& cfg : configs) {
      const YamlMap y = parse_marian_yaml(read_text_file(cfg), cfg.string());
      const auto models = y.find("models");
      if (models == y.end() || !models->second.is_list || models->second.items.empty()) continue;
      if (models->second.items.size() > 1)
        throw ConvertError(cfg.string() + " names an ensemble of " +
                           std::to_string(models->second.items.size()) +
                           " models; edgemt-convert converts one model (name its .npz file)");
      out.model = config_path(cfg.parent_path(), models->second.items[0], staging);
      if (const auto v = y.find("vocabs"); v != y.end() && v->second.is_list) {
        if (v->second.items.size() != 2)
          throw ConvertError(cfg.string() + ": vocabs should name a source and a target vocabulary");
        for (const std::string& p : v->second.items)
          out.vocabs.push_back(config_path(cfg.parent_path(), p, staging));
        if (out.vocabs[0] == out.vocabs[1]) out.vocabs.pop_back();
      }
      for (const char* key : {"beam-size", "normalize", "word-penalty", "max-length-factor"})
        if (const auto k = y.find(key); k != y.end() && !k->second.is_list)
          out.search[key] = k->second.scalar;
      out.search_file = cfg.string();
      if (const auto s = y.find("shortlist"); s != y.end()) {
        std::vector<std::string> items =
            s->second.is_list ? s->second.items : std::vector<std::string>{s->second.scalar};
        if (!items.empty() && !items[0].empty()) {
          out.shortlist = config_path(cfg.parent_path(), items[0], staging);
          out.shortlist_args.assign(items.begin() + 1, items.end());
        }
      }
      break;
    }
    if (out.model.empty()) {
      const std::vector<fs::path> npz = model_files(dir);
      if (npz.empty()) throw ConvertError(input + " holds no Marian model (*.npz, or a Marian .bin)");
      if (npz.size() > 1) {
        std::string list;
        for (const fs::path& p : npz) list.append(" ").append(p.filename().string());
        throw ConvertError(input + " holds several models (" + list.substr(1) +
                           "): name the one to convert, or add a decoder.yml that names it");
      }
      out.model = npz[0];
    }
  }
  if (!fs::is_regular_file(out.model))
    throw ConvertError("the model " + out.model.string() + " does not exist");
  if (out.vocabs.empty()) {
    const std::vector<fs::path> joint = files_like(dir, "vocab", ".spm");
    const std::vector<fs::path> src = files_like(dir, "srcvocab", ".spm");
    const std::vector<fs::path> trg = files_like(dir, "trgvocab", ".spm");
    if (joint.size() == 1 && src.empty() && trg.empty()) {
      out.vocabs = joint;
    } else if (src.size() == 1 && trg.size() == 1) {
      out.vocabs = {src[0], trg[0]};
    } else if (const std::vector<fs::path> yml = files_like(dir, "", ".vocab.yml");
               yml.size() == 1 && joint.empty() && src.empty() && trg.empty()) {
      out.vocabs = yml;  // OPUS-MT: one word vocabulary, source.spm and target.spm beside it
    } else {
      throw ConvertError(dir.string() +
                         " has no vocabulary edgemt-convert recognises: one vocab*.spm (joint), or "
                         "srcvocab*.spm and trgvocab*.spm, or one *.vocab.yml with source.spm and target.spm "
                         "(OPUS-MT), or a decoder.yml naming them");
    }
  }
  if (out.shortlist.empty()) {
    std::vector<fs::path> lex;
    for (const fs::path& f : files_like(dir, "lex", ".s2t.bin")) lex.push_back(f);
    for (const fs::path& f : files_like(dir, "lex", ".s2t")) lex.push_back(f);
    if (lex.size() > 1)
      throw ConvertError(dir.string() + " holds several shortlists (lex*.s2t*): name one in a decoder.yml");
    if (lex.size() == 1) out.shortlist = lex[0];
  }
  if (!out.shortlist.empty() && !fs::is_regular_file(out.shortlist))
    throw ConvertError("the shortlist " + out.shortlist.string() + " does not exist");
  for (const fs::path& v : out.vocabs) {
    if (!fs::is_regular_file(v)) throw ConvertError("the vocabulary " + v.string() + " does not exist");
    if (!ends_with(v.filename().string(), ".spm") && !is_word_vocab(v))
      throw ConvertError("the vocabulary " + v.string() +
                         " is neither a SentencePiece model (.spm) nor a Marian word vocabulary (.yml, "
                         ".json); other Marian vocabularies (.txt, factored) are not supported");
  }
  return out;
}

class Config {
 public:
  Config(YamlMap y, std::string file) : y_(std::move(y)), file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& what) const { throw ConvertError(file_ + ": " + what); }

  bool has(const std::string& k) const { return y_.count(k) != 0; }
  std::string str(const std::string& k, const std::string& def) const {
    const auto it = y_.find(k);
    if (it == y_.end()) return def;
    if (it->second.is_list) fail(k + " is a list, expected a value");
    return it->second.scalar;
  }
  bool flag(const std::string& k, bool def = false) const {
    const std::string v = str(k, def ? "true" : "false");
    if (v == "true" || v == "True") return true;
    if (v == "false" || v == "False") return false;
    fail(k + " is '" + v + "', expected true or false");
  }
  int integer(const std::string& k, int def, bool required = false) const {
    if (!has(k)) {
      if (required) fail("the model configuration has no " + k);
      return def;
    }
    const std::string v = str(k, "");
    return to_int(k, v);
  }
  std::vector<int> ints(const std::string& k) const {
    const auto it = y_.find(k);
    if (it == y_.end()) fail("the model configuration has no " + k);
    if (!it->second.is_list) fail(k + " should be a list");
    std::vector<int> out;
    for (const std::string& s : it->second.items) out.push_back(to_int(k, s));
    return out;
  }
  bool empty_list(const std::string& k) const {
    const auto it = y_.find(k);
    return it == y_.end() || (it->second.is_list ? it->second.items.empty() : it->second.scalar.empty());
  }

  // A setting that must have its default value; anything else is refused, named.
  void require(const std::string& k, const std::string& expected, const std::string& why) const {
    if (!has(k)) return;
    const std::string v = y_.at(k).is_list ? "[list]" : y_.at(k).scalar;
    if (v != expected) fail(k + " is '" + v + "'; " + why);
  }

 private:
  int to_int(const std::string& k, const std::string& v) const {
    if (v.empty() || v.size() > 10 || v.find_first_not_of("0123456789-") != std::string::npos)
      fail(k + " is '" + v + "', expected an integer");
    const long long x = std::stoll(v);
    if (x < INT32_MIN || x > INT32_MAX) fail(k + " is out of range");
    return static_cast<int>(x);
  }
  YamlMap y_;
  std::string file_;
};

struct Vocab {
  std::string bytes;  // the SentencePiece model that splits text into pieces
  std::string file;   // the vocabulary file's bytes (which vocabulary it is)
  std::vector<std::string> pieces;
  int eos = -1, unk = -1;
};

// A Marian word vocabulary (.yml or .json, OPUS-MT's): the pieces come from it and the
// text is split by the SentencePiece model of its side beside it (source.spm,
// target.spm), as OPUS-MT's preprocessing does before Marian.
Vocab load_word_vocab(const fs::path& p, bool target) {
  Vocab v;
  v.file = read_text_file(p);
  if (ends_with(p.filename().string(), ".json")) {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(v.file);
    } catch (const std::exception& e) {
      throw ConvertError(p.string() + " is not valid JSON: " + e.what());
    }
    if (!j.is_object() || j.empty()) throw ConvertError(p.string() + " is not a {piece: id} object");
    for (const auto& [piece, id] : j.items()) {
      if (!id.is_number_integer() || id.get<int64_t>() < 0 ||
          id.get<int64_t>() >= static_cast<int64_t>(j.size()))
        throw ConvertError(p.string() + ": the id of '" + piece + "' is not an integer in [0, " +
                           std::to_string(j.size()) + ")");
      const size_t i = id.get<size_t>();
      if (v.pieces.size() < j.size()) v.pieces.resize(j.size());
      if (!v.pieces[i].empty())
        throw ConvertError(p.string() + ": the id " + std::to_string(i) + " is given twice");
      v.pieces[i] = piece;
    }
  } else {
    v.pieces = parse_marian_vocab(v.file, p.string());
  }
  for (size_t i = 0; i < v.pieces.size(); ++i) {
    if (v.pieces[i] == "</s>") v.eos = static_cast<int>(i);
    if (v.pieces[i] == "<unk>") v.unk = static_cast<int>(i);
  }
  if (v.eos < 0) throw ConvertError(p.string() + " has no </s> piece (Marian's end of sentence)");
  if (v.unk < 0) throw ConvertError(p.string() + " has no <unk> piece");
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  const fs::path spm = dir / (target ? "target.spm" : "source.spm");
  if (!fs::is_regular_file(spm))
    throw ConvertError(p.string() +
                       " is a Marian word vocabulary: its text is split by SentencePiece models "
                       "beside it, source.spm and target.spm (OPUS-MT's layout), and " +
                       spm.string() + " does not exist");
  v.bytes = read_text_file(spm);
  sentencepiece::SentencePieceProcessor sp;
  if (const auto st = sp.LoadFromSerializedProto(v.bytes); !st.ok())
    throw ConvertError(spm.string() + " is not a SentencePiece model: " + st.ToString());
  return v;
}

Vocab load_vocab(const fs::path& p, bool target) {
  if (is_word_vocab(p)) return load_word_vocab(p, target);
  Vocab v;
  v.bytes = read_text_file(p);
  v.file = v.bytes;
  sentencepiece::SentencePieceProcessor sp;
  const auto st = sp.LoadFromSerializedProto(v.bytes);
  if (!st.ok()) throw ConvertError(p.string() + " is not a SentencePiece model: " + st.ToString());
  const int n = sp.GetPieceSize();
  for (int i = 0; i < n; ++i) v.pieces.push_back(sp.IdToPiece(i));
  v.eos = sp.PieceToId("</s>");
  v.unk = sp.unk_id();
  if (v.eos < 0 || v.pieces[static_cast<size_t>(v.eos)] != "</s>" || !sp.IsControl(v.eos))
    throw ConvertError(p.string() + " has no </s> control piece (Marian's end of sentence)");
  if (v.unk < 0 || v.unk >= n) throw ConvertError(p.string() + " has no <unk> piece");
  return v;
}

// Marian's sinusoidal positions, in float as Marian computes them.
std::vector<float> marian_positions(int n_pos, int dim) {
  std::vector<float> out(static_cast<size_t>(n_pos) * static_cast<size_t>(dim), 0.0f);
  const float num_timescales = static_cast<float>(dim) / 2;
  const float log_inc = std::log(10000.f) / (num_timescales - 1.f);
  const int half = static_cast<int>(num_timescales);
  for (int p = 0; p < n_pos; ++p) {
    float* row = out.data() + static_cast<size_t>(p) * static_cast<size_t>(dim);
    for (int i = 0; i < num_timescales; ++i) {
      const float v = static_cast<float>(p) * std::exp(static_cast<float>(i) * -log_inc);
      row[i] = std::sin(v);
      row[half + i] = std::cos(v);
    }
  }
  return out;
}

class Params {
 public:
  Params(const Checkpoint& npz, std::string file) : npz_(npz), file_(std::move(file)) {}

  // A tensor of exactly `rows` x `cols` elements ([1, n] and [n] are the same vector).
  std::vector<float> get(const std::string& name, int64_t rows, int64_t cols) const {
    if (!npz_.has(name)) throw ConvertError(file_ + " has no parameter " + name);
    used_.insert(name);
    FloatTensor t = npz_.read(name);
    std::vector<int64_t> s = t.shape;
    while (s.size() > 2 && s.front() == 1) s.erase(s.begin());
    const bool ok =
        (s.size() == 2 && s[0] == rows && s[1] == cols) || (rows == 1 && s.size() == 1 && s[0] == cols);
    if (!ok)
      throw ConvertError(file_ + ": parameter " + name + " has shape " + shape_to_string(t.shape) +
                         ", expected [" + std::to_string(rows) + ", " + std::to_string(cols) + "]");
    steps_[name] = t.int8_step;
    return std::move(t.data);
  }
  // After get(name): the step of its int8 values (intgemm8), else 0.
  float int8_step(const std::string& name) const {
    const auto it = steps_.find(name);
    return it == steps_.end() ? 0.0f : it->second;
  }
  bool has(const std::string& name) const { return npz_.has(name); }

  // Parameters the conversion did not use (a model feature it does not know).
  std::vector<std::string> unused() const {
    std::vector<std::string> out;
    for (const std::string& n : npz_.names())
      if (!used_.count(n) && n.rfind("special:", 0) != 0 && !ends_with(n, "_QuantMultA")) out.push_back(n);
    return out;
  }

 private:
  const Checkpoint& npz_;
  std::string file_;
  mutable std::set<std::string> used_;
  mutable std::map<std::string, float> steps_;
};

// [in][out] (Marian's x.W) -> [out][in].
std::vector<float> transpose(const std::vector<float>& w, size_t in, size_t out) {
  std::vector<float> t(w.size());
  for (size_t i = 0; i < in; ++i)
    for (size_t o = 0; o < out; ++o) t[o * in + i] = w[i * out + o];
  return t;
}

int shortlist_int(const std::string& v, const fs::path& file) {
  if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos)
    throw ConvertError("the shortlist settings for " + file.string() + " should be whole numbers, got '" + v +
                       "'");
  return std::stoi(v);
}

// Marian's binary shortlist (data/shortlist.h): uint64 magic 0xF11A48D5013417F5,
// checksum, firstNum, bestNum, wordToOffsetSize, shortListsSize, then uint64
// wordToOffset[wordToOffsetSize] and uint32 shortLists[shortListsSize]. The checksum is
// Marian's own hash and is not verified here; the structure is.
ModelSpec::Shortlist read_binary_shortlist(const fs::path& file, int vs, int vt) {
  const MappedFile f = map_file(file.string());
  const uint8_t* p = f.data();
  const size_t n = f.size();
  auto fail = [&](const std::string& what) { throw ConvertError(file.string() + " " + what); };
  if (n < 48) fail("is too short for a binary shortlist");
  if (le64(p) != 0xF11A48D5013417F5ull) fail("is not a Marian binary shortlist (wrong magic)");
  const uint64_t first = le64(p + 16), best = le64(p + 24), noff = le64(p + 32), ntgt = le64(p + 40);
  if (noff == 0 || noff > (n - 48) / 8 || ntgt > (n - 48) / 4 || 48 + noff * 8 + ntgt * 4 != n)
    fail("has sizes that do not match the file (" + std::to_string(noff) + " offsets, " +
         std::to_string(ntgt) + " targets, " + std::to_string(n) + " bytes)");
  if (noff > static_cast<uint64_t>(vs) + 1)
    fail("has " + std::to_string(noff) + " offsets for a source vocabulary of " + std::to_string(vs));
  if (ntgt > UINT32_MAX || first > static_cast<uint64_t>(vt)) fail("has out-of-range sizes");
  ModelSpec::Shortlist s;
  s.first_num = static_cast<uint32_t>(first);
  s.best_num = static_cast<uint32_t>(std::min<uint64_t>(best, UINT32_MAX));
  s.target_vocab = static_cast<uint32_t>(vt);
  for (uint64_t i = 0; i < noff; ++i) {
    const uint64_t o = le64(p + 48 + 8 * i);
    if (o > ntgt || (i > 0 && o < s.offsets.back()) || (i == 0 && o != 0))
      fail("has offsets that are not increasing from 0 within its lists (at " + std::to_string(i) + ")");
    s.offsets.push_back(static_cast<uint32_t>(o));
  }
  const uint8_t* t = p + 48 + 8 * noff;
  for (uint64_t i = 0; i < ntgt; ++i) {
    const uint32_t id = le32(t + 4 * i);
    if (id >= static_cast<uint32_t>(vt))
      fail("lists the target id " + std::to_string(id) + ", outside the vocabulary");
    s.targets.push_back(id);
  }
  return s;
}

// The text form (lines "target source probability", as Marian's
// LexicalShortlistGenerator loads it): pieces looked up in the vocabularies (unknown ones
// are <unk>, "NULL" lines skipped), then per source the best_num most likely targets
// with a probability above the threshold.
ModelSpec::Shortlist read_text_shortlist(const fs::path& file, int first, int best, float threshold,
                                         const Vocab& sv, const Vocab& tv) {
  std::ifstream in(file);
  if (!in) throw ConvertError("cannot read " + file.string());
  std::unordered_map<std::string, uint32_t> sid, tid;
  for (size_t i = 0; i < sv.pieces.size(); ++i) sid.emplace(sv.pieces[i], static_cast<uint32_t>(i));
  for (size_t i = 0; i < tv.pieces.size(); ++i) tid.emplace(tv.pieces[i], static_cast<uint32_t>(i));
  std::vector<std::map<uint32_t, float>> data(sv.pieces.size());
  std::string line;
  size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    std::istringstream ls(line);
    std::string trg, src, prob_s;
    if (!(ls >> trg)) continue;  // a blank line
    if (!(ls >> src >> prob_s))
      throw ConvertError(file.string() + ":" + std::to_string(line_no) +
                         ": expected 'target source probability'");
    char* end = nullptr;
    const float prob = std::strtof(prob_s.c_str(), &end);
    if (*end != '\0' || !std::isfinite(prob))
      throw ConvertError(file.string() + ":" + std::to_string(line_no) + ": '" + prob_s +
                         "' is not a probability");
    if (src == "NULL" || trg == "NULL") continue;
    const auto s = sid.find(src), t = tid.find(trg);
    const uint32_t si = s != sid.end() ? s->second : static_cast<uint32_t>(sv.unk);
    const uint32_t ti = t != tid.end() ? t->second : static_cast<uint32_t>(tv.unk);
    data[si][ti] = prob;
  }
  ModelSpec::Shortlist out;
  out.first_num = static_cast<uint32_t>(std::min<int>(first, static_cast<int>(tv.pieces.size())));
  out.best_num = static_cast<uint32_t>(best);
  out.target_vocab = static_cast<uint32_t>(tv.pieces.size());
  out.offsets.push_back(0);
  for (const auto& probs : data) {
    std::vector<std::pair<float, uint32_t>> sorter;
    for (const auto& [t, p] : probs) sorter.emplace_back(p, t);
    std::sort(sorter.begin(), sorter.end(), std::greater<std::pair<float, uint32_t>>());
    std::vector<uint32_t> kept;
    for (const auto& [p, t] : sorter) {
      if (kept.size() < static_cast<size_t>(best) && p > threshold)
        kept.push_back(t);
      else
        break;
    }
    std::sort(kept.begin(), kept.end());
    out.targets.insert(out.targets.end(), kept.begin(), kept.end());
    out.offsets.push_back(static_cast<uint32_t>(out.targets.size()));
  }
  return out;
}

ModelSpec::Shortlist read_shortlist(const fs::path& file, const std::vector<std::string>& args,
                                    const Vocab& sv, const Vocab& tv) {
  std::ifstream probe(file, std::ios::binary);
  unsigned char magic[8] = {};
  probe.read(reinterpret_cast<char*>(magic), 8);
  if (probe && le64(magic) == 0xF11A48D5013417F5ull)
    return read_binary_shortlist(file, static_cast<int>(sv.pieces.size()),
                                 static_cast<int>(tv.pieces.size()));
  if (ends_with(file.string(), ".gz"))
    throw ConvertError(file.string() + " is compressed: decompress it (gunzip) first");
  // Marian's defaults: first 100, best 100, threshold 0.
  const int first = args.size() > 0 ? shortlist_int(args[0], file) : 100;
  const int best = args.size() > 1 ? shortlist_int(args[1], file) : 100;
  float threshold = 0.0f;
  if (args.size() > 2) {
    char* end = nullptr;
    threshold = std::strtof(args[2].c_str(), &end);
    if (args[2].empty() || *end != '\0' || !std::isfinite(threshold))
      throw ConvertError("the shortlist threshold for " + file.string() + " is '" + args[2] + "'");
  }
  return read_text_shortlist(file, first, best, threshold, sv, tv);
}

}  // namespace

bool is_marian_input(const std::string& input) {
  std::error_code ec;
  if (fs::is_regular_file(input, ec))
    return ends_with(input, ".npz") || (ends_with(input, ".bin") && is_marian_bin(input)) ||
           is_compressed_model(input);
  if (!fs::is_directory(input, ec) || fs::exists(fs::path(input) / "config.json", ec)) return false;
  for (const auto& e : fs::directory_iterator(input, ec)) {
    const std::string n = e.path().filename().string();
    if (!e.is_regular_file(ec)) continue;
    if (is_model_name(n) && (ends_with(n, ".npz") || is_marian_bin(e.path()))) return true;
    if (is_compressed_model(e.path())) return true;
  }
  return false;
}

namespace {

// Firefox Translations names a model's files by its language pair: model.<pair>.intgemm
// .alphas.bin (or .intgemm8.bin), vocab.<pair>.spm (srcvocab, trgvocab),
// lex.50.50.<pair>.s2t.bin, the pair being two ISO 639-1 codes run together ("enit").
// The pair when at least one such name gives one and every one agrees; else none.
std::optional<std::pair<std::string, std::string>> firefox_pair(const std::vector<std::string>& names) {
  std::string pair;
  for (const std::string& full : names) {
    std::vector<std::string> t;
    std::string name = without_compression_suffix(full);
    for (size_t at = 0;;) {
      const size_t dot = name.find('.', at);
      t.push_back(name.substr(at, dot == std::string::npos ? std::string::npos : dot - at));
      if (dot == std::string::npos) break;
      at = dot + 1;
    }
    std::string found;
    if (t.size() >= 3 && t[0] == "model" && starts_with(t[2], "intgemm")) found = t[1];
    if (t.size() >= 3 && (t[0] == "vocab" || t[0] == "srcvocab" || t[0] == "trgvocab") && t[2] == "spm")
      found = t[1];
    if (t.size() >= 3 && t[0] == "lex")
      for (size_t i = 1; i + 1 < t.size(); ++i)
        if (t[i + 1] == "s2t") found = t[i];
    if (found.empty()) continue;
    const bool letters = found.size() == 4 &&
                         std::all_of(found.begin(), found.end(), [](char c) { return c >= 'a' && c <= 'z'; });
    if (!letters || found.substr(0, 2) == found.substr(2)) continue;  // e.g. srcvocab.en.spm
    if (!pair.empty() && pair != found) return std::nullopt;
    pair = found;
  }
  if (pair.empty()) return std::nullopt;
  return std::make_pair(pair.substr(0, 2), pair.substr(2));
}

SourceModel read_marian_files(const std::string& input, const Staging* staging) {
  const Located loc = locate(input, staging);
  const auto shown = [&](const fs::path& p) { return staging ? staging->original(p.string()) : p.string(); };
  const std::string file = loc.model.string();
  // An .npz, or Marian's binary format (its int8 matrices dequantized here: value =
  // q / multiplier, the float weights Marian's int8 gemm approximates).
  std::unique_ptr<Checkpoint> npz;
  std::optional<std::string> yml;
  bool int8_source = false;
  if (ends_with(file, ".npz")) {
    auto z = Npz::open(file);
    yml = z->text("special:model.yml");
    npz = std::move(z);
  } else {
    if (!is_marian_bin(file))
      throw ConvertError(file +
                         " is neither an .npz nor a Marian binary model (it does not start with version 1)");
    auto b = MarianBin::open(file);
    yml = b->text("special:model.yml");
    int8_source = b->quantized();
    npz = std::move(b);
  }
  std::string yml_file = file + " (special:model.yml)";
  if (!yml) {
    const fs::path beside = fs::path(file + ".yml");
    if (!fs::exists(beside))
      throw ConvertError(file + " has no special:model.yml and there is no " + beside.filename().string() +
                         " beside it: the model's architecture is unknown");
    yml = read_text_file(beside);
    yml_file = beside.string();
  }
  const Config cfg(parse_marian_yaml(*yml, yml_file), yml_file);

  // What this reader converts; everything else is refused by name.
  const std::string type = cfg.str("type", "");
  if (type != "transformer")
    cfg.fail("type is '" + type + "'; edgemt-convert reads Marian transformers (type: transformer)");
  const std::string autoreg = cfg.str("transformer-decoder-autoreg", "self-attention");
  bool ssru = false;
  if (autoreg == "rnn") {
    const std::string cell = cfg.str("dec-cell", "gru");
    if (cell != "ssru")
      cfg.fail("transformer-decoder-autoreg is 'rnn' with dec-cell '" + cell +
               "'; edgemt runs SSRU decoder layers (dec-cell ssru) and self-attention");
    if (cfg.flag("layer-normalization"))
      cfg.fail("layer-normalization is true: the SSRU's internal layer norm is not supported");
    ssru = true;
  } else if (autoreg != "self-attention") {
    cfg.fail("transformer-decoder-autoreg is '" + autoreg +
             "'; edgemt runs self-attention and SSRU ('rnn' with dec-cell ssru) decoder layers");
  }
  cfg.require("transformer-preprocess", "",
              "only post-norm blocks (preprocess '', postprocess 'dan') are supported");
  cfg.require("transformer-postprocess", "dan", "only post-norm blocks (postprocess 'dan') are supported");
  cfg.require("transformer-postprocess-top", "", "a top-level layer norm is not supported");
  {
    const std::string emb = cfg.str("transformer-postprocess-emb", "d");
    if (emb != "d" && !emb.empty())
      cfg.fail("transformer-postprocess-emb is '" + emb + "'; an embedding layer norm is not supported");
  }
  cfg.require("transformer-ffn-depth", "2", "feed-forward blocks of two layers are supported");
  if (const int dd = cfg.integer("transformer-decoder-ffn-depth", 0); dd != 0 && dd != 2)
    cfg.fail("transformer-decoder-ffn-depth is " + std::to_string(dd) + "; two layers are supported");
  for (const char* k : {"transformer-train-position-embeddings", "transformer-disable-position-embeddings",
                        "transformer-alibi-shift", "transformer-alibi-trainable", "transformer-no-bias",
                        "transformer-no-affine", "transformer-no-projection", "transformer-pool",
                        "transformer-rnn-projection", "right-left", "ulr"})
    if (cfg.flag(k)) cfg.fail(std::string(k) + " is true, which edgemt does not support");
  if (!cfg.empty_list("transformer-tied-layers")) cfg.fail("transformer-tied-layers are not supported");
  if (cfg.integer("factors-dim-emb", 0) != 0 || cfg.integer("lemma-dim-emb", 0) != 0)
    cfg.fail("factored vocabularies are not supported");
  {
    const std::string mask = cfg.str("transformer-attention-mask", "default");
    if (mask != "default" && mask != "")
      cfg.fail("transformer-attention-mask '" + mask + "' is not supported");
  }

  SourceModel m;
  ModelConfig& c = m.config;
  c.d_model = cfg.integer("dim-emb", 0, true);
  c.encoder_layers = cfg.integer("enc-depth", 0, true);
  c.decoder_layers = cfg.integer("dec-depth", 0, true);
  c.encoder_heads = c.decoder_heads = cfg.integer("transformer-heads", 0, true);
  c.encoder_ffn_dim = cfg.integer("transformer-dim-ffn", 0, true);
  c.decoder_ffn_dim = cfg.integer("transformer-decoder-dim-ffn", 0);
  if (c.decoder_ffn_dim == 0) c.decoder_ffn_dim = c.encoder_ffn_dim;
  for (const auto& [what, v] : {std::pair<const char*, int>{"dim-emb", c.d_model},
                                {"enc-depth", c.encoder_layers},
                                {"dec-depth", c.decoder_layers},
                                {"transformer-heads", c.encoder_heads},
                                {"transformer-dim-ffn", c.encoder_ffn_dim}})
    if (v <= 0 || v > (1 << 16)) cfg.fail(std::string(what) + " is " + std::to_string(v));
  if (c.d_model % c.encoder_heads != 0)
    cfg.fail("dim-emb " + std::to_string(c.d_model) + " is not divisible by transformer-heads " +
             std::to_string(c.encoder_heads));
  if (c.d_model % 2 != 0 || c.d_model < 4)
    cfg.fail("dim-emb must be even and at least 4 (sinusoidal positions)");
  const std::string act = cfg.str("transformer-ffn-activation", "swish");
  if (act == "swish")
    c.activation = ops::Activation::kSwish;
  else if (act == "relu")
    c.activation = ops::Activation::kRelu;
  else
    cfg.fail("transformer-ffn-activation '" + act +
             "' is not supported (swish, relu; Marian's gelu is x * sigmoid(1.702 x), not edgemt's)");
  c.norm_placement = NormPlacement::kPost;
  c.position_kind = PositionKind::kSinusoidalSplit;
  c.decoder_layer_kind = ssru ? DecoderLayerKind::kSsru : DecoderLayerKind::kTransformer;
  c.layer_norm_epsilon = 1e-6f;
  c.max_positions = 512;
  c.embedding_scale = std::sqrt(static_cast<float>(c.d_model));

  const std::vector<int> dims = cfg.ints("dim-vocabs");
  if (dims.size() != 2) cfg.fail("dim-vocabs should list a source and a target size");
  const bool tied_all = cfg.flag("tied-embeddings-all");
  const bool tied_src = cfg.flag("tied-embeddings-src");
  const bool tied_out = tied_all || cfg.flag("tied-embeddings");
  const bool shared = tied_all || tied_src;
  const bool omit_bias = cfg.flag("output-omit-bias");

  // Vocabularies.
  const Vocab sv = load_vocab(loc.vocabs[0], false);
  // One word vocabulary still has a target SentencePiece model of its own.
  const Vocab tv =
      loc.vocabs.size() > 1 || is_word_vocab(loc.vocabs[0]) ? load_vocab(loc.vocabs.back(), true) : sv;
  const int vs = static_cast<int>(sv.pieces.size()), vt = static_cast<int>(tv.pieces.size());
  if (vs != dims[0] || vt != dims[1])
    throw ConvertError("the vocabularies have " + std::to_string(vs) + " and " + std::to_string(vt) +
                       " pieces, but the model's dim-vocabs are " + std::to_string(dims[0]) + " and " +
                       std::to_string(dims[1]));
  if (shared && vs != vt)
    cfg.fail("shared embeddings with source and target vocabularies of different sizes");
  if (sv.eos != tv.eos)
    throw ConvertError("the source and target vocabularies have </s> at different ids (" +
                       std::to_string(sv.eos) + ", " + std::to_string(tv.eos) + ")");
  const bool one_vocab = loc.vocabs.size() == 1 || sv.file == tv.file;
  m.source_spm = sv.bytes;
  m.target_spm = tv.bytes;
  // The appended start row has no piece (never produced by the tokenizer, skipped by
  // decoding).
  m.source_vocab = sv.pieces;
  if (shared) m.source_vocab.emplace_back();
  if (!one_vocab || !shared) {
    m.target_vocab = tv.pieces;
    m.target_vocab.emplace_back();
  }
  c.source_vocab_size = static_cast<int>(m.source_vocab.size());
  c.target_vocab_size = vt + 1;
  c.shared_embeddings = shared;
  c.tied_output = tied_out;
  c.eos_id = sv.eos;
  c.unk_id = sv.unk;
  c.pad_id = sv.eos;  // Marian has no padding token; nothing generated or decoded uses it
  c.decoder_start_id = vt;

  // Tensors.
  const Params p(*npz, file);
  const int64_t d = c.d_model;
  const size_t du = static_cast<size_t>(d);
  auto with_zero_row = [&](std::vector<float> t) {
    t.resize(t.size() + du, 0.0f);
    return t;
  };
  if (shared) {
    m.source_embed = with_zero_row(p.get("Wemb", vs, d));
    m.source_embed_int8_step = p.int8_step("Wemb");
  } else {
    m.source_embed = p.get("encoder_Wemb", vs, d);
    m.target_embed = with_zero_row(p.get("decoder_Wemb", vt, d));
    m.source_embed_int8_step = p.int8_step("encoder_Wemb");
    m.target_embed_int8_step = p.int8_step("decoder_Wemb");
  }
  m.positions = marian_positions(c.max_positions, c.d_model);

  using names::Stack;
  auto linear = [&](const std::string& module, const std::vector<std::string>& marian, size_t n_each,
                    size_t k, bool bias = true) {
    std::vector<float> w, b, steps;
    std::string origin;
    for (const std::string& name : marian) {
      const size_t cut = name.rfind("_W");
      const std::string wname = name, bname = name.substr(0, cut) + "_b" + name.substr(cut + 2);
      const std::vector<float> wt =
          transpose(p.get(wname, static_cast<int64_t>(k), static_cast<int64_t>(n_each)), k, n_each);
      w.insert(w.end(), wt.begin(), wt.end());
      steps.insert(steps.end(), n_each, p.int8_step(wname));
      if (bias) {
        const std::vector<float> bt = p.get(bname, 1, static_cast<int64_t>(n_each));
        b.insert(b.end(), bt.begin(), bt.end());
      }
      origin += (origin.empty() ? "" : " + ") + wname;
    }
    m.add_linear(module, n_each * marian.size(), k, std::move(w), std::move(b), origin, std::move(steps));
  };
  auto norm = [&](const std::string& module, const std::string& prefix) {
    m.add_norm(module, p.get(prefix + "_ln_scale", 1, d), p.get(prefix + "_ln_bias", 1, d), prefix + "_ln_*");
  };
  const size_t ef = static_cast<size_t>(c.encoder_ffn_dim), df = static_cast<size_t>(c.decoder_ffn_dim);
  for (int i = 0; i < c.encoder_layers; ++i) {
    const std::string l = "encoder_l" + std::to_string(i + 1) + "_";
    linear(names::layer(Stack::kEncoder, i, names::kSelfQkv), {l + "self_Wq", l + "self_Wk", l + "self_Wv"},
           du, du);
    linear(names::layer(Stack::kEncoder, i, names::kSelfOut), {l + "self_Wo"}, du, du);
    norm(names::layer(Stack::kEncoder, i, names::kSelfNorm), l + "self_Wo");
    linear(names::layer(Stack::kEncoder, i, names::kFc1), {l + "ffn_W1"}, ef, du);
    linear(names::layer(Stack::kEncoder, i, names::kFc2), {l + "ffn_W2"}, du, ef);
    norm(names::layer(Stack::kEncoder, i, names::kFinalNorm), l + "ffn_ffn");
  }
  for (int i = 0; i < c.decoder_layers; ++i) {
    const std::string l = "decoder_l" + std::to_string(i + 1) + "_";
    if (ssru) {
      // One linear [2d, d]: x = W in (no bias), then the gate's Wf in + bf.
      std::vector<float> w = transpose(p.get(l + "rnn_W", d, d), du, du);
      const std::vector<float> wf = transpose(p.get(l + "rnn_Wf", d, d), du, du);
      w.insert(w.end(), wf.begin(), wf.end());
      std::vector<float> b(du, 0.0f);
      const std::vector<float> bf = p.get(l + "rnn_bf", 1, d);
      b.insert(b.end(), bf.begin(), bf.end());
      std::vector<float> steps(du, p.int8_step(l + "rnn_W"));
      steps.insert(steps.end(), du, p.int8_step(l + "rnn_Wf"));
      m.add_linear(names::layer(Stack::kDecoder, i, names::kSsruProj), 2 * du, du, std::move(w), std::move(b),
                   l + "rnn_W + " + l + "rnn_Wf", std::move(steps));
      norm(names::layer(Stack::kDecoder, i, names::kSsruNorm), l + "rnn_ffn");
    } else {
      linear(names::layer(Stack::kDecoder, i, names::kSelfQkv), {l + "self_Wq", l + "self_Wk", l + "self_Wv"},
             du, du);
      linear(names::layer(Stack::kDecoder, i, names::kSelfOut), {l + "self_Wo"}, du, du);
      norm(names::layer(Stack::kDecoder, i, names::kSelfNorm), l + "self_Wo");
    }
    linear(names::layer(Stack::kDecoder, i, names::kCrossQ), {l + "context_Wq"}, du, du);
    linear(names::layer(Stack::kDecoder, i, names::kCrossKv), {l + "context_Wk", l + "context_Wv"}, du, du);
    linear(names::layer(Stack::kDecoder, i, names::kCrossOut), {l + "context_Wo"}, du, du);
    norm(names::layer(Stack::kDecoder, i, names::kCrossNorm), l + "context_Wo");
    linear(names::layer(Stack::kDecoder, i, names::kFc1), {l + "ffn_W1"}, df, du);
    linear(names::layer(Stack::kDecoder, i, names::kFc2), {l + "ffn_W2"}, du, df);
    norm(names::layer(Stack::kDecoder, i, names::kFinalNorm), l + "ffn_ffn");
  }
  if (!tied_out) {
    // Marian 1.12 stores the projection transposed, "decoder_ff_logit_out_Wt" [vt, d];
    // older versions "decoder_ff_logit_out_W" [d, vt]. Either gets the start row's zeros.
    const bool wt = p.has("decoder_ff_logit_out_Wt");
    std::vector<float> w =
        with_zero_row(wt ? p.get("decoder_ff_logit_out_Wt", vt, d)
                         : transpose(p.get("decoder_ff_logit_out_W", d, vt), du, static_cast<size_t>(vt)));
    const std::string name = wt ? "decoder_ff_logit_out_Wt" : "decoder_ff_logit_out_W";
    m.add_linear(std::string(names::kOutputProjection), static_cast<size_t>(vt) + 1, du, std::move(w), {},
                 name, std::vector<float>(static_cast<size_t>(vt) + 1, p.int8_step(name)));
  }
  // The start row is no token of Marian's: a logit of -1e9 keeps it out of the softmax's
  // normaliser too (it is also banned), as if the vocabulary had no such row.
  m.final_logits_bias =
      omit_bias ? std::vector<float>(static_cast<size_t>(vt), 0.0f) : p.get("decoder_ff_logit_out_b", 1, vt);
  m.final_logits_bias.push_back(-1e9f);
  if (const std::vector<std::string> left = p.unused(); !left.empty()) {
    std::string list;
    for (size_t i = 0; i < left.size() && i < 8; ++i) list += " " + left[i];
    throw ConvertError(file + " has parameters this conversion does not use (" + std::to_string(left.size()) +
                       "):" + list + (left.size() > 8 ? " ..." : "") +
                       "; the model has a feature edgemt-convert does not support");
  }

  // Search defaults: Marian's beam search with the decoder configuration's settings
  // (models ship a decoder.yml with theirs), else marian-decoder's defaults, except the
  // beam: marian-decoder's 12 is costly on a small device, edgemt's default is greedy.
  GenerationDefaults& g = m.generation;
  g.beam_style = BeamStyle::kMarian;
  const float beam = search_number(loc, "beam-size", 1.0f, 1.0f, 256.0f);
  if (beam != std::floor(beam)) throw ConvertError(loc.search_file + ": beam-size is not a whole number");
  g.num_beams = static_cast<int>(beam);
  g.length_penalty = search_number(loc, "normalize", 0.0f, -10.0f, 10.0f);
  g.word_penalty = search_number(loc, "word-penalty", 0.0f, -100.0f, 100.0f);
  g.max_length_factor = search_number(loc, "max-length-factor", 3.0f, 0.0f, 1000.0f);
  g.max_length = 256;
  g.early_stopping = true;
  g.banned_ids.push_back(c.decoder_start_id);
  // Marian never outputs <unk> (its --allow-unk is off by default): suppressed after the
  // softmax, as a banned id here.
  if (tv.unk >= 0 && tv.unk < vt && tv.unk != tv.eos) g.banned_ids.push_back(tv.unk);

  if (int8_source)
    std::fprintf(
        stderr,
        "edgemt-convert: note: %s holds int8 (intgemm) matrices: without --quantize int8 they are "
        "dequantized to float32 (q / multiplier); with it their int8 values and multipliers are kept\n",
        shown(file).c_str());
  if (!loc.shortlist.empty()) {
    m.shortlist = read_shortlist(loc.shortlist, loc.shortlist_args, sv, tv);
    m.shortlist.add_source_ids = one_vocab;  // Marian adds the source ids with one vocabulary
    m.metadata.emplace_back("shortlist", fs::path(shown(loc.shortlist)).filename().string());
  }
  // Word alignment as marian-decoder --alignment gives it: the first head of the guided
  // alignment layer (transformer-guided-alignment-layer: "last" or a 1-based number).
  {
    const std::string layer = cfg.str("transformer-guided-alignment-layer", "last");
    int index = m.config.decoder_layers - 1;
    if (layer != "last") {
      char* end = nullptr;
      const long v = std::strtol(layer.c_str(), &end, 10);
      if (end == layer.c_str() || *end != '\0' || v < 1 || v > m.config.decoder_layers)
        cfg.fail("transformer-guided-alignment-layer '" + layer + "' is not 'last' or a layer of the " +
                 std::to_string(m.config.decoder_layers) + "-layer decoder");
      index = static_cast<int>(v) - 1;
    }
    m.metadata.emplace_back("alignment_layer", std::to_string(index));
    m.metadata.emplace_back("alignment_head", "0");
  }
  m.metadata.emplace_back("converter", "edgemt-convert");
  m.metadata.emplace_back("source_format", int8_source               ? "marian-bin-intgemm"
                                           : ends_with(file, ".bin") ? "marian-bin"
                                                                     : "marian-npz");
  m.metadata.emplace_back("source_file", fs::absolute(shown(loc.model)).lexically_normal().string());
  if (const std::string v = cfg.str("version", ""); !v.empty()) m.metadata.emplace_back("marian_version", v);
  // The language pair from Firefox's file names (translate --from/--to and the server
  // find models by it; edgemt-convert --source-language/--target-language set it).
  {
    std::vector<std::string> names = {fs::path(shown(loc.model)).filename().string()};
    for (const fs::path& v : loc.vocabs) names.push_back(fs::path(shown(v)).filename().string());
    if (!loc.shortlist.empty()) names.push_back(fs::path(shown(loc.shortlist)).filename().string());
    if (const auto pair = firefox_pair(names)) {
      m.metadata.emplace_back("source_language", pair->first);
      m.metadata.emplace_back("target_language", pair->second);
    }
  }
  return m;
}

}  // namespace

SourceModel read_marian(const std::string& input) {
  if (!Staging::needed(input)) return read_marian_files(input, nullptr);
  const Staging staging(input);
  try {
    return read_marian_files(staging.input().string(), &staging);
  } catch (const ConvertError& e) {
    throw ConvertError(staging.replace(e.what()));
  }
}

}  // namespace edgemt::convert
