#include "runtime/api/scored_json.h"

#include <cmath>
#include <cstdio>
#include <string_view>

namespace edgemt {
namespace {

// A JSON string literal of UTF-8 text.
void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", ch);
      out += buf;
    } else {
      out += static_cast<char>(ch);
    }
  }
  out += '"';
}

void append_json_number(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  out += buf;
}

}  // namespace

std::string score_json(const std::vector<std::string_view>& tokens, std::span<const float> log_probs) {
  double sum = 0.0;
  for (float x : log_probs) sum += x;
  std::string out = "{\"log_prob\": ";
  append_json_number(out, sum);
  out += ", \"tokens\": [";
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (i > 0) out += ", ";
    append_json_string(out, tokens[i]);
  }
  out += "], \"log_probs\": [";
  for (size_t i = 0; i < log_probs.size(); ++i) {
    if (i > 0) out += ", ";
    append_json_number(out, log_probs[i]);
  }
  out += "]}";
  return out;
}

std::string scored_json(const ScoredText& t, const std::string& text, bool n_best_list) {
  std::string json;
  // "translation", "score", "confidence" (and with `words` the per-word confidences).
  auto hypothesis = [&](std::string& out, const ScoredTranslation& h, bool words) {
    out += "\"translation\": ";
    append_json_string(out, h.text);
    out += ", \"score\": ";
    append_json_number(out, h.score);
    out += ", \"confidence\": ";
    append_json_number(out, h.confidence);
    if (!words) return;
    out += ", \"words\": [";
    for (size_t w = 0; w < h.words.size(); ++w) {
      out += w ? ", {\"word\": " : "{\"word\": ";
      append_json_string(out, h.words[w].text);
      out += ", \"confidence\": ";
      append_json_number(out, h.words[w].confidence);
      out += ", \"source\": ";
      out += h.words[w].source >= 0 ? std::to_string(h.words[w].source) : "null";
      out += "}";
    }
    out += "]";
  };
  // "source_words" (as found in `text`) and "alignment": Moses' "source-target" word
  // index pairs of the best hypothesis.
  auto alignment = [&](std::string& out, const std::string& src, const std::vector<TextSpan>& sources,
                       const ScoredTranslation& h) {
    out += ", \"source_words\": [";
    for (size_t w = 0; w < sources.size(); ++w) {
      if (w) out += ", ";
      append_json_string(out, std::string_view(src).substr(sources[w].begin, sources[w].size()));
    }
    out += "], \"alignment\": \"";
    bool first = true;
    for (size_t w = 0; w < h.words.size(); ++w) {
      if (h.words[w].source < 0) continue;
      if (!first) out += ' ';
      out += std::to_string(h.words[w].source);
      out += '-';
      out += std::to_string(w);
      first = false;
    }
    out += "\"";
  };
  auto n_best = [&](std::string& out, const std::vector<ScoredTranslation>& hyps) {
    if (!n_best_list) return;
    out += ", \"n_best\": [";
    for (size_t k = 0; k < hyps.size(); ++k) {
      out += k ? ", {" : "{";
      hypothesis(out, hyps[k], false);
      out += "}";
    }
    out += "]";
  };
  if (t.sentences.empty()) return "{\"translation\": \"\"}";  // a blank text
  json += "{";
  hypothesis(json, t.hypotheses[0], true);
  alignment(json, text, t.source_words, t.hypotheses[0]);
  n_best(json, t.hypotheses);
  json += ", \"sentences\": [";
  for (size_t k = 0; k < t.sentences.size(); ++k) {
    const ScoredSentence& sen = t.sentences[k];
    json += k ? ", {\"source\": " : "{\"source\": ";
    append_json_string(json, sen.source);
    json += ", ";
    hypothesis(json, sen.hypotheses[0], true);
    alignment(json, sen.source, sen.source_words, sen.hypotheses[0]);
    n_best(json, sen.hypotheses);
    json += "}";
  }
  json += "]}";
  return json;
}

}  // namespace edgemt
