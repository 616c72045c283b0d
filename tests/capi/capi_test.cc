// The C API (include/edgemt.h, libedgemt.so) against transformers' references: every
// parity model's greedy and beam-4 ids through edgemt_translate_ids, in batches, and
// its texts through edgemt_translate equal to the C++ API's.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "edgemt.h"
#include "runtime/api/translator.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<std::string> model_names() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(EDGEMT_PARITY_SOURCE_DIR))
    if (e.is_directory() && fs::exists(e.path() / "reference.json"))
      names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

class CApi : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::ifstream in(fs::path(EDGEMT_PARITY_SOURCE_DIR) / GetParam() / "reference.json");
    in >> ref_;
    model_file_ = (fs::path(EDGEMT_PARITY_BUILD_DIR) / (GetParam() + ".emt")).string();
    ASSERT_EQ(edgemt_model_load(model_file_.c_str(), &model_), EDGEMT_OK) << edgemt_last_error();
    max_new_ = ref_.at("max_new_tokens").get<int>();
    for (const json& row : ref_.at("src_ids")) src_.push_back(row.get<std::vector<int32_t>>());
    for (const auto& s : src_) {
      ids_.push_back(s.data());
      lengths_.push_back(s.size());
    }
  }
  void TearDown() override { edgemt_model_free(model_); }

  // A translator for the reference sources: batch 5, beam 4, the references' length limit.
  edgemt_translator* make_translator(int threads) {
    edgemt_translator_options topt;
    edgemt_translator_options_init(&topt);
    topt.max_batch = 5;
    topt.max_beam = 4;
    topt.max_target_length = max_new_;
    topt.num_threads = threads;
    edgemt_translator* tr = nullptr;
    EXPECT_EQ(edgemt_translator_create(model_, &topt, &tr), EDGEMT_OK) << edgemt_last_error();
    return tr;
  }

  // The C++ API's translator with make_translator's limits.
  std::unique_ptr<edgemt::Translator> make_cpp_translator() const {
    edgemt::TranslatorOptions o;
    o.max_batch = 5;
    o.max_beam = 4;
    o.max_target_length = max_new_;
    auto t = edgemt::Translator::create(model_file_, o);
    EXPECT_TRUE(t.has_value()) << t.status().to_string();
    return t.has_value() ? std::move(t.value()) : nullptr;
  }

  json ref_;
  int max_new_ = 0;
  std::vector<std::vector<int32_t>> src_;
  std::vector<const int32_t*> ids_;  // src_'s data and sizes, as the C API takes them
  std::vector<size_t> lengths_;
  std::string model_file_;
  edgemt_model* model_ = nullptr;
};

TEST_P(CApi, IdsEqualTransformersGreedyAndBeam) {
  edgemt_translator* tr = make_translator(2);
  ASSERT_NE(tr, nullptr);
  for (const auto& [beam, key] : {std::pair{1, "greedy"}, std::pair{4, "beam4"}}) {
    edgemt_translate_options o;
    edgemt_translate_options_init(&o);
    o.beam = beam;
    o.max_length = max_new_;
    const int32_t* const* out = nullptr;
    const size_t* out_len = nullptr;
    ASSERT_EQ(edgemt_translate_ids(tr, ids_.data(), lengths_.data(), ids_.size(), &o, &out, &out_len),
              EDGEMT_OK)
        << edgemt_last_error();
    const json& want = ref_.at(key);
    for (size_t i = 0; i < src_.size(); ++i) {
      const std::vector<int32_t> got(out[i], out[i] + out_len[i]);
      EXPECT_EQ(got, want.at(i).get<std::vector<int32_t>>()) << key << " sentence " << i;
    }
  }
  edgemt_translator_free(tr);
}

TEST_P(CApi, TextEqualsTheCppApi) {
  const std::vector<std::string> texts = ref_.at("sentences").get<std::vector<std::string>>();
  std::vector<const char*> in;
  for (const auto& t : texts) in.push_back(t.c_str());
  edgemt_translator* tr = nullptr;
  ASSERT_EQ(edgemt_translator_create(model_, nullptr, &tr), EDGEMT_OK) << edgemt_last_error();
  const char* const* out = nullptr;
  ASSERT_EQ(edgemt_translate(tr, in.data(), in.size(), nullptr, &out), EDGEMT_OK) << edgemt_last_error();
  auto cpp = edgemt::Translator::create(model_file_, {});
  ASSERT_TRUE(cpp.has_value()) << cpp.status().to_string();
  auto want = cpp.value()->translate(texts);
  ASSERT_TRUE(want.has_value());
  for (size_t i = 0; i < texts.size(); ++i) EXPECT_EQ(out[i], want.value()[i]) << "sentence " << i;
  // Version 4's text options reach the translator: span protection off, a glossary (and a
  // malformed one fails the call with its line).
  const std::string url = "https://example.org/a?b=1";
  const std::vector<std::string> more = {texts[0] + " " + url, texts[1]};
  std::vector<const char*> in2 = {more[0].c_str(), more[1].c_str()};
  const std::string first_word = texts[1].substr(0, texts[1].find(' '));
  const std::string glossary = first_word + "\tGLOSSAR\n";
  edgemt_translate_options o;
  edgemt_translate_options_init(&o);
  o.no_span_protection = 1;
  o.glossary = glossary.c_str();
  ASSERT_EQ(edgemt_translate(tr, in2.data(), in2.size(), &o, &out), EDGEMT_OK) << edgemt_last_error();
  edgemt::TranslateOptions co;
  co.protect_spans = false;
  auto g = edgemt::Glossary::parse(glossary);
  ASSERT_TRUE(g.has_value());
  co.glossary = g.value();
  auto want2 = cpp.value()->translate(more, co);
  ASSERT_TRUE(want2.has_value());
  EXPECT_EQ(out[0], want2.value()[0]);
  EXPECT_EQ(out[1], want2.value()[1]);
  EXPECT_NE(std::string(out[1]).find("GLOSSAR"), std::string::npos) << out[1];
  o.glossary = "no tab\n";
  EXPECT_EQ(edgemt_translate(tr, in2.data(), in2.size(), &o, &out), EDGEMT_INVALID_ARGUMENT);
  EXPECT_NE(std::string(edgemt_last_error()).find("line 1"), std::string::npos) << edgemt_last_error();
  // Version 5: HTML documents, as the C++ API translates them; an unknown format is refused.
  const std::string doc = "<p class=\"x\">" + texts[0] + "</p>\n<b>" + texts[1] + "</b> &amp;";
  const char* doc_in = doc.c_str();
  edgemt_translate_options_init(&o);
  o.format = EDGEMT_FORMAT_HTML;
  ASSERT_EQ(edgemt_translate(tr, &doc_in, 1, &o, &out), EDGEMT_OK) << edgemt_last_error();
  edgemt::TranslateOptions ho;
  ho.format = edgemt::TextFormat::kHtml;
  auto want3 = cpp.value()->translate({doc}, ho);
  ASSERT_TRUE(want3.has_value());
  EXPECT_EQ(out[0], want3.value()[0]);
  EXPECT_EQ(std::string(out[0]).rfind("<p class=\"x\">", 0), 0u) << out[0];
  o.format = 7;
  EXPECT_EQ(edgemt_translate(tr, &doc_in, 1, &o, &out), EDGEMT_INVALID_ARGUMENT);
  // Version 6: gettext catalogs, as the C++ API fills them; a malformed one is refused.
  std::string quoted;
  for (char ch : texts[0]) {
    if (ch == '"' || ch == '\\') quoted += '\\';
    quoted += ch;
  }
  const std::string catalog = "msgid \"" + quoted + "\"\nmsgstr \"\"\n";
  const char* catalog_in = catalog.c_str();
  o.format = EDGEMT_FORMAT_PO;
  ASSERT_EQ(edgemt_translate(tr, &catalog_in, 1, &o, &out), EDGEMT_OK) << edgemt_last_error();
  edgemt::TranslateOptions po;
  po.format = edgemt::TextFormat::kPo;
  auto want_po = cpp.value()->translate({catalog}, po);
  ASSERT_TRUE(want_po.has_value()) << want_po.status().to_string();
  EXPECT_EQ(out[0], want_po.value()[0]);
  EXPECT_EQ(std::string(out[0]).rfind("#, fuzzy\nmsgid", 0), 0u) << out[0];
  // Markdown documents, as the C++ API translates them.
  const std::string md_doc = "## " + texts[0] + "\n\n```\nkept\n```\n";
  const char* md_in = md_doc.c_str();
  o.format = EDGEMT_FORMAT_MARKDOWN;
  ASSERT_EQ(edgemt_translate(tr, &md_in, 1, &o, &out), EDGEMT_OK) << edgemt_last_error();
  edgemt::TranslateOptions mo;
  mo.format = edgemt::TextFormat::kMarkdown;
  auto want_md = cpp.value()->translate({md_doc}, mo);
  ASSERT_TRUE(want_md.has_value()) << want_md.status().to_string();
  EXPECT_EQ(out[0], want_md.value()[0]);
  EXPECT_NE(std::string(out[0]).find("\n\n```\nkept\n```\n"), std::string::npos) << out[0];
  // Version 11: subtitle files, as the C++ API translates them.
  const std::string srt_doc = "1\n00:00:01,000 --> 00:00:02,000\n" + texts[0] + "\n";
  const char* srt_in = srt_doc.c_str();
  o.format = EDGEMT_FORMAT_SUBTITLES;
  ASSERT_EQ(edgemt_translate(tr, &srt_in, 1, &o, &out), EDGEMT_OK) << edgemt_last_error();
  edgemt::TranslateOptions sub;
  sub.format = edgemt::TextFormat::kSubtitles;
  auto want_srt = cpp.value()->translate({srt_doc}, sub);
  ASSERT_TRUE(want_srt.has_value()) << want_srt.status().to_string();
  EXPECT_EQ(out[0], want_srt.value()[0]);
  EXPECT_EQ(std::string(out[0]).rfind("1\n00:00:01,000 --> 00:00:02,000\n", 0), 0u) << out[0];
  // Version 11: wrapped text, as the C++ API translates it.
  const std::string wrapped_doc = texts[0] + "\n\n" + texts[1] + "\n";
  const char* wrapped_in = wrapped_doc.c_str();
  o.format = EDGEMT_FORMAT_WRAPPED;
  ASSERT_EQ(edgemt_translate(tr, &wrapped_in, 1, &o, &out), EDGEMT_OK) << edgemt_last_error();
  edgemt::TranslateOptions wo;
  wo.format = edgemt::TextFormat::kWrapped;
  auto want_wrapped = cpp.value()->translate({wrapped_doc}, wo);
  ASSERT_TRUE(want_wrapped.has_value()) << want_wrapped.status().to_string();
  EXPECT_EQ(out[0], want_wrapped.value()[0]);
  EXPECT_NE(std::string(out[0]).find("\n\n"), std::string::npos) << out[0];
  // Version 16: CSV, as the C++ API translates it.
  const std::string csv_doc = "key,text\napp.title,\"" + texts[0] + "\"\n";
  const char* csv_in = csv_doc.c_str();
  o.format = EDGEMT_FORMAT_CSV;
  ASSERT_EQ(edgemt_translate(tr, &csv_in, 1, &o, &out), EDGEMT_OK) << edgemt_last_error();
  edgemt::TranslateOptions csv_options;
  csv_options.format = edgemt::TextFormat::kCsv;
  auto want_csv = cpp.value()->translate({csv_doc}, csv_options);
  ASSERT_TRUE(want_csv.has_value()) << want_csv.status().to_string();
  EXPECT_EQ(out[0], want_csv.value()[0]);
  EXPECT_NE(std::string(out[0]).find("\napp.title,"), std::string::npos) << out[0];
  const std::string json_doc = "{\"title\": \"" + texts[0] + "\", \"n\": 1}";
  const char* json_in = json_doc.c_str();
  o.format = EDGEMT_FORMAT_JSON;
  ASSERT_EQ(edgemt_translate(tr, &json_in, 1, &o, &out), EDGEMT_OK) << edgemt_last_error();
  edgemt::TranslateOptions json_options;
  json_options.format = edgemt::TextFormat::kJson;
  auto want_json = cpp.value()->translate({json_doc}, json_options);
  ASSERT_TRUE(want_json.has_value()) << want_json.status().to_string();
  EXPECT_EQ(out[0], want_json.value()[0]);
  const char* bad_json = "{\"a\": ";
  EXPECT_EQ(edgemt_translate(tr, &bad_json, 1, &o, &out), EDGEMT_INVALID_ARGUMENT);
  // Version 17: XLIFF, as the C++ API translates it.
  const std::string xliff_doc = "<xliff version=\"1.2\"><file><body><trans-unit id=\"t\"><source>" +
                                edgemt::escape_html(texts[0]) +
                                "</source></trans-unit></body></file></xliff>";
  const char* xliff_in = xliff_doc.c_str();
  o.format = EDGEMT_FORMAT_XLIFF;
  ASSERT_EQ(edgemt_translate(tr, &xliff_in, 1, &o, &out), EDGEMT_OK) << edgemt_last_error();
  edgemt::TranslateOptions xliff_options;
  xliff_options.format = edgemt::TextFormat::kXliff;
  auto want_xliff = cpp.value()->translate({xliff_doc}, xliff_options);
  ASSERT_TRUE(want_xliff.has_value()) << want_xliff.status().to_string();
  EXPECT_EQ(out[0], want_xliff.value()[0]);
  EXPECT_NE(std::string(out[0]).find("</source><target"), std::string::npos) << out[0];
  const std::string android_doc =
      "<resources><string name=\"t\">" + edgemt::escape_html(texts[1]) + "</string></resources>";
  const char* android_in = android_doc.c_str();
  o.format = EDGEMT_FORMAT_ANDROID;
  ASSERT_EQ(edgemt_translate(tr, &android_in, 1, &o, &out), EDGEMT_OK) << edgemt_last_error();
  edgemt::TranslateOptions android_options;
  android_options.format = edgemt::TextFormat::kAndroid;
  auto want_android = cpp.value()->translate({android_doc}, android_options);
  ASSERT_TRUE(want_android.has_value()) << want_android.status().to_string();
  EXPECT_EQ(out[0], want_android.value()[0]);
  // Java .properties, Apple .strings, .stringsdict and String Catalogs, .NET .resx, YAML: as the C++
  // API translates them.
  for (auto [format, cpp_format, doc] :
       {std::tuple{EDGEMT_FORMAT_PROPERTIES, edgemt::TextFormat::kProperties, "# c\nt = " + texts[1] + "\n"},
        std::tuple{EDGEMT_FORMAT_STRINGS, edgemt::TextFormat::kStrings, "\"t\" = \"" + texts[0] + "\";\n"},
        std::tuple{
            EDGEMT_FORMAT_RESX, edgemt::TextFormat::kResx,
            "<root><data name=\"t\"><value>" + edgemt::escape_html(texts[2]) + "</value></data></root>"},
        std::tuple{EDGEMT_FORMAT_XCSTRINGS, edgemt::TextFormat::kXcstrings,
                   "{\"sourceLanguage\": \"x\", \"strings\": {\"" + texts[0] + "\": {}}}"},
        std::tuple{EDGEMT_FORMAT_YAML, edgemt::TextFormat::kYaml, "en:\n  t: \"" + texts[1] + "\"\n"},
        std::tuple{EDGEMT_FORMAT_STRINGSDICT, edgemt::TextFormat::kStringsdict,
                   "<plist><dict><key>k</key><dict><key>NSStringFormatSpecTypeKey</key><string>"
                   "NSStringPluralRuleType</string><key>one</key><string>" +
                       edgemt::escape_html(texts[0]) + "</string><key>other</key><string>" +
                       edgemt::escape_html(texts[2]) + "</string></dict></dict></plist>"}}) {
    const char* in = doc.c_str();
    o.format = format;
    ASSERT_EQ(edgemt_translate(tr, &in, 1, &o, &out), EDGEMT_OK) << edgemt_last_error();
    edgemt::TranslateOptions cpp_options;
    cpp_options.format = cpp_format;
    auto want = cpp.value()->translate({doc}, cpp_options);
    ASSERT_TRUE(want.has_value()) << want.status().to_string();
    EXPECT_EQ(out[0], want.value()[0]);
  }
  o.format = EDGEMT_FORMAT_STRINGS;
  const char* bad_strings = "\"t\" = \"x\"";
  EXPECT_EQ(edgemt_translate(tr, &bad_strings, 1, &o, &out), EDGEMT_INVALID_ARGUMENT);
  EXPECT_NE(std::string(edgemt_last_error()).find(".strings line 1"), std::string::npos)
      << edgemt_last_error();
  o.format = EDGEMT_FORMAT_STRINGSDICT;
  const char* bad_plist = "<resources/>";
  EXPECT_EQ(edgemt_translate(tr, &bad_plist, 1, &o, &out), EDGEMT_INVALID_ARGUMENT);
  EXPECT_NE(std::string(edgemt_last_error()).find("not a .stringsdict file"), std::string::npos)
      << edgemt_last_error();
  o.format = EDGEMT_FORMAT_XLIFF;
  const char* bad_xliff = "<xliff><file>";
  EXPECT_EQ(edgemt_translate(tr, &bad_xliff, 1, &o, &out), EDGEMT_INVALID_ARGUMENT);
  EXPECT_NE(std::string(edgemt_last_error()).find("not well-formed"), std::string::npos)
      << edgemt_last_error();
  o.format = EDGEMT_FORMAT_PO;
  const char* bad_catalog = "msgid \"x\nmsgstr \"\"\n";
  EXPECT_EQ(edgemt_translate(tr, &bad_catalog, 1, &o, &out), EDGEMT_INVALID_ARGUMENT);
  EXPECT_NE(std::string(edgemt_last_error()).find("po line 1"), std::string::npos) << edgemt_last_error();
  // Version 6: sampling with a seed, as the C++ API samples; bad settings are refused.
  std::vector<const char*> plain(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) plain[i] = texts[i].c_str();
  edgemt_translate_options_init(&o);
  EXPECT_EQ(o.sampling_topk, 0);
  o.sampling_topk = 20;
  o.sampling_temperature = 1.5f;
  o.seed = 12345;
  ASSERT_EQ(edgemt_translate(tr, plain.data(), plain.size(), &o, &out), EDGEMT_OK) << edgemt_last_error();
  edgemt::TranslateOptions so;
  so.sampling_topk = 20;
  so.sampling_temperature = 1.5f;
  so.seed = 12345;
  auto want4 = cpp.value()->translate(texts, so);
  ASSERT_TRUE(want4.has_value()) << want4.status().to_string();
  for (size_t i = 0; i < texts.size(); ++i) EXPECT_EQ(out[i], want4.value()[i]) << "text " << i;
  o.beam = 4;
  EXPECT_EQ(edgemt_translate(tr, plain.data(), plain.size(), &o, &out), EDGEMT_INVALID_ARGUMENT);
  EXPECT_NE(std::string(edgemt_last_error()).find("beam 1"), std::string::npos) << edgemt_last_error();
  o.beam = 0;
  o.sampling_temperature = -1.0f;
  EXPECT_EQ(edgemt_translate(tr, plain.data(), plain.size(), &o, &out), EDGEMT_INVALID_ARGUMENT);
  // Version 8: scored translations as JSON, the C++ API's translate_scored (3-best).
  edgemt_translate_options_init(&o);
  o.beam = 4;
  ASSERT_EQ(edgemt_translate_scored(tr, plain.data(), plain.size(), 3, &o, &out), EDGEMT_OK)
      << edgemt_last_error();
  edgemt::TranslateOptions beam4;
  beam4.beam = 4;
  auto scored = cpp.value()->translate_scored(texts, 3, beam4);
  ASSERT_TRUE(scored.has_value()) << scored.status().to_string();
  for (size_t i = 0; i < texts.size(); ++i) {
    const nlohmann::json j = nlohmann::json::parse(out[i]);
    const edgemt::ScoredTranslation& best = scored.value()[i].hypotheses[0];
    EXPECT_EQ(j.at("translation").get<std::string>(), best.text) << "text " << i;
    EXPECT_NEAR(j.at("score").get<double>(), best.score, 1e-5);
    ASSERT_EQ(j.at("words").size(), best.words.size());
    for (size_t w = 0; w < best.words.size(); ++w) {
      EXPECT_EQ(j.at("words")[w].at("word").get<std::string>(), best.words[w].text);
      EXPECT_EQ(j.at("words")[w].at("source").get<int>(), best.words[w].source);
    }
    EXPECT_EQ(j.at("source_words").size(), scored.value()[i].source_words.size());
    EXPECT_EQ(j.at("n_best").size(), scored.value()[i].hypotheses.size());
  }
  EXPECT_EQ(edgemt_translate_scored(tr, plain.data(), plain.size(), 0, &o, &out), EDGEMT_INVALID_ARGUMENT);
  o.format = EDGEMT_FORMAT_HTML;
  EXPECT_EQ(edgemt_translate_scored(tr, plain.data(), plain.size(), 1, &o, &out), EDGEMT_INVALID_ARGUMENT);
  edgemt_translator_free(tr);
}

// max_length_factor/offset (C API version 2) reach the translator: ids equal the C++
// API's with the same options, every output is within its sentence's limit, and the
// limit binds (a factor of 0.5 cuts the random models' 40-token outputs).
TEST_P(CApi, SourceRelativeLengthLimitEqualsTheCppApi) {
  edgemt_translator* tr = make_translator(1);
  ASSERT_NE(tr, nullptr);
  edgemt_translate_options o;
  edgemt_translate_options_init(&o);
  EXPECT_EQ(o.max_length_factor, 0.0f);  // the model's by default
  o.beam = 4;
  o.max_length_factor = 0.5f;
  o.max_length_offset = 1;
  const int32_t* const* out = nullptr;
  const size_t* out_len = nullptr;
  ASSERT_EQ(edgemt_translate_ids(tr, ids_.data(), lengths_.data(), ids_.size(), &o, &out, &out_len),
            EDGEMT_OK)
      << edgemt_last_error();
  std::vector<std::vector<int32_t>> got;
  for (size_t i = 0; i < src_.size(); ++i) got.emplace_back(out[i], out[i] + out_len[i]);

  const auto cpp = make_cpp_translator();
  ASSERT_NE(cpp, nullptr);
  edgemt::TranslateOptions co;
  co.beam = 4;
  co.max_length_factor = 0.5f;
  co.max_length_offset = 1;
  std::vector<std::vector<int32_t>> want;
  ASSERT_TRUE(cpp->translate_ids(src_, &want, co).is_ok());
  size_t cut = 0;
  for (size_t i = 0; i < src_.size(); ++i) {
    EXPECT_EQ(got[i], want[i]) << "sentence " << i;
    const size_t limit = static_cast<size_t>((src_[i].size() + 1) / 2) + 1;
    EXPECT_LT(got[i].size(), limit) << "sentence " << i;
    cut += got[i].size() + 1 == limit;
  }
  EXPECT_GT(cut, 0u);
  o.max_length_factor = -1.0f;
  EXPECT_EQ(edgemt_translate_ids(tr, ids_.data(), lengths_.data(), ids_.size(), &o, &out, &out_len),
            EDGEMT_INVALID_ARGUMENT);
  EXPECT_NE(std::string(edgemt_last_error()).find("max length factor"), std::string::npos)
      << edgemt_last_error();
  // C API version 3: the beam style (the model's by default) and the word penalty.
  edgemt_translate_options_init(&o);
  EXPECT_EQ(o.beam_style, EDGEMT_BEAM_STYLE_DEFAULT);
  o.beam = 4;
  o.beam_style = 7;
  EXPECT_EQ(edgemt_translate_ids(tr, ids_.data(), lengths_.data(), ids_.size(), &o, &out, &out_len),
            EDGEMT_INVALID_ARGUMENT);
  EXPECT_NE(std::string(edgemt_last_error()).find("beam_style 7"), std::string::npos) << edgemt_last_error();
  for (const auto& [style, cpp_style] :
       {std::pair{EDGEMT_BEAM_STYLE_MARIAN, edgemt::BeamStyle::kMarian},
        std::pair{EDGEMT_BEAM_STYLE_TRANSFORMERS, edgemt::BeamStyle::kTransformers}}) {
    o.beam_style = style;
    o.has_word_penalty = 1;
    o.word_penalty = 0.5f;
    ASSERT_EQ(edgemt_translate_ids(tr, ids_.data(), lengths_.data(), ids_.size(), &o, &out, &out_len),
              EDGEMT_OK)
        << edgemt_last_error();
    co = {};
    co.beam = 4;
    co.beam_style = cpp_style;
    co.word_penalty = 0.5f;
    ASSERT_TRUE(cpp->translate_ids(src_, &want, co).is_ok());
    for (size_t i = 0; i < src_.size(); ++i)
      EXPECT_EQ(std::vector<int32_t>(out[i], out[i] + out_len[i]), want[i])
          << "style " << style << " sentence " << i;
  }
  // A version-1 caller's struct ends before the new fields: they are not read.
  edgemt_translate_options_init(&o);
  o.struct_size = static_cast<uint32_t>(offsetof(edgemt_translate_options, max_length_factor));
  o.max_length_factor = -1.0f;
  EXPECT_EQ(edgemt_translate_ids(tr, ids_.data(), lengths_.data(), ids_.size(), &o, &out, &out_len),
            EDGEMT_OK)
      << edgemt_last_error();
  edgemt_translator_free(tr);
}

// N-best with scores (C API version 3): the C++ API's hypotheses and scores, flattened;
// greedy gives one hypothesis with a finite score; bad arguments are refused.
TEST_P(CApi, NbestWithScoresEqualsTheCppApi) {
  edgemt_translator* tr = make_translator(1);
  ASSERT_NE(tr, nullptr);
  const auto cpp = make_cpp_translator();
  ASSERT_NE(cpp, nullptr);
  const std::vector<std::span<const int32_t>> in(src_.begin(), src_.end());
  for (int beam : {4, 1}) {
    edgemt_translate_options o;
    edgemt_translate_options_init(&o);
    o.beam = beam;
    const size_t *first = nullptr, *counts = nullptr, *lengths = nullptr;
    const int32_t* const* hyp = nullptr;
    const float* scores = nullptr;
    ASSERT_EQ(edgemt_translate_ids_nbest(tr, ids_.data(), lengths_.data(), ids_.size(), 4, &o, &first,
                                         &counts, &hyp, &lengths, &scores),
              EDGEMT_OK)
        << edgemt_last_error();
    edgemt::TranslateOptions co;
    co.beam = beam;
    std::vector<std::vector<std::vector<int32_t>>> want;
    std::vector<std::vector<float>> want_scores;
    ASSERT_TRUE(cpp->translate_ids_nbest(in, 4, &want, co, &want_scores).is_ok());
    size_t more_than_one = 0;
    for (size_t i = 0; i < src_.size(); ++i) {
      ASSERT_EQ(counts[i], want[i].size()) << "beam " << beam << " sentence " << i;
      if (beam == 1) {
        EXPECT_EQ(counts[i], 1u);
      }
      more_than_one += counts[i] > 1;
      for (size_t j = 0; j < counts[i]; ++j) {
        const size_t e = first[i] + j;
        EXPECT_EQ(std::vector<int32_t>(hyp[e], hyp[e] + lengths[e]), want[i][j]) << "sentence " << i;
        EXPECT_EQ(scores[e], want_scores[i][j]) << "sentence " << i;
        EXPECT_TRUE(std::isfinite(scores[e]) && scores[e] <= 0.0f) << "sentence " << i << ": " << scores[e];
      }
    }
    if (beam == 4) {
      EXPECT_GT(more_than_one, 0u);
    }
    EXPECT_EQ(edgemt_translate_ids_nbest(tr, ids_.data(), lengths_.data(), ids_.size(), 0, &o, &first,
                                         &counts, &hyp, &lengths, &scores),
              EDGEMT_INVALID_ARGUMENT);
    EXPECT_EQ(edgemt_translate_ids_nbest(tr, ids_.data(), lengths_.data(), ids_.size(), 2, &o, &first,
                                         &counts, &hyp, &lengths, nullptr),
              EDGEMT_INVALID_ARGUMENT);
  }
  edgemt_translator_free(tr);
}

INSTANTIATE_TEST_SUITE_P(Models, CApi, ::testing::ValuesIn(model_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// Scoring: the C++ API's log-probabilities for the same pairs (the references' greedy
// outputs, more pairs than the batch), pieces round-trip through the target vocabulary,
// and bad pairs are errors.
TEST_P(CApi, ScoringEqualsTheCppApi) {
  edgemt_translator* tr = make_translator(1);
  ASSERT_NE(tr, nullptr);
  std::vector<std::vector<int32_t>> tgt;
  for (const json& row : ref_.at("greedy")) tgt.push_back(row.get<std::vector<int32_t>>());
  ASSERT_EQ(tgt.size(), src_.size());
  std::vector<const int32_t*> tgt_ptrs;
  std::vector<size_t> tgt_lengths;
  for (auto& t : tgt) {
    if (t.size() + 1 > static_cast<size_t>(max_new_)) t.resize(static_cast<size_t>(max_new_) - 1);
    tgt_ptrs.push_back(t.data());
    tgt_lengths.push_back(t.size());
  }
  const float* const* lps = nullptr;
  const size_t* lens = nullptr;
  ASSERT_EQ(edgemt_score_ids(tr, ids_.data(), lengths_.data(), tgt_ptrs.data(), tgt_lengths.data(),
                             src_.size(), &lps, &lens),
            EDGEMT_OK)
      << edgemt_last_error();
  auto cpp = make_cpp_translator();
  ASSERT_NE(cpp, nullptr);
  std::vector<std::span<const int32_t>> s(src_.begin(), src_.end()), t(tgt.begin(), tgt.end());
  std::vector<std::vector<float>> want;
  ASSERT_TRUE(cpp->score_ids(s, t, &want).is_ok());
  for (size_t i = 0; i < src_.size(); ++i) {
    ASSERT_EQ(lens[i], tgt[i].size() + 1) << GetParam() << " pair " << i;
    EXPECT_EQ(std::vector<float>(lps[i], lps[i] + lens[i]), want[i]) << GetParam() << " pair " << i;
  }
  for (int32_t id : tgt[0]) {
    const char* piece = edgemt_model_target_token(model_, id);
    ASSERT_NE(piece, nullptr);
    int32_t back = -1;
    ASSERT_EQ(edgemt_model_target_token_id(model_, piece, &back), EDGEMT_OK);
    EXPECT_EQ(back, id) << piece;
  }
  // Text pairs, as the C++ API's.
  const std::string text = ref_.at("sentences")[0].get<std::string>();
  const std::string first_word = text.substr(0, text.find(' '));
  const char* srcs[] = {text.c_str(), text.c_str()};
  const char* tgts[] = {"", first_word.c_str()};
  ASSERT_EQ(edgemt_score(tr, srcs, tgts, 2, &lps, &lens), EDGEMT_OK) << edgemt_last_error();
  auto want_text = cpp->score({srcs[0], srcs[1]}, {tgts[0], tgts[1]});
  ASSERT_TRUE(want_text.has_value());
  for (size_t i = 0; i < 2; ++i)
    EXPECT_EQ(std::vector<float>(lps[i], lps[i] + lens[i]), want_text.value()[i])
        << GetParam() << " text " << i;
  EXPECT_EQ(lens[0], 1u);  // an empty target: the end alone
  EXPECT_EQ(edgemt_score(tr, srcs, nullptr, 2, &lps, &lens), EDGEMT_INVALID_ARGUMENT);
  const int32_t bad = 1 << 30;
  const int32_t* bad_ptr = &bad;
  const size_t one = 1;
  EXPECT_EQ(edgemt_score_ids(tr, ids_.data(), lengths_.data(), &bad_ptr, &one, 1, &lps, &lens),
            EDGEMT_OUT_OF_RANGE);
  EXPECT_EQ(lps, nullptr);
  EXPECT_EQ(edgemt_score_ids(tr, ids_.data(), lengths_.data(), nullptr, &one, 1, &lps, &lens),
            EDGEMT_INVALID_ARGUMENT);
  EXPECT_EQ(edgemt_score_ids(tr, ids_.data(), lengths_.data(), tgt_ptrs.data(), tgt_lengths.data(), 1,
                             nullptr, &lens),
            EDGEMT_INVALID_ARGUMENT);
  edgemt_translator_free(tr);
}

TEST(CApiErrors, BadFilesAndArgumentsGiveStatusAndMessage) {
  edgemt_model* m = nullptr;
  EXPECT_EQ(edgemt_model_load("/nonexistent.emt", &m), EDGEMT_NOT_FOUND);
  EXPECT_NE(std::string(edgemt_last_error()).find("/nonexistent.emt"), std::string::npos);
  const fs::path junk = fs::temp_directory_path() / "edgemt_capi_junk.emt";
  std::ofstream(junk) << "this is not a model file, just some bytes to be rejected";
  EXPECT_EQ(edgemt_model_load(junk.string().c_str(), &m), EDGEMT_INVALID_MODEL);
  EXPECT_EQ(m, nullptr);
  fs::remove(junk);
  EXPECT_EQ(edgemt_model_load("x", nullptr), EDGEMT_INVALID_ARGUMENT);
  edgemt_translator* t = nullptr;
  EXPECT_EQ(edgemt_translator_create(nullptr, nullptr, &t), EDGEMT_INVALID_ARGUMENT);
  EXPECT_STREQ(edgemt_status_string(EDGEMT_INVALID_MODEL), "invalid model");
}

// The bundled models by language pair (found in the source tree this build came from):
// each pair's file, whose model names that pair; one side alone where it names one model;
// a clear error for a pair none translates.
TEST(CApiBundled, ModelForALanguagePair) {
  const char* path = nullptr;
  for (const auto& [s, t] : {std::pair{"en", "de"}, std::pair{"de", "en"}}) {
    ASSERT_EQ(edgemt_bundled_model_path(s, t, &path), EDGEMT_OK) << edgemt_last_error();
    const std::string file(path);
    EXPECT_EQ(fs::path(file).filename().string(), std::string("edgemt-") + s + "-" + t + ".emt");
    edgemt_model* m = nullptr;
    ASSERT_EQ(edgemt_model_load(file.c_str(), &m), EDGEMT_OK) << edgemt_last_error();
    EXPECT_STREQ(edgemt_model_source_language(m), s);
    EXPECT_STREQ(edgemt_model_target_language(m), t);
    edgemt_model_free(m);
    ASSERT_EQ(edgemt_bundled_model_path(nullptr, t, &path), EDGEMT_OK) << edgemt_last_error();
    EXPECT_EQ(std::string(path), file);
  }
  EXPECT_EQ(edgemt_bundled_model_path("xx", "yy", &path), EDGEMT_NOT_FOUND);
  EXPECT_EQ(path, nullptr);
  EXPECT_NE(std::string(edgemt_last_error()).find("en->de"), std::string::npos) << edgemt_last_error();
  EXPECT_EQ(edgemt_bundled_model_path("", "", &path), EDGEMT_INVALID_ARGUMENT);
  EXPECT_EQ(edgemt_bundled_model_path("en", "de", nullptr), EDGEMT_INVALID_ARGUMENT);
  EXPECT_STREQ(edgemt_model_source_language(nullptr), "");
}

// Version 15: a cancel flag set (from another thread, or before the call) stops the call
// with EDGEMT_CANCELLED; cleared, the next call translates as before.
TEST(CApiBundled, CancelFlagStopsTheCall) {
  const char* path = nullptr;
  ASSERT_EQ(edgemt_bundled_model_path("en", "de", &path), EDGEMT_OK) << edgemt_last_error();
  edgemt_model* m = nullptr;
  ASSERT_EQ(edgemt_model_load(path, &m), EDGEMT_OK) << edgemt_last_error();
  edgemt_translator* tr = nullptr;
  ASSERT_EQ(edgemt_translator_create(m, nullptr, &tr), EDGEMT_OK) << edgemt_last_error();
  alignas(4) int32_t flag = 1;
  edgemt_translate_options o;
  edgemt_translate_options_init(&o);
  EXPECT_EQ(o.cancel, nullptr);
  o.cancel = &flag;
  const char* one[] = {"The file could not be opened."};
  const char* const* out = nullptr;
  EXPECT_EQ(edgemt_translate(tr, one, 1, &o, &out), EDGEMT_CANCELLED);
  EXPECT_NE(std::string(edgemt_last_error()).find("cancelled"), std::string::npos) << edgemt_last_error();
  EXPECT_STREQ(edgemt_status_string(EDGEMT_CANCELLED), "cancelled");
  __atomic_store_n(&flag, 0, __ATOMIC_RELAXED);
  std::vector<std::string> many;
  for (int i = 0; i < 400; ++i)
    many.push_back("Please restart the computer number " + std::to_string(i) + ".");
  std::vector<const char*> texts;
  for (const std::string& t : many) texts.push_back(t.c_str());
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    __atomic_store_n(&flag, 1, __ATOMIC_RELAXED);
  });
  EXPECT_EQ(edgemt_translate(tr, texts.data(), texts.size(), &o, &out), EDGEMT_CANCELLED);
  canceller.join();
  __atomic_store_n(&flag, 0, __ATOMIC_RELAXED);
  ASSERT_EQ(edgemt_translate(tr, one, 1, &o, &out), EDGEMT_OK) << edgemt_last_error();
  const std::string got = out[0];
  ASSERT_EQ(edgemt_translate(tr, one, 1, nullptr, &out), EDGEMT_OK) << edgemt_last_error();
  EXPECT_EQ(got, out[0]);
  EXPECT_FALSE(got.empty());
  edgemt_translator_free(tr);
  edgemt_model_free(m);
}

// Version 12: an office document's bytes in, the translated file's bytes out, as the C++
// API's TextFormat::kOffice gives them; what is not one is an error saying so.
TEST(CApiBundled, TranslatesADocumentLikeTheCppApi) {
  const char* path = nullptr;
  ASSERT_EQ(edgemt_bundled_model_path("en", "de", &path), EDGEMT_OK) << edgemt_last_error();
  const std::string file(path);
  std::ifstream f(std::string(EDGEMT_DOCUMENTS_DIR) + "/sample.odt", std::ios::binary);
  const std::string odt((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  ASSERT_GT(odt.size(), 1000u);
  edgemt_model* m = nullptr;
  ASSERT_EQ(edgemt_model_load(file.c_str(), &m), EDGEMT_OK) << edgemt_last_error();
  edgemt_translator* tr = nullptr;
  ASSERT_EQ(edgemt_translator_create(m, nullptr, &tr), EDGEMT_OK) << edgemt_last_error();
  const void* out = nullptr;
  size_t out_size = 0;
  ASSERT_EQ(edgemt_translate_document(tr, odt.data(), odt.size(), nullptr, &out, &out_size), EDGEMT_OK)
      << edgemt_last_error();
  auto cpp = edgemt::Translator::create(file, {});
  ASSERT_TRUE(cpp.has_value()) << cpp.status().to_string();
  edgemt::TranslateOptions o;
  o.format = edgemt::TextFormat::kOffice;
  auto want = cpp.value()->translate({odt}, o);
  ASSERT_TRUE(want.has_value()) << want.status().to_string();
  EXPECT_EQ(std::string(static_cast<const char*>(out), out_size), want.value()[0]);
  EXPECT_NE(std::string(static_cast<const char*>(out), out_size), odt);
  const std::string text = "Hello";
  EXPECT_EQ(edgemt_translate_document(tr, text.data(), text.size(), nullptr, &out, &out_size),
            EDGEMT_INVALID_ARGUMENT);
  EXPECT_EQ(out, nullptr);
  EXPECT_NE(std::string(edgemt_last_error()).find("not a .docx"), std::string::npos) << edgemt_last_error();
  EXPECT_EQ(edgemt_translate_document(tr, nullptr, 5, nullptr, &out, &out_size), EDGEMT_INVALID_ARGUMENT);
  EXPECT_EQ(edgemt_translate_document(tr, odt.data(), odt.size(), nullptr, nullptr, &out_size),
            EDGEMT_INVALID_ARGUMENT);
  EXPECT_EQ(edgemt_translate_document(nullptr, odt.data(), odt.size(), nullptr, &out, &out_size),
            EDGEMT_INVALID_ARGUMENT);
  edgemt_translator_free(tr);
  edgemt_model_free(m);
}

// edgemt_translate_pdf: the sample PDF's paragraphs, each translated as the C++ API
// translates it as a line of text, one a line with a blank line between (where pdftotext
// is installed); bad input and NULLs are refused.
TEST(CApiBundled, TranslatesAPdfLikeTheCppApi) {
  const char* path = nullptr;
  ASSERT_EQ(edgemt_bundled_model_path("en", "de", &path), EDGEMT_OK) << edgemt_last_error();
  const std::string file(path);
  std::ifstream f(std::string(EDGEMT_DOCUMENTS_DIR) + "/sample.pdf", std::ios::binary);
  const std::string pdf((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  ASSERT_GT(pdf.size(), 500u);
  edgemt_model* m = nullptr;
  ASSERT_EQ(edgemt_model_load(file.c_str(), &m), EDGEMT_OK) << edgemt_last_error();
  edgemt_translator* tr = nullptr;
  ASSERT_EQ(edgemt_translator_create(m, nullptr, &tr), EDGEMT_OK) << edgemt_last_error();
  const char* out = nullptr;
  const std::string text = "Hello";
  EXPECT_EQ(edgemt_translate_pdf(tr, text.data(), text.size(), nullptr, &out), EDGEMT_INVALID_ARGUMENT);
  EXPECT_EQ(out, nullptr);
  EXPECT_NE(std::string(edgemt_last_error()).find("not a PDF"), std::string::npos) << edgemt_last_error();
  EXPECT_EQ(edgemt_translate_pdf(tr, nullptr, 5, nullptr, &out), EDGEMT_INVALID_ARGUMENT);
  EXPECT_EQ(edgemt_translate_pdf(tr, pdf.data(), pdf.size(), nullptr, nullptr), EDGEMT_INVALID_ARGUMENT);
  EXPECT_EQ(edgemt_translate_pdf(nullptr, pdf.data(), pdf.size(), nullptr, &out), EDGEMT_INVALID_ARGUMENT);
#ifdef EDGEMT_HAVE_PDFTOTEXT
  ASSERT_EQ(edgemt_translate_pdf(tr, pdf.data(), pdf.size(), nullptr, &out), EDGEMT_OK)
      << edgemt_last_error();
  auto cpp = edgemt::Translator::create(file, {});
  ASSERT_TRUE(cpp.has_value()) << cpp.status().to_string();
  const std::vector<std::string> paragraphs = {
      "Installing the program",
      "The file could not be opened because the connection to the server was lost while the program was "
      "reading the configuration file of the application. Please try again later.",
      "Do you want to delete this folder? The password is too short (at least eight characters), so the "
      "system cannot accept it as a replacement for the administrator account & the caf\xC3\xA9.",
      "Save the document before closing the window."};
  auto want = cpp.value()->translate(paragraphs);
  ASSERT_TRUE(want.has_value()) << want.status().to_string();
  std::string expected;
  for (const std::string& t : want.value()) expected += (expected.empty() ? "" : "\n") + t + "\n";
  EXPECT_EQ(std::string(out), expected);
  auto direct = cpp.value()->translate_pdf(pdf);
  ASSERT_TRUE(direct.has_value()) << direct.status().to_string();
  EXPECT_EQ(direct.value(), expected);
#endif
  edgemt_translator_free(tr);
  edgemt_model_free(m);
}

// edgemt_translator_set_reranker gives what the C++ API's set_reranker gives; a model of
// the same direction, a bad weight and NULLs are refused; NULL removes the reranker.
TEST(CApiBundled, RerankerLikeTheCppApi) {
  const char *fwd_path = nullptr, *rev_path = nullptr;
  ASSERT_EQ(edgemt_bundled_model_path("en", "de", &fwd_path), EDGEMT_OK) << edgemt_last_error();
  const std::string fwd_file(fwd_path);
  ASSERT_EQ(edgemt_bundled_model_path("de", "en", &rev_path), EDGEMT_OK) << edgemt_last_error();
  const std::string rev_file(rev_path);
  edgemt_model *fwd = nullptr, *rev = nullptr;
  ASSERT_EQ(edgemt_model_load(fwd_file.c_str(), &fwd), EDGEMT_OK) << edgemt_last_error();
  ASSERT_EQ(edgemt_model_load(rev_file.c_str(), &rev), EDGEMT_OK) << edgemt_last_error();
  edgemt_translator* tr = nullptr;
  ASSERT_EQ(edgemt_translator_create(fwd, nullptr, &tr), EDGEMT_OK) << edgemt_last_error();
  EXPECT_EQ(edgemt_translator_set_reranker(tr, fwd, 0.3f), EDGEMT_INVALID_ARGUMENT);
  EXPECT_NE(std::string(edgemt_last_error()).find("not de to en"), std::string::npos) << edgemt_last_error();
  EXPECT_EQ(edgemt_translator_set_reranker(tr, rev, -1.0f), EDGEMT_INVALID_ARGUMENT);
  EXPECT_EQ(edgemt_translator_set_reranker(nullptr, rev, 0.3f), EDGEMT_INVALID_ARGUMENT);
  ASSERT_EQ(edgemt_translator_set_reranker(tr, rev, 3.0f), EDGEMT_OK) << edgemt_last_error();
  edgemt_model_free(rev);  // the translator keeps it alive
  const std::vector<const char*> texts = {"I would like a cup of coffee, please.",
                                          "Where is the nearest train station?",
                                          "She forgot her umbrella at the restaurant."};
  const char* const* got = nullptr;
  ASSERT_EQ(edgemt_translate(tr, texts.data(), texts.size(), nullptr, &got), EDGEMT_OK)
      << edgemt_last_error();
  auto cpp = edgemt::Translator::create(fwd_file, {});
  ASSERT_TRUE(cpp.has_value());
  edgemt::TranslatorOptions ro;
  ro.max_beam = 1;
  auto cpp_rev = edgemt::Translator::create(rev_file, ro);
  ASSERT_TRUE(cpp_rev.has_value());
  ASSERT_TRUE(cpp.value()->set_reranker(std::move(cpp_rev.value()), 3.0f).is_ok());
  const std::vector<std::string> in(texts.begin(), texts.end());
  auto want = cpp.value()->translate(in, {});
  ASSERT_TRUE(want.has_value());
  for (size_t i = 0; i < texts.size(); ++i) EXPECT_EQ(std::string(got[i]), want.value()[i]) << texts[i];
  // Removed: the search's own translations again.
  ASSERT_EQ(edgemt_translator_set_reranker(tr, nullptr, 0.0f), EDGEMT_OK);
  ASSERT_TRUE(cpp.value()->set_reranker(nullptr).is_ok());
  want = cpp.value()->translate(in, {});
  ASSERT_TRUE(want.has_value());
  ASSERT_EQ(edgemt_translate(tr, texts.data(), texts.size(), nullptr, &got), EDGEMT_OK)
      << edgemt_last_error();
  for (size_t i = 0; i < texts.size(); ++i) EXPECT_EQ(std::string(got[i]), want.value()[i]) << texts[i];
  edgemt_translator_free(tr);
  edgemt_model_free(fwd);
}

// $EDGEMT_MODELS_DIR is looked up first; a pair no model translates goes through a pivot
// language where two chain, English preferred (only the file names count here).
TEST(CApiBundled, RouteThroughAPivot) {
  const fs::path dir = fs::temp_directory_path() / ("edgemt_route_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const char* name : {"edgemt-xx-de.emt", "edgemt-xx-en.emt", "edgemt-de-yy.emt", "edgemt-en-yy.emt"})
    std::ofstream(dir / name) << "x";
  ASSERT_EQ(::setenv("EDGEMT_MODELS_DIR", dir.c_str(), 1), 0);
  const char* first = nullptr;
  const char* second = nullptr;
  ASSERT_EQ(edgemt_bundled_model_route("xx", "yy", &first, &second), EDGEMT_OK) << edgemt_last_error();
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(fs::path(first).filename(), "edgemt-xx-en.emt");  // English over German
  EXPECT_EQ(fs::path(second).filename(), "edgemt-en-yy.emt");
  ASSERT_EQ(edgemt_bundled_model_route("xx", "de", &first, &second), EDGEMT_OK) << edgemt_last_error();
  EXPECT_EQ(fs::path(first).filename(), "edgemt-xx-de.emt");
  EXPECT_EQ(second, nullptr);
  const char* path = nullptr;
  ASSERT_EQ(edgemt_bundled_model_path("de", nullptr, &path), EDGEMT_OK) << edgemt_last_error();
  EXPECT_EQ(fs::path(path).filename(), "edgemt-de-yy.emt");
  EXPECT_EQ(edgemt_bundled_model_route("xx", "xx", &first, &second), EDGEMT_NOT_FOUND);  // no round trip
  EXPECT_EQ(first, nullptr);
  EXPECT_EQ(edgemt_bundled_model_route("yy", "xx", &first, &second), EDGEMT_NOT_FOUND);
  EXPECT_NE(std::string(edgemt_last_error()).find("xx->de"), std::string::npos) << edgemt_last_error();
  EXPECT_EQ(edgemt_bundled_model_route("xx", "yy", &first, nullptr), EDGEMT_INVALID_ARGUMENT);
  ::unsetenv("EDGEMT_MODELS_DIR");
  ASSERT_EQ(edgemt_bundled_model_route("en", "de", &first, &second), EDGEMT_OK) << edgemt_last_error();
  EXPECT_EQ(fs::path(first).filename(), "edgemt-en-de.emt");
  EXPECT_EQ(edgemt_bundled_model_route("xx", "yy", &first, &second), EDGEMT_NOT_FOUND);
  fs::remove_all(dir);
}

}  // namespace
