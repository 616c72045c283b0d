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
#include "runtime/text/markup.h"

namespace edgemt {

// A run of whitespace with a line break is one space in HTML: it does not end a
// sentence there.
inline std::string flatten_html_space(std::string_view node) {
  std::string flat;
  flat.reserve(node.size());
  for (size_t b = 0; b < node.size();) {
    size_t e = b;
    bool newline = false;
    while (e < node.size() && std::isspace(static_cast<unsigned char>(node[e]))) newline |= node[e++] == '\n';
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
// one's hypotheses, best first); a run whose tags do not come back in place has its text
// nodes translated one by one instead. Document i's hypothesis h takes each unit's h-th
// (or its best, where it has fewer).
template <typename F>
Expected<std::vector<std::vector<std::string>>> translate_html(const std::vector<std::string>& texts,
                                                               bool runs, F translate_all) {
  struct Doc {
    Segmented seg;
    std::vector<InlineRun> runs;
    std::vector<int> run_of;                          // per text node: its run, or -1
    std::vector<std::vector<std::string>> run_html;   // per run: its hypotheses ({} if failed)
    std::vector<std::vector<std::string>> node_hyps;  // per text node (not in a placed run)
  };
  std::vector<Doc> docs(texts.size());
  std::vector<std::string> units;
  for (size_t d = 0; d < texts.size(); ++d) {
    Doc& doc = docs[d];
    doc.seg = segment_html(texts[d]);
    if (runs) doc.runs = inline_runs(doc.seg, flatten_html_space);
    doc.run_of.assign(doc.seg.text.size(), -1);
    for (size_t r = 0; r < doc.runs.size(); ++r) {
      for (size_t n : doc.runs[r].nodes) doc.run_of[n] = static_cast<int>(r);
      units.push_back(doc.runs[r].source);
      // A flat run also as plain text and each element's text on its own.
      if (!doc.runs[r].element.empty()) {
        units.push_back(doc.runs[r].plain);
        units.insert(units.end(), doc.runs[r].element.begin(), doc.runs[r].element.end());
      }
    }
    for (size_t n = 0; n < doc.seg.text.size(); ++n)
      if (doc.run_of[n] < 0) units.push_back(flatten_html_space(doc.seg.pieces[doc.seg.text[n]]));
  }
  auto first = translate_all(units);
  if (!first) return first.status();
  std::vector<std::string> retry;  // the text nodes of runs whose tags did not fit
  size_t u = 0;
  for (Doc& doc : docs) {
    doc.run_html.resize(doc.runs.size());
    doc.node_hyps.resize(doc.seg.text.size());
    for (size_t r = 0; r < doc.runs.size(); ++r) {
      // Per hypothesis: the plain translation with each element's translation found in
      // it, else the placeholders' translation with the tags in place.
      const InlineRun& run = doc.runs[r];
      const std::vector<std::string>& held = first.value()[u];
      const std::vector<std::string>* plain = nullptr;
      std::vector<std::string> elements;
      if (!run.element.empty()) {
        plain = &first.value()[u + 1];
        for (size_t e = 0; e < run.element.size(); ++e) {
          const std::vector<std::string>& alts = first.value()[u + 2 + e];
          elements.push_back(alts.empty() ? std::string() : alts[0]);
        }
      }
      std::vector<std::string>& html = doc.run_html[r];
      const size_t count = std::max(held.size(), plain != nullptr ? plain->size() : 0);
      for (size_t h = 0; h < count; ++h) {
        std::string placed;
        const bool ok = (plain != nullptr && h < plain->size() &&
                         wrap_found_elements(run, (*plain)[h], elements, &placed)) ||
                        (h < held.size() && place_inline_tags(run, held[h], &placed));
        if (!ok) {
          html.clear();
          break;
        }
        html.push_back(std::move(placed));
      }
      if (html.empty())
        for (size_t n : run.nodes) retry.push_back(flatten_html_space(doc.seg.pieces[doc.seg.text[n]]));
      u += run.element.empty() ? 1 : 2 + run.element.size();
    }
    for (size_t n = 0; n < doc.seg.text.size(); ++n)
      if (doc.run_of[n] < 0) doc.node_hyps[n] = std::move(first.value()[u++]);
  }
  if (!retry.empty()) {
    auto second = translate_all(retry);
    if (!second) return second.status();
    size_t k = 0;
    for (Doc& doc : docs)
      for (size_t r = 0; r < doc.runs.size(); ++r)
        if (doc.run_html[r].empty())
          for (size_t n : doc.runs[r].nodes) doc.node_hyps[n] = std::move(second.value()[k++]);
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
      result[d].push_back(reassemble_runs(doc.seg, doc.runs, run_html, nodes));
    }
  }
  return result;
}

}  // namespace edgemt
