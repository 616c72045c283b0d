// Concurrent translation gives exactly the single-threaded outputs:
//   - several Translators sharing one Model, translating in parallel std::threads;
//   - one Translator whose pool has 2-4 threads;
//   - both at once, and models loaded in parallel.
// scripts/test runs these (label "concurrency") under ThreadSanitizer too.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "runtime/api/translator.h"

namespace edgemt {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kSentences = {
    "The weather is nice today, so we are going to the lake.",
    "She bought 3 apples and 12 oranges at the market.",
    "Where is the train station?",
    "The file could not be opened.",
    "Please restart the computer and try again.",
    "",
    "I have never seen such a beautiful garden.",
    "Error: the disk is full.",
    "   ",
    "The children played in the park until it was dark, and then they went home for dinner.",
    "Thank you!",
    "We will meet at noon.",
};

std::string model_path(const char* name) {
  return (fs::path(EDGEMT_PARITY_BUILD_DIR) / name).string() + ".emt";
}

std::shared_ptr<const Model> load(const char* name) {
  auto m = Model::load(model_path(name));
  EXPECT_TRUE(m.has_value()) << m.status().to_string();
  return m ? m.value() : nullptr;
}

TranslatorOptions options(int threads) {
  TranslatorOptions o;
  o.max_batch = 4;
  o.max_target_length = 24;  // keeps runs under ThreadSanitizer short
  o.num_threads = threads;
  return o;
}

std::vector<std::string> translate(const std::shared_ptr<const Model>& model, int threads,
                                   const std::vector<std::string>& texts) {
  auto t = Translator::create(model, options(threads));
  EXPECT_TRUE(t.has_value()) << t.status().to_string();
  if (!t) return {};
  auto r = t.value()->translate(texts);
  EXPECT_TRUE(r.has_value()) << r.status().to_string();
  return r ? r.value() : std::vector<std::string>{};
}

class Concurrency : public ::testing::TestWithParam<const char*> {};

TEST_P(Concurrency, TranslatorsSharingOneModelInParallelThreads) {
  const auto model = load(GetParam());
  ASSERT_NE(model, nullptr);
  const std::vector<std::string> want = translate(model, 1, kSentences);
  ASSERT_EQ(want.size(), kSentences.size());

  constexpr int kThreads = 4;
  std::vector<std::vector<std::string>> got(kThreads);
  std::vector<std::vector<std::vector<int32_t>>> got_ids(kThreads);
  std::vector<std::string> errors(kThreads);
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      auto t = Translator::create(model, options(1));
      // Start together, so the translations overlap.
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();
      if (!t) {
        errors[i] = t.status().to_string();
        return;
      }
      for (int round = 0; round < 2; ++round) {
        auto r = t.value()->translate(kSentences);
        if (!r) {
          errors[i] = r.status().to_string();
          return;
        }
        if (round == 0)
          got[i] = r.value();
        else if (r.value() != got[i])
          errors[i] = "round 2 differs from round 1";
      }
      std::vector<std::vector<int32_t>> ids;
      for (const std::string& s : kSentences) {
        ids.emplace_back();
        if (!model->tokenizer().encode(s, &ids.back()).is_ok()) errors[i] = "encode failed";
      }
      const Status st = t.value()->translate_ids(ids, &got_ids[i]);
      if (!st.is_ok()) errors[i] = st.to_string();
    });
  }
  for (auto& th : threads) th.join();
  for (int i = 0; i < kThreads; ++i) {
    EXPECT_EQ(errors[i], "") << "thread " << i;
    EXPECT_EQ(got[i], want) << "thread " << i;
    EXPECT_EQ(got_ids[i], got_ids[0]) << "thread " << i;
  }
}

TEST_P(Concurrency, PoolThreadsGiveTheSingleThreadedOutputs) {
  const auto model = load(GetParam());
  ASSERT_NE(model, nullptr);
  const std::vector<std::string> want = translate(model, 1, kSentences);
  for (int threads : {2, 3, 4}) {
    SCOPED_TRACE(threads);
    auto t = Translator::create(model, options(threads));
    ASSERT_TRUE(t.has_value()) << t.status().to_string();
    for (int round = 0; round < 2; ++round) {
      auto r = t.value()->translate(kSentences);
      ASSERT_TRUE(r.has_value()) << r.status().to_string();
      EXPECT_EQ(r.value(), want);
    }
    // Beam and greedy search explicitly.
    for (int beam : {1, 2}) {
      TranslateOptions to;
      to.beam = beam;
      auto a = t.value()->translate(kSentences, to);
      auto b = Translator::create(model, options(1)).value()->translate(kSentences, to);
      ASSERT_TRUE(a.has_value() && b.has_value());
      EXPECT_EQ(a.value(), b.value()) << "beam " << beam;
    }
  }
}

TEST_P(Concurrency, PooledTranslatorsInParallelThreads) {
  const auto model = load(GetParam());
  ASSERT_NE(model, nullptr);
  const std::vector<std::string> want = translate(model, 1, kSentences);
  constexpr int kThreads = 2;
  std::vector<std::vector<std::string>> got(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] { got[i] = translate(model, 2, kSentences); });
  for (auto& th : threads) th.join();
  for (int i = 0; i < kThreads; ++i) EXPECT_EQ(got[i], want) << "thread " << i;
}

TEST_P(Concurrency, ModelsLoadedInParallel) {
  const auto reference = load(GetParam());
  ASSERT_NE(reference, nullptr);
  const std::vector<std::string> want = translate(reference, 1, {kSentences[0], kSentences[3]});
  const std::string path = model_path(GetParam());
  std::vector<std::vector<std::string>> got(3);
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i)
    threads.emplace_back([&, i] {
      const auto m = Model::load(path);
      if (m) got[i] = translate(m.value(), 1, {kSentences[0], kSentences[3]});
    });
  for (auto& th : threads) th.join();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(got[i], want) << "thread " << i;
}

// Cooperative cancellation (TranslateOptions::cancel): a flag set before a call fails it
// at once; one set by another thread while a long call runs stops it (kCancelled), in
// greedy and beam search; the translator then gives the outputs a fresh one gives.
TEST_P(Concurrency, CancelFlagStopsACallFromAnotherThread) {
  const auto model = load(GetParam());
  ASSERT_NE(model, nullptr);
  auto t = Translator::create(model, options(2));
  ASSERT_TRUE(t.has_value()) << t.status().to_string();
  Translator& tr = *t.value();
  std::vector<std::string> many;
  for (int i = 0; i < 4000; ++i)
    many.push_back(kSentences[static_cast<size_t>(i) % kSentences.size()] + " " + std::to_string(i));
  for (int beam : {1, 2}) {
    CancelFlag flag;
    TranslateOptions o;
    o.beam = beam;
    o.cancel = flag.flag();
    flag.cancel();
    auto before = tr.translate({kSentences[0]}, o);
    ASSERT_FALSE(before.has_value());
    EXPECT_EQ(before.status().code(), StatusCode::kCancelled) << before.status().to_string();
    flag.reset();
    std::thread canceller([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      flag.cancel();
    });
    auto during = tr.translate(many, o);
    canceller.join();
    ASSERT_FALSE(during.has_value()) << "beam " << beam << ": the call ended before the flag was set";
    EXPECT_EQ(during.status().code(), StatusCode::kCancelled);
    flag.reset();
    auto after = tr.translate(kSentences, o);
    ASSERT_TRUE(after.has_value()) << after.status().to_string();
    TranslateOptions plain;
    plain.beam = beam;
    auto fresh = Translator::create(model, options(2));
    ASSERT_TRUE(fresh.has_value());
    auto want = fresh.value()->translate(kSentences, plain);
    ASSERT_TRUE(want.has_value());
    EXPECT_EQ(after.value(), want.value()) << "beam " << beam;
  }
}

INSTANTIATE_TEST_SUITE_P(ParityModels, Concurrency,
                         ::testing::Values("m2_joint_swish_d40h4_untied", "m5_shared_gelu_d40h5"));

}  // namespace
}  // namespace edgemt
