// Reranking with a reverse model (Translator::set_reranker) on the bundled models: the
// translation chosen is, among the beam's hypotheses (found without a reranker), the one
// with the best score + weight * the reverse model's per-token log-probability of the
// source given it (computed here through the public scoring call); n-best lists come in
// that order; weight 0 and greedy search change nothing; wrong directions and weights are
// refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "runtime/api/translator.h"

namespace edgemt {
namespace {

const std::string kModels = EDGEMT_MODELS_SOURCE_DIR;

const std::vector<std::string> kSentences = {
    "The cat sat on the mat.",
    "I would like a cup of coffee, please.",
    "Where is the nearest train station?",
    "My brother has been living in Berlin for three years.",
    "Could you close the window? It is cold in here.",
    "Perl module for replicating events to several event handlers",
    "The file could not be opened because it is read-only.",
    "We are going to the beach tomorrow if it does not rain.",
    "Please restart the computer after the installation.",
    "She forgot her umbrella at the restaurant.",
};

std::unique_ptr<Translator> make(const std::string& pair, int beam) {
  TranslatorOptions o;
  o.max_batch = 8;
  o.max_beam = beam;
  auto t = Translator::create(kModels + "/edgemt-" + pair + ".emt", o);
  EXPECT_TRUE(t.has_value()) << t.status().to_string();
  return t.has_value() ? std::move(t.value()) : nullptr;
}

TranslateOptions plain(int beam) {
  TranslateOptions o;
  o.beam = beam;
  o.split_sentences = false;
  o.protect_spans = false;  // the hypotheses' texts are the decoded outputs
  return o;
}

// The reranked choice computed from the outside: among the hypotheses within
// kRerankMargin * weight of the best search score, the best search score + weight * the
// reverse model's per-token score of the source given it. -1 where the two best are too
// close to call (float noise).
std::vector<int> expected_choice(Translator* reverse, const std::vector<ScoredText>& found, float weight,
                                 const std::vector<std::string>& sources) {
  std::vector<int> choice;
  for (size_t i = 0; i < found.size(); ++i) {
    const std::vector<ScoredTranslation>& hyps = found[i].hypotheses;
    std::vector<std::string> back_src, back_tgt;
    for (const ScoredTranslation& h : hyps) {
      back_src.push_back(h.text);
      back_tgt.push_back(sources[i]);
    }
    auto lps = reverse->score(back_src, back_tgt);
    EXPECT_TRUE(lps.has_value()) << lps.status().to_string();
    if (!lps.has_value()) return {};
    // Candidates: within kRerankMargin * weight of the best search score.
    float best = hyps[0].score;
    for (const ScoredTranslation& h : hyps) best = std::max(best, h.score);
    std::vector<double> combined;
    for (size_t h = 0; h < hyps.size(); ++h) {
      double sum = 0.0;
      for (float x : lps.value()[h]) sum += x;
      const bool candidate = hyps[h].score >= best - Translator::kRerankMargin * weight;
      combined.push_back(candidate ? hyps[h].score + weight * sum / static_cast<double>(lps.value()[h].size())
                                   : -1e30);
    }
    std::vector<double> sorted = combined;
    std::sort(sorted.rbegin(), sorted.rend());
    if (sorted.size() > 1 && sorted[0] - sorted[1] < 1e-4) {
      choice.push_back(-1);
      continue;
    }
    choice.push_back(static_cast<int>(std::max_element(combined.begin(), combined.end()) - combined.begin()));
  }
  return choice;
}

TEST(Rerank, ChoosesTheBestForwardPlusBackwardScore) {
  auto fwd = make("en-de", 4);
  auto back = make("de-en", 1);
  ASSERT_NE(fwd, nullptr);
  ASSERT_NE(back, nullptr);
  const TranslateOptions o = plain(4);
  auto found = fwd->translate_scored(kSentences, 4, o);
  ASSERT_TRUE(found.has_value()) << found.status().to_string();
  auto unranked = fwd->translate(kSentences, o);
  ASSERT_TRUE(unranked.has_value());

  for (float weight : {0.5f, 3.0f}) {
    SCOPED_TRACE("weight " + std::to_string(weight));
    const std::vector<int> want = expected_choice(back.get(), found.value(), weight, kSentences);
    ASSERT_EQ(want.size(), kSentences.size());
    ASSERT_TRUE(fwd->set_reranker(make("de-en", 1), weight).is_ok());
    auto got = fwd->translate(kSentences, o);
    ASSERT_TRUE(got.has_value()) << got.status().to_string();
    auto nbest = fwd->translate_nbest(kSentences, 4, o);
    ASSERT_TRUE(nbest.has_value());
    size_t changed = 0, checked = 0;
    for (size_t i = 0; i < kSentences.size(); ++i) {
      const std::vector<ScoredTranslation>& hyps = found.value()[i].hypotheses;
      // The n-best list: the same hypotheses, the translation first.
      ASSERT_EQ(nbest.value()[i].size(), hyps.size()) << kSentences[i];
      EXPECT_EQ(nbest.value()[i][0], got.value()[i]) << kSentences[i];
      std::vector<std::string> a = nbest.value()[i], b;
      for (const ScoredTranslation& h : hyps) b.push_back(h.text);
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      EXPECT_EQ(a, b) << kSentences[i];
      if (want[i] < 0) continue;
      ++checked;
      EXPECT_EQ(got.value()[i], hyps[static_cast<size_t>(want[i])].text) << kSentences[i];
      if (want[i] != 0) ++changed;
    }
    EXPECT_GE(checked, kSentences.size() - 2);
    // A heavy weight changes some choices (else this test could not tell reranking on from off).
    if (weight > 1.0f) {
      EXPECT_GT(changed, 0u);
    }
  }

  // Weight 0 for a call, and greedy search: the search's own translations.
  TranslateOptions off = o;
  off.rerank_weight = 0.0f;
  auto zero = fwd->translate(kSentences, off);
  ASSERT_TRUE(zero.has_value());
  EXPECT_EQ(zero.value(), unranked.value());
  auto greedy_plain = make("en-de", 4)->translate(kSentences, plain(1));
  auto greedy = fwd->translate(kSentences, plain(1));
  ASSERT_TRUE(greedy_plain.has_value() && greedy.has_value());
  EXPECT_EQ(greedy.value(), greedy_plain.value());
  // Removing the reranker.
  ASSERT_TRUE(fwd->set_reranker(nullptr).is_ok());
  auto again = fwd->translate(kSentences, o);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again.value(), unranked.value());
}

// Documents and split text go through the same reranking: a two-sentence text is its two
// sentences' reranked translations, and HTML keeps its tags.
TEST(Rerank, TextsAndDocuments) {
  auto fwd = make("en-de", 4);
  ASSERT_NE(fwd, nullptr);
  ASSERT_TRUE(fwd->set_reranker(make("de-en", 1), 3.0f).is_ok());
  TranslateOptions o;
  o.beam = 4;
  auto one = fwd->translate({kSentences[0], kSentences[1]}, o);
  auto both = fwd->translate({kSentences[0] + " " + kSentences[1]}, o);
  ASSERT_TRUE(one.has_value() && both.has_value());
  EXPECT_EQ(both.value()[0], one.value()[0] + " " + one.value()[1]);
  TranslateOptions html = o;
  html.format = TextFormat::kHtml;
  auto page = fwd->translate({"<p>" + kSentences[2] + "</p>"}, html);
  ASSERT_TRUE(page.has_value()) << page.status().to_string();
  auto sentence = fwd->translate({kSentences[2]}, o);
  ASSERT_TRUE(sentence.has_value());
  EXPECT_EQ(page.value()[0], "<p>" + sentence.value()[0] + "</p>");
}

// Sentences too long for the reverse model's limits keep the search's order, and every
// call still gets as many hypotheses as it asked for.
TEST(Rerank, PairsBeyondTheReverseLimitsKeepTheSearchOrder) {
  auto fwd = make("en-de", 4);
  ASSERT_NE(fwd, nullptr);
  TranslatorOptions ro;
  ro.max_beam = 1;
  ro.max_target_length = 4;  // no sentence here fits
  auto back = Translator::create(kModels + "/edgemt-de-en.emt", ro);
  ASSERT_TRUE(back.has_value()) << back.status().to_string();
  const TranslateOptions o = plain(4);
  auto want = fwd->translate_nbest(kSentences, 2, o);
  ASSERT_TRUE(want.has_value());
  ASSERT_TRUE(fwd->set_reranker(std::move(back.value()), 3.0f).is_ok());
  for (size_t count : {size_t{1}, size_t{2}}) {
    auto got = fwd->translate_nbest(kSentences, count, o);
    ASSERT_TRUE(got.has_value()) << got.status().to_string();
    for (size_t i = 0; i < kSentences.size(); ++i) {
      ASSERT_EQ(got.value()[i].size(), std::min(count, want.value()[i].size())) << kSentences[i];
      for (size_t h = 0; h < got.value()[i].size(); ++h) EXPECT_EQ(got.value()[i][h], want.value()[i][h]);
    }
  }
}

TEST(Rerank, RefusesWrongDirectionsAndWeights) {
  auto fwd = make("en-de", 4);
  ASSERT_NE(fwd, nullptr);
  // A model of the same direction cannot score the source given the translation.
  Status st = fwd->set_reranker(make("en-de", 1));
  EXPECT_FALSE(st.is_ok());
  EXPECT_NE(st.message().find("translates en to de, not de to en"), std::string::npos) << st.message();
  for (float w : {-1.0f, std::nanf(""), INFINITY}) {
    st = fwd->set_reranker(make("de-en", 1), w);
    EXPECT_FALSE(st.is_ok()) << w;
  }
  EXPECT_EQ(fwd->reranker(), nullptr);
  // A weight asked for without a reranker is an error, not silently ignored.
  TranslateOptions o = plain(4);
  o.rerank_weight = 1.0f;
  auto t = fwd->translate({kSentences[0]}, o);
  ASSERT_FALSE(t.has_value());
  EXPECT_NE(t.status().message().find("without a reranker"), std::string::npos) << t.status().message();
  ASSERT_TRUE(fwd->set_reranker(make("de-en", 1)).is_ok());
  o.rerank_weight = -0.5f;
  EXPECT_FALSE(fwd->translate({kSentences[0]}, o).has_value());
  EXPECT_FLOAT_EQ(fwd->rerank_weight(), Translator::kDefaultRerankWeight);
}

}  // namespace
}  // namespace edgemt
