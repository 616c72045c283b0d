#include "runtime/nmt/engine.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime/core/cancel.h"
#include "runtime/nmt/context.h"
#include "runtime/nmt/decoder.h"
#include "runtime/nmt/encoder.h"
#include "runtime/nmt/search/beam.h"
#include "runtime/nmt/search/greedy.h"
#include "runtime/nmt/search/search_state.h"
#include "runtime/nmt/source_batch.h"

namespace edgemt {

// The parts, wired together: the decoder reads the source batch and the rows search
// writes; search drives the decoder through the TokenScorer interface.
struct Engine::Impl {
  explicit Impl(const NmtContext& c)
      : context(c),
        encoder(context),
        search(context),
        decoder(context, source, search.rows),
        greedy(context, search),
        beam(context, search) {}

  NmtContext context;
  SourceBatch source;
  Encoder encoder;
  SearchState search;
  Decoder decoder;
  GreedySearch greedy;
  BeamSearch beam;
  size_t last_beam = 1;  // the last run's beam and sentences
  bool last_greedy_scores = false;
  size_t last_sentences = 0;
};

namespace {

Status check_limits(const ModelConfig& cfg, const EngineLimits& limits) {
  if (limits.max_batch < 1 || limits.max_batch > 4096)
    return invalid_argument("max batch " + std::to_string(limits.max_batch) + " is outside [1, 4096]");
  if (limits.max_beam < 1 || limits.max_beam > 32)
    return invalid_argument("max beam " + std::to_string(limits.max_beam) + " is outside [1, 32]");
  if (limits.max_source_length < 1 || limits.max_source_length > cfg.max_positions)
    return invalid_argument("max source length " + std::to_string(limits.max_source_length) +
                            " is outside [1, " + std::to_string(cfg.max_positions) +
                            "] (the model's positions)");
  if (limits.max_target_length < 1 || limits.max_target_length > cfg.max_positions)
    return invalid_argument("max target length " + std::to_string(limits.max_target_length) +
                            " is outside [1, " + std::to_string(cfg.max_positions) +
                            "] (the model's positions)");
  if (limits.num_threads < 1 || limits.num_threads > 256)
    return invalid_argument("thread count " + std::to_string(limits.num_threads) + " is outside [1, 256]");
  return Status::ok();
}

}  // namespace

Expected<std::unique_ptr<Engine>> Engine::create(std::shared_ptr<const Model> model,
                                                 const EngineLimits& limits, const ops::Kernels* isa,
                                                 const EngineProbes& probes) {
  if (model == nullptr) return invalid_argument("no model");
  EDGEMT_RETURN_IF_ERROR(check_limits(model->config(), limits));

  std::unique_ptr<Engine> e(new Engine());
  e->model_ = model;
  e->limits_ = limits;
  e->pool_ = std::make_unique<ThreadPool>(limits.num_threads);

  NmtContext c;
  c.model = model.get();
  c.config = &model->config();
  c.weights = &model->weights();
  c.kernels = isa != nullptr ? isa : &ops::kernels();
  c.pool = e->pool_.get();
  c.profiler = &e->profiler_;
  c.dims = make_dims(*model, limits);
  c.limits = limits;
  c.probes = probes;
  // Per thread: one sentence-head's packed keys (encoder) and the scores of one query.
  const Dims& d = c.dims;
  const size_t kb = ops::kKeyBlock;
  const size_t longest = std::max(d.max_source, d.max_target + 1);
  c.scratch_floats_per_thread =
      align_up(d.source_key_blocks * d.encoder_head_dim * kb + 4 * align_up(longest, kb), 16);
  e->impl_ = std::make_unique<Impl>(c);
  Impl& m = *e->impl_;

  ArenaLayout layout;
  m.source.declare(layout, d);
  m.encoder.declare(layout);
  layout.add(&m.context.attention_scratch, "attention scratch",
             static_cast<size_t>(limits.num_threads) * m.context.scratch_floats_per_thread, kPhaseEncode,
             kPhaseDecode);
  m.decoder.declare(layout);
  m.search.declare(layout);
  m.beam.declare(layout);
  EDGEMT_RETURN_IF_ERROR(layout.allocate(e->arena_));
  e->plan_text_ = layout.planner().describe();
  e->planned_unshared_ = layout.planner().unshared_bytes();
  return e;
}

Engine::~Engine() = default;

std::string Engine::describe_plan() const { return plan_text_; }

const float* Engine::last_encoder_output() const { return impl_->encoder.output(); }

size_t Engine::hypothesis_count(size_t s) const {
  const Impl& m = *impl_;
  if (s >= m.last_sentences) return 0;
  if (m.last_beam == 1) return 1;
  return std::max<size_t>(1, m.beam.hypothesis_count(s));
}

std::span<const int32_t> Engine::hypothesis(size_t s, size_t i) const {
  const Impl& m = *impl_;
  if (i >= hypothesis_count(s)) return {};
  if (m.last_beam == 1 || m.beam.hypothesis_count(s) == 0) return m.search.result(s);
  return m.beam.hypothesis(s, i);
}

float Engine::hypothesis_score(size_t s, size_t i) const {
  const Impl& m = *impl_;
  if (i >= hypothesis_count(s)) return std::numeric_limits<float>::quiet_NaN();
  if (m.last_beam == 1)
    return m.last_greedy_scores ? m.search.output_scores[s] : std::numeric_limits<float>::quiet_NaN();
  if (m.beam.hypothesis_count(s) == 0) return std::numeric_limits<float>::quiet_NaN();
  return m.beam.hypothesis_score(s, i);
}

std::span<const float> Engine::hypothesis_logprobs(size_t s, size_t i) const {
  const Impl& m = *impl_;
  if (i >= hypothesis_count(s)) return {};
  if (m.last_beam == 1 || m.beam.hypothesis_count(s) == 0) return m.search.result_logprobs(s);
  return m.beam.hypothesis_logprobs(s, i);
}

std::span<const int32_t> Engine::hypothesis_alignment(size_t s, size_t i) const {
  const Impl& m = *impl_;
  if (i >= hypothesis_count(s)) return {};
  if (m.last_beam == 1 || m.beam.hypothesis_count(s) == 0) return m.search.result_sources(s);
  return m.beam.hypothesis_sources(s, i);
}

size_t Engine::shortlist_columns() const { return impl_->decoder.shortlist_columns(); }

const float* Engine::first_logits(int row) const {
  const float* first = impl_->decoder.first_logits();
  return first == nullptr ? nullptr : first + static_cast<size_t>(row) * impl_->context.dims.target_vocab;
}

Status Engine::run(std::span<const std::span<const int32_t>> sources, const SearchParams& params,
                   std::span<std::span<const int32_t>> results) {
  Impl& m = *impl_;
  const Dims& d = m.context.dims;
  const size_t n = sources.size();
  if (n == 0) return Status::ok();
  if (n > d.max_batch)
    return out_of_range("batch of " + std::to_string(n) + " sentences exceeds the limit of " +
                        std::to_string(d.max_batch));
  if (results.size() < n) return invalid_argument("results has room for fewer sentences than sources");
  if (params.beam < 1 || static_cast<size_t>(params.beam) > d.max_beam)
    return invalid_argument("beam " + std::to_string(params.beam) + " is outside [1, " +
                            std::to_string(d.max_beam) + "]");
  if (params.max_new_tokens < 1 || static_cast<size_t>(params.max_new_tokens) > d.max_target)
    return invalid_argument("max new tokens " + std::to_string(params.max_new_tokens) + " is outside [1, " +
                            std::to_string(d.max_target) + "]");
  if (!(params.max_length_factor >= 0.0f) || !std::isfinite(params.max_length_factor))
    return invalid_argument("max length factor must be a finite number >= 0");
  if (params.sampling_topk < 1 || params.sampling_topk > kMaxSamplingTopK)
    return invalid_argument("sampling top-k " + std::to_string(params.sampling_topk) + " is outside [1, " +
                            std::to_string(kMaxSamplingTopK) + "]");
  if (params.sampling_topk > 1 && params.beam != 1) return invalid_argument("sampling needs beam 1");
  if (!(params.sampling_temperature > 0.0f) || !std::isfinite(params.sampling_temperature))
    return invalid_argument("sampling temperature must be a finite number > 0");
  const int layers = static_cast<int>(d.decoder_layers);
  if (params.alignment_layer < -1 || params.alignment_layer >= layers)
    return invalid_argument("alignment layer " + std::to_string(params.alignment_layer) +
                            " is outside [-1, " + std::to_string(layers - 1) + "]");
  if (params.alignment_head < -1 || params.alignment_head >= static_cast<int>(d.decoder_heads))
    return invalid_argument("alignment head " + std::to_string(params.alignment_head) + " is outside [-1, " +
                            std::to_string(d.decoder_heads - 1) + "]");
  const std::span<const std::span<const int32_t>> forced = params.forced_targets;
  if (!forced.empty()) {
    if (forced.size() < n) return invalid_argument("forced decoding needs one target per source");
    if (params.beam != 1 || params.sampling_topk != 1)
      return invalid_argument("forced decoding needs beam 1 and no sampling");
    for (size_t s = 0; s < n; ++s) {
      if (forced[s].size() + 1 > static_cast<size_t>(params.max_new_tokens))
        return out_of_range("target " + std::to_string(s) + " has " + std::to_string(forced[s].size()) +
                            " tokens; at most " + std::to_string(params.max_new_tokens - 1) +
                            " can be scored");
      for (int32_t id : forced[s])
        if (id < 0 || id >= static_cast<int32_t>(d.target_vocab))
          return out_of_range("target id " + std::to_string(id) + " is outside the target vocabulary (" +
                              std::to_string(d.target_vocab) + ")");
    }
  }
  if (CancelFlag::is_set(params.cancel)) return cancelled("the translation was cancelled");
  EDGEMT_RETURN_IF_ERROR(m.source.fill(sources, d, m.context.config->source_vocab_size));

  m.encoder.run(m.source);
  m.decoder.prepare(m.encoder.output(), m.encoder.quant());
  // Decode-phase memory (it may share bytes with the encoder's buffers): built now.
  m.search.build_shortlist(sources, params.use_shortlist && forced.empty());
  if (params.sampling_topk > 1) m.search.seed_sentences(sources, params.seed);
  m.decoder.prepare_shortlist(m.search.shortlist_mask, n, m.search.shortlist_active);
  // Each sentence's length limit; the search runs until the longest allows.
  size_t max_new = 0;
  for (size_t s = 0; s < n; ++s) {
    int64_t lim = params.max_new_tokens;
    if (!forced.empty()) {
      lim = static_cast<int64_t>(forced[s].size()) + 1;
    } else if (params.max_length_factor > 0.0f) {
      const double rel =
          std::ceil(static_cast<double>(params.max_length_factor) * static_cast<double>(sources[s].size()));
      lim = std::clamp<int64_t>(static_cast<int64_t>(std::min(rel, 1e9)) + params.max_length_offset, 1, lim);
    }
    m.search.max_new[s] = static_cast<int32_t>(lim);
    max_new = std::max(max_new, static_cast<size_t>(lim));
  }
  m.decoder.set_alignment(
      !params.alignments
          ? -1
          : (params.alignment_layer >= 0 ? params.alignment_layer : default_alignment_layer(layers)),
      params.alignment_head);
  m.last_beam = static_cast<size_t>(params.beam);
  m.last_greedy_scores = params.greedy_scores || !forced.empty();
  m.last_sentences = n;
  if (params.beam == 1) {
    m.greedy.run(n, max_new, params, m.decoder);
  } else {
    m.beam.run(n, max_new, params, m.decoder);
  }
  // Stopped within its steps: what it has is incomplete.
  if (CancelFlag::is_set(params.cancel)) return cancelled("the translation was cancelled");
  for (size_t s = 0; s < n; ++s) results[s] = m.search.result(s);
  return Status::ok();
}

}  // namespace edgemt
