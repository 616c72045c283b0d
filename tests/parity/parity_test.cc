// Parity with transformers on the committed tiny MarianMT models (tests/data/parity).
// tools/parity/make_parity_models.py made each model with transformers and stored
// transformers' own outputs in reference.json; ctest converts every model with
// edgemt-convert first (fixture), then this test compares:
//   tokenization (source ids), encoder output and first-step logits (|diff| <= 1e-4),
//   greedy and beam-4 ids (identical), beam-4 n-best (4 hypotheses, identical and in
//   order), and the decoded text,
// under every ISA the CPU runs, and checks that thread count and batching do not
// change a single bit.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ops/gemm/pack.h"
#include "runtime/api/translator.h"
#include "runtime/api/word_alignment.h"
#include "runtime/formats/plural_categories.h"
#include "runtime/formats/xml_tree.h"
#include "runtime/model/weights.h"
#include "runtime/nmt/engine.h"
#include "runtime/nmt/search/search_state.h"
#include "runtime/text/letter_case.h"
#include "runtime/text/markup.h"
#include "tests/parity/parity_common.h"

namespace edgemt {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using namespace edgemt::testing;  // NOLINT: the parity tests' shared helpers
using Case = ReferenceCase;

const std::vector<Case>& cases() {
  static const std::vector<Case> c =
      testing::load_reference_cases(EDGEMT_PARITY_SOURCE_DIR, EDGEMT_PARITY_BUILD_DIR);
  return c;
}

class Parity : public ReferenceTest {
 protected:
  // One ISA's int8 encoder output and first-step logits (sentences concatenated).
  struct Int8Outputs {
    ops::Isa isa;
    std::vector<float> enc, logits;
  };
  // Loads the int8 file <name><suffix> into model_, runs it on every runnable ISA (the
  // scalar reference first) and checks each within quantization error of transformers'
  // float32; returns the outputs and the reference's largest magnitudes.
  std::vector<Int8Outputs> check_int8_model(const std::string& suffix, float* enc_scale, float* logit_scale);
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(load(cases())); }

  std::unique_ptr<Engine> engine(const ops::Kernels* isa, int threads, int batch, int beam,
                                 bool logits = false) {
    return testing::make_engine(model_, src_, max_new_, isa, threads, batch, beam, logits);
  }

  // The reference sources' 4-best at `beam`, with scores and token log-probabilities
  // (length penalty 1, the references' length limit).
  struct Nbest {
    std::vector<std::vector<std::vector<int32_t>>> ids;
    std::vector<std::vector<float>> scores;
    std::vector<std::vector<std::vector<float>>> lps;
  };
  Status nbest_with_logprobs(Translator& t, int beam, Nbest* out) const {
    TranslateOptions to;
    to.beam = beam;
    to.max_length = max_new_;
    to.length_penalty = 1.0f;
    to.use_shortlist = false;
    const std::vector<std::span<const int32_t>> in(src_.begin(), src_.end());
    return t.translate_ids_nbest(in, 4, &out->ids, to, &out->scores, &out->lps);
  }

  // Up to n of the reference sentences for which keep(s) holds, in order.
  template <class Keep>
  std::vector<std::string> sentences_where(size_t n, Keep&& keep) const {
    std::vector<std::string> out;
    for (const json& j : c_->ref.at("sentences")) {
      if (out.size() == n) break;
      std::string s = j.get<std::string>();
      if (keep(s)) out.push_back(std::move(s));
    }
    return out;
  }
  // Greedy search within the references' length limit: what the text-layer tests
  // compare a document's pieces under.
  TranslateOptions greedy_options() const {
    TranslateOptions o;
    o.beam = 1;
    o.max_length = max_new_;
    return o;
  }

  // Translates sentence indices [begin, end) as one batch.
  std::vector<std::vector<int32_t>> run(Engine& e, size_t begin, size_t end, int beam) {
    SearchParams p;
    p.beam = beam;
    p.max_new_tokens = max_new_;
    p.length_penalty = 1.0f;
    p.early_stopping = EarlyStopping::kTrue;
    return testing::run_engine(e, src_, begin, end, p);
  }
};

TEST_P(Parity, TokenizationMatchesMarianTokenizer) {
  const json& sents = c_->ref.at("sentences");
  for (size_t i = 0; i < sents.size(); ++i) {
    std::vector<int32_t> ids;
    ASSERT_TRUE(model_->tokenizer().encode(sents[i].get<std::string>(), &ids).is_ok());
    EXPECT_EQ(join(ids), join(src_[i])) << c_->name << " sentence " << i << ": " << sents[i];
  }
}

// Corner cases of tokenization (tools/parity/make_tokenizer_cases.py, MarianTokenizer's ids).
TEST_P(Parity, TokenizerCornerCasesMatchMarianTokenizer) {
  const fs::path f = fs::path(EDGEMT_PARITY_SOURCE_DIR) / c_->name / "tokenizer_cases.json";
  ASSERT_TRUE(fs::exists(f)) << f;
  std::ifstream in(f);
  json cases;
  in >> cases;
  ASSERT_GT(cases.size(), 10u);
  for (const json& c : cases) {
    std::vector<int32_t> ids;
    ASSERT_TRUE(model_->tokenizer().encode(c.at("text").get<std::string>(), &ids).is_ok());
    EXPECT_EQ(join(ids), join(c.at("ids").get<std::vector<int32_t>>())) << c_->name << ": " << c.at("text");
  }
}

// Tokenizer::unknown_spans (what protected spans copy through): a text has ranges exactly
// where MarianTokenizer gives it an unk id; each range encodes to an unk, and the text
// without its ranges encodes without one.
TEST_P(Parity, UnknownSpansAreWhereMarianTokenizerGivesUnk) {
  const Tokenizer& tok = model_->tokenizer();
  const int32_t unk = tok.source_id("<unk>");
  const fs::path f = fs::path(EDGEMT_PARITY_SOURCE_DIR) / c_->name / "tokenizer_cases.json";
  std::ifstream in(f);
  json cases;
  in >> cases;
  std::vector<std::pair<std::string, std::vector<int32_t>>> texts;
  for (const json& c : cases)
    texts.emplace_back(c.at("text").get<std::string>(), c.at("ids").get<std::vector<int32_t>>());
  const json& sents = c_->ref.at("sentences");
  for (size_t i = 0; i < sents.size(); ++i) texts.emplace_back(sents[i].get<std::string>(), src_[i]);
  auto has_unk = [&](const std::vector<int32_t>& ids) {
    return std::find(ids.begin(), ids.end(), unk) != ids.end();
  };
  size_t with_unk = 0;
  for (const auto& [text, ref_ids] : texts) {
    // Special tokens written in the text are tokens of their own, not SentencePiece's.
    if (text.find("<unk>") != std::string::npos || text.find("</s>") != std::string::npos ||
        text.find("<pad>") != std::string::npos || text.find(">>") != std::string::npos)
      continue;
    std::vector<std::pair<size_t, size_t>> ranges;
    tok.unknown_spans(text, &ranges);
    EXPECT_EQ(!ranges.empty(), has_unk(ref_ids)) << c_->name << ": " << text;
    with_unk += ranges.empty() ? 0 : 1;
    std::string rest = text;
    for (auto it = ranges.rbegin(); it != ranges.rend(); ++it) {
      ASSERT_LT(it->first, it->second);
      ASSERT_LE(it->second, text.size());
      std::vector<int32_t> ids;
      ASSERT_TRUE(tok.encode(text.substr(it->first, it->second - it->first), &ids).is_ok());
      EXPECT_TRUE(has_unk(ids)) << c_->name << ": [" << text.substr(it->first, it->second - it->first) << "]";
      rest.replace(it->first, it->second - it->first, 1, ' ');
    }
    std::vector<int32_t> ids;
    ASSERT_TRUE(tok.encode(rest, &ids).is_ok());
    EXPECT_FALSE(has_unk(ids)) << c_->name << ": " << text << " -> " << rest;
  }
  EXPECT_GT(with_unk, 0u) << c_->name << ": no case has an unknown character";
}

// int8 tolerances, relative to the largest magnitude of transformers' float32 output.
// Measured on the parity models (random weights, d_model 16..64; ctest --output-junit
// records them): encoder 0.022-0.24 (m3, gelu d64), logits 0.019-0.089; a wrong scale or
// layout gives errors of order 1. Between ISAs the int8 outputs agreed to < 1e-6 on x86.
constexpr float kInt8EncoderRelTol = 0.4f;
constexpr float kInt8LogitsRelTol = 0.2f;
constexpr float kInt8IsaRelTol = 1e-3f;

// Levels with FMA: all but the scalar reference and sse4_2. They give the same bits.
bool fuses(ops::Isa isa) { return isa != ops::Isa::ref && std::strcmp(ops::isa_name(isa), "sse4_2") != 0; }
bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

TEST_P(Parity, EncoderOutputAndFirstLogitsWithin1e4OnEveryIsa) {
  const json& enc = c_->ref.at("encoder_output");
  const json& logits = c_->ref.at("first_step_logits");
  const size_t n = enc.size();
  const size_t d = static_cast<size_t>(model_->config().d_model);
  std::vector<float> first_fma;
  ops::Isa first_isa = ops::Isa::ref;
  for (ops::Isa isa : runnable_isas()) {
    SCOPED_TRACE(std::string("isa ") + ops::isa_name(isa));
    auto e = engine(ops::kernels_for(isa), 1, static_cast<int>(n), 1, true);
    ASSERT_NE(e, nullptr);
    run(*e, 0, n, 1);
    const float* out = e->last_encoder_output();
    size_t row = 0;
    float worst = 0.0f;
    for (size_t s = 0; s < n; ++s) {
      for (size_t t = 0; t < enc[s].size(); ++t, ++row) {
        for (size_t j = 0; j < d; ++j) {
          const float want = enc[s][t][j].get<float>();
          const float diff = std::fabs(out[row * d + j] - want);
          worst = std::max(worst, diff);
          ASSERT_LE(diff, 1e-4f) << c_->name << " encoder sentence " << s << " token " << t << " dim " << j;
        }
      }
    }
    for (size_t s = 0; s < logits.size(); ++s) {
      const float* got = e->first_logits(static_cast<int>(s));
      ASSERT_NE(got, nullptr);
      for (size_t v = 0; v < logits[s].size(); ++v) {
        const float diff = std::fabs(got[v] - logits[s][v].get<float>());
        worst = std::max(worst, diff);
        ASSERT_LE(diff, 1e-4f) << c_->name << " logits sentence " << s << " token " << v;
      }
    }
    RecordProperty("max_abs_diff_" + std::string(ops::isa_name(isa)), std::to_string(worst));
    // Every level with FMA gives the same bits (docs/determinism-and-parity.md, "The same translation
    // on every CPU").
    if (fuses(isa)) {
      std::vector<float> got(out, out + row * d);
      for (size_t s = 0; s < logits.size(); ++s)
        got.insert(got.end(), e->first_logits(static_cast<int>(s)),
                   e->first_logits(static_cast<int>(s)) + logits[s].size());
      if (first_fma.empty()) {
        first_fma = std::move(got);
        first_isa = isa;
      } else {
        EXPECT_TRUE(same_bits(got, first_fma)) << c_->name << " float32 on " << ops::isa_name(isa) << " vs "
                                               << ops::isa_name(first_isa) << ": not the same bits";
      }
    }
  }
}

TEST_P(Parity, GreedyAndBeamIdsIdenticalOnEveryIsa) {
  const auto greedy = ids_of(c_->ref.at("greedy"));
  const auto beam = ids_of(c_->ref.at("beam4"));
  for (ops::Isa isa : runnable_isas()) {
    SCOPED_TRACE(std::string("isa ") + ops::isa_name(isa));
    auto e = engine(ops::kernels_for(isa), 1, 1, 4);
    ASSERT_NE(e, nullptr);
    for (size_t i = 0; i < src_.size(); ++i) {
      EXPECT_EQ(join(run(*e, i, i + 1, 1)[0]), join(greedy[i])) << c_->name << " greedy, sentence " << i;
      EXPECT_EQ(join(run(*e, i, i + 1, 4)[0]), join(beam[i])) << c_->name << " beam 4, sentence " << i;
    }
  }
}

TEST_P(Parity, BatchesAndThreadsDoNotChangeOutputs) {
  const auto greedy = ids_of(c_->ref.at("greedy"));
  const auto beam = ids_of(c_->ref.at("beam4"));
  const size_t n = src_.size();
  for (int threads : {1, 2, 4}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    auto e = engine(nullptr, threads, 7, 4);
    ASSERT_NE(e, nullptr);
    for (size_t b = 0; b < n; b += 7) {
      const size_t end = std::min(n, b + 7);
      const auto g = run(*e, b, end, 1);
      const auto bm = run(*e, b, end, 4);
      for (size_t i = b; i < end; ++i) {
        EXPECT_EQ(join(g[i - b]), join(greedy[i])) << c_->name << " batched greedy, sentence " << i;
        EXPECT_EQ(join(bm[i - b]), join(beam[i])) << c_->name << " batched beam, sentence " << i;
      }
    }
  }
  // Bit-identical logits for 1, 2 and 4 threads.
  std::vector<float> first;
  for (int threads : {1, 2, 4}) {
    auto e = engine(nullptr, threads, 3, 1, true);
    ASSERT_NE(e, nullptr);
    run(*e, 0, 3, 1);
    const size_t vt = static_cast<size_t>(model_->config().target_vocab_size);
    std::vector<float> l(e->first_logits(0), e->first_logits(0) + 3 * vt);
    if (first.empty()) {
      first = l;
    } else {
      ASSERT_EQ(0, std::memcmp(first.data(), l.data(), l.size() * 4))
          << "logits differ with " << threads << " threads";
    }
  }
}

// Search reads each step's best candidates and log-sum-exp from the output layer's fused
// path (score_top: the logits reduced block by block, never written whole) except on
// forced steps. It must pick what the full-logits path picks: the same ids for every
// hypothesis, greedy and beam 4, and the same log-probs and scores up to float rounding
// (the log-sum-exp is summed block by block). With blocks of 16 columns the merging of
// many blocks' top-k lists is exercised on these small vocabularies too; 3 threads take
// the blocks in ranges of any length.
TEST_P(Parity, FusedLogitsPickWhatTheFullLogitsPick) {
  const size_t n = src_.size();
  std::vector<std::span<const int32_t>> in(src_.begin(), src_.end());
  auto make = [&](bool full, int block, int threads) {
    EngineProbes probes;
    probes.full_logits = full;
    probes.logit_block_columns = block;
    return make_engine(model_, src_, max_new_, nullptr, threads, static_cast<int>(n), 4, probes);
  };
  struct Out {
    std::vector<std::vector<int32_t>> ids;
    std::vector<float> scores;
    std::vector<std::vector<float>> lps;
  };
  auto translate = [&](Engine& e, int beam) {
    SearchParams p;
    p.beam = beam;
    p.max_new_tokens = max_new_;
    p.length_penalty = 1.0f;
    p.greedy_scores = true;
    std::vector<std::span<const int32_t>> out(n);
    const Status st = e.run(in, p, out);
    EXPECT_TRUE(st.is_ok()) << st.to_string();
    Out o;
    for (size_t s = 0; s < n; ++s)
      for (size_t h = 0; h < e.hypothesis_count(s); ++h) {
        const auto ids = e.hypothesis(s, h);
        const auto lps = e.hypothesis_logprobs(s, h);
        o.ids.emplace_back(ids.begin(), ids.end());
        o.scores.push_back(e.hypothesis_score(s, h));
        o.lps.emplace_back(lps.begin(), lps.end());
      }
    return o;
  };
  auto full = make(true, 0, 1);
  ASSERT_NE(full, nullptr);
  for (int beam : {1, 4}) {
    const Out want = translate(*full, beam);
    for (const auto& [block, threads] :
         {std::pair{0, 1}, std::pair{16, 1}, std::pair{16, 3}, std::pair{48, 2}}) {
      SCOPED_TRACE("beam " + std::to_string(beam) + ", block " + std::to_string(block) + ", threads " +
                   std::to_string(threads));
      auto e = make(false, block, threads);
      ASSERT_NE(e, nullptr);
      const Out got = translate(*e, beam);
      ASSERT_EQ(got.ids.size(), want.ids.size()) << c_->name;
      for (size_t i = 0; i < want.ids.size(); ++i) {
        EXPECT_EQ(join(got.ids[i]), join(want.ids[i])) << c_->name << " hypothesis " << i;
        EXPECT_NEAR(got.scores[i], want.scores[i], 1e-5 + 1e-5 * std::fabs(want.scores[i])) << c_->name;
        ASSERT_EQ(got.lps[i].size(), want.lps[i].size()) << c_->name;
        for (size_t j = 0; j < want.lps[i].size(); ++j)
          EXPECT_NEAR(got.lps[i][j], want.lps[i][j], 1e-5 + 1e-5 * std::fabs(want.lps[i][j])) << c_->name;
      }
    }
  }
}

// int8 (edgemt-convert --quantize int8; ctest converts it too). On every ISA:
//  - the int8 encoder output and first-step logits stay within quantization error of
//    transformers' float32 (relative to the largest reference magnitude);
//  - every ISA gives the scalar reference's int8 result up to float rounding (integer
//    products are exact; only the float parts around them differ), so the SIMD int8
//    kernels are checked inside a real model, not only one GEMM at a time.
std::vector<Parity::Int8Outputs> Parity::check_int8_model(const std::string& suffix, float* enc_scale,
                                                          float* logit_scale) {
  std::vector<Int8Outputs> runs;
  const fs::path f = c_->model_file.parent_path() / (c_->name + suffix);
  EXPECT_TRUE(fs::exists(f)) << f << " was not converted (run ctest, which converts first)";
  auto m = Model::load(f.string());
  EXPECT_TRUE(m.has_value()) << m.status().to_string();
  if (!m.has_value()) return runs;
  model_ = m.value();
  const json& enc = c_->ref.at("encoder_output");
  const json& logits = c_->ref.at("first_step_logits");
  const size_t n = enc.size();
  std::vector<float> want_enc, want_logits;
  for (size_t s = 0; s < n; ++s)
    for (const json& tok : enc[s])
      for (const json& x : tok) want_enc.push_back(x.get<float>());
  for (const json& row : logits)
    for (const json& x : row) want_logits.push_back(x.get<float>());
  auto max_abs = [](const std::vector<float>& v) {
    float mx = 0.0f;
    for (float x : v) mx = std::max(mx, std::fabs(x));
    return mx;
  };
  *enc_scale = max_abs(want_enc);
  *logit_scale = max_abs(want_logits);
  for (ops::Isa isa : runnable_isas()) {
    SCOPED_TRACE(std::string("isa ") + ops::isa_name(isa));
    auto e = engine(ops::kernels_for(isa), 1, static_cast<int>(n), 1, true);
    EXPECT_NE(e, nullptr);
    if (e == nullptr) return {};
    run(*e, 0, n, 1);
    std::vector<float> got_enc(e->last_encoder_output(), e->last_encoder_output() + want_enc.size());
    std::vector<float> got_logits;
    for (size_t s = 0; s < logits.size(); ++s) {
      const float* l = e->first_logits(static_cast<int>(s));
      EXPECT_NE(l, nullptr);
      if (l == nullptr) return {};
      got_logits.insert(got_logits.end(), l, l + logits[s].size());
    }
    EXPECT_EQ(got_enc.size(), n == 0 ? 0 : want_enc.size());
    float enc_err = 0.0f, logit_err = 0.0f;
    for (size_t i = 0; i < want_enc.size(); ++i)
      enc_err = std::max(enc_err, std::fabs(got_enc[i] - want_enc[i]));
    for (size_t i = 0; i < want_logits.size(); ++i)
      logit_err = std::max(logit_err, std::fabs(got_logits[i] - want_logits[i]));
    RecordProperty("int8_encoder_rel_err_" + std::string(ops::isa_name(isa)),
                   std::to_string(enc_err / *enc_scale));
    RecordProperty("int8_logits_rel_err_" + std::string(ops::isa_name(isa)),
                   std::to_string(logit_err / *logit_scale));
    EXPECT_LE(enc_err, kInt8EncoderRelTol * *enc_scale)
        << c_->name << " int8 encoder output vs transformers float32";
    EXPECT_LE(logit_err, kInt8LogitsRelTol * *logit_scale)
        << c_->name << " int8 first logits vs transformers float32";
    runs.push_back({isa, std::move(got_enc), std::move(got_logits)});
  }
  return runs;
}

TEST_P(Parity, Int8WithinQuantizationErrorOnEveryIsa) {
  float enc_scale = 0.0f, logit_scale = 0.0f;
  const std::vector<Int8Outputs> runs = check_int8_model(".int8.emt", &enc_scale, &logit_scale);
  ASSERT_FALSE(runs.empty());
  EXPECT_STREQ(model_->precision(), "int8") << c_->name;
  const Int8Outputs& ref = runs[0];
  ASSERT_EQ(ref.isa, ops::Isa::ref) << "runnable_isas() starts with the scalar reference";
  for (size_t r = 1; r < runs.size(); ++r) {
    const Int8Outputs& got = runs[r];
    SCOPED_TRACE(std::string("isa ") + ops::isa_name(got.isa));
    ASSERT_EQ(got.enc.size(), ref.enc.size());
    ASSERT_EQ(got.logits.size(), ref.logits.size());
    float isa_err = 0.0f;
    for (size_t i = 0; i < ref.enc.size(); ++i)
      isa_err = std::max(isa_err, std::fabs(got.enc[i] - ref.enc[i]));
    for (size_t i = 0; i < ref.logits.size(); ++i)
      isa_err = std::max(isa_err, std::fabs(got.logits[i] - ref.logits[i]) / logit_scale * enc_scale);
    RecordProperty("int8_vs_ref_isa_" + std::string(ops::isa_name(got.isa)),
                   std::to_string(isa_err / enc_scale));
    EXPECT_LE(isa_err, kInt8IsaRelTol * enc_scale)
        << c_->name << " int8 on this ISA vs int8 on the scalar reference";
  }
  // Every level with FMA gives the same bits (docs/determinism-and-parity.md, "The same
  // translation on every CPU").
  const Int8Outputs* first = nullptr;
  for (const Int8Outputs& got : runs) {
    if (!fuses(got.isa)) continue;
    if (first == nullptr) {
      first = &got;
      continue;
    }
    EXPECT_TRUE(same_bits(got.enc, first->enc) && same_bits(got.logits, first->logits))
        << c_->name << " int8 on " << ops::isa_name(got.isa) << " vs " << ops::isa_name(first->isa)
        << ": not the same bits";
  }
}

// 7-bit weights (edgemt-convert --int8-weight-bits 7): every gemm weight in [-63, 63],
// the file says so (Tensor.max_abs), the loader marks them for ops::qs8_gemm_w7 (the
// AVX2 level's VPMADDUBSW kernel), the model stays within quantization error of
// transformers, and on every ISA its encoder output and first logits are bit for bit
// those of the same ISA with qs8_gemm in place of qs8_gemm_w7. (The scalar reference and
// sse4_2 round the float parts differently from the FMA levels, which can move an
// activation across a quantization step: with 7-bit weights that shows on m3 at 2% of
// the output's scale, so ISAs are not compared with the scalar reference here.)
TEST_P(Parity, Int8SevenBitWeightsRunTheSevenBitKernelOnEveryIsa) {
  float enc_scale = 0.0f, logit_scale = 0.0f;
  ASSERT_FALSE(check_int8_model(".int8w7.emt", &enc_scale, &logit_scale).empty());
  const size_t n = c_->ref.at("encoder_output").size();
  for (ops::Isa isa : runnable_isas()) {
    SCOPED_TRACE(std::string("isa ") + ops::isa_name(isa));
    const ops::Kernels* fast = ops::kernels_for(isa);
    ops::Kernels exact = *fast;
    exact.qs8_gemm_w7 = fast->qs8_gemm;
    std::vector<float> out[2];
    for (int v = 0; v < 2; ++v) {
      auto e = engine(v == 0 ? fast : &exact, 1, static_cast<int>(n), 1, true);
      ASSERT_NE(e, nullptr);
      run(*e, 0, n, 1);
      size_t enc = 0;
      for (const json& sent : c_->ref.at("encoder_output"))
        for (const json& tok : sent) enc += tok.size();
      out[v].assign(e->last_encoder_output(), e->last_encoder_output() + enc);
      const json& logits = c_->ref.at("first_step_logits");
      for (size_t s = 0; s < logits.size(); ++s) {
        const float* l = e->first_logits(static_cast<int>(s));
        ASSERT_NE(l, nullptr);
        out[v].insert(out[v].end(), l, l + logits[s].size());
      }
    }
    ASSERT_EQ(out[0].size(), out[1].size());
    EXPECT_EQ(0, std::memcmp(out[0].data(), out[1].data(), out[0].size() * sizeof(float)))
        << c_->name << ": qs8_gemm_w7 and qs8_gemm differ in a real model";
  }
  size_t gemms = 0;
  const std::vector<const LinearWeights*> linears = model_->weights().linears();
  for (size_t i = 0; i < linears.size(); ++i) {
    const LinearWeights& l = *linears[i];
    if (l.type != WeightType::kI8) continue;
    ++gemms;
    EXPECT_TRUE(l.w7) << c_->name << " gemm weight " << i << " is not marked 7-bit";
    const size_t bytes = ops::qs8_panel_size(l.n, l.k);
    int mx = 0;
    for (size_t j = 0; j < bytes; ++j) mx = std::max(mx, std::abs(static_cast<int>(l.w8[j])));
    EXPECT_LE(mx, 63) << c_->name << " gemm weight " << i;
  }
  EXPECT_STREQ(model_->precision(), "int8, 7-bit weights") << c_->name;
  EXPECT_GT(gemms, 4u) << c_->name << ": no int8 gemm weights";
}

TEST_P(Parity, TextMatchesTransformersDecode) {
  const json& sents = c_->ref.at("sentences");
  const json& texts = c_->ref.at("greedy_text");
  auto t = make_translator(model_, 4, 4, max_new_);
  ASSERT_NE(t, nullptr);
  std::vector<std::string> in;
  for (const json& s : sents) in.push_back(s.get<std::string>());
  TranslateOptions to = greedy_options();
  to.split_sentences = false;   // transformers translates each string as one sentence
  to.repetition_guard = false;  // and searches without a guard
  to.protect_spans = false;     // nor protected spans
  auto out = t->translate(in, to);
  ASSERT_TRUE(out.has_value()) << out.status().to_string();
  for (size_t i = 0; i < in.size(); ++i) {
    const std::string want = texts[i].get<std::string>();
    // Whitespace-only input is translated to "" by design (transformers would run it).
    if (src_[i].size() <= 1) continue;
    EXPECT_EQ(out.value()[i], want) << c_->name << " sentence " << i << ": " << in[i];
  }
}

// Break hints (U+00AD soft hyphen, U+2060 word joiner, U+FEFF) inside words, as web
// pages, e-books and word processors write them, are removed before translating: every
// text call (translate, n-best, scored, HTML with &shy;) gives what the text without them
// gives, and the scored sources are the text without them.
TEST_P(Parity, BreakHintsInsideWordsAreRemovedBeforeTranslating) {
  auto t = make_translator(model_, 4, 2, max_new_);
  ASSERT_NE(t, nullptr);
  auto shy_text = [](std::string s) {  // U+00AD after every second byte of a letter pair
    for (size_t i = s.size(); i-- > 1;)
      if (std::isalpha(static_cast<unsigned char>(s[i])) &&
          std::isalpha(static_cast<unsigned char>(s[i - 1])) && i % 2 == 0)
        s.insert(i, "\xC2\xAD");
    return s;
  };
  std::vector<std::string> clean, hinted;
  const char* const kHints[] = {"\xC2\xAD", "\xE2\x81\xA0", "\xEF\xBB\xBF"};
  size_t n = 0;
  for (const json& j : c_->ref.at("sentences")) {
    const std::string s = j.get<std::string>();
    std::string h;
    bool any = false;
    for (size_t i = 0; i < s.size(); ++i) {  // a hint between two ASCII letters, every third pair
      h.push_back(s[i]);
      if (i + 1 < s.size() && std::isalpha(static_cast<unsigned char>(s[i])) &&
          std::isalpha(static_cast<unsigned char>(s[i + 1])) && i % 3 == 0) {
        h += kHints[n++ % 3];
        any = true;
      }
    }
    if (!any) continue;
    clean.push_back(s);
    hinted.push_back(h);
    if (clean.size() == 6) break;
  }
  ASSERT_GE(clean.size(), 3u) << c_->name;
  TranslateOptions o = greedy_options();
  auto want = t->translate(clean, o);
  auto got = t->translate(hinted, o);
  ASSERT_TRUE(want.has_value() && got.has_value());
  EXPECT_EQ(got.value(), want.value()) << c_->name;
  auto want_n = t->translate_nbest(clean, 2, o);
  auto got_n = t->translate_nbest(hinted, 2, o);
  ASSERT_TRUE(want_n.has_value() && got_n.has_value());
  EXPECT_EQ(got_n.value(), want_n.value()) << c_->name;
  auto want_s = t->translate_scored(clean, 1, o);
  auto got_s = t->translate_scored(hinted, 1, o);
  ASSERT_TRUE(want_s.has_value() && got_s.has_value());
  for (size_t i = 0; i < clean.size(); ++i) {
    ASSERT_EQ(got_s.value()[i].sentences.size(), want_s.value()[i].sentences.size()) << c_->name << " " << i;
    for (size_t k = 0; k < want_s.value()[i].sentences.size(); ++k) {
      EXPECT_EQ(got_s.value()[i].sentences[k].source, want_s.value()[i].sentences[k].source) << c_->name;
      EXPECT_EQ(got_s.value()[i].sentences[k].source_words, want_s.value()[i].sentences[k].source_words)
          << c_->name;
    }
    EXPECT_EQ(got_s.value()[i].hypotheses[0].text, want_s.value()[i].hypotheses[0].text) << c_->name;
  }
  // Scoring a pair: the same with the hints as without, on either side.
  auto want_score = t->score({clean[0]}, {clean[1]});
  auto got_score = t->score({hinted[0]}, {shy_text(clean[1])});
  ASSERT_TRUE(want_score.has_value()) << want_score.status().to_string();
  ASSERT_TRUE(got_score.has_value()) << got_score.status().to_string();
  EXPECT_EQ(got_score.value(), want_score.value()) << c_->name;
  // HTML: &shy; (decoded to U+00AD) inside the words of a paragraph and of a bold run.
  TranslateOptions html = o;
  html.format = TextFormat::kHtml;
  auto shy = [](std::string s) {
    for (size_t i = s.size(); i-- > 1;)
      if (std::isalpha(static_cast<unsigned char>(s[i])) &&
          std::isalpha(static_cast<unsigned char>(s[i - 1])) && i % 4 == 0)
        s.insert(i, "&shy;");
    return s;
  };
  const std::string a = escape_html(clean[0]), b = escape_html(clean[1]);
  auto want_h = t->translate({"<p>" + a + " <b>" + b + "</b></p>"}, html);
  auto got_h = t->translate({"<p>" + shy(a) + " <b>" + shy(b) + "</b></p>"}, html);
  ASSERT_TRUE(want_h.has_value() && got_h.has_value());
  EXPECT_EQ(got_h.value(), want_h.value()) << c_->name;
}

// A tab separates cells (a spreadsheet's row pasted as text, TSV): each is translated as
// it is alone and the tabs stay, in text calls and n-best; in HTML a tab is spacing, the
// paragraph translated as it is with a space there.
TEST_P(Parity, TabsSeparateCellsTranslatedAlone) {
  auto t = make_translator(model_, 4, 2, max_new_);
  ASSERT_NE(t, nullptr);
  const std::vector<std::string> cells = sentences_where(3, [](const std::string& s) {
    return s.find_first_of("\t\n") == std::string::npos && s.find(". ") == std::string::npos;
  });
  ASSERT_EQ(cells.size(), 3u) << c_->name;
  const TranslateOptions o = greedy_options();
  auto alone = t->translate(cells, o);
  ASSERT_TRUE(alone.has_value());
  const std::string row = cells[0] + "\t" + cells[1] + "\t\t" + cells[2];
  auto got = t->translate({row}, o);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got.value()[0], alone.value()[0] + "\t" + alone.value()[1] + "\t\t" + alone.value()[2])
      << c_->name;
  auto got_n = t->translate_nbest({row}, 1, o);
  ASSERT_TRUE(got_n.has_value());
  EXPECT_EQ(got_n.value()[0][0], got.value()[0]) << c_->name;
  TranslateOptions html = o;
  html.format = TextFormat::kHtml;
  const std::string a = escape_html(cells[0]), b = escape_html(cells[1]);
  auto want_h = t->translate({"<p>" + a + " " + b + "</p>"}, html);
  auto got_h = t->translate({"<p>" + a + "\t" + b + "</p>"}, html);
  ASSERT_TRUE(want_h.has_value() && got_h.has_value());
  EXPECT_EQ(got_h.value(), want_h.value()) << c_->name;
}

// CSV: each cell with words is translated as that text alone is (plain text), the rest
// kept; a translation holding the delimiter is quoted. n-best gives the same document.
TEST_P(Parity, CsvCellsAreTranslatedAsTextAlone) {
  auto t = make_translator(model_, 4, 2, max_new_);
  ASSERT_NE(t, nullptr);
  const std::vector<std::string> cells =
      sentences_where(3, [](const std::string& s) { return s.find_first_of("\"\n\t") == std::string::npos; });
  ASSERT_EQ(cells.size(), 3u) << c_->name;
  const TranslateOptions o = greedy_options();
  auto alone = t->translate(cells, o);
  ASSERT_TRUE(alone.has_value());
  const std::string doc = "key,text,#\r\napp.one,\"" + cells[0] + "\",1\r\napp.two," +
                          (cells[1].find(',') == std::string::npos ? cells[1] : "\"" + cells[1] + "\"") +
                          ",2.5\r\n,\"" + cells[2] + "\",\r\n";
  TranslateOptions csv = o;
  csv.format = TextFormat::kCsv;
  auto got = t->translate({doc}, csv);
  auto head = t->translate({"key", "text"}, o);
  ASSERT_TRUE(got.has_value() && head.has_value());
  auto cell = [](const std::string& x) {
    return x.find_first_of(",\"") == std::string::npos ? x : "\"" + x + "\"";
  };
  auto quoted = [](std::string x) {
    for (size_t at = 0; (at = x.find('"', at)) != std::string::npos; at += 2) x.insert(at, "\"");
    return "\"" + x + "\"";
  };
  EXPECT_EQ(got.value()[0], cell(head.value()[0]) + "," + cell(head.value()[1]) + ",#\r\napp.one," +
                                quoted(alone.value()[0]) + ",1\r\napp.two," +
                                (cells[1].find(',') == std::string::npos ? cell(alone.value()[1])
                                                                         : quoted(alone.value()[1])) +
                                ",2.5\r\n," + quoted(alone.value()[2]) + ",\r\n")
      << c_->name;
  auto got_n = t->translate_nbest({doc}, 2, csv);
  ASSERT_TRUE(got_n.has_value());
  EXPECT_EQ(got_n.value()[0][0], got.value()[0]) << c_->name;
}

// JSON: each string value with words is translated as that text alone is (plain text),
// written with JSON's escapes; keys, numbers and codes kept.
TEST_P(Parity, JsonStringsAreTranslatedAsTextAlone) {
  auto t = make_translator(model_, 4, 2, max_new_);
  ASSERT_NE(t, nullptr);
  const std::vector<std::string> texts = sentences_where(2, [](const std::string&) { return true; });
  ASSERT_EQ(texts.size(), 2u) << c_->name;
  const TranslateOptions o = greedy_options();
  auto alone = t->translate(texts, o);
  ASSERT_TRUE(alone.has_value());
  const std::string doc = "{\n  \"id\": " + json(texts[1]).dump() + ",\n  \"a\": " + json(texts[0]).dump() +
                          ",\n  \"list\": [" + json(texts[1]).dump() + ", 3]\n}\n";
  TranslateOptions js = o;
  js.format = TextFormat::kJson;
  auto got = t->translate({doc}, js);
  ASSERT_TRUE(got.has_value()) << got.status().to_string();
  const json parsed = json::parse(got.value()[0]);
  EXPECT_EQ(parsed["a"].get<std::string>(), alone.value()[0]) << c_->name;
  EXPECT_EQ(parsed["list"][0].get<std::string>(), alone.value()[1]) << c_->name;
  EXPECT_EQ(parsed["list"][1], 3);
  EXPECT_EQ(parsed["id"].get<std::string>(), texts[1]) << c_->name;  // a code's key: kept
  auto bad = t->translate({"{\"a\": }"}, js);
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.status().message().find("JSON line 1"), std::string::npos) << bad.status().message();
}

// Java .properties, Apple .strings and .stringsdict, .NET .resx: each value with words is translated as
// that text alone is (plain text), written with the format's escapes; keys, comments and
// codes kept.
TEST_P(Parity, PropertiesStringsAndResxValuesAreTranslatedAsTextAlone) {
  auto t = make_translator(model_, 4, 2, max_new_);
  ASSERT_NE(t, nullptr);
  const std::vector<std::string> texts = sentences_where(2, [](const std::string& s) {
    return s.find_first_of("\"\\\n\t") == std::string::npos && s.find(' ') != std::string::npos;
  });
  ASSERT_EQ(texts.size(), 2u) << c_->name;
  const TranslateOptions o = greedy_options();
  auto alone = t->translate(texts, o);
  ASSERT_TRUE(alone.has_value());
  // Java's escapes: '\\', line breaks, tabs, a leading space; \uXXXX past ASCII (an ASCII file).
  auto java = [](const std::string& v) {
    std::string out;
    char hex[8];
    for (size_t i = 0; i < v.size();) {
      const unsigned char c = static_cast<unsigned char>(v[i]);
      uint32_t cp = c;
      size_t n = 1;
      if (c >= 0xF0)
        cp = c & 0x07, n = 4;
      else if (c >= 0xE0)
        cp = c & 0x0F, n = 3;
      else if (c >= 0xC0)
        cp = c & 0x1F, n = 2;
      for (size_t k = 1; k < n && i + k < v.size(); ++k)
        cp = (cp << 6) | (static_cast<unsigned char>(v[i + k]) & 0x3F);
      if (cp == '\\')
        out += "\\\\";
      else if (cp == '\n')
        out += "\\n";
      else if (cp == '\t')
        out += "\\t";
      else if (cp == '\r')
        out += "\\r";
      else if (cp == ' ' && i == 0)
        out += "\\ ";
      else if (cp < 0x20 || cp >= 0x7F) {
        auto unit = [&](uint32_t u) {
          std::snprintf(hex, sizeof hex, "\\u%04X", u);
          out += hex;
        };
        if (cp >= 0x10000) {
          unit(0xD800 + ((cp - 0x10000) >> 10));
          unit(0xDC00 + ((cp - 0x10000) & 0x3FF));
        } else {
          unit(cp);
        }
      } else
        out.push_back(static_cast<char>(cp));
      i += n;
    }
    return out;
  };
  const std::string props = "# " + texts[1] + "\napp.title = " + texts[0] + "\nlogo.icon = " + texts[1] +
                            "\nlong = " + texts[1].substr(0, texts[1].find(' ')) + " \\\n    " +
                            texts[1].substr(texts[1].find(' ') + 1) + "\n";
  TranslateOptions po = o;
  po.format = TextFormat::kProperties;
  auto got = t->translate({props}, po);
  ASSERT_TRUE(got.has_value()) << got.status().to_string();
  auto is_ascii = [](const std::string& x) {
    return std::all_of(x.begin(), x.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  };
  // (a value the model gave nothing for stays as it was written)
  auto or_as_written = [&](size_t i, const std::string& escaped, const std::string& written) {
    return alone.value()[i].empty() ? written : escaped;
  };
  if (is_ascii(texts[0]) && is_ascii(texts[1])) {
    EXPECT_EQ(got.value()[0],
              "# " + texts[1] + "\napp.title = " + or_as_written(0, java(alone.value()[0]), texts[0]) +
                  "\nlogo.icon = " + texts[1] + "\nlong = " +
                  or_as_written(
                      1, java(alone.value()[1]),
                      props.substr(props.rfind("long = ") + 7, props.size() - props.rfind("long = ") - 8)) +
                  "\n")
        << c_->name;
  }
  // .strings: in its quotes, '"' and '\\' escaped, line breaks as \n.
  auto apple = [](const std::string& v) {
    std::string out;
    for (char c : v) {
      if (c == '"' || c == '\\') out.push_back('\\');
      if (c == '\n')
        out += "\\n";
      else if (c == '\t')
        out += "\\t";
      else
        out.push_back(c);
    }
    return out;
  };
  const std::string strings = "/* " + texts[1] + " */\n\"" + texts[0] + "\" = \"" + texts[0] +
                              "\";\n\"help.url\" = \"" + texts[1] + "\";\nsecond = \"" + texts[1] + "\";\n";
  TranslateOptions so = o;
  so.format = TextFormat::kStrings;
  auto got_s = t->translate({strings}, so);
  ASSERT_TRUE(got_s.has_value()) << got_s.status().to_string();
  EXPECT_EQ(got_s.value()[0], "/* " + texts[1] + " */\n\"" + texts[0] + "\" = \"" +
                                  or_as_written(0, apple(alone.value()[0]), texts[0]) +
                                  "\";\n\"help.url\" = \"" + texts[1] + "\";\nsecond = \"" +
                                  or_as_written(1, apple(alone.value()[1]), texts[1]) + "\";\n")
      << c_->name;
  auto bad = t->translate({"\"a\" = \"b\""}, so);
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.status().message().find(".strings line 1"), std::string::npos) << bad.status().message();
  // .resx: in its <value>, with XML's escapes; the designer's and other types' kept.
  const std::string resx = "<root>\n  <data name=\"A\" xml:space=\"preserve\"><value>" +
                           escape_xml(texts[0]) + "</value><comment>" + escape_xml(texts[1]) +
                           "</comment></data>\n  <data name=\"&gt;&gt;x\"><value>" + escape_xml(texts[1]) +
                           "</value></data>\n  <data name=\"B\"><value>" + escape_xml(texts[1]) +
                           "</value></data>\n</root>\n";
  TranslateOptions ro = o;
  ro.format = TextFormat::kResx;
  auto got_r = t->translate({resx}, ro);
  ASSERT_TRUE(got_r.has_value()) << got_r.status().to_string();
  EXPECT_EQ(got_r.value()[0],
            "<root>\n  <data name=\"A\" xml:space=\"preserve\"><value>" +
                escape_xml(or_as_written(0, alone.value()[0], texts[0])) + "</value><comment>" +
                escape_xml(texts[1]) + "</comment></data>\n  <data name=\"&gt;&gt;x\"><value>" +
                escape_xml(texts[1]) + "</value></data>\n  <data name=\"B\"><value>" +
                escape_xml(or_as_written(1, alone.value()[1], texts[1])) + "</value></data>\n</root>\n")
      << c_->name;
  // An Xcode String Catalog: the key (the source text) gets the target language's
  // localization, its value the text's translation with JSON's escapes.
  const std::string catalog = "{\n  \"sourceLanguage\" : \"zz\",\n  \"strings\" : {\n    \"" + texts[0] +
                              "\" : {\n\n    }\n  },\n  \"version\" : \"1.0\"\n}\n";
  TranslateOptions xo = o;
  xo.format = TextFormat::kXcstrings;
  auto got_x = t->translate({catalog}, xo);
  ASSERT_TRUE(got_x.has_value()) << got_x.status().to_string();
  const std::string target = t->model().target_language();
  if (target.empty() || alone.value()[0].empty()) {
    EXPECT_EQ(got_x.value()[0], catalog) << c_->name;
  } else {
    EXPECT_EQ(got_x.value()[0],
              "{\n  \"sourceLanguage\" : \"zz\",\n  \"strings\" : {\n    \"" + texts[0] +
                  "\" : {\n      \"localizations\" : {\n        \"" + target +
                  "\" : {\n          \"stringUnit\" : {\n            \"state\" : \"needs_review\",\n"
                  "            \"value\" : " +
                  json(alone.value()[0]).dump() +
                  "\n          }\n        }\n      }\n    }\n  },\n  \"version\" : \"1.0\"\n}\n")
        << c_->name;
  }
  // A .stringsdict plural rule: each category's string translated as that text alone is,
  // with XML's escapes; the target language's categories the rule lacks added after its
  // last, from "other"'s translation; the format key kept.
  auto sdict = [](const std::string& one, const std::string& other, const std::string& added) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>k</key>\n"
           "\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@n@</string>\n"
           "\t\t<key>n</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n"
           "\t\t\t<string>NSStringPluralRuleType</string>\n\t\t\t<key>one</key>\n\t\t\t<string>" +
           one + "</string>\n\t\t\t<key>other</key>\n\t\t\t<string>" + other + "</string>" + added +
           "\n\t\t</dict>\n\t</dict>\n</dict>\n</plist>\n";
  };
  TranslateOptions do_ = o;
  do_.format = TextFormat::kStringsdict;
  auto got_d = t->translate({sdict(escape_xml(texts[0]), escape_xml(texts[1]), "")}, do_);
  ASSERT_TRUE(got_d.has_value()) << got_d.status().to_string();
  const std::string other = escape_xml(or_as_written(1, alone.value()[1], texts[1]));
  std::string added;
  for (const uint8_t c : kPluralCategories)
    if ((plural_categories(target) & c) != 0 && c != kPluralOne && c != kPluralOther)
      added += "\n\t\t\t<key>" + std::string(plural_category_name(c)) + "</key>\n\t\t\t<string>" + other +
               "</string>";
  EXPECT_EQ(got_d.value()[0], sdict(escape_xml(or_as_written(0, alone.value()[0], texts[0])), other, added))
      << c_->name << " (target " << target << ")";
}

// XLIFF: each segment still to translate gets a target holding its source translated as
// that source's HTML fragment is (its inline code a span around the same words); a
// translated target is kept; n-best gives the same document.
TEST_P(Parity, XliffTargetsAreTheSourcesTranslatedAsHtml) {
  auto t = make_translator(model_, 4, 2, max_new_);
  ASSERT_NE(t, nullptr);
  const std::vector<std::string> texts = sentences_where(3, [](const std::string& s) {
    return s.find_first_of("\n\t") == std::string::npos && s.find(' ') != std::string::npos;
  });
  ASSERT_EQ(texts.size(), 3u) << c_->name;
  const TranslateOptions o = greedy_options();
  // The second source's first word in a paired code.
  const size_t space = texts[1].find(' ');
  const std::string first = escape_xml(texts[1].substr(0, space)), rest = escape_xml(texts[1].substr(space));
  const std::string doc =
      "<?xml version=\"1.0\"?>\n<xliff version=\"1.2\"><file source-language=\"x\"><body>\n"
      "<trans-unit id=\"a\"><source>" +
      escape_xml(texts[0]) +
      "</source></trans-unit>\n"
      "<trans-unit id=\"b\"><source><g id=\"1\">" +
      first + "</g>" + rest +
      "</source><target/></trans-unit>\n"
      "<trans-unit id=\"c\"><source>" +
      escape_xml(texts[2]) +
      "</source><target state=\"final\">kept</target></trans-unit>\n</body></file></xliff>\n";
  TranslateOptions html = o;
  html.format = TextFormat::kHtml;
  auto want =
      t->translate({escape_html(texts[0]), "<span id=\"e0\">" + escape_html(texts[1].substr(0, space)) +
                                               "</span>" + escape_html(texts[1].substr(space))},
                   html);
  ASSERT_TRUE(want.has_value());
  auto as_xml = [](std::string h) {
    std::string out;
    for (size_t at = 0; at < h.size();) {  // the span back to its code, text escaped for XML
      if (h.compare(at, 14, "<span id=\"e0\">") == 0) {
        out += "<g id=\"1\">";
        at += 14;
      } else if (h.compare(at, 7, "</span>") == 0) {
        out += "</g>";
        at += 7;
      } else {
        const size_t e = std::min(h.find('<', at + 1), h.size());
        out += escape_xml(decode_entities(h.substr(at, e - at)));
        at = e;
      }
    }
    return out;
  };
  TranslateOptions x = o;
  x.format = TextFormat::kXliff;
  auto got = t->translate({doc}, x);
  ASSERT_TRUE(got.has_value()) << got.status().to_string();
  const std::string mt = "state=\"needs-review-translation\" state-qualifier=\"mt-suggestion\">";
  const std::string lang =
      model_->target_language().empty() ? std::string() : " xml:lang=\"" + model_->target_language() + "\"";
  EXPECT_NE(got.value()[0].find("</source><target" + lang + " " + mt + as_xml(want.value()[0]) + "</target>"),
            std::string::npos)
      << c_->name << "\n"
      << got.value()[0];
  EXPECT_NE(got.value()[0].find("</source><target " + mt + as_xml(want.value()[1]) + "</target>"),
            std::string::npos)
      << c_->name << "\n"
      << got.value()[0];
  EXPECT_NE(got.value()[0].find("<target state=\"final\">kept</target>"), std::string::npos) << c_->name;
  auto got_n = t->translate_nbest({doc}, 2, x);
  ASSERT_TRUE(got_n.has_value());
  EXPECT_EQ(got_n.value()[0][0], got.value()[0]) << c_->name;
  auto bad = t->translate({"<xliff><file>"}, x);
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.status().message().find("not well-formed"), std::string::npos) << bad.status().message();
}

// Sentence splitting, the default of text calls: a text of several sentences with
// spacing, line breaks and a blank line comes back with each sentence translated as it
// is alone and everything around them kept byte for byte; n-best's first hypothesis is
// the same text. A sentence longer than the translator's source limit is cut at the
// point split_long_sentence picks and the halves are translated separately.
TEST_P(Parity, TextIsSplitIntoSentencesAndPutBack) {
  auto t = make_translator(model_, 4, 1, max_new_);
  ASSERT_NE(t, nullptr);
  auto splitter = SentenceSplitter::create(model_->source_language());
  ASSERT_TRUE(splitter.has_value());
  // Reference sentences that the splitter sees as one sentence each.
  std::vector<std::string> one;
  for (const json& j : c_->ref.at("sentences")) {
    const std::string s = j.get<std::string>();
    std::vector<TextSpan> spans;
    splitter.value()->split(s, &spans);
    if (s.size() > 1 && spans.size() == 1 && spans[0] == (TextSpan{0, s.size()}) &&
        (s.back() == '.' || s.back() == '?' || s.back() == '!'))
      one.push_back(s);
    if (one.size() == 3) break;
  }
  ASSERT_EQ(one.size(), 3u) << c_->name;
  TranslateOptions whole;
  whole.beam = 1;
  whole.max_length = max_new_;
  whole.split_sentences = false;
  auto alone = t->translate(one, whole);
  ASSERT_TRUE(alone.has_value()) << alone.status().to_string();
  const std::string text = "  " + one[0] + " " + one[1] + "\n\n" + one[2] + "\t";
  TranslateOptions split = whole;
  split.split_sentences.reset();
  auto got = t->translate({text, "", " \n "}, split);
  ASSERT_TRUE(got.has_value()) << got.status().to_string();
  const std::vector<std::string>& a = alone.value();
  EXPECT_EQ(got.value()[0], "  " + a[0] + " " + a[1] + "\n\n" + a[2] + "\t") << c_->name;
  EXPECT_EQ(got.value()[1], "");
  EXPECT_EQ(got.value()[2], " \n ");  // only spacing: kept, as the spacing around sentences is
  auto nbest = t->translate_nbest({text}, 2, split);
  ASSERT_TRUE(nbest.has_value()) << nbest.status().to_string();
  ASSERT_FALSE(nbest.value()[0].empty());
  EXPECT_EQ(nbest.value()[0][0], got.value()[0]);

  // The longest reference sentence with a space, translated with a source limit below its
  // length: its two halves (each within the limit) translated alone.
  std::string longest;
  size_t longest_tokens = 0;
  for (const json& j : c_->ref.at("sentences")) {
    const std::string s = j.get<std::string>();
    std::vector<int32_t> v;
    ASSERT_TRUE(model_->tokenizer().encode(s, &v).is_ok());
    if (v.size() > longest_tokens && s.find(' ') != std::string::npos) {
      longest = s;
      longest_tokens = v.size();
    }
  }
  TextSpan first, second;
  ASSERT_TRUE(split_long_sentence(longest, {0, longest.size()}, &first, &second));
  const std::vector<std::string> halves = {longest.substr(first.begin, first.size()),
                                           longest.substr(second.begin, second.size())};
  size_t half_tokens = 0;
  for (const std::string& h : halves) {
    std::vector<int32_t> v;
    ASSERT_TRUE(model_->tokenizer().encode(h, &v).is_ok());
    half_tokens = std::max(half_tokens, v.size());
  }
  ASSERT_LT(half_tokens, longest_tokens) << longest;
  TranslatorOptions lo;
  lo.max_batch = 4;
  lo.max_beam = 1;
  lo.max_target_length = max_new_;
  lo.max_source_length = static_cast<int>(half_tokens);
  auto limited = Translator::create(model_, lo);
  ASSERT_TRUE(limited.has_value()) << limited.status().to_string();
  auto halves_alone = limited.value()->translate(halves, whole);
  auto cut = limited.value()->translate({longest}, split);
  ASSERT_TRUE(halves_alone.has_value() && cut.has_value());
  EXPECT_EQ(cut.value()[0], halves_alone.value()[0] + longest.substr(first.end, second.begin - first.end) +
                                halves_alone.value()[1])
      << c_->name << ": " << longest;
}

// Protected spans reach the model as they are; a sentence whose translation lost,
// repeated or changed one is translated again with markers for them. Whatever the model
// does, each span comes out exactly once: in translate, in each n-best hypothesis and in
// translate_scored's. Where the model's own translation of the unprotected text keeps the
// spans, protection changes nothing.
TEST_P(Parity, ProtectedSpansComeOutOnce) {
  auto t = make_translator(model_, 4, 2, max_new_);
  ASSERT_NE(t, nullptr);
  const std::string s0 = c_->ref.at("sentences")[0].get<std::string>();
  const std::string s1 = c_->ref.at("sentences")[1].get<std::string>();
  const std::vector<std::string> texts = {s0 + " https://example.org/a?b=1", "%s " + s1 + " /usr/share/doc x",
                                          s0 + " (%s, %s)"};
  // Each text's spans and how often each stands in it.
  const std::vector<std::vector<std::pair<std::string, size_t>>> spans = {
      {{"https://example.org/a?b=1", 1}}, {{"%s", 1}, {"/usr/share/doc", 1}}, {{"%s", 2}}};
  auto count = [](const std::string& text, const std::string& s) {
    size_t n = 0;
    for (size_t at = text.find(s); at != std::string::npos; at = text.find(s, at + s.size())) ++n;
    return n;
  };
  auto once = [&](size_t i, const std::string& out, const char* call) {
    for (const auto& [sp, n] : spans[i])
      EXPECT_EQ(count(out, sp), n) << c_->name << " " << call << ": " << out;
  };
  for (bool split : {true, false}) {
    TranslateOptions o;
    o.beam = 2;
    o.max_length = max_new_;
    o.split_sentences = split;
    auto got = t->translate(texts, o);
    ASSERT_TRUE(got.has_value()) << got.status().to_string();
    auto nb = t->translate_nbest(texts, 2, o);
    ASSERT_TRUE(nb.has_value()) << nb.status().to_string();
    auto sc = t->translate_scored(texts, 2, o);
    ASSERT_TRUE(sc.has_value()) << sc.status().to_string();
    for (size_t i = 0; i < texts.size(); ++i) {
      once(i, got.value()[i], "translate");
      ASSERT_FALSE(nb.value()[i].empty());
      EXPECT_EQ(nb.value()[i][0], got.value()[i]) << c_->name;
      for (const std::string& h : nb.value()[i]) once(i, h, "translate_nbest");
      for (const ScoredTranslation& h : sc.value()[i].hypotheses) once(i, h.text, "translate_scored");
      EXPECT_EQ(sc.value()[i].hypotheses[0].text, got.value()[i]) << c_->name;
    }
    TranslateOptions plain = o;
    plain.protect_spans = false;
    plain.split_sentences = false;
    o.split_sentences = false;
    for (size_t i = 0; i < texts.size(); ++i) {
      auto bare = t->translate({texts[i]}, plain);
      auto prot = t->translate({texts[i]}, o);
      ASSERT_TRUE(bare.has_value() && prot.has_value());
      bool kept = true;
      for (const auto& [sp, n] : spans[i]) kept = kept && count(bare.value()[0], sp) == n;
      if (kept) {
        EXPECT_EQ(prot.value()[0], bare.value()[0]) << c_->name << ": " << texts[i];
      }
    }
  }
}

// A sentence written in capitals goes to the model recased (each word as the source
// vocabulary knows it best) and comes back in capitals, through every text call; without
// protection the model gets the capitals.
TEST_P(Parity, CapitalsAreRecasedAndComeBackInCapitals) {
  auto t = make_translator(model_, 4, 2, max_new_);
  ASSERT_NE(t, nullptr);
  const Tokenizer& tok = model_->tokenizer();
  auto lp = [&](std::string_view w) { return tok.source_log_prob(w); };
  size_t tried = 0;
  for (const json& j : c_->ref.at("sentences")) {
    const std::string caps = to_capitals(j.get<std::string>());
    if (!written_in_capitals(caps) || caps.find(">>") != std::string::npos) continue;
    if (++tried > 3) break;
    const std::string recased = recase_capitals(caps, lp);
    ASSERT_EQ(to_capitals(recased), caps);
    TranslateOptions o;
    o.beam = 2;
    o.max_length = max_new_;
    o.split_sentences = false;
    auto got = t->translate({caps, recased}, o);
    ASSERT_TRUE(got.has_value()) << got.status().to_string();
    EXPECT_EQ(got.value()[0], to_capitals(got.value()[1])) << c_->name << ": " << caps;
    auto nb = t->translate_nbest({caps}, 2, o);
    ASSERT_TRUE(nb.has_value());
    EXPECT_EQ(nb.value()[0][0], got.value()[0]) << c_->name;
    auto sc = t->translate_scored({caps}, 1, o);
    ASSERT_TRUE(sc.has_value());
    const ScoredTranslation& h = sc.value()[0].hypotheses[0];
    EXPECT_EQ(h.text, got.value()[0]) << c_->name;
    for (const ScoredTranslation::Word& w : h.words) {
      EXPECT_EQ(w.text, to_capitals(w.text)) << c_->name;
      EXPECT_GT(w.span.size(), 0u) << c_->name << ": [" << w.text << "] not found in " << h.text;
    }
    TranslateOptions plain = o;
    plain.protect_spans = false;
    plain.repetition_guard = false;
    auto raw = t->translate({caps}, plain);
    ASSERT_TRUE(raw.has_value());
    std::vector<std::vector<int32_t>> ids(1), out;
    ASSERT_TRUE(tok.encode(caps, &ids[0]).is_ok());
    ASSERT_TRUE(t->translate_ids(ids, &out, plain).is_ok());
    EXPECT_EQ(raw.value()[0], tok.decode(out[0])) << c_->name;
  }
  EXPECT_GT(tried, 0u) << c_->name << ": no sentence in capitals";
}

// translate_scored: a text's hypotheses are translate_nbest's texts; its sentences are
// the splitter's, each scored as translate_ids_nbest scores it alone (score, summed
// log-probabilities, confidence = exp(mean log-prob) in (0, 1]); the text's log-prob,
// tokens and words are its sentences' in order; the words are the translation's own
// words (joined with spaces they give its text, the models' outputs having single
// spaces). A blank text has no sentence and "" as translation; HTML is refused.
TEST_P(Parity, ScoredTranslationsAddUp) {
  auto t = make_translator(model_, 4, 4, max_new_);
  ASSERT_NE(t, nullptr);
  std::vector<std::string> one;
  for (const json& j : c_->ref.at("sentences")) {
    const std::string s = j.get<std::string>();
    if (s.size() > 1 && (s.back() == '.' || s.back() == '!' || s.back() == '?')) one.push_back(s);
    if (one.size() == 2) break;
  }
  ASSERT_EQ(one.size(), 2u) << c_->name;
  const std::string text = one[0] + " " + one[1];
  for (int beam : {1, 4}) {
    SCOPED_TRACE("beam " + std::to_string(beam));
    TranslateOptions to;
    to.beam = beam;
    to.max_length = max_new_;
    to.length_penalty = 1.0f;
    auto got = t->translate_scored({text, " "}, 3, to);
    ASSERT_TRUE(got.has_value()) << got.status().to_string();
    ASSERT_EQ(got.value().size(), 2u);
    auto nbest = t->translate_nbest({text}, 3, to);
    ASSERT_TRUE(nbest.has_value());
    const ScoredText& st = got.value()[0];
    ASSERT_EQ(st.hypotheses.size(), nbest.value()[0].size()) << c_->name;
    for (size_t h = 0; h < st.hypotheses.size(); ++h)
      EXPECT_EQ(st.hypotheses[h].text, nbest.value()[0][h]) << c_->name << " hypothesis " << h;
    ASSERT_EQ(st.sentences.size(), 2u) << c_->name;
    double lp = 0.0, score = 0.0;
    size_t tokens = 0;
    std::vector<std::string> words;
    // Each sentence's tokens, its best translation's and their alignment (below).
    std::vector<std::vector<int32_t>> sentence_ids(2), best_ids(2), best_alignment(2);
    for (size_t k = 0; k < 2; ++k) {
      const ScoredSentence& sen = st.sentences[k];
      EXPECT_EQ(sen.source, one[k]);
      std::vector<int32_t> ids;
      ASSERT_TRUE(model_->tokenizer().encode(one[k], &ids).is_ok());
      std::vector<std::span<const int32_t>> in = {ids};
      std::vector<std::vector<std::vector<int32_t>>> hyps;
      std::vector<std::vector<float>> scores;
      std::vector<std::vector<std::vector<float>>> lps;
      std::vector<std::vector<std::vector<int32_t>>> aligns;
      TranslateOptions ids_to = to;
      ids_to.repetition_guard = true;  // as the text calls
      ASSERT_TRUE(t->translate_ids_nbest(in, 3, &hyps, ids_to, &scores, &lps, &aligns).is_ok());
      ASSERT_EQ(sen.hypotheses.size(), hyps[0].size()) << c_->name << " sentence " << k;
      sentence_ids[k] = ids;
      best_ids[k] = hyps[0][0];
      best_alignment[k] = aligns[0][0];
      // Source words: the sentence's words, as its bytes.
      std::string src_joined;
      for (const TextSpan& w : sen.source_words) {
        ASSERT_LE(w.end, sen.source.size());
        ASSERT_GT(w.size(), 0u);
        if (!src_joined.empty()) src_joined += ' ';
        src_joined += sen.source.substr(w.begin, w.size());
      }
      std::string src_spaced;
      for (char ch : sen.source)
        if (!(ch == ' ' && (src_spaced.empty() || src_spaced.back() == ' '))) src_spaced += ch;
      EXPECT_EQ(src_joined, src_spaced) << c_->name << " sentence " << k;
      for (size_t h = 0; h < hyps[0].size(); ++h) {
        const ScoredTranslation& x = sen.hypotheses[h];
        EXPECT_EQ(x.text, model_->tokenizer().decode(hyps[0][h]));
        EXPECT_FLOAT_EQ(x.score, scores[0][h]);
        EXPECT_EQ(x.tokens, lps[0][h].size());
        double sum = 0.0;
        for (float v : lps[0][h]) sum += v;
        EXPECT_NEAR(x.log_prob, sum, 1e-4);
        EXPECT_NEAR(x.confidence, std::exp(sum / static_cast<double>(x.tokens)), 1e-5);
        EXPECT_GT(x.confidence, 0.0f);
        EXPECT_LE(x.confidence, 1.0f);
        // Token alignments: a source position that is not eos, one per log-probability.
        ASSERT_EQ(aligns[0][h].size(), lps[0][h].size());
        for (int32_t a : aligns[0][h]) EXPECT_TRUE(a >= 0 && static_cast<size_t>(a) + 1 < ids.size()) << a;
        std::string joined;
        size_t aligned = 0, after = 0;
        for (const ScoredTranslation::Word& w : x.words) {
          EXPECT_GT(w.confidence, 0.0f);
          EXPECT_LE(w.confidence, 1.0f);
          EXPECT_FALSE(w.text.empty());
          joined += (joined.empty() ? "" : " ") + w.text;
          // Where it stands in the translation, in order; the source word it renders.
          EXPECT_GE(w.span.begin, after);
          EXPECT_EQ(x.text.substr(w.span.begin, w.span.size()), w.text);
          after = w.span.end;
          EXPECT_TRUE(w.source >= -1 && w.source < static_cast<int>(sen.source_words.size())) << w.source;
          aligned += w.source >= 0;
        }
        EXPECT_EQ(aligned, x.words.size()) << c_->name << ": every word has a source token";
        std::string spaced;  // the translation with runs of spaces as one
        for (char ch : x.text)
          if (!(ch == ' ' && (spaced.empty() || spaced.back() == ' '))) spaced += ch;
        while (!spaced.empty() && spaced.back() == ' ') spaced.pop_back();
        EXPECT_EQ(joined, spaced) << c_->name << " sentence " << k << " hypothesis " << h;
      }
      lp += sen.hypotheses[0].log_prob;
      score += sen.hypotheses[0].score;
      tokens += sen.hypotheses[0].tokens;
      for (const ScoredTranslation::Word& w : sen.hypotheses[0].words) words.push_back(w.text);
    }
    const ScoredTranslation& best = st.hypotheses[0];
    EXPECT_NEAR(best.log_prob, lp, 1e-3);
    EXPECT_NEAR(best.score, score, 1e-4);
    EXPECT_EQ(best.tokens, tokens);
    EXPECT_NEAR(best.confidence, std::exp(lp / static_cast<double>(tokens)), 1e-5);
    ASSERT_EQ(best.words.size(), words.size());
    for (size_t w = 0; w < words.size(); ++w) EXPECT_EQ(best.words[w].text, words[w]);
    // The text's words point at the text's source words: the same words as their
    // sentence's, at the sentence's place in the text.
    ASSERT_EQ(st.source_words.size(),
              st.sentences[0].source_words.size() + st.sentences[1].source_words.size());
    size_t w = 0;
    for (size_t k = 0; k < 2; ++k) {
      const ScoredSentence& sen = st.sentences[k];
      for (const ScoredTranslation::Word& sw : sen.hypotheses[0].words) {
        const ScoredTranslation::Word& tw = best.words[w++];
        ASSERT_GE(tw.source, 0);
        ASSERT_GE(sw.source, 0);
        const TextSpan a = st.source_words[static_cast<size_t>(tw.source)];
        const TextSpan b = sen.source_words[static_cast<size_t>(sw.source)];
        EXPECT_EQ(text.substr(a.begin, a.size()), sen.source.substr(b.begin, b.size()));
        EXPECT_EQ(best.text.substr(tw.span.begin, tw.span.size()), tw.text);
      }
    }
    // append_aligned_sentence (HTML inline runs, Translator and server) assembles the
    // same text and word pairs from each sentence's ids and alignment, the bytes between
    // sentences appended by the caller.
    AlignedText assembled;
    std::vector<std::string> translations(2);
    for (size_t k = 0; k < 2; ++k) {
      if (k == 1) assembled.text += " ";
      translations[k] = model_->tokenizer().decode(best_ids[k]);
      AlignedSentence as;
      as.sentence = one[k];
      as.source_at = k == 0 ? 0 : one[0].size() + 1;
      as.source_ids = sentence_ids[k];
      as.translation = translations[k];
      as.target_ids = best_ids[k];
      as.alignment = best_alignment[k];
      append_aligned_sentence(model_->tokenizer(), as, &assembled);
    }
    EXPECT_EQ(assembled.text, best.text);
    std::vector<std::pair<TextSpan, TextSpan>> want_pairs, got_pairs;
    for (const ScoredTranslation::Word& tw : best.words)
      if (tw.source >= 0 && tw.span.size() > 0)
        want_pairs.push_back({tw.span, st.source_words[static_cast<size_t>(tw.source)]});
    for (const AlignedText::Word& aw : assembled.words) got_pairs.push_back({aw.target, aw.source});
    ASSERT_EQ(got_pairs.size(), want_pairs.size()) << c_->name;
    for (size_t i = 0; i < want_pairs.size(); ++i) {
      EXPECT_EQ(got_pairs[i].first.begin, want_pairs[i].first.begin) << c_->name << " word " << i;
      EXPECT_EQ(got_pairs[i].first.end, want_pairs[i].first.end) << c_->name << " word " << i;
      EXPECT_EQ(got_pairs[i].second.begin, want_pairs[i].second.begin) << c_->name << " word " << i;
      EXPECT_EQ(got_pairs[i].second.end, want_pairs[i].second.end) << c_->name << " word " << i;
    }
    const ScoredText& blank = got.value()[1];
    EXPECT_TRUE(blank.sentences.empty());
    ASSERT_EQ(blank.hypotheses.size(), 1u);
    EXPECT_EQ(blank.hypotheses[0].text, "");
  }
  TranslateOptions html;
  html.format = TextFormat::kHtml;
  EXPECT_FALSE(t->translate_scored({"<p>x</p>"}, 1, html).has_value());
}

// Top-k sampling: reproducible per sentence (the same seed gives the same outputs in
// one batch, one by one and with 2 threads), varied across seeds, never a banned token
// (the logits processors apply) nor an impossible one (every drawn token has a finite
// log-probability); at a tiny temperature it is greedy search. Bad settings are errors.
TEST_P(Parity, SamplingIsSeededPerSentence) {
  auto batched = make_translator(model_, 8, 1, max_new_);
  auto alone = make_translator(model_, 1, 1, max_new_);
  TranslatorOptions two;
  two.max_batch = 8;
  two.max_beam = 1;
  two.max_target_length = max_new_;
  two.num_threads = 2;
  auto threaded = Translator::create(model_, two);
  ASSERT_TRUE(batched && alone && threaded.has_value());
  TranslateOptions greedy;
  greedy.max_length = max_new_;
  greedy.beam = 1;
  TranslateOptions o = greedy;
  o.beam.reset();  // sampling makes it 1
  o.sampling_topk = 50;
  o.sampling_temperature = 1.5f;
  std::vector<std::vector<std::vector<int32_t>>> by_seed;
  for (uint64_t seed : {1u, 2u, 3u}) {
    o.seed = seed;
    std::vector<std::vector<int32_t>> a, b, c(src_.size());
    ASSERT_TRUE(batched->translate_ids(src_, &a, o).is_ok());
    ASSERT_TRUE(threaded.value()->translate_ids(src_, &b, o).is_ok());
    for (size_t i = 0; i < src_.size(); ++i) {
      std::vector<std::vector<int32_t>> one;
      ASSERT_TRUE(alone->translate_ids({src_[i]}, &one, o).is_ok());
      c[i] = one[0];
    }
    for (size_t i = 0; i < src_.size(); ++i) {
      EXPECT_EQ(join(a[i]), join(b[i]))
          << c_->name << " seed " << seed << " sentence " << i << " (2 threads)";
      EXPECT_EQ(join(a[i]), join(c[i])) << c_->name << " seed " << seed << " sentence " << i << " (alone)";
      for (int32_t id : a[i])
        for (int32_t banned : model_->generation().banned_ids)
          EXPECT_NE(id, banned) << c_->name << " sentence " << i;
    }
    std::vector<std::vector<std::vector<int32_t>>> hyps;
    std::vector<std::vector<float>> scores;
    std::vector<std::vector<std::vector<float>>> lps;
    std::vector<std::span<const int32_t>> in(src_.begin(), src_.end());
    ASSERT_TRUE(batched->translate_ids_nbest(in, 1, &hyps, o, &scores, &lps).is_ok());
    for (size_t i = 0; i < src_.size(); ++i) {
      EXPECT_EQ(join(hyps[i][0]), join(a[i])) << c_->name << " sentence " << i;
      for (float x : lps[i][0]) EXPECT_TRUE(std::isfinite(x) && x <= 0.0f) << c_->name << " sentence " << i;
    }
    by_seed.push_back(a);
  }
  size_t differ = 0;
  for (size_t i = 0; i < src_.size(); ++i)
    differ += join(by_seed[0][i]) != join(by_seed[1][i]) || join(by_seed[0][i]) != join(by_seed[2][i]);
  EXPECT_GT(differ, 0u) << c_->name << ": three seeds gave the same samples for every sentence";
  // A temperature near 0 puts all the weight on the most likely token.
  o.sampling_temperature = 1e-4f;
  std::vector<std::vector<int32_t>> cold, want;
  ASSERT_TRUE(batched->translate_ids(src_, &cold, o).is_ok());
  ASSERT_TRUE(batched->translate_ids(src_, &want, greedy).is_ok());
  for (size_t i = 0; i < src_.size(); ++i)
    EXPECT_EQ(join(cold[i]), join(want[i])) << c_->name << " sentence " << i;
  // Errors.
  std::vector<std::vector<int32_t>> out;
  TranslateOptions bad = o;
  bad.beam = 2;
  auto wide = make_translator(model_, 2, 2, max_new_);
  EXPECT_FALSE(wide->translate_ids(src_, &out, bad).is_ok());
  bad = o;
  bad.sampling_temperature = 0.0f;
  EXPECT_FALSE(batched->translate_ids(src_, &out, bad).is_ok());
  bad = o;
  bad.sampling_topk = kMaxSamplingTopK + 1;
  EXPECT_FALSE(batched->translate_ids(src_, &out, bad).is_ok());
}

TEST(RepetitionGuard, LoopsAreBackToBackRepeats) {
  auto loops = [](std::vector<int32_t> h) { return SearchState::loops(h.data(), h.size()); };
  EXPECT_FALSE(loops({}));
  EXPECT_FALSE(loops({7, 7, 7, 7, 7, 7, 7}));    // a token 7 times
  EXPECT_TRUE(loops({7, 7, 7, 7, 7, 7, 7, 7}));  // 8 times
  EXPECT_TRUE(loops({1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7, 7, 7}));
  EXPECT_FALSE(loops({1, 2, 1, 2, 1, 2}));                    // a bigram 3 times
  EXPECT_TRUE(loops({9, 1, 2, 1, 2, 1, 2, 1, 2}));            // 4 times
  EXPECT_FALSE(loops({1, 2, 1, 2, 1, 2, 1, 2, 3}));           // the loop is not at the end
  EXPECT_FALSE(loops({1, 2, 3, 1, 2, 3, 1, 2, 4, 1, 2, 3}));  // broken inside
  std::vector<int32_t> long_gram;
  for (int c = 0; c < 4; ++c)
    for (int k = 0; k < 16; ++k) long_gram.push_back(100 + k);
  EXPECT_TRUE(loops(long_gram));  // 16 tokens 4 times
  std::vector<int32_t> too_long;
  for (int c = 0; c < 4; ++c)
    for (int k = 0; k < 17; ++k) too_long.push_back(100 + k);
  EXPECT_FALSE(loops(too_long));  // 17 tokens: longer than the guard looks
  std::vector<int32_t> counting;
  for (int k = 0; k < 200; ++k) counting.push_back(k);
  EXPECT_FALSE(loops(counting));
}

// The repetition guard: greedy gives transformers' output cut where its tail first is a
// loop (SearchState::loops: the guard makes eos the only choice there), and nothing else;
// no beam hypothesis continues past a loop. The random models loop in many sentences.
TEST_P(Parity, RepetitionGuardEndsLoops) {
  const auto greedy = ids_of(c_->ref.at("greedy"));
  auto t = make_translator(model_, 8, 4, max_new_);
  ASSERT_NE(t, nullptr);
  const std::vector<std::span<const int32_t>> views(src_.begin(), src_.end());
  TranslateOptions o;
  o.max_length = max_new_;
  o.repetition_guard = true;
  o.beam = 1;
  std::vector<std::vector<int32_t>> out(src_.size());
  ASSERT_TRUE(t->translate_ids(views, out, o).is_ok());
  size_t cut = 0;
  for (size_t i = 0; i < src_.size(); ++i) {
    std::vector<int32_t> want = greedy[i];
    for (size_t n = 0; n < want.size(); ++n) {
      if (SearchState::loops(want.data(), n)) {
        want.resize(n);
        ++cut;
        break;
      }
    }
    EXPECT_EQ(join(out[i]), join(want)) << c_->name << " greedy, sentence " << i;
  }
  RecordProperty("sentences_cut", std::to_string(cut));
  o.beam = 4;
  std::vector<std::vector<std::vector<int32_t>>> nbest;
  ASSERT_TRUE(t->translate_ids_nbest(views, 4, &nbest, o).is_ok());
  for (size_t i = 0; i < src_.size(); ++i)
    for (const std::vector<int32_t>& h : nbest[i])
      for (size_t n = 0; n < h.size(); ++n)
        EXPECT_FALSE(SearchState::loops(h.data(), n))
            << c_->name << " beam, sentence " << i << ": a token after a loop";
}

// A source-relative length limit (max_length_factor/offset) is each sentence's own: in a
// batch, every sentence gives what it gives searched alone with max_new_tokens equal to
// its limit (transformers' semantics for that limit, forced eos included), greedy and
// beam 4. The limit binds for some sentences (the random models mostly run to 40 tokens).
TEST_P(Parity, SourceRelativeLengthLimitIsPerSentence) {
  const size_t n = src_.size();
  for (int beam : {1, 4}) {
    auto batched = engine(nullptr, 1, static_cast<int>(n), beam);
    auto alone = engine(nullptr, 1, 1, beam);
    ASSERT_TRUE(batched && alone);
    const std::vector<std::vector<int32_t>> unlimited = run(*batched, 0, n, beam);
    // A factor that halves the longest output (so the limit binds at least there).
    size_t longest = 0;
    for (size_t i = 1; i < n; ++i)
      if (unlimited[i].size() > unlimited[longest].size()) longest = i;
    ASSERT_GE(unlimited[longest].size(), 2u);
    const float factor = static_cast<float>(static_cast<double>(unlimited[longest].size()) / 2.0 /
                                            static_cast<double>(src_[longest].size()));
    std::vector<std::span<const int32_t>> in(src_.begin(), src_.end()), out(n);
    SearchParams p;
    p.beam = beam;
    p.max_new_tokens = max_new_;
    p.length_penalty = 1.0f;
    p.early_stopping = EarlyStopping::kTrue;
    p.max_length_factor = factor;
    p.max_length_offset = 1;
    ASSERT_TRUE(batched->run(in, p, out).is_ok());
    std::vector<std::vector<int32_t>> limited;  // copied: the views last until the next run
    for (const auto& o : out) limited.emplace_back(o.begin(), o.end());
    size_t shorter = 0;
    for (size_t i = 0; i < n; ++i) {
      const int lim = std::min(
          max_new_,
          static_cast<int>(std::ceil(static_cast<double>(factor) * static_cast<double>(src_[i].size()))) + 1);
      // Searched alone with that limit and no factor.
      SearchParams q = p;
      q.max_length_factor = 0.0f;
      q.max_new_tokens = lim;
      std::span<const int32_t> one_in = src_[i], one_out;
      ASSERT_TRUE(alone->run(std::span(&one_in, 1), q, std::span(&one_out, 1)).is_ok());
      EXPECT_EQ(join(limited[i]), join(std::vector<int32_t>(one_out.begin(), one_out.end())))
          << c_->name << " beam " << beam << " sentence " << i << " limit " << lim;
      EXPECT_LT(limited[i].size(), static_cast<size_t>(lim)) << "the limit counts the eos";
      shorter += limited[i] != unlimited[i];
    }
    EXPECT_GT(shorter, 0u) << c_->name << " beam " << beam << ": the limit never bound";
  }
}

// translate_ids_nbest (beam 4, 4 hypotheses) against generate(num_beams=4,
// num_return_sequences=4): every finished hypothesis, in order; the first is translate_ids'.
// Batched (7 sentences), as the ids must not depend on the batch.
// Per-token log-probabilities (translate_ids_nbest's token_logprobs): the first token's
// is log_softmax of transformers' first-step logits at that token (computed here from
// the reference, in double); every hypothesis' sum over its tokens, divided by
// length^length_penalty, is the score the search ranked it by, which is generate()'s
// sequences_scores for the best (BeamNbestMatchesTransformersNumReturnSequences).
TEST_P(Parity, TokenLogprobsAreTransformersLogSoftmax) {
  const json& logits = c_->ref.at("first_step_logits");
  auto t = make_translator(model_, 7, 4, max_new_);
  ASSERT_NE(t, nullptr);
  for (int beam : {1, 4}) {
    SCOPED_TRACE("beam " + std::to_string(beam));
    Nbest n;
    const Status st = nbest_with_logprobs(*t, beam, &n);
    ASSERT_TRUE(st.is_ok()) << st.to_string();
    const auto& [nbest, scores, lps] = n;
    ASSERT_EQ(lps.size(), src_.size());
    for (size_t i = 0; i < src_.size(); ++i) {
      ASSERT_EQ(lps[i].size(), nbest[i].size()) << c_->name << " sentence " << i;
      for (size_t j = 0; j < nbest[i].size(); ++j) {
        const std::vector<float>& l = lps[i][j];
        // Its ids and the final eos (or, at the length limit, no eos).
        ASSERT_TRUE(l.size() == nbest[i][j].size() + 1 || l.size() == nbest[i][j].size())
            << c_->name << " sentence " << i << " hypothesis " << j << ": " << l.size() << " log-probs for "
            << nbest[i][j].size() << " ids";
        double sum = 0.0;
        for (float x : l) {
          EXPECT_LE(x, 0.0f);
          sum += x;
        }
        const double score = sum / static_cast<double>(l.size());
        EXPECT_NEAR(score, scores[i][j], 1e-5 + 1e-5 * std::fabs(score))
            << c_->name << " sentence " << i << " hypothesis " << j;
      }
      if (i >= logits.size() || nbest[i][0].empty()) continue;
      const json& row = logits[i];
      double mx = -1e30;
      for (const json& v : row) mx = std::max(mx, v.get<double>());
      double z = 0.0;
      for (const json& v : row) z += std::exp(v.get<double>() - mx);
      const double want = row[static_cast<size_t>(nbest[i][0][0])].get<double>() - mx - std::log(z);
      EXPECT_NEAR(lps[i][0][0], want, 2e-4) << c_->name << " sentence " << i;
    }
  }
}

// Scoring (forced decoding) a hypothesis the search found gives the log-probabilities the
// search added for it (each checked against transformers' log-softmax above), in any batch;
// text pairs score as their tokens; bad pairs are errors.
TEST_P(Parity, ScoringGivesTheSearchsLogprobs) {
  auto t = make_translator(model_, 3, 4, max_new_);
  ASSERT_NE(t, nullptr);
  std::vector<std::span<const int32_t>> in(src_.begin(), src_.end());
  for (int beam : {1, 4}) {
    SCOPED_TRACE("beam " + std::to_string(beam));
    Nbest n;
    ASSERT_TRUE(nbest_with_logprobs(*t, beam, &n).is_ok());
    const auto& [nbest, scores, lps] = n;
    std::vector<std::span<const int32_t>> srcs, tgts;
    std::vector<const std::vector<float>*> want;
    for (size_t i = 0; i < src_.size(); ++i)
      for (size_t j = 0; j < nbest[i].size(); ++j) {
        if (lps[i][j].size() != nbest[i][j].size() + 1) continue;  // cut at the length limit
        // Every other source without its eos (score_ids appends it).
        srcs.push_back(i % 2 == 0 ? in[i] : in[i].first(in[i].size() - 1));
        tgts.push_back(nbest[i][j]);
        want.push_back(&lps[i][j]);
      }
    ASSERT_FALSE(srcs.empty()) << c_->name;
    std::vector<std::vector<float>> got;
    const Status st = t->score_ids(srcs, tgts, &got);
    ASSERT_TRUE(st.is_ok()) << st.to_string();
    ASSERT_EQ(got.size(), srcs.size());
    for (size_t k = 0; k < got.size(); ++k) {
      ASSERT_EQ(got[k].size(), want[k]->size()) << c_->name << " pair " << k;
      // An eos the length limit forced has the search's value after the processors (0),
      // not the model's: all but that one.
      const size_t n = got[k].size() - (got[k].size() >= static_cast<size_t>(max_new_) ? 1 : 0);
      for (size_t x = 0; x < n; ++x)
        EXPECT_NEAR(got[k][x], (*want[k])[x], 1e-3 + 1e-4 * std::fabs((*want[k])[x]))
            << c_->name << " pair " << k << " token " << x;
    }
  }
  // An empty target scores its eos alone; a target past the limit, an id outside the
  // vocabulary or mismatched lists are errors.
  std::vector<int32_t> none, bad = {static_cast<int32_t>(model_->config().target_vocab_size)};
  std::vector<int32_t> too_long(static_cast<size_t>(t->limits().max_target_length), 0);
  std::vector<std::vector<float>> got;
  std::vector<std::span<const int32_t>> one_src = {in[0]}, one_tgt = {none};
  ASSERT_TRUE(t->score_ids(one_src, one_tgt, &got).is_ok());
  ASSERT_EQ(got.size(), 1u);
  ASSERT_EQ(got[0].size(), 1u);
  EXPECT_LE(got[0][0], 0.0f);
  one_tgt = {bad};
  EXPECT_FALSE(t->score_ids(one_src, one_tgt, &got).is_ok());
  one_tgt = {too_long};
  EXPECT_FALSE(t->score_ids(one_src, one_tgt, &got).is_ok());
  EXPECT_FALSE(t->score_ids(one_src, {}, &got).is_ok());
  // Text: the target's tokens plus eos, each a log-probability.
  const std::string source = c_->ref.at("sentences")[0].get<std::string>();
  // A few words of it (a random model's whole output may tokenize past the limit).
  std::vector<std::vector<int32_t>> outs;
  ASSERT_TRUE(t->translate_ids({src_[0]}, &outs).is_ok());
  const std::vector<int32_t>& out = outs[0];
  const std::string target =
      model_->tokenizer().decode(std::span(out).first(std::min<size_t>(out.size(), 6)));
  auto scored = t->score({source, source}, {target, ""});
  ASSERT_TRUE(scored.has_value()) << scored.status().to_string();
  std::vector<int32_t> ids;
  ASSERT_TRUE(model_->tokenizer().encode_target(target, &ids).is_ok());
  ASSERT_EQ(scored.value()[0].size(), ids.size() + 1) << c_->name;
  for (float x : scored.value()[0]) EXPECT_TRUE(x <= 0.0f && std::isfinite(x)) << c_->name;
  EXPECT_EQ(scored.value()[1].size(), 1u);
  EXPECT_FALSE(t->score({source}, {}).has_value());
}

TEST_P(Parity, BeamNbestMatchesTransformersNumReturnSequences) {
  ASSERT_TRUE(c_->ref.contains("beam4_nbest"))
      << "run tools/parity/make_parity_models.py --add-nbest to add beam4_nbest";
  const json& want = c_->ref.at("beam4_nbest");
  ASSERT_EQ(want.size(), src_.size());
  auto t = make_translator(model_, 7, 4, max_new_);
  ASSERT_NE(t, nullptr);
  TranslateOptions to;
  to.beam = 4;
  to.max_length = max_new_;
  to.length_penalty = 1.0f;
  to.early_stopping = EarlyStopping::kTrue;
  std::vector<std::span<const int32_t>> in(src_.begin(), src_.end());
  std::vector<std::vector<std::vector<int32_t>>> nbest;
  std::vector<std::vector<float>> scores;
  const Status st = t->translate_ids_nbest(in, 4, &nbest, to, &scores);
  ASSERT_TRUE(st.is_ok()) << st.to_string();
  ASSERT_EQ(nbest.size(), src_.size());
  ASSERT_EQ(scores.size(), src_.size());
  // The best hypothesis' score is generate()'s sequences_scores (sum of log-probs /
  // length^length_penalty).
  const json& want_score = c_->ref.at("beam4_score");
  for (size_t i = 0; i < src_.size(); ++i) {
    ASSERT_EQ(scores[i].size(), nbest[i].size()) << c_->name << " sentence " << i;
    const float w = want_score.at(i).get<float>();
    EXPECT_NEAR(scores[i][0], w, 1e-4f + 1e-4f * std::fabs(w)) << c_->name << " sentence " << i;
    for (size_t j = 1; j < scores[i].size(); ++j) EXPECT_LE(scores[i][j], scores[i][j - 1]) << "best first";
  }
  std::vector<std::vector<int32_t>> best;
  ASSERT_TRUE(t->translate_ids(src_, &best, to).is_ok());
  ASSERT_EQ(best.size(), src_.size());
  for (size_t i = 0; i < src_.size(); ++i) {
    const auto hyps = ids_of(want[i]);
    ASSERT_EQ(hyps.size(), 4u) << c_->name << " sentence " << i;
    EXPECT_EQ(nbest[i].size(), hyps.size()) << c_->name << " sentence " << i;
    for (size_t j = 0; j < std::min(nbest[i].size(), hyps.size()); ++j)
      EXPECT_EQ(join(nbest[i][j]), join(hyps[j])) << c_->name << " sentence " << i << " hypothesis " << j;
    ASSERT_FALSE(nbest[i].empty()) << c_->name << " sentence " << i;
    EXPECT_EQ(join(nbest[i][0]), join(best[i]))
        << c_->name << " sentence " << i << ": n-best 0 vs translate_ids";
  }
  // The engine's hypotheses under every ISA (the Translator above runs the active one).
  for (ops::Isa isa : runnable_isas()) {
    SCOPED_TRACE(std::string("isa ") + ops::isa_name(isa));
    auto e = engine(ops::kernels_for(isa), 1, 7, 4);
    ASSERT_NE(e, nullptr);
    for (size_t b = 0; b < src_.size(); b += 7) {
      const size_t end = std::min(src_.size(), b + 7);
      run(*e, b, end, 4);
      for (size_t i = b; i < end; ++i) {
        const auto hyps = ids_of(want[i]);
        ASSERT_EQ(e->hypothesis_count(i - b), hyps.size()) << c_->name << " sentence " << i;
        for (size_t j = 0; j < hyps.size(); ++j) {
          const std::span<const int32_t> h = e->hypothesis(i - b, j);
          EXPECT_EQ(join(std::vector<int32_t>(h.begin(), h.end())), join(hyps[j]))
              << c_->name << " sentence " << i << " hypothesis " << j;
        }
      }
    }
  }
}

// Alignments: each greedy token's source position is where the layer's cross-attention
// (heads averaged, eos aside) peaks in transformers' output_attentions, under every ISA,
// batched and threaded; tokens whose two largest weights are within 1e-4 are skipped.
// Beam search's hypotheses carry the same alignment as greedy's wherever their prefix is
// greedy's (attention depends on the prefix only), which checks the beams' bookkeeping.
// A sequence repeated in one call (and a chunk of a long sequence equal to another) is
// translated once: each gets the n-best, scores, token log-probabilities and alignments
// it gets alone, the long sequence's second chunk with alignments moved to its start;
// the engine runs once per distinct chunk (batch 1: one encoder embedding per run).
TEST_P(Parity, RepeatedSequencesAreTranslatedOnce) {
  ASSERT_GE(src_.size(), 2u);
  // b the longest source, a the shortest (so a fits in one chunk of b's length).
  const auto [shortest, longest] = std::minmax_element(
      src_.begin(), src_.end(), [](const auto& x, const auto& y) { return x.size() < y.size(); });
  const std::vector<int32_t>& a = *shortest;
  const std::vector<int32_t>& b = *longest;
  ASSERT_NE(a, b);
  // b's tokens twice, then eos: two chunks equal to b when chunks hold b's length.
  std::vector<int32_t> bb(b.begin(), b.end() - 1);
  bb.insert(bb.end(), b.begin(), b.end());
  TranslatorOptions o;
  o.max_batch = 1;
  o.max_beam = 4;
  o.max_source_length = static_cast<int>(b.size());
  auto tr = Translator::create(model_, o);
  ASSERT_TRUE(tr.has_value()) << tr.status().to_string();
  Translator& t = *tr.value();
  TranslateOptions to;
  to.beam = 4;
  to.max_length = max_new_;
  struct Out {
    std::vector<std::vector<std::vector<int32_t>>> ids, aligns;
    std::vector<std::vector<float>> scores;
    std::vector<std::vector<std::vector<float>>> lps;
  };
  auto run = [&](const std::vector<std::vector<int32_t>>& seqs, Out* out) {
    const std::vector<std::span<const int32_t>> in(seqs.begin(), seqs.end());
    return t.translate_ids_nbest(in, 3, &out->ids, to, &out->scores, &out->lps, &out->aligns);
  };
  Out alone_a, alone_b, all;
  ASSERT_TRUE(run({a}, &alone_a).is_ok());
  ASSERT_TRUE(run({b}, &alone_b).is_ok());
  t.profiler().reset();
  t.profiler().set_enabled(true);
  ASSERT_TRUE(run({a, b, a, bb, a}, &all).is_ok());
  t.profiler().set_enabled(false);
  EXPECT_EQ(t.profiler().calls(ProfOp::kEncEmbed), 2u) << c_->name << ": one run per distinct chunk";
  const std::vector<const Out*> want = {&alone_a, &alone_b, &alone_a, nullptr, &alone_a};
  for (size_t i = 0; i < want.size(); ++i) {
    if (want[i] == nullptr) continue;
    EXPECT_EQ(all.ids[i], want[i]->ids[0]) << c_->name << " sequence " << i;
    EXPECT_EQ(all.scores[i], want[i]->scores[0]) << c_->name << " sequence " << i;
    EXPECT_EQ(all.lps[i], want[i]->lps[0]) << c_->name << " sequence " << i;
    EXPECT_EQ(all.aligns[i], want[i]->aligns[0]) << c_->name << " sequence " << i;
  }
  // The long sequence: each hypothesis is b's twice, the second's alignments shifted.
  const int32_t shift = static_cast<int32_t>(b.size()) - 1;
  ASSERT_EQ(all.ids[3].size(), alone_b.ids[0].size());
  for (size_t j = 0; j < alone_b.ids[0].size(); ++j) {
    std::vector<int32_t> ids = alone_b.ids[0][j], al = alone_b.aligns[0][j];
    ids.insert(ids.end(), alone_b.ids[0][j].begin(), alone_b.ids[0][j].end());
    for (int32_t x : alone_b.aligns[0][j]) al.push_back(x < 0 ? x : x + shift);
    EXPECT_EQ(all.ids[3][j], ids) << c_->name << " hypothesis " << j;
    EXPECT_EQ(all.aligns[3][j], al) << c_->name << " hypothesis " << j;
    EXPECT_FLOAT_EQ(all.scores[3][j], 2 * alone_b.scores[0][j]) << c_->name << " hypothesis " << j;
  }
}

TEST_P(Parity, AlignmentsAreTransformersCrossAttentionPeaks) {
  if (!c_->ref.contains("greedy_alignment"))
    GTEST_SKIP() << c_->name
                 << ": no greedy_alignment (make_parity_models.py --add-alignment needs transformers 5 "
                    "for separate vocabularies)";
  const json& ga = c_->ref.at("greedy_alignment");
  const auto greedy = ids_of(c_->ref.at("greedy"));
  size_t checked = 0;
  for (const auto& [layer_name, layer_peaks] : ga.at("layers").items()) {
    const int layer = std::stoi(layer_name);
    const json& margins = ga.at("margins").at(layer_name);
    for (ops::Isa isa : runnable_isas()) {
      SCOPED_TRACE(std::string("isa ") + ops::isa_name(isa) + ", layer " + layer_name);
      auto e = engine(ops::kernels_for(isa), 2, 7, 4);
      ASSERT_NE(e, nullptr);
      for (size_t b = 0; b < src_.size(); b += 7) {
        const size_t end = std::min(src_.size(), b + 7);
        SearchParams p;
        p.max_new_tokens = max_new_;
        p.alignments = true;
        p.alignment_layer = layer;
        std::vector<std::vector<int32_t>> best = testing::run_engine(*e, src_, b, end, p);
        std::vector<std::vector<int32_t>> greedy_al;
        for (size_t i = b; i < end; ++i) {
          ASSERT_EQ(join(best[i - b]), join(greedy[i])) << c_->name << " sentence " << i;
          const std::span<const int32_t> al = e->hypothesis_alignment(i - b, 0);
          const auto want = layer_peaks.at(i).get<std::vector<int32_t>>();
          ASSERT_EQ(al.size(), want.size()) << c_->name << " sentence " << i;
          for (size_t k = 0; k < want.size(); ++k) {
            if (margins.at(i).at(k).get<double>() < 1e-4) continue;
            EXPECT_EQ(al[k], want[k]) << c_->name << " sentence " << i << " token " << k;
            ++checked;
          }
          greedy_al.emplace_back(al.begin(), al.end());
        }
        // Beam 4, every hypothesis: the greedy prefix's alignment.
        p.beam = 4;
        testing::run_engine(*e, src_, b, end, p);
        for (size_t i = b; i < end; ++i) {
          for (size_t j = 0; j < e->hypothesis_count(i - b); ++j) {
            const std::span<const int32_t> h = e->hypothesis(i - b, j);
            const std::span<const int32_t> al = e->hypothesis_alignment(i - b, j);
            ASSERT_GE(al.size(), h.size()) << c_->name << " sentence " << i << " hypothesis " << j;
            const std::vector<int32_t>& g = greedy[i];
            for (size_t k = 0; k < al.size() && k < greedy_al[i - b].size(); ++k) {
              EXPECT_EQ(al[k], greedy_al[i - b][k])
                  << c_->name << " sentence " << i << " hypothesis " << j << " token " << k;
              if (k >= h.size() || k >= g.size() || h[k] != g[k]) break;  // prefixes part after token k
            }
            for (int32_t a : al)
              EXPECT_TRUE(a >= 0 && static_cast<size_t>(a) + 1 < src_[i].size())
                  << c_->name << " sentence " << i << ": source position " << a;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 0u);
  // No alignment unless asked, and a layer the model lacks is an error.
  auto e = engine(nullptr, 1, 1, 1);
  ASSERT_NE(e, nullptr);
  SearchParams p;
  p.max_new_tokens = max_new_;
  testing::run_engine(*e, src_, 0, 1, p);
  EXPECT_TRUE(e->hypothesis_alignment(0, 0).empty());
  p.alignments = true;
  p.alignment_layer = static_cast<int>(ga.at("layers").size());
  std::vector<std::span<const int32_t>> in{src_[0]}, out(1);
  EXPECT_FALSE(e->run(in, p, out).is_ok());
}

INSTANTIATE_TEST_SUITE_P(Models, Parity, ::testing::Range<size_t>(0, cases().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           std::string n = cases()[info.param].name;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

TEST(ParityData, ModelsArePresent) {
  EXPECT_GE(cases().size(), 4u) << "tests/data/parity holds the parity models";
}

// EDGEMT_TEST_ISAS keeps the reference and the named levels this CPU runs, in order.
TEST(ParityIsas, TestIsasKeepsTheReferenceAndTheNamedLevels) {
  const char* before = std::getenv("EDGEMT_TEST_ISAS");
  const std::string saved = before ? before : "";
  const auto with = [](const char* value) {
    ::setenv("EDGEMT_TEST_ISAS", value, 1);
    return runnable_isas();
  };
  ::unsetenv("EDGEMT_TEST_ISAS");
  const std::vector<ops::Isa> all = runnable_isas();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.front(), ops::Isa::ref);
  EXPECT_EQ(all.back(), ops::best_isa());
  EXPECT_EQ(with(""), all);
  EXPECT_EQ(with("ref"), std::vector<ops::Isa>{ops::Isa::ref});
  const std::vector<ops::Isa> best = with("best");
  ASSERT_FALSE(best.empty());
  EXPECT_EQ(best.front(), ops::Isa::ref);
  EXPECT_EQ(best.back(), ops::best_isa());
  EXPECT_LE(best.size(), 2u);
  // The best level named twice, by name and as "best": once, after the reference.
  const std::string twice = std::string(ops::isa_name(ops::best_isa())) + ",best,";
  EXPECT_EQ(with(twice.c_str()), best);
  ::setenv("EDGEMT_TEST_ISAS", "ref,no_such_level", 1);
  EXPECT_NONFATAL_FAILURE(runnable_isas(), "no_such_level, which is no ISA level");
  if (before)
    ::setenv("EDGEMT_TEST_ISAS", saved.c_str(), 1);
  else
    ::unsetenv("EDGEMT_TEST_ISAS");
}

}  // namespace
}  // namespace edgemt
