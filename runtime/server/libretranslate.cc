#include "runtime/server/libretranslate.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "runtime/api/model_input.h"
#include "runtime/api/word_alignment.h"
#include "runtime/core/utf8.h"
#include "runtime/formats/document_format.h"
#include "runtime/formats/html_document.h"
#include "runtime/formats/pdf_text.h"
#include "runtime/formats/xml_tree.h"
#include "runtime/text/language_id.h"
#include "runtime/text/language_names.h"
#include "runtime/text/markup.h"
#include "runtime/text/protected_spans.h"
#include "runtime/text/text_encoding.h"

namespace edgemt::server {
namespace {

using json = nlohmann::json;

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// What /translate_file takes (frontend/settings' supportedFilesFormat): the format
// table's extensions (runtime/formats/format_list.h), and PDFs (their text comes back).
const std::vector<std::string>& file_extensions() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> e;
    for (const DocumentFormat& f : document_formats())
      for (const FileExtension& x : f.extensions)
        if (std::find(e.begin(), e.end(), x.extension) == e.end()) e.emplace_back(x.extension);
    e.emplace_back(".pdf");
    return e;
  }();
  return all;
}

HttpResponse reply(int status, const json& body, int retry_after = 0) {
  HttpResponse r;
  r.status = status;
  r.body = dump(body);
  r.retry_after_s = retry_after;
  return r;
}

HttpResponse error(int status, const std::string& message, int retry_after = 0) {
  return reply(status, json{{"error", message}}, retry_after);
}

std::string url_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out.push_back(' ');
    } else if (s[i] == '%' && i + 2 < s.size() && hex_digit_value(s[i + 1]) >= 0 &&
               hex_digit_value(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex_digit_value(s[i + 1]) * 16 + hex_digit_value(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

// The fields of a /translate request, from JSON or form fields.
struct Fields {
  std::vector<std::string> q;
  bool q_is_list = false;
  bool has_q = false;
  std::string source, target, format = "text", api_key;
  int alternatives = 0;
};

// A JSON value as a string field (strings as they are, numbers and booleans written out).
std::optional<std::string> as_string(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  return std::nullopt;
}

// "" or a message.
std::string parse_alternatives(const std::string& s, int* out) {
  if (s.empty() || s.size() > 3 ||
      !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return "alternatives must be a small non-negative integer, not '" + s.substr(0, 32) + "'";
  *out = std::stoi(s);
  return "";
}

std::string fields_from_json(const json& body, Fields* f) {
  if (!body.is_object()) return "the JSON body must be an object";
  if (auto it = body.find("q"); it != body.end()) {
    f->has_q = true;
    if (it->is_array()) {
      f->q_is_list = true;
      for (const json& x : *it) {
        if (!x.is_string()) return "q must be a string or a list of strings";
        f->q.push_back(x.get<std::string>());
      }
    } else if (it->is_string()) {
      f->q.push_back(it->get<std::string>());
    } else {
      return "q must be a string or a list of strings";
    }
  }
  for (const auto& [key, dst] : {std::pair<const char*, std::string*>{"source", &f->source},
                                 {"target", &f->target},
                                 {"format", &f->format},
                                 {"api_key", &f->api_key}}) {
    auto it = body.find(key);
    if (it == body.end() || it->is_null()) continue;
    auto s = as_string(*it);
    if (!s) return std::string(key) + " must be a string";
    *dst = *s;
  }
  if (auto it = body.find("alternatives"); it != body.end() && !it->is_null()) {
    auto s = as_string(*it);
    if (!s) return "alternatives must be an integer";
    return parse_alternatives(*s, &f->alternatives);
  }
  return "";
}

std::string fields_from_params(const std::vector<std::pair<std::string, std::string>>& params, Fields* f) {
  for (const auto& [k, v] : params) {
    if (k == "q" || k == "q[]") {
      if (f->has_q && k == "q" && !f->q_is_list) {
        f->q_is_list = true;  // q given several times: a list
      }
      if (k == "q[]") f->q_is_list = true;
      f->has_q = true;
      f->q.push_back(v);
    } else if (k == "source") {
      f->source = v;
    } else if (k == "target") {
      f->target = v;
    } else if (k == "format") {
      f->format = v;
    } else if (k == "api_key") {
      f->api_key = v;
    } else if (k == "alternatives") {
      if (std::string e = parse_alternatives(v, &f->alternatives); !e.empty()) return e;
    }
  }
  return "";
}

bool starts_with_ci(const std::string& s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  return true;
}

// This thread's sentence splitter for a language (request threads each keep their own:
// a splitter is not thread-safe, and making one costs more than splitting a request).
// nullptr only if none can be made.
SentenceSplitter* sentence_splitter(const std::string& language) {
  thread_local std::vector<std::pair<std::string, std::unique_ptr<SentenceSplitter>>> cache;
  for (auto& [lang, s] : cache)
    if (lang == language) return s.get();
  auto s = SentenceSplitter::create(language);
  if (!s) return nullptr;
  if (cache.size() >= 16) cache.erase(cache.begin());  // bounded: languages come from requests
  cache.emplace_back(language, std::move(s.value()));
  return cache.back().second.get();
}

}  // namespace

std::vector<std::pair<std::string, std::string>> parse_form(std::string_view body) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t start = 0;
  while (start <= body.size()) {
    size_t amp = body.find('&', start);
    if (amp == std::string_view::npos) amp = body.size();
    const std::string_view kv = body.substr(start, amp - start);
    if (!kv.empty()) {
      const size_t eq = kv.find('=');
      if (eq == std::string_view::npos) {
        out.emplace_back(url_decode(kv), "");
      } else {
        out.emplace_back(url_decode(kv.substr(0, eq)), url_decode(kv.substr(eq + 1)));
      }
    }
    start = amp + 1;
  }
  return out;
}

std::string language_name(const std::string& code) {
  const LanguageName* n = code.find_first_of("-_") == std::string::npos ? language_name_of(code) : nullptr;
  return n != nullptr ? std::string(n->english) : code;
}

HttpResponse LibreTranslateApi::handle(const HttpRequest& req) const {
  try {
    const bool get = req.method == "GET" || req.method == "HEAD";
    const bool post = req.method == "POST";
    if (req.path == "/translate") return post ? translate(req) : error(405, "use POST for /translate");
    if (req.path == "/languages") return get || post ? languages() : error(405, "use GET for /languages");
    if (req.path == "/frontend/settings")
      return get ? settings() : error(405, "use GET for /frontend/settings");
    if (req.path == "/health") return get ? health() : error(405, "use GET for /health");
    if (req.path == "/detect") return post ? detect(req) : error(405, "use POST for /detect");
    if (req.path == "/translate_file" && options_.file_char_limit > 0)
      return post ? translate_file(req) : error(405, "use POST for /translate_file");
    if (req.path.rfind("/download_file/", 0) == 0 && options_.file_char_limit > 0)
      return get ? download_file(req) : error(405, "use GET for /download_file");
    if (req.path == "/translate_file" || req.path == "/suggest")
      return error(501, req.path + " is not available on this server");
    return error(404, "Not found: " + req.path.substr(0, 200));
  } catch (const std::exception& e) {  // allocation failure and the like: an answer, not a crash
    return error(500, std::string("internal error: ") + e.what());
  }
}

std::vector<std::pair<std::string, double>> LibreTranslateApi::guess_source(const std::string& text,
                                                                            const std::string& target) const {
  // Each candidate: CLD2's share of the text in its language (0 when CLD2 did not name it),
  // and its models' vocabulary coverage of the text.
  struct Candidate {
    std::string code;
    int identified = 0;
    double coverage = 0.0;
  };
  std::vector<Candidate> cands;
  const auto& models = service_.models();
  for (size_t i = 0; i < models.size(); ++i) {
    if (!target.empty() && service_.route(models[i].source, target).empty()) continue;
    const double c = 100.0 * service_.source_coverage(static_cast<int>(i), text);
    auto it = std::find_if(cands.begin(), cands.end(),
                           [&](const Candidate& x) { return x.code == models[i].source; });
    if (it == cands.end()) {
      cands.push_back({models[i].source, 0, c});
    } else {
      it->coverage = std::max(it->coverage, c);
    }
  }
  // Names left out where that leaves enough to tell ("Müller and Schröder met in
  // Düsseldorf." is English); else the whole text.
  std::vector<LanguageGuess> guesses = identify_languages(without_names(text));
  if (guesses.empty()) guesses = identify_languages(text);
  bool identified = false;
  for (const LanguageGuess& g : guesses) {
    for (Candidate& x : cands) {
      if (primary_language(x.code) == g.code) {
        x.identified = std::max(x.identified, g.percent);
        identified = true;
      }
    }
  }
  // Identified languages first, by their share of the text, each with that share as its
  // confidence, then the others (confidence 0); without an identified one, coverage alone.
  std::stable_sort(cands.begin(), cands.end(), [](const Candidate& a, const Candidate& b) {
    return a.identified != b.identified ? a.identified > b.identified : a.coverage > b.coverage;
  });
  std::vector<std::pair<std::string, double>> out;
  for (const Candidate& x : cands) out.emplace_back(x.code, identified ? x.identified : x.coverage);
  return out;
}

// The fields of a /translate or /detect request (JSON body, form body or query); "" or an error.
static std::string read_fields(const HttpRequest& req, Fields* f) {
  if (starts_with_ci(req.content_type, "application/json")) {
    const json body = json::parse(req.body, nullptr, /*allow_exceptions=*/false);
    if (body.is_discarded()) return "the body is not valid JSON";
    return fields_from_json(body, f);
  }
  std::vector<std::pair<std::string, std::string>> params = req.params;
  if (starts_with_ci(req.content_type, "application/x-www-form-urlencoded")) {
    auto form = parse_form(req.body);
    params.insert(params.end(), form.begin(), form.end());
  }
  return fields_from_params(params, f);
}

HttpResponse LibreTranslateApi::detect(const HttpRequest& req) const {
  Fields f;
  if (std::string bad = read_fields(req, &f); !bad.empty()) return error(400, "Invalid request: " + bad);
  if (!options_.api_keys.empty() && options_.api_keys.count(f.api_key) == 0)
    return error(403, f.api_key.empty() ? "Please provide an API key (api_key)" : "Invalid API key");
  if (!f.has_q || f.q.size() != 1) return error(400, "Invalid request: missing q parameter (one string)");
  if (count_chars(f.q[0]) > options_.char_limit)
    return error(413,
                 "Invalid request: request exceeds text limit (" + std::to_string(options_.char_limit) + ")");
  json out = json::array();
  for (const auto& [code, c] : guess_source(f.q[0], ""))
    out.push_back({{"language", code}, {"confidence", c}});
  return reply(200, out);
}

HttpResponse LibreTranslateApi::languages() const {
  // Every language served as a source, with its targets, then target-only languages.
  json out = json::array();
  std::vector<std::string> codes;
  for (const ModelEntry& m : service_.models()) {
    if (std::find(codes.begin(), codes.end(), m.source) == codes.end()) codes.push_back(m.source);
  }
  for (const ModelEntry& m : service_.models()) {
    if (std::find(codes.begin(), codes.end(), m.target) == codes.end()) codes.push_back(m.target);
  }
  for (const std::string& c : codes) {
    // Those of a model first, then those reached through a pivot language.
    std::vector<std::string> targets;
    for (const ModelEntry& m : service_.models())
      if (m.source == c) targets.push_back(m.target);
    for (const std::string& t : codes)
      if (std::find(targets.begin(), targets.end(), t) == targets.end() && service_.route(c, t).size() == 2)
        targets.push_back(t);
    out.push_back({{"code", c}, {"name", language_name(c)}, {"targets", targets}});
  }
  return reply(200, out);
}

HttpResponse LibreTranslateApi::settings() const {
  json langs = json::parse(languages().body);
  json first_source = service_.models().empty() ? json()
                                                : json{{"code", service_.models()[0].source},
                                                       {"name", language_name(service_.models()[0].source)}};
  json first_target = service_.models().empty() ? json()
                                                : json{{"code", service_.models()[0].target},
                                                       {"name", language_name(service_.models()[0].target)}};
  return reply(200, json{{"charLimit", options_.char_limit},
                         {"frontendTimeout", options_.timeout.count()},
                         {"apiKeys", !options_.api_keys.empty()},
                         {"keyRequired", !options_.api_keys.empty()},
                         {"suggestions", false},
                         {"filesTranslation", options_.file_char_limit > 0},
                         {"supportedFilesFormat",
                          options_.file_char_limit > 0 ? json(file_extensions()) : json::array()},
                         {"language", {{"source", first_source}, {"target", first_target}}}});
}

HttpResponse LibreTranslateApi::health() const {
  const ServiceStats s = service_.stats();
  return reply(200, json{{"status", "ok"},
                         {"models", service_.models().size()},
                         {"queued_segments", s.queued},
                         {"batches", s.batches},
                         {"segments", s.segments},
                         {"rejected_busy", s.rejected},
                         {"largest_batch", s.max_batch_seen},
                         {"cache_hits", s.cache_hits},
                         {"repeated_segments", s.repeats},
                         {"joined_segments", s.joined},
                         {"cancelled_batches", s.cancelled_batches},
                         {"cached_segments", s.cached},
                         {"cached_bytes", s.cached_bytes}});
}

// One model's translations of `qs` (in `source`, the model's source language; HTML
// documents when `html`): per text its best translation, then up to `alternatives`
// alternatives. A refusal or failure becomes the HTTP answer in `refused`.
Expected<std::vector<std::vector<std::string>>> LibreTranslateApi::translate_with(
    int model, const std::string& source, const std::vector<std::string>& qs, int alternatives, bool html,
    std::chrono::steady_clock::time_point deadline, std::optional<HttpResponse>& refused) const {
  // Plain texts to their translations: each text cut into segments (lines, sentences),
  // all of them one job for the service; per text its best translation, then its
  // alternatives (alternative k: each segment's k-th, or its best where it has fewer).
  // A refusal or failure becomes the HTTP answer in `refused`.
  SentenceSplitter* splitter = sentence_splitter(source);
  // One job for `qs`: each text cut into segments (lines, sentences) with their protected
  // spans left in place; a segment whose spans did not all come through (spans_kept) is
  // translated again in a second job with markers for them. False (with `refused` set)
  // when refused, timed out or failed.
  struct Run {
    std::vector<Segmented> docs;
    std::vector<ProtectedSentence> kept;  // each sentence's protected spans (URLs, %s, ...)
    std::vector<Job::Segment> segs;       // each sentence's translation
  };
  auto submit = [&](const std::vector<std::string>& texts, bool align,
                    std::vector<Job::Segment>* segs) -> Status {
    TranslationService::Submitted sub = service_.submit(model, texts, align ? 0 : alternatives, align);
    using R = TranslationService::Submitted::Refusal;
    switch (sub.refusal) {
      case R::kNone:
        break;
      case R::kBusy:
      case R::kStopping:
        refused = error(503, sub.message, options_.retry_after_s);
        break;
      case R::kTooLarge:
        refused = error(413, "Invalid request: " + sub.message);
        break;
      case R::kBadRequest:
        refused = error(400, "Invalid request: " + sub.message);
        break;
    }
    if (refused) return Status(StatusCode::kInvalidArgument, "refused");
    if (!sub.job->wait_until(deadline)) {
      refused = error(503,
                      "the translation did not finish within " +
                          std::to_string(options_.timeout.count() / 1000.0).substr(0, 5) +
                          " s (server busy); retry later",
                      options_.retry_after_s);
      return Status(StatusCode::kInvalidArgument, "timed out");
    }
    if (Status st = sub.job->status(); !st.is_ok()) {
      refused = error(500, "translation failed: " + st.message());
      return st;
    }
    *segs = sub.job->segments();
    return Status::ok();
  };
  const Tokenizer& tok = service_.tokenizer(model);
  auto run_job = [&](const std::vector<std::string>& qs, bool align, Run* run) -> Status {
    std::vector<std::string> texts, pieces;
    for (const std::string& q : qs) {
      // Soft hyphens and the other break hints go first, as in the Translator.
      run->docs.push_back(segment_text(has_break_hints(q) ? without_break_hints(q) : q));
      if (splitter != nullptr) split_sentences(&run->docs.back(), *splitter);
      for (size_t i : run->docs.back().text) {
        pieces.push_back(run->docs.back().pieces[i]);
        run->kept.push_back(protect_for_model(tok, pieces.back(), nullptr, true, SpanMode::kInPlace));
        texts.push_back(run->kept.back().verbatim ? std::string() : run->kept.back().text);
      }
    }
    EDGEMT_RETURN_IF_ERROR(submit(texts, align, &run->segs));
    // Segments whose best translation lost a span are translated again with markers, as
    // the Translator does. Where only alternatives lost one, the best stays (asking for
    // alternatives does not change the answer) and the alternatives are drawn again:
    // those that kept their spans, then the marker job's hypotheses that do.
    std::vector<size_t> redo, redo_alts;
    for (size_t k = 0; k < run->segs.size() && k < run->kept.size(); ++k) {
      const ProtectedSentence& p = run->kept[k];
      const Job::Segment& sg = run->segs[k];
      if (p.in_place.empty() || p.verbatim || sg.ids.empty()) continue;
      if (!spans_kept(sg.text, p)) {
        redo.push_back(k);
        continue;
      }
      bool kept = true;
      for (size_t a = 0; kept && a < sg.alternatives.size(); ++a) kept = spans_kept(sg.alternatives[a], p);
      if (!kept) (p.markers.empty() ? redo_alts : redo).push_back(k);
    }
    if (redo.empty() && redo_alts.empty()) return Status::ok();
    std::vector<size_t> all = redo;
    all.insert(all.end(), redo_alts.begin(), redo_alts.end());
    std::vector<ProtectedSentence> marked;
    std::vector<std::string> again;
    for (size_t k : all) {
      marked.push_back(protect_for_model(tok, pieces[k], nullptr, true, SpanMode::kMarkers));
      again.push_back(marked.back().text);
    }
    std::vector<Job::Segment> segs;
    EDGEMT_RETURN_IF_ERROR(submit(again, align, &segs));
    for (size_t r = 0; r < all.size() && r < segs.size(); ++r) {
      const size_t k = all[r];
      if (r < redo.size()) {
        run->kept[k] = std::move(marked[r]);
        run->segs[k] = std::move(segs[r]);
        continue;
      }
      // The in-place best stays; run->kept[k] has no markers, so restoring it changes
      // nothing and the alternatives below are stored restored already.
      Job::Segment& sg = run->segs[k];
      const size_t want = sg.alternatives.size();
      std::vector<std::string> alts;
      auto add = [&](std::string x) {
        if (alts.size() < want && x != sg.text && spans_kept(x, run->kept[k]) &&
            std::find(alts.begin(), alts.end(), x) == alts.end())
          alts.push_back(std::move(x));
      };
      for (const std::string& x : sg.alternatives) add(x);
      add(restore_spans(segs[r].text, marked[r]));
      for (const std::string& x : segs[r].alternatives) add(restore_spans(x, marked[r]));
      sg.alternatives = std::move(alts);
    }
    return Status::ok();
  };
  auto translate_texts =
      [&](const std::vector<std::string>& qs) -> Expected<std::vector<std::vector<std::string>>> {
    Run run;
    EDGEMT_RETURN_IF_ERROR(run_job(qs, false, &run));
    const std::vector<Job::Segment>& segs = run.segs;
    std::vector<std::vector<std::string>> out;
    size_t at = 0;
    for (const Segmented& doc : run.docs) {
      std::vector<std::string> best;
      size_t n_alt = 0;
      for (size_t i = 0; i < doc.text.size(); ++i) {
        best.push_back(restore_spans(segs[at + i].text, run.kept[at + i]));
        n_alt = std::max(n_alt, segs[at + i].alternatives.size());
      }
      out.push_back({reassemble(doc, best)});
      for (size_t k = 0; k < n_alt; ++k) {
        std::vector<std::string> alt;
        for (size_t i = 0; i < doc.text.size(); ++i) {
          const Job::Segment& sg = segs[at + i];
          alt.push_back(
              restore_spans(k < sg.alternatives.size() ? sg.alternatives[k] : sg.text, run.kept[at + i]));
        }
        out.back().push_back(reassemble(doc, alt));
      }
      at += doc.text.size();
    }
    return out;
  };
  // HTML inline runs: each text's best translation with its words aligned to the text's
  // (runtime/api/word_alignment.h), as the Translator's.
  auto align_texts =
      [&](const std::vector<std::string>& qs) -> Expected<std::vector<std::vector<AlignedText>>> {
    Run run;
    EDGEMT_RETURN_IF_ERROR(run_job(qs, true, &run));
    const std::vector<Job::Segment>& segs = run.segs;
    std::vector<std::vector<AlignedText>> out;
    size_t at = 0;
    for (const Segmented& doc : run.docs) {
      AlignedText a;
      size_t src_at = 0;  // bytes of the text before piece p
      size_t next = 0;    // the next text piece
      for (size_t p = 0; p < doc.pieces.size(); ++p) {
        const std::string& piece = doc.pieces[p];
        if (next >= doc.text.size() || doc.text[next] != p) {
          a.text += piece;
          src_at += piece.size();
          continue;
        }
        const Job::Segment& sg = segs[at + next];
        const ProtectedSentence& kept = run.kept[at + next];
        const std::string t = restore_spans(sg.text, kept);
        AlignedSentence s{piece, src_at, sg.ids, t, {}, {}, &kept};
        if (!sg.ids.empty() && !kept.verbatim) {
          s.target_ids = sg.target_ids;
          s.alignment = sg.alignment;
        }
        append_aligned_sentence(tok, s, &a);
        src_at += piece.size();
        ++next;
      }
      out.push_back({std::move(a)});
      at += doc.text.size();
    }
    return out;
  };
  // HTML: text nodes and inline runs as plain texts (runtime/formats/html_document.h).
  // The languages the documents name become the translation's.
  return html ? translate_html(qs, true, translate_texts,
                               std::function<Expected<std::vector<std::vector<AlignedText>>>(
                                   const std::vector<std::string>&)>(align_texts),
                               HtmlLanguages{source, service_.models()[static_cast<size_t>(model)].target})
              : translate_texts(qs);
}

HttpResponse LibreTranslateApi::translate(const HttpRequest& req) const {
  Fields f;
  const std::string bad = read_fields(req, &f);
  if (!bad.empty()) return error(400, "Invalid request: " + bad);
  if (!options_.api_keys.empty() && options_.api_keys.count(f.api_key) == 0)
    return error(403, f.api_key.empty() ? "Please provide an API key (api_key)" : "Invalid API key");
  if (!f.has_q) return error(400, "Invalid request: missing q parameter");
  if (f.source.empty()) return error(400, "Invalid request: missing source parameter");
  if (f.target.empty()) return error(400, "Invalid request: missing target parameter");
  if (f.format != "text" && f.format != "html")
    return error(400, "Invalid request: format must be text or html, not '" + f.format.substr(0, 32) + "'");
  size_t chars = 0;
  for (const std::string& q : f.q) chars += count_chars(q);
  if (chars > options_.char_limit)
    return error(413, "Invalid request: request (" + std::to_string(chars) + ") exceeds text limit (" +
                          std::to_string(options_.char_limit) + ")");

  // The model: source "auto" works when one source language reaches the target.
  bool detected = false;
  json detected_language;
  if (f.source == "auto") {
    // The served source language into target that knows most of the text.
    std::string all;
    for (const std::string& q : f.q) all += q + "\n";
    const auto ranked = guess_source(all, f.target);
    if (ranked.empty()) return error(400, "Target language " + f.target.substr(0, 32) + " is not supported");
    f.source = ranked[0].first;
    detected = true;
    detected_language = {{"language", f.source}, {"confidence", ranked[0].second}};
  }
  const std::vector<int> route = service_.route(f.source, f.target);
  if (route.empty()) {
    bool any_source = false, any_target = false;
    for (const ModelEntry& m : service_.models()) {
      any_source |= m.source == f.source;
      any_target |= m.target == f.target;
    }
    if (!any_source) return error(400, "Source language " + f.source.substr(0, 32) + " is not supported");
    if (!any_target) return error(400, "Target language " + f.target.substr(0, 32) + " is not supported");
    return error(400, f.source.substr(0, 32) + " -> " + f.target.substr(0, 32) +
                          " is not available (GET /languages lists the pairs)");
  }

  const auto deadline = std::chrono::steady_clock::now() + options_.timeout;
  std::optional<HttpResponse> refused;
  const bool html = f.format == "html";
  // Through a pivot language (two models): the first model's best translations are the
  // second's input, in the same format; the alternatives are the second model's.
  auto hyps = [&]() -> Expected<std::vector<std::vector<std::string>>> {
    if (route.size() == 1)
      return translate_with(route[0], f.source, f.q, f.alternatives, html, deadline, refused);
    auto pivot = translate_with(route[0], f.source, f.q, 0, html, deadline, refused);
    if (!pivot) return pivot.status();
    std::vector<std::string> mid;
    for (const std::vector<std::string>& h : pivot.value()) mid.push_back(h.empty() ? std::string() : h[0]);
    return translate_with(route[1], service_.models()[static_cast<size_t>(route[0])].target, mid,
                          f.alternatives, html, deadline, refused);
  }();
  if (!hyps) return refused ? *refused : error(500, "translation failed: " + hyps.status().message());
  json translated = json::array(), alternatives = json::array();
  for (const std::vector<std::string>& h : hyps.value()) {
    translated.push_back(h.empty() ? std::string() : h[0]);
    json alts = json::array();
    for (size_t k = 1; k < h.size(); ++k) alts.push_back(h[k]);
    alternatives.push_back(std::move(alts));
  }
  json out;
  if (f.q_is_list) {
    out["translatedText"] = translated;
    if (f.alternatives > 0) out["alternatives"] = alternatives;
    if (detected) out["detectedLanguage"] = json(std::vector<json>(f.q.size(), detected_language));
  } else {
    out["translatedText"] = translated.empty() ? json("") : translated[0];
    if (f.alternatives > 0) out["alternatives"] = alternatives.empty() ? json::array() : alternatives[0];
    if (detected) out["detectedLanguage"] = detected_language;
  }
  return reply(200, out);
}

namespace {

// The extension of a file name, lower-cased, with its dot ("" if none).
std::string extension_of(const std::string& name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos || name.find_first_of("/\\", dot) != std::string::npos) return "";
  std::string e = name.substr(dot);
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

// A file name safe in a URL path and a Content-Disposition header: its last path
// component, letters, digits, '.', '-' and '_' only, at most 120 bytes.
std::string safe_file_name(const std::string& name) {
  std::string base =
      name.substr(name.find_last_of("/\\") == std::string::npos ? 0 : name.find_last_of("/\\") + 1);
  std::string out;
  for (char c : base) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '-' || c == '_';
    out += ok ? c : '_';
  }
  if (out.size() > 120) out = out.substr(out.size() - 120);
  while (!out.empty() && out[0] == '.') out.erase(0, 1);
  return out.empty() ? "file" : out;
}

// A file's Content-Type, the format table's for its extension; a text file's names its
// encoding (`charset`, "utf-8" where empty).
std::string content_type_of(const std::string& ext, std::string charset) {
  if (charset.empty()) charset = "utf-8";
  const std::vector<const DocumentFormat*> formats = document_formats_with_extension(ext);
  if (formats.empty()) return "text/plain; charset=" + charset;
  const std::string type(formats[0]->content_type(ext));
  return formats[0]->id == TextFormat::kOffice ? type : type + "; charset=" + charset;
}

std::string new_file_id() {
  thread_local std::mt19937_64 rng{
      std::random_device{}() ^
      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count())};
  char id[33];
  std::snprintf(id, sizeof id, "%016llx%016llx", static_cast<unsigned long long>(rng()),
                static_cast<unsigned long long>(rng()));
  return id;
}

}  // namespace

HttpResponse LibreTranslateApi::translate_file(const HttpRequest& req) const {
  Fields f;
  if (std::string bad = read_fields(req, &f); !bad.empty()) return error(400, "Invalid request: " + bad);
  if (!options_.api_keys.empty() && options_.api_keys.count(f.api_key) == 0)
    return error(403, f.api_key.empty() ? "Please provide an API key (api_key)" : "Invalid API key");
  const HttpRequest::File* file = nullptr;
  for (const HttpRequest::File& x : req.files)
    if (x.field == "file") file = &x;
  if (file == nullptr) return error(400, "Invalid request: missing file (a multipart form field 'file')");
  if (f.source.empty()) return error(400, "Invalid request: missing source parameter");
  if (f.target.empty()) return error(400, "Invalid request: missing target parameter");
  const std::string ext = extension_of(file->filename);
  const std::vector<const DocumentFormat*> formats = document_formats_with_extension(ext);
  const bool pdf = ext == ".pdf";
  if (formats.empty() && !pdf) {
    std::string list;
    for (const std::string& e : file_extensions()) list += (list.empty() ? "" : ", ") + e;
    return error(400,
                 "Invalid request: file type '" + ext.substr(0, 16) + "' is not supported (" + list + ")");
  }

  // A text file in another encoding than UTF-8 (a UTF-16 file from Windows' Notepad, a
  // Latin-1 file: guess_text_encoding) is read in it, and its translation written back
  // in it; in UTF-8 (with a byte order mark, so that editors know) where the translation
  // has characters it cannot hold. An HTML page: as translate_html reads it (the encoding
  // it declares, or windows-1252), written back in that encoding. (The formats of one
  // extension are alike in this.)
  const bool text_file = !pdf && formats[0]->text_file;
  std::optional<TextEncoding> file_encoding;
  std::string decoded;
  std::string charset;  // of the translated file
  if (text_file) {
    const TextEncoding e = guess_text_encoding(file->content);
    if (!e.is_utf8() || e.bom) {  // a UTF-8 byte order mark: left out, and written back
      auto d = decode_text(file->content, e);
      if (!d) return error(400, "Invalid request: " + d.status().message());
      decoded = std::move(d.value().utf8);
      file_encoding = e;
    }
  } else if (!pdf && formats[0]->id == TextFormat::kHtml) {
    std::string ignored;
    auto how = read_html_bytes(file->content, &ignored);
    if (!how) return error(400, "Invalid request: " + how.status().message());
    if (how.value().kind == HtmlBytes::kConverted) charset = how.value().encoding.name;
  }
  const std::string& content = file_encoding ? decoded : file->content;

  // An .xml file: Android string resources (res/values/strings.xml), or XLIFF or a Qt
  // Linguist catalog saved as .xml, told apart by the root element.
  const DocumentFormat* format = pdf ? nullptr : document_format_of_file(ext, content);
  if (!pdf && format == nullptr) {
    const std::string_view xml_root = xml_local_name(xml_root_element(content));
    return error(
        400,
        "Invalid request: an .xml file is translated when it holds Android string resources "
        "(<resources>), XLIFF (<xliff>) or a Qt Linguist catalog (<TS>); " +
            (xml_root.empty() ? std::string("no root element was found in this one")
                              : "its root element is <" + std::string(xml_root.substr(0, 32)) + ">"));
  }

  // The units to translate and how to put the file together again, as `translate --format`.
  std::vector<std::string> units;
  bool html = false;
  std::function<std::string(const std::vector<std::string>&)> render;
  std::unique_ptr<Document> doc;
  // A small upload may inflate to far more: the server holds at most 128 MiB of it.
  const ParseOptions read_options{f.source, f.target, size_t{128} << 20};
  if (pdf) {
    // A PDF's paragraphs (pdftotext), translated as lines; the result is a text file.
    auto text = pdf_paragraphs(file->content);
    if (!text) {
      const bool missing = text.status().code() == StatusCode::kUnsupported;
      return error(missing ? 501 : 400, (missing ? "" : "Invalid request: ") + text.status().message());
    }
    std::istringstream lines(text.value());
    for (std::string l; std::getline(lines, l);)
      if (!l.empty()) units.push_back(std::move(l));
    render = [](const std::vector<std::string>& t) {
      std::string out;
      for (const std::string& p : t) out += (out.empty() ? "" : "\n") + p + "\n";
      return out;
    };
  } else if (format->id == TextFormat::kHtml) {
    units = {file->content};
    html = true;
    render = [](const std::vector<std::string>& t) { return t.empty() ? std::string() : t[0]; };
  } else if (!format->built()) {
    return error(501, left_out(*format).message());
  } else {
    auto d = format->parse(text_file ? content : file->content, read_options);
    if (!d) return error(400, "Invalid request: " + d.status().message());
    doc = std::move(d.value());
    units = doc->units();
    html = format->html_units;
    render = [&](const std::vector<std::string>& t) { return doc->render(t, f.target, f.source); };
  }
  // Characters of text: an HTML unit's tags do not count.
  size_t chars = 0;
  for (const std::string& u : units) {
    if (!html) {
      chars += count_chars(u);
      continue;
    }
    bool tag = false;
    for (char c : u) {
      if (c == '<') tag = true;
      if (!tag && (static_cast<unsigned char>(c) & 0xC0) != 0x80) ++chars;
      if (c == '>') tag = false;
    }
  }
  if (chars > options_.file_char_limit)
    return error(413, "Invalid request: the file's text (" + std::to_string(chars) +
                          " characters) exceeds the file limit (" + std::to_string(options_.file_char_limit) +
                          ")");

  if (f.source == "auto") {
    std::string all;
    for (const std::string& u : units) all += u + "\n";
    const auto ranked = guess_source(all, f.target);
    if (ranked.empty()) return error(400, "Target language " + f.target.substr(0, 32) + " is not supported");
    f.source = ranked[0].first;
    if (doc &&
        format->reads_languages) {  // a translation table's source column, now that its language is known
      auto d = format->parse(content, {f.source, f.target, read_options.max_bytes});
      if (!d) return error(400, "Invalid request: " + d.status().message());
      doc = std::move(d.value());
      units = doc->units();
    }
  }
  const std::vector<int> route = service_.route(f.source, f.target);
  if (route.empty())
    return error(400, f.source.substr(0, 32) + " -> " + f.target.substr(0, 32) +
                          " is not available (GET /languages lists the pairs)");
  const auto deadline = std::chrono::steady_clock::now() + options_.timeout;
  std::optional<HttpResponse> refused;
  std::vector<std::string> best = units;
  std::string source = f.source;
  for (int model : route) {
    auto t = translate_with(model, source, best, 0, html, deadline, refused);
    if (!t) return refused ? *refused : error(500, "translation failed: " + t.status().message());
    for (size_t i = 0; i < best.size() && i < t.value().size(); ++i)
      best[i] = t.value()[i].empty() ? std::string() : t.value()[i][0];
    source = service_.models()[static_cast<size_t>(model)].target;
  }
  StoredFile stored{safe_file_name(file->filename), render(best), {}, 0, charset};
  if (file_encoding) {
    auto e = encode_text(stored.content, *file_encoding);
    if (e && e.value().unencodable == 0) {
      stored.content = std::move(e.value().bytes);
      stored.charset = file_encoding->name == "utf-16" ? "utf-16le" : file_encoding->name;
    } else {
      stored.content.insert(0, "\xEF\xBB\xBF");
    }
  }
  if (pdf) {  // a PDF comes back as its translated text
    std::string& n = stored.filename;
    const bool ends_in_ext =
        n.size() >= ext.size() &&
        std::equal(ext.begin(), ext.end(), n.end() - static_cast<std::ptrdiff_t>(ext.size()),
                   [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
    if (ends_in_ext) n.resize(n.size() - ext.size());
    if (n.empty()) n = "file";
    n += ".txt";
  }
  if (stored.content.size() > options_.file_store_bytes)
    return error(413, "Invalid request: the translated file is larger than the server keeps");
  std::string id = new_file_id();
  {
    std::lock_guard<std::mutex> lock(files_mu_);
    const auto now = std::chrono::steady_clock::now();
    for (auto it = files_.begin(); it != files_.end();) {  // the expired go
      if (it->second.expires <= now) {
        files_bytes_ -= it->second.content.size();
        it = files_.erase(it);
      } else {
        ++it;
      }
    }
    while (!files_.empty() && files_bytes_ + stored.content.size() > options_.file_store_bytes) {
      auto oldest = std::min_element(files_.begin(), files_.end(), [](const auto& a, const auto& b) {
        return a.second.order < b.second.order;
      });
      files_bytes_ -= oldest->second.content.size();
      files_.erase(oldest);
    }
    stored.expires = now + options_.file_ttl;
    stored.order = files_stored_++;
    files_bytes_ += stored.content.size();
    files_[id] = stored;
  }
  const std::string path = "/download_file/" + id + "." + stored.filename;
  return reply(200, json{{"translatedFileUrl", req.host.empty() ? path : "http://" + req.host + path}});
}

HttpResponse LibreTranslateApi::download_file(const HttpRequest& req) const {
  const std::string name = req.path.substr(std::string_view("/download_file/").size());
  const std::string id = name.substr(0, name.find('.'));
  std::lock_guard<std::mutex> lock(files_mu_);
  auto it = files_.find(id);
  if (it == files_.end() || it->second.expires <= std::chrono::steady_clock::now())
    return error(404, "Not found: the file is unknown or has expired");
  HttpResponse r;
  r.body = it->second.content;
  r.content_type = content_type_of(extension_of(it->second.filename), it->second.charset);
  r.filename = it->second.filename;
  return r;
}

}  // namespace edgemt::server
