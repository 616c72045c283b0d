// edgemt-bench-translate: whole-translation benchmark through the public API.
//
//   edgemt-bench-translate --model FILE [--input FILE] [--ids] [--threads N] [--beam N]
//                          [--max-length N] [--batch N] [--warmup N] [--repeat N]
//                          [--latency N] [--load-repeats N] [--cold-load]
//                          [--output-ids FILE] [--profile]
//   edgemt-bench-translate --gbench [--model FILE] [--input FILE] [--ids] [--threads N]
//                          [--beam N] [--max-length N] [google benchmark flags]
//
// Default mode: loads the model (edgemt::Model::load; with --cold-load after evicting the
// file from the page cache), creates one edgemt::Translator (its arena planned for
// --batch sentences, --beam, --max-length), reads the sentences (text lines, tokenized
// with the model's tokenizer before any timing, or --ids lines of source ids), then
//   1. warm-up: translates the first --warmup sentences;
//   2. throughput: translates the whole file with translate_ids at --batch sentences
//      per batch (the API sorts by length and batches), --repeat times, median time;
//   3. latency: translates the first --latency sentences (default all) one by one
//      (batch 1), per-sentence wall time, p50/p90;
// and prints one JSON object on standard output: model file size, load time, arena
// bytes, generated token counts, tokens/s, latency percentiles, peak RSS (getrusage)
// (VmHWM) and CPU time. --output-ids writes the throughput pass's output ids, one line per input
// sentence (bench/compare/compare.py compares them with the other engines').
// Tokenization is not timed (reported separately as tokenize_ms).
//
// --gbench mode runs Google Benchmark cases instead: BM_ModelLoad (Model::load of the
// file, warm page cache), BM_TranslatorCreate (arena planning + thread pool),
// BM_TranslateSentence (one sentence, batch 1) and BM_TranslateFile/batch:B (all
// sentences; a tokens/s counter). Without --input it uses a few built-in sentences.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "runtime/api/translator.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kUsage = R"(usage: edgemt-bench-translate [--gbench] [options]

Whole-translation benchmark of an edgemt model; prints one JSON object (see the top of
bench/translate_bench.cc). With --gbench, runs Google Benchmark cases instead (model
load, translator creation, one sentence, the whole file); unknown --benchmark_* flags
are passed to Google Benchmark.

options:
  --model FILE        model file (.emt); default $EDGEMT_MODEL or the bundled model
  --input FILE        sentences, one per line (default: standard input; --gbench:
                      built-in sentences)
  --ids               input lines are source token ids (with the final eos)
  --threads N         worker threads (default 1)
  --beam N            beam size (default 1)
  --max-length N      max generated tokens incl. eos (default: the model's)
  --batch N           sentences per batch for the throughput pass (default 8)
  --warmup N          sentences translated before timing (default 5)
  --repeat N          throughput passes; the median is reported (default 1)
  --latency N         sentences for the batch-1 latency pass (default all, 0: skip)
  --load-repeats N    extra warm Model::load calls, median reported (default 5)
  --cold-load         evict the model file from the page cache before the first load
  --output-ids FILE   write the throughput pass's output ids, one line per sentence
  --profile           per-op profile of the throughput pass on standard error
  --help              show this help
)";

const char* kBuiltinSentences[] = {
    "The file could not be opened.",
    "Where is the nearest train station?",
    "Please close the window before you leave the house.",
    "An error occurred while saving the document; the changes were not saved.",
    "Select the files you want to copy and press the button.",
    "The weather is nice today, so we are going to the lake.",
    "Although the train arrived forty minutes late, nobody on the platform could explain why.",
    "Thank you!",
};

struct Args {
  std::string model;
  std::string input;
  std::string output_ids;
  bool ids = false;
  int threads = 1;
  int beam = 1;
  int max_length = 0;
  int batch = 8;
  int warmup = 5;
  int repeat = 1;
  int latency = -1;
  int load_repeats = 5;
  bool cold_load = false;
  bool profile = false;
  bool gbench = false;
};

bool parse_int(const char* s, int lo, int hi, int* out) {
  if (s == nullptr || *s == '\0') return false;
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(s, &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi) return false;
  *out = static_cast<int>(v);
  return true;
}

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "edgemt-bench-translate: %s\n", msg.c_str());
  std::exit(1);
}

// Parses our options; leaves anything else (Google Benchmark's flags) in `rest`.
// Returns -1 to continue, else an exit code.
int parse_args(int argc, char** argv, Args* a, std::vector<char*>* rest) {
  rest->push_back(argv[0]);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) die(arg + " needs a value");
      return argv[++i];
    };
    auto int_value = [&](int lo, int hi, int* out) {
      const char* v = value();
      if (!parse_int(v, lo, hi, out))
        die(arg + " expects an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got '" +
            v + "'");
    };
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (arg == "--model") {
      a->model = value();
    } else if (arg == "--input") {
      a->input = value();
    } else if (arg == "--output-ids") {
      a->output_ids = value();
    } else if (arg == "--ids") {
      a->ids = true;
    } else if (arg == "--threads") {
      int_value(1, 256, &a->threads);
    } else if (arg == "--beam") {
      int_value(1, 32, &a->beam);
    } else if (arg == "--max-length") {
      int_value(1, 1 << 20, &a->max_length);
    } else if (arg == "--batch") {
      int_value(1, 4096, &a->batch);
    } else if (arg == "--warmup") {
      int_value(0, 1 << 20, &a->warmup);
    } else if (arg == "--repeat") {
      int_value(1, 1000, &a->repeat);
    } else if (arg == "--latency") {
      int_value(0, 1 << 20, &a->latency);
    } else if (arg == "--load-repeats") {
      int_value(0, 1000, &a->load_repeats);
    } else if (arg == "--cold-load") {
      a->cold_load = true;
    } else if (arg == "--profile") {
      a->profile = true;
    } else if (arg == "--gbench") {
      a->gbench = true;
    } else if (arg.rfind("--benchmark_", 0) == 0) {
      rest->push_back(argv[i]);
    } else {
      die("unknown option " + arg + " (see --help)");
    }
  }
  return -1;
}

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Linear interpolation between closest ranks (numpy's default).
double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const double pos = p / 100.0 * static_cast<double>(v.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

double median(std::vector<double> v) { return percentile(std::move(v), 50.0); }

// CPU time (user + system, all threads) of this process so far, in seconds.
double cpu_seconds() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

// Peak resident set of this process image in KiB: VmHWM from /proc/self/status (unlike
// getrusage's ru_maxrss, it does not include the RSS of the process that exec'ed us).
long peak_rss_kib() {
  FILE* f = std::fopen("/proc/self/status", "r");
  long kib = -1;
  if (f != nullptr) {
    char line[256];
    while (std::fgets(line, sizeof line, f) != nullptr)
      if (std::strncmp(line, "VmHWM:", 6) == 0) kib = std::strtol(line + 6, nullptr, 10);
    std::fclose(f);
  }
  if (kib < 0) {
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    kib = ru.ru_maxrss;
  }
  return kib;
}

// Drops the file's pages from the page cache (clean pages only; no root needed).
void evict_from_page_cache(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return;
  fdatasync(fd);
  posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  close(fd);
}

bool parse_ids(const std::string& line, std::vector<int32_t>* ids) {
  ids->clear();
  const char* p = line.c_str();
  const char* end = p + line.size();
  while (p < end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
    if (p >= end) break;
    char* q = nullptr;
    errno = 0;
    const long v = std::strtol(p, &q, 10);
    if (q == p || errno != 0 || v < 0 || v > INT32_MAX) return false;
    ids->push_back(static_cast<int32_t>(v));
    p = q;
  }
  return true;
}

std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream f;
  std::istream* in = &std::cin;
  if (!path.empty() && path != "-") {
    f.open(path);
    if (!f) die("cannot read " + path);
    in = &f;
  }
  std::string line;
  while (std::getline(*in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

// Source ids of every non-empty input line (text is tokenized with the model's tokenizer).
std::vector<std::vector<int32_t>> load_sources(const Args& a, const edgemt::Model& model, bool builtin_ok,
                                               double* tokenize_ms) {
  std::vector<std::string> lines;
  if (a.input.empty() && builtin_ok) {
    lines.assign(std::begin(kBuiltinSentences), std::end(kBuiltinSentences));
  } else {
    lines = read_lines(a.input);
  }
  std::vector<std::vector<int32_t>> sources;
  const auto t0 = Clock::now();
  for (size_t i = 0; i < lines.size(); ++i) {
    std::vector<int32_t> ids;
    if (a.ids) {
      if (!parse_ids(lines[i], &ids))
        die("input line " + std::to_string(i + 1) + " is not a list of token ids");
      if (ids.empty()) continue;
    } else {
      const edgemt::Status st = model.tokenizer().encode(lines[i], &ids);
      if (!st.is_ok()) die("tokenizing line " + std::to_string(i + 1) + ": " + st.to_string());
      if (ids.size() <= 1) continue;  // empty line
    }
    sources.push_back(std::move(ids));
  }
  *tokenize_ms = a.ids ? 0.0 : ms_since(t0);
  if (sources.empty()) die("no input sentences");
  return sources;
}

std::shared_ptr<const edgemt::Model> load_model(const std::string& path) {
  auto m = edgemt::Model::load(path);
  if (!m) die(m.status().to_string());
  return std::move(m.value());
}

std::unique_ptr<edgemt::Translator> make_translator(const std::shared_ptr<const edgemt::Model>& model,
                                                    const Args& a, int max_batch) {
  edgemt::TranslatorOptions o;
  o.max_batch = max_batch;
  o.max_beam = a.beam;
  o.max_target_length = a.max_length;
  o.num_threads = a.threads;
  auto t = edgemt::Translator::create(model, o);
  if (!t) die(t.status().to_string());
  return std::move(t.value());
}

edgemt::TranslateOptions translate_options(const Args& a) {
  edgemt::TranslateOptions o;
  if (a.beam > 0) o.beam = a.beam;
  if (a.max_length > 0) o.max_length = a.max_length;
  return o;
}

size_t count_tokens(const std::vector<std::vector<int32_t>>& v) {
  size_t n = 0;
  for (const auto& x : v) n += x.size();
  return n;
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      o += buf;
    } else {
      o += c;
    }
  }
  return o;
}

int run_report(const Args& a) {
  // Load: first (cold with --cold-load), then warm repeats.
  if (a.cold_load) evict_from_page_cache(a.model);
  auto t0 = Clock::now();
  std::shared_ptr<const edgemt::Model> model = load_model(a.model);
  const double load_ms = ms_since(t0);
  std::vector<double> warm_loads;
  for (int i = 0; i < a.load_repeats; ++i) {
    t0 = Clock::now();
    auto m = load_model(a.model);
    warm_loads.push_back(ms_since(t0));
  }
  t0 = Clock::now();
  std::unique_ptr<edgemt::Translator> tr = make_translator(model, a, a.batch);
  const double create_ms = ms_since(t0);

  double tokenize_ms = 0.0;
  const std::vector<std::vector<int32_t>> sources = load_sources(a, *model, false, &tokenize_ms);
  const edgemt::TranslateOptions opt = translate_options(a);
  const auto params = tr->resolve(opt);
  if (!params) die(params.status().to_string());

  std::vector<std::vector<int32_t>> results;
  // Warm-up (also faults the mapped model in).
  double first_ms = 0.0;
  if (a.warmup > 0) {
    std::vector<std::vector<int32_t>> w(
        sources.begin(), sources.begin() + std::min<size_t>(sources.size(), static_cast<size_t>(a.warmup)));
    t0 = Clock::now();
    const edgemt::Status st = tr->translate_ids({w.front()}, &results, opt);
    first_ms = ms_since(t0);
    if (!st.is_ok()) die(st.to_string());
    const edgemt::Status st2 = tr->translate_ids(w, &results, opt);
    if (!st2.is_ok()) die(st2.to_string());
  }

  // Throughput over the whole file.
  tr->profiler().set_enabled(a.profile);
  std::vector<double> pass_s;
  std::vector<std::vector<int32_t>> outputs;
  const double tp_cpu0 = cpu_seconds();
  for (int r = 0; r < a.repeat; ++r) {
    if (a.profile && r == a.repeat - 1) tr->profiler().reset();
    t0 = Clock::now();
    const edgemt::Status st = tr->translate_ids(sources, &outputs, opt);
    pass_s.push_back(ms_since(t0) / 1000.0);
    if (!st.is_ok()) die(st.to_string());
  }
  if (a.profile) {
    std::fprintf(stderr,
                 "per-op profile of the last throughput pass (isa %s, %d thread%s, batch %d, beam %d):\n%s",
                 edgemt::active_isa(), a.threads, a.threads == 1 ? "" : "s", a.batch, params.value().beam,
                 tr->profiler().report().c_str());
    tr->profiler().set_enabled(false);
  }
  const double tp_cpu = (cpu_seconds() - tp_cpu0) / a.repeat;
  const double tp_s = median(pass_s);
  const size_t tp_tokens = count_tokens(outputs);
  if (!a.output_ids.empty()) {
    FILE* f = std::fopen(a.output_ids.c_str(), "w");
    if (f == nullptr) die("cannot write " + a.output_ids);
    for (const auto& o : outputs) {
      for (size_t i = 0; i < o.size(); ++i) std::fprintf(f, i == 0 ? "%d" : " %d", o[i]);
      std::fputc('\n', f);
    }
    std::fclose(f);
  }

  // Latency: one sentence at a time.
  const size_t nlat =
      a.latency < 0 ? sources.size() : std::min(sources.size(), static_cast<size_t>(a.latency));
  std::vector<double> lat_ms;
  size_t lat_tokens = 0;
  std::vector<std::vector<int32_t>> one(1);
  const double lat_cpu0 = cpu_seconds();
  for (size_t i = 0; i < nlat; ++i) {
    one[0] = sources[i];
    t0 = Clock::now();
    const edgemt::Status st = tr->translate_ids(one, &results, opt);
    lat_ms.push_back(ms_since(t0));
    if (!st.is_ok()) die(st.to_string());
    lat_tokens += results[0].size();
  }

  const double lat_cpu = cpu_seconds() - lat_cpu0;
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  const double user_s = static_cast<double>(ru.ru_utime.tv_sec) + ru.ru_utime.tv_usec / 1e6;
  const double sys_s = static_cast<double>(ru.ru_stime.tv_sec) + ru.ru_stime.tv_usec / 1e6;
  double lat_mean = 0.0;
  for (double v : lat_ms) lat_mean += v;
  if (!lat_ms.empty()) lat_mean /= static_cast<double>(lat_ms.size());

  std::printf("{\n");
  std::printf("  \"engine\": \"edgemt\",\n");
  std::printf("  \"model\": \"%s\",\n", json_escape(a.model).c_str());
  std::printf("  \"file_bytes\": %zu,\n", model->file_bytes());
  std::printf("  \"weights\": \"%s\",\n", model->is_quantized() ? "int8" : "float32");
  std::printf("  \"isa\": \"%s\",\n", edgemt::active_isa());
  std::printf("  \"threads\": %d,\n  \"beam\": %d,\n  \"batch\": %d,\n  \"max_length\": %d,\n", a.threads,
              params.value().beam, a.batch, params.value().max_new_tokens);
  std::printf("  \"load_ms\": %.3f,\n  \"load_cold\": %s,\n  \"load_ms_warm_median\": %.3f,\n", load_ms,
              a.cold_load ? "true" : "false", warm_loads.empty() ? load_ms : median(warm_loads));
  std::printf("  \"translator_create_ms\": %.3f,\n  \"first_sentence_ms\": %.3f,\n", create_ms, first_ms);
  std::printf("  \"arena_bytes\": %zu,\n", tr->arena_bytes());
  std::printf("  \"sentences\": %zu,\n  \"source_tokens\": %zu,\n  \"tokenize_ms\": %.3f,\n", sources.size(),
              count_tokens(sources), tokenize_ms);
  std::printf(
      "  \"throughput\": {\"passes\": %d, \"seconds\": %.6f, \"target_tokens\": %zu, \"tokens_per_s\": %.3f, "
      "\"sentences_per_s\": %.3f, \"cpu_s\": %.3f},\n",
      a.repeat, tp_s, tp_tokens, tp_s > 0 ? tp_tokens / tp_s : 0.0, tp_s > 0 ? sources.size() / tp_s : 0.0,
      tp_cpu);
  std::printf(
      "  \"latency\": {\"sentences\": %zu, \"target_tokens\": %zu, \"p50_ms\": %.3f, \"p90_ms\": %.3f, "
      "\"mean_ms\": %.3f, \"max_ms\": %.3f, \"cpu_s\": %.3f},\n",
      lat_ms.size(), lat_tokens, percentile(lat_ms, 50), percentile(lat_ms, 90), lat_mean,
      lat_ms.empty() ? 0.0 : *std::max_element(lat_ms.begin(), lat_ms.end()), lat_cpu);
  std::printf(
      "  \"peak_rss_kib\": %ld,\n  \"ru_maxrss_kib\": %ld,\n  \"cpu_user_s\": %.3f,\n  \"cpu_sys_s\": "
      "%.3f\n}\n",
      peak_rss_kib(), ru.ru_maxrss, user_s, sys_s);
  return 0;
}

// ---------------------------------------------------------------------------------
// Google Benchmark mode.
// ---------------------------------------------------------------------------------
struct GbenchState {
  Args args;
  std::shared_ptr<const edgemt::Model> model;
  std::vector<std::vector<int32_t>> sources;
};
GbenchState* g_state = nullptr;

void BM_ModelLoad(benchmark::State& state) {
  for (auto _ : state) {
    auto m = edgemt::Model::load(g_state->args.model);
    if (!m) {
      state.SkipWithError(m.status().to_string().c_str());
      return;
    }
    benchmark::DoNotOptimize(m.value().get());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(g_state->model->file_bytes()));
  state.counters["file_MiB"] = static_cast<double>(g_state->model->file_bytes()) / 1048576.0;
}

void BM_TranslatorCreate(benchmark::State& state) {
  const int batch = static_cast<int>(state.range(0));
  size_t arena = 0;
  for (auto _ : state) {
    auto t = make_translator(g_state->model, g_state->args, batch);
    arena = t->arena_bytes();
    benchmark::DoNotOptimize(t.get());
  }
  state.counters["arena_MiB"] = static_cast<double>(arena) / 1048576.0;
}

void BM_TranslateSentence(benchmark::State& state) {
  auto tr = make_translator(g_state->model, g_state->args, 1);
  const edgemt::TranslateOptions opt = translate_options(g_state->args);
  std::vector<std::vector<int32_t>> one{g_state->sources.front()}, out;
  size_t tokens = 0;
  for (auto _ : state) {
    const edgemt::Status st = tr->translate_ids(one, &out, opt);
    if (!st.is_ok()) {
      state.SkipWithError(st.to_string().c_str());
      return;
    }
    tokens += out[0].size();
  }
  state.counters["tokens/s"] = benchmark::Counter(static_cast<double>(tokens), benchmark::Counter::kIsRate);
}

void BM_TranslateFile(benchmark::State& state) {
  const int batch = static_cast<int>(state.range(0));
  auto tr = make_translator(g_state->model, g_state->args, batch);
  const edgemt::TranslateOptions opt = translate_options(g_state->args);
  std::vector<std::vector<int32_t>> out;
  size_t tokens = 0;
  for (auto _ : state) {
    const edgemt::Status st = tr->translate_ids(g_state->sources, &out, opt);
    if (!st.is_ok()) {
      state.SkipWithError(st.to_string().c_str());
      return;
    }
    tokens += count_tokens(out);
  }
  state.counters["tokens/s"] = benchmark::Counter(static_cast<double>(tokens), benchmark::Counter::kIsRate);
  state.counters["sentences/s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * g_state->sources.size()), benchmark::Counter::kIsRate);
}

int run_gbench(const Args& a, std::vector<char*> rest) {
  GbenchState st;
  st.args = a;
  st.model = load_model(a.model);
  double tokenize_ms = 0.0;
  st.sources = load_sources(a, *st.model, true, &tokenize_ms);
  g_state = &st;
  benchmark::RegisterBenchmark("BM_ModelLoad", BM_ModelLoad)->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_TranslatorCreate", BM_TranslatorCreate)
      ->Arg(1)
      ->Arg(a.batch)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_TranslateSentence", BM_TranslateSentence)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("BM_TranslateFile", BM_TranslateFile)
      ->ArgName("batch")
      ->Arg(a.batch)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  int argc = static_cast<int>(rest.size());
  rest.push_back(nullptr);
  benchmark::Initialize(&argc, rest.data());
  benchmark::AddCustomContext("model", a.model);
  benchmark::AddCustomContext("model_bytes", std::to_string(st.model->file_bytes()));
  benchmark::AddCustomContext("isa", edgemt::active_isa());
  benchmark::AddCustomContext(
      "threads/beam/max_length",
      std::to_string(a.threads) + "/" + std::to_string(a.beam) + "/" + std::to_string(a.max_length));
  benchmark::AddCustomContext("sentences", std::to_string(st.sources.size()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  g_state = nullptr;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  std::vector<char*> rest;
  if (const int rc = parse_args(argc, argv, &a, &rest); rc >= 0) return rc;
  if (a.model.empty()) {
    a.model = edgemt::default_model_path();
    if (a.model.empty()) die("no --model given and the bundled model was not found (set EDGEMT_MODEL)");
  }
  if (a.gbench) return run_gbench(a, rest);
  if (rest.size() > 1) die(std::string("Google Benchmark flags need --gbench: ") + rest[1]);
  return run_report(a);
}
