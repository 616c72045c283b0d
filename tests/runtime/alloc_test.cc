// Zero heap allocation after a translator is created: malloc/calloc/realloc/free and
// every operator new/delete are replaced by counting versions, and many translations
// (different lengths, greedy and beam, batch 1 and > 1, 1 and 2 threads) must not call
// any of them. Not built under sanitizers (they replace the allocator themselves).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <new>
#include <vector>

#include "edgemt.h"
#include "runtime/api/translator.h"

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_calls{0};
inline void count() {
  if (g_counting.load(std::memory_order_relaxed)) g_calls.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

static void edgemt_count_allocation() { count(); }
#include "tests/common/counting_malloc.h"

void* operator new(size_t n) {
  count();
  void* p = __libc_malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new[](size_t n) { return operator new(n); }
void* operator new(size_t n, std::align_val_t a) {
  count();
  void* p = __libc_memalign(static_cast<size_t>(a), n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new[](size_t n, std::align_val_t a) { return operator new(n, a); }
void operator delete(void* p) noexcept {
  if (p != nullptr) count();
  __libc_free(p);
}
void operator delete[](void* p) noexcept { operator delete(p); }
void operator delete(void* p, size_t) noexcept { operator delete(p); }
void operator delete[](void* p, size_t) noexcept { operator delete(p); }
void operator delete(void* p, std::align_val_t) noexcept { operator delete(p); }
void operator delete[](void* p, std::align_val_t) noexcept { operator delete(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { operator delete(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { operator delete(p); }

namespace edgemt {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> models() {
  std::vector<fs::path> v;
  for (const auto& e : fs::directory_iterator(EDGEMT_PARITY_BUILD_DIR))
    if (e.path().extension() == ".emt") v.push_back(e.path());
  std::sort(v.begin(), v.end());
  return v;
}

TEST(NoAllocation, CountingAllocatorSeesAllocations) {
  // The counters work: a vector allocates.
  g_calls = 0;
  g_counting = true;
  {
    std::vector<int> v(100);
    v[0] = 1;
  }
  g_counting = false;
  EXPECT_GE(g_calls.load(), 2);
}

TEST(NoAllocation, TranslatingIdsAllocatesNothing) {
  const auto files = models();
  ASSERT_FALSE(files.empty()) << "no converted parity models in " << EDGEMT_PARITY_BUILD_DIR;
  for (const fs::path& f : files) {
    for (int threads : {1, 2}) {
      SCOPED_TRACE(f.filename().string() + ", threads " + std::to_string(threads));
      auto model = Model::load(f.string());
      ASSERT_TRUE(model.has_value()) << model.status().to_string();
      TranslatorOptions o;
      o.max_batch = 4;
      o.max_beam = 4;
      o.max_source_length = 48;
      o.max_target_length = 24;
      o.num_threads = threads;
      auto tr = Translator::create(model.value(), o);
      ASSERT_TRUE(tr.has_value()) << tr.status().to_string();
      Translator& t = *tr.value();
      const int32_t eos = model.value()->config().eos_id;
      const int32_t vocab = model.value()->config().source_vocab_size;
      ASSERT_EQ(eos, 0);
      // Inputs prepared before counting: lengths 1 .. 48.
      std::vector<std::vector<int32_t>> src;
      for (int len : {1, 2, 5, 17, 33, 48}) {
        std::vector<int32_t> s;
        // Ordinary pieces: ids 2 .. vocab-2 (0 is eos, 1 unk, vocab-1 pad in these models).
        for (int i = 0; i + 1 < len; ++i) s.push_back(2 + (i * 7 + len) % (vocab - 3));
        s.push_back(eos);
        src.push_back(s);
      }
      std::vector<std::span<const int32_t>> in(4), out(4);
      TranslateOptions greedy, beam, beam2;
      greedy.beam = 1;
      beam.beam = 4;
      beam2.beam = 2;
      beam2.max_length = 10;
      g_calls = 0;
      g_counting = true;
      long translations = 0;
      for (int rep = 0; rep < 3; ++rep) {
        for (size_t first = 0; first < src.size(); ++first) {
          for (size_t batch : {1, 3, 4}) {
            for (size_t i = 0; i < batch; ++i) in[i] = src[(first + i) % src.size()];
            for (const TranslateOptions* opt : {&greedy, &beam, &beam2}) {
              const Status st =
                  t.translate_batch_ids(std::span(in.data(), batch), std::span(out.data(), batch), *opt);
              if (!st.is_ok()) {
                g_counting = false;
                FAIL() << st.to_string();
              }
              ++translations;
            }
          }
        }
      }
      g_counting = false;
      EXPECT_EQ(g_calls.load(), 0) << "heap calls during " << translations << " translations";
      EXPECT_GT(translations, 100);
    }
  }
}

// The id calls that take any number of sequences (Translator::translate_ids into
// IdSequences, the C API's edgemt_translate_ids) allocate nothing once their buffers have
// grown to the largest call: the same sequences in another order, fewer of them, repeated
// ones, chunked ones (longer than max_source_length) go through buffers shared by the
// whole call, not one per place in it.
struct IdCalls {
  std::vector<std::vector<int32_t>> pool;  // lengths 1 .. 48 (chunked above 16)
  std::vector<std::vector<size_t>> calls;  // each a list of pool indices
  std::vector<std::vector<std::span<const int32_t>>> spans;
  std::vector<std::vector<const int32_t*>> ptrs;
  std::vector<std::vector<size_t>> lengths;
  size_t warmups = 0;  // calls[0 .. warmups) grow the buffers; the rest are counted
};

IdCalls id_calls(int32_t eos, int32_t vocab) {
  IdCalls c;
  for (int len : {1, 2, 5, 17, 33, 48, 9, 31}) {
    std::vector<int32_t> s;
    for (int i = 0; i + 1 < len; ++i) s.push_back(2 + (i * 11 + len * 3) % (vocab - 3));
    s.push_back(eos);
    c.pool.push_back(s);
  }
  const size_t n = c.pool.size();
  std::vector<size_t> all(n), twice;
  for (size_t i = 0; i < n; ++i) all[i] = i;
  for (size_t i = 0; i < n; ++i) twice.insert(twice.end(), {i, i});
  c.calls.push_back(twice);  // every sequence twice: the largest call
  c.calls.push_back(all);
  c.warmups = c.calls.size();
  for (size_t r = 0; r < n; r += 2) {  // rotations, reversed, windows, back-to-back repeats
    std::vector<size_t> rot, rev, window, repeat;
    for (size_t i = 0; i < n; ++i) rot.push_back((r + i) % n);
    rev.assign(rot.rbegin(), rot.rend());
    for (size_t i = 0; i <= r % 4; ++i) window.push_back((n - 1 - r + i) % n);
    for (size_t i = 0; i < 3; ++i) repeat.insert(repeat.end(), {(r + i) % n, (r + i) % n});
    for (auto* v : {&rot, &rev, &window, &repeat}) c.calls.push_back(*v);
  }
  for (const auto& call : c.calls) {
    c.spans.emplace_back();
    c.ptrs.emplace_back();
    c.lengths.emplace_back();
    for (size_t i : call) {
      c.spans.back().emplace_back(c.pool[i]);
      c.ptrs.back().push_back(c.pool[i].data());
      c.lengths.back().push_back(c.pool[i].size());
    }
  }
  return c;
}

TEST(NoAllocation, IdCallsAllocateNothingWhateverTheOrder) {
  const auto files = models();
  ASSERT_FALSE(files.empty()) << "no converted parity models in " << EDGEMT_PARITY_BUILD_DIR;
  for (const fs::path& f : files) {
    for (int threads : {1, 2}) {
      SCOPED_TRACE(f.filename().string() + ", threads " + std::to_string(threads));
      auto model = Model::load(f.string());
      ASSERT_TRUE(model.has_value()) << model.status().to_string();
      const IdCalls calls =
          id_calls(model.value()->config().eos_id, model.value()->config().source_vocab_size);
      TranslatorOptions o;
      o.max_batch = 4;
      o.max_beam = 4;
      o.max_source_length = 16;
      o.max_target_length = 24;
      o.num_threads = threads;
      auto tr = Translator::create(model.value(), o);
      ASSERT_TRUE(tr.has_value()) << tr.status().to_string();
      Translator& t = *tr.value();
      edgemt_model* cm = nullptr;
      ASSERT_EQ(edgemt_model_load(f.c_str(), &cm), EDGEMT_OK) << edgemt_last_error();
      edgemt_translator_options co;
      edgemt_translator_options_init(&co);
      co.max_batch = 4;
      co.max_beam = 4;
      co.max_source_length = 16;
      co.max_target_length = 24;
      co.num_threads = threads;
      edgemt_translator* ct = nullptr;
      ASSERT_EQ(edgemt_translator_create(cm, &co, &ct), EDGEMT_OK) << edgemt_last_error();
      IdSequences out;
      for (int beam : {1, 4}) {
        SCOPED_TRACE("beam " + std::to_string(beam));
        TranslateOptions opt;
        opt.beam = beam;
        edgemt_translate_options copt;
        edgemt_translate_options_init(&copt);
        copt.beam = beam;
        std::vector<std::vector<int32_t>> seen(calls.pool.size());
        long translations = 0;
        g_calls = 0;
        for (size_t k = 0; k < calls.calls.size(); ++k) {
          g_counting = k >= calls.warmups;
          const Status st = t.translate_ids(calls.spans[k], &out, opt);
          const int32_t* const* cids = nullptr;
          const size_t* clen = nullptr;
          const edgemt_status cs = edgemt_translate_ids(ct, calls.ptrs[k].data(), calls.lengths[k].data(),
                                                        calls.ptrs[k].size(), &copt, &cids, &clen);
          g_counting = false;
          ASSERT_TRUE(st.is_ok()) << st.to_string();
          ASSERT_EQ(cs, EDGEMT_OK) << edgemt_last_error();
          ASSERT_EQ(out.size(), calls.calls[k].size());
          // Both give a sequence the same translation, wherever it stands in whichever call.
          for (size_t i = 0; i < out.size(); ++i) {
            const std::vector<int32_t> got(out[i].begin(), out[i].end());
            ASSERT_EQ(got, std::vector<int32_t>(cids[i], cids[i] + clen[i]))
                << "call " << k << ", sequence " << i;
            std::vector<int32_t>& first = seen[calls.calls[k][i]];
            if (k == 0 && i % 2 == 0) first = got;
            ASSERT_EQ(got, first) << "call " << k << ", sequence " << i;
          }
          translations += k >= calls.warmups ? 1 : 0;
        }
        EXPECT_EQ(g_calls.load(), 0) << "heap calls during " << translations
                                     << " id calls (Translator::translate_ids and edgemt_translate_ids)";
        EXPECT_GE(translations, 16);
      }
      edgemt_translator_free(ct);
      edgemt_model_free(cm);
    }
  }
}

TEST(WeightsInPlace, EveryWeightPointerLiesInTheMapping) {
  for (const fs::path& f : models()) {
    auto model = Model::load(f.string());
    ASSERT_TRUE(model.has_value());
    const Model& m = *model.value();
    const uint8_t* lo = m.file_data();
    const uint8_t* hi = lo + m.file_bytes();
    auto inside = [&](const void* p) {
      const auto* b = static_cast<const uint8_t*>(p);
      return p == nullptr || (b >= lo && b < hi);
    };
    const ModelWeights& w = m.weights();
    int checked = 0;
    auto lin = [&](const LinearWeights& l) {
      EXPECT_TRUE(inside(l.w) && inside(l.w8) && inside(l.scales) && inside(l.row_sums) && inside(l.bias));
      EXPECT_EQ(reinterpret_cast<uintptr_t>(l.w != nullptr ? static_cast<const void*>(l.w) : l.w8) % 64, 0u);
      ++checked;
    };
    auto norm = [&](const NormWeights& n) {
      EXPECT_TRUE(inside(n.gamma) && inside(n.beta));
      ++checked;
    };
    EXPECT_TRUE(inside(w.source_embed.f32) && inside(w.source_embed.i8));
    EXPECT_TRUE(inside(w.target_embed.f32) && inside(w.source_positions) && inside(w.target_positions));
    EXPECT_TRUE(inside(w.final_logits_bias));
    for (const auto& l : w.encoder) {
      lin(l.qkv);
      lin(l.out);
      lin(l.fc1);
      lin(l.fc2);
      norm(l.self_norm);
      norm(l.final_norm);
    }
    for (const auto& l : w.decoder) {
      lin(l.qkv);
      lin(l.out);
      lin(l.cross_q);
      lin(l.cross_kv);
      lin(l.cross_out);
      lin(l.fc1);
      lin(l.fc2);
      norm(l.self_norm);
      norm(l.cross_norm);
      norm(l.final_norm);
    }
    if (!w.output_tied) lin(w.output);
    EXPECT_GT(checked, 5);
  }
}

}  // namespace
}  // namespace edgemt
