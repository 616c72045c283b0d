// HTML documents through any text translator (TextFormat::kHtml in the Translator,
// format: html in edgemt-server): inline runs (markup.h) and the other text nodes are
// translated as plain texts, the tags put back, and a run whose tags do not fit is
// translated node by node. Header-only: the caller supplies the translation.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/status.h"
#include "runtime/core/utf8.h"
#include "runtime/text/markup.h"

namespace edgemt {

// A run of whitespace with a line break or a tab is one space in HTML: it does not end a
// sentence there (the sentence splitter ends sentences at both). Break hints (&shy;, U+2060, U+FEFF:
// runtime/core/utf8.h) go.
inline std::string flatten_html_space(std::string_view text) {
  const std::string visible = has_break_hints(text) ? without_break_hints(text) : std::string();
  const std::string_view node = visible.empty() ? text : std::string_view(visible);
  std::string flat;
  flat.reserve(node.size());
  for (size_t b = 0; b < node.size();) {
    size_t e = b;
    bool newline = false;
    while (e < node.size() && std::isspace(static_cast<unsigned char>(node[e]))) {
      newline |= node[e] == '\n' || node[e] == '\t';
      ++e;
    }
    if (e == b) {
      flat.push_back(node[b++]);
    } else {
      flat.append(newline ? std::string_view(" ") : node.substr(b, e - b));
      b = e;
    }
  }
  return flat;
}

// HTML documents (TextFormat::kHtml): each document's inline runs (runtime/text/markup.h)
// and its other text nodes are translated as texts by `translate_all` (texts -> each
// one's hypotheses, best first). A run's tags are put back, per hypothesis, by the first
// way that fits: a flat run's elements translated alone and found in its plain text's
// translation (wrap_found_elements); with `align_all` (texts -> each one's aligned
// hypotheses; may be empty), its plain text's aligned translation (place_aligned_tags);
// the translation of its source with placeholders (place_inline_tags); else its text
// nodes are translated one by one (a run holding an element kept as written, whose words
// the plain text lacks, goes straight to its placeholders). Document i's hypothesis h
// takes each unit's h-th (or its best, where it has fewer). With a target language, the
// languages the documents name become it (set_html_language).
struct HtmlLanguages {
  std::string source, target;
};

template <typename F, typename A>
Expected<std::vector<std::vector<std::string>>> translate_html(const std::vector<std::string>& texts,
                                                               bool runs, F translate_all, A align_all,
                                                               const HtmlLanguages& languages = {}) {
  struct Doc {
    Segmented seg;
    std::vector<InlineRun> runs;
    std::vector<int> run_of;                          // per text node: its run, or -1
    std::vector<std::vector<std::string>> run_html;   // per run: its hypotheses ({} if not placed yet)
    std::vector<std::vector<std::string>> node_hyps;  // per text node (not in a placed run)
  };
  const bool aligning = static_cast<bool>(align_all);
  std::vector<Doc> docs(texts.size());
  std::vector<HtmlBytes> bytes(texts.size());  // how each is read and written (read_html_bytes)
  std::vector<std::string> units, plains;
  for (size_t d = 0; d < texts.size(); ++d) {
    Doc& doc = docs[d];
    std::string converted;
    auto how = read_html_bytes(texts[d], &converted);
    if (!how)
      return invalid_argument((texts.size() > 1 ? "document " + std::to_string(d) + ": " : std::string()) +
                              how.status().message());
    bytes[d] = std::move(how.value());
    doc.seg = segment_html(
        bytes[d].kind == HtmlBytes::kConverted ? std::string_view(converted) : std::string_view(texts[d]),
        languages.source);
    set_html_language(&doc.seg, languages.source, languages.target);
    if (runs) doc.runs = inline_runs(doc.seg, flatten_html_space);
    doc.run_of.assign(doc.seg.text.size(), -1);
    doc.run_html.resize(doc.runs.size());
    doc.node_hyps.resize(doc.seg.text.size());
    for (size_t r = 0; r < doc.runs.size(); ++r) {
      const InlineRun& run = doc.runs[r];
      for (size_t n : run.nodes) doc.run_of[n] = static_cast<int>(r);
      // First: the plain text (aligned, or as a text for a flat run), each flat run's
      // elements alone; without alignments also the placeholders' source.
      if (aligning && run.verbatim) {
        // its placeholders' source, below
      } else if (aligning) {
        plains.push_back(run.plain);
      } else {
        units.push_back(run.source);
        if (!run.element.empty()) units.push_back(run.plain);
      }
      units.insert(units.end(), run.element.begin(), run.element.end());
    }
    for (size_t n = 0; n < doc.seg.text.size(); ++n)
      if (doc.run_of[n] < 0) units.push_back(flatten_html_space(doc.seg.pieces[doc.seg.text[n]]));
  }
  auto first = translate_all(units);
  if (!first) return first.status();
  Expected<std::vector<std::vector<AlignedText>>> aligned = std::vector<std::vector<AlignedText>>();
  if (aligning && !plains.empty()) aligned = align_all(plains);
  if (!aligned) return aligned.status();
  std::vector<std::string> held;  // runs not placed yet: their placeholders' source (aligning)
  size_t u = 0, a = 0;
  for (Doc& doc : docs) {
    for (size_t r = 0; r < doc.runs.size(); ++r) {
      const InlineRun& run = doc.runs[r];
      const std::vector<std::string>* holders = nullptr;  // the placeholders' translations
      std::vector<std::string> plain;
      const std::vector<AlignedText>* al = nullptr;
      if (aligning && run.verbatim) {
        held.push_back(run.source);
        continue;
      }
      if (aligning) {
        al = &aligned.value()[a++];
        for (const AlignedText& x : *al) plain.push_back(x.text);
      } else {
        holders = &first.value()[u++];
        if (!run.element.empty()) plain = first.value()[u++];
      }
      std::vector<std::string> elements;
      for (size_t e = 0; e < run.element.size(); ++e) {
        const std::vector<std::string>& alts = first.value()[u++];
        elements.push_back(alts.empty() ? std::string() : alts[0]);
      }
      std::vector<std::string>& html = doc.run_html[r];
      const size_t count = std::max(holders != nullptr ? holders->size() : 0, plain.size());
      for (size_t h = 0; h < count; ++h) {
        std::string placed;
        const bool ok =
            (h < plain.size() && !run.element.empty() &&
             wrap_found_elements(run, plain[h], elements, &placed)) ||
            (al != nullptr && h < al->size() && place_aligned_tags(run, (*al)[h], &placed)) ||
            (holders != nullptr && h < holders->size() && place_inline_tags(run, (*holders)[h], &placed));
        if (!ok) {
          html.clear();
          break;
        }
        html.push_back(std::move(placed));
      }
      if (html.empty() && aligning) held.push_back(run.source);
    }
    for (size_t n = 0; n < doc.seg.text.size(); ++n)
      if (doc.run_of[n] < 0) doc.node_hyps[n] = std::move(first.value()[u++]);
  }
  // Aligning: the runs not placed, through their placeholders.
  if (!held.empty()) {
    auto second = translate_all(held);
    if (!second) return second.status();
    size_t k = 0;
    for (Doc& doc : docs)
      for (size_t r = 0; r < doc.runs.size(); ++r) {
        if (!doc.run_html[r].empty()) continue;
        std::vector<std::string>& html = doc.run_html[r];
        for (const std::string& x : second.value()[k]) {
          std::string placed;
          if (!place_inline_tags(doc.runs[r], x, &placed)) {
            html.clear();
            break;
          }
          html.push_back(std::move(placed));
        }
        ++k;
      }
  }
  // Last: the text nodes of runs still not placed, one by one.
  std::vector<std::string> retry;
  for (Doc& doc : docs)
    for (size_t r = 0; r < doc.runs.size(); ++r)
      if (doc.run_html[r].empty())
        for (size_t n : doc.runs[r].nodes)
          retry.push_back(flatten_html_space(doc.seg.pieces[doc.seg.text[n]]));
  if (!retry.empty()) {
    auto third = translate_all(retry);
    if (!third) return third.status();
    size_t k = 0;
    for (Doc& doc : docs)
      for (size_t r = 0; r < doc.runs.size(); ++r)
        if (doc.run_html[r].empty())
          for (size_t n : doc.runs[r].nodes) doc.node_hyps[n] = std::move(third.value()[k++]);
  }
  auto pick = [](const std::vector<std::string>& alts, size_t h) {
    return alts.empty() ? std::string() : alts[std::min(h, alts.size() - 1)];
  };
  std::vector<std::vector<std::string>> result(texts.size());
  for (size_t d = 0; d < docs.size(); ++d) {
    const Doc& doc = docs[d];
    size_t count = 1;
    for (const auto& h : doc.run_html) count = std::max(count, h.size());
    for (const auto& h : doc.node_hyps) count = std::max(count, h.size());
    for (size_t h = 0; h < count; ++h) {
      std::vector<std::string> run_html, nodes;
      for (const auto& alts : doc.run_html) run_html.push_back(pick(alts, h));
      for (const auto& alts : doc.node_hyps) nodes.push_back(pick(alts, h));
      result[d].push_back(write_html_bytes(reassemble_runs(doc.seg, doc.runs, run_html, nodes), bytes[d]));
    }
  }
  return result;
}

// Without alignments.
template <typename F>
Expected<std::vector<std::vector<std::string>>> translate_html(const std::vector<std::string>& texts,
                                                               bool runs, F translate_all,
                                                               const HtmlLanguages& languages = {}) {
  using AlignAll = Expected<std::vector<std::vector<AlignedText>>> (*)(const std::vector<std::string>&);
  return translate_html(texts, runs, translate_all, AlignAll(nullptr), languages);
}

}  // namespace edgemt
