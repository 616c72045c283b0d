// Bundled models (found in the folders models are installed to), language routes
// through a pivot, and translate_through.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "runtime/api/text_calls.h"
#include "runtime/api/translator.h"

namespace edgemt {

using text_calls::as_html;
using text_calls::as_plain_text;

namespace {

// The folders that may hold bundled models, in order: $EDGEMT_MODELS_DIR, installed
// (<prefix>/bin/translate -> <prefix>/share/edgemt/models/), beside the executable (an
// unpacked archive), the source tree.
std::vector<std::filesystem::path> model_dirs() {
  namespace fs = std::filesystem;
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("EDGEMT_MODELS_DIR"); env != nullptr && *env != '\0')
    dirs.emplace_back(env);
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) {
    buf[n] = '\0';
    const fs::path exe(buf);
    dirs.push_back(exe.parent_path().parent_path() / "share" / "edgemt" / "models");
    dirs.push_back(exe.parent_path() / "models");
  }
  dirs.emplace_back(EDGEMT_SOURCE_MODELS_DIR);
  return dirs;
}

}  // namespace

std::string default_model_path() {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (const char* env = std::getenv("EDGEMT_MODEL"); env != nullptr && *env != '\0') return env;
  for (const fs::path& dir : model_dirs())
    if (const fs::path p = dir / EDGEMT_DEFAULT_MODEL_NAME; fs::exists(p, ec)) return p.string();
  return "";
}

std::vector<BundledModel> bundled_models() {
  namespace fs = std::filesystem;
  for (const fs::path& dir : model_dirs()) {
    std::error_code ec;
    std::vector<BundledModel> found;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      BundledModel m;
      if (name.rfind("edgemt-", 0) != 0 || !it->is_regular_file(ec) ||
          !Model::language_pair_of_file(name, &m.source, &m.target))
        continue;
      m.path = it->path().string();
      found.push_back(std::move(m));
    }
    if (!found.empty()) {
      std::sort(found.begin(), found.end(),
                [](const BundledModel& a, const BundledModel& b) { return a.path < b.path; });
      return found;
    }
  }
  return {};
}

namespace {

// bundled_model_path over the models `all`.
Expected<std::string> bundled_model_in(const std::vector<BundledModel>& all, std::string_view source,
                                       std::string_view target) {
  std::vector<const BundledModel*> match;
  std::string pairs;
  for (const BundledModel& m : all) {
    pairs += (pairs.empty() ? "" : ", ") + m.source + "->" + m.target;
    if ((source.empty() || m.source == source) && (target.empty() || m.target == target)) match.push_back(&m);
  }
  if (match.size() == 1) return match[0]->path;
  const std::string asked =
      std::string(source.empty() ? "any" : source) + "->" + std::string(target.empty() ? "any" : target);
  if (all.empty()) return not_found("no bundled models were found (pass a model file)");
  if (match.empty()) return not_found("no bundled model translates " + asked + "; bundled: " + pairs);
  return invalid_argument("several bundled models translate " + asked + " (" + pairs +
                          "): name both languages");
}

}  // namespace

Expected<std::string> bundled_model_path(std::string_view source, std::string_view target) {
  return bundled_model_in(bundled_models(), source, target);
}

std::vector<size_t> language_route(const std::vector<LanguagePair>& pairs, std::string_view source,
                                   std::string_view target) {
  if (source == target) return {};
  auto find = [&](std::string_view from, std::string_view to) -> size_t {
    for (size_t i = 0; i < pairs.size(); ++i)
      if (pairs[i].first == from && pairs[i].second == to) return i;
    return pairs.size();
  };
  if (const size_t m = find(source, target); m < pairs.size()) return {m};
  std::vector<size_t> best;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const std::string& pivot = pairs[i].second;
    if (pairs[i].first != source || pivot == source || pivot == target) continue;
    const size_t second = find(pivot, target);
    if (second == pairs.size()) continue;
    if (best.empty() || (pivot == "en" && pairs[best[0]].second != "en")) best = {i, second};
  }
  return best;
}

Expected<std::vector<std::string>> bundled_model_route(std::string_view source, std::string_view target) {
  const std::vector<BundledModel> all = bundled_models();
  auto direct = bundled_model_in(all, source, target);
  if (direct || source.empty() || target.empty()) {
    if (!direct) return direct.status();
    return std::vector<std::string>{direct.value()};
  }
  std::vector<LanguagePair> pairs;
  for (const BundledModel& m : all) pairs.emplace_back(m.source, m.target);
  const std::vector<size_t> route = language_route(pairs, source, target);
  if (route.empty()) return direct.status();
  std::vector<std::string> paths;
  for (size_t i : route) paths.push_back(all[i].path);
  return paths;
}

namespace {

// A catalog's, XLIFF document's or table's texts through the chain, filled in once.
Expected<std::vector<std::string>> fill_in_through(std::span<Translator* const> chain,
                                                   const std::vector<std::unique_ptr<Document>>& docs,
                                                   const TranslateOptions& unit_options) {
  std::vector<std::string> units;
  for (const auto& d : docs) units.insert(units.end(), d->units().begin(), d->units().end());
  for (Translator* t : chain) {
    auto r = t->translate(units, unit_options);
    if (!r) return r.status();
    units = std::move(r.value());
  }
  std::vector<std::string> result;
  size_t at = 0;
  for (const auto& d : docs) {
    const auto first = units.begin() + static_cast<std::ptrdiff_t>(at);
    const std::vector<std::string> mine(first, first + static_cast<std::ptrdiff_t>(d->units().size()));
    result.push_back(
        d->render(mine, chain.back()->model().target_language(), chain.front()->model().source_language()));
    at += d->units().size();
  }
  return result;
}

}  // namespace

Expected<std::vector<std::string>> translate_through(std::span<Translator* const> chain,
                                                     const std::vector<std::string>& texts,
                                                     const TranslateOptions& options) {
  if (chain.empty()) return invalid_argument("translate_through needs at least one translator");
  // A catalog, an XLIFF document, a String Catalog or a table: its units through every
  // model, filled in once (a table's source column into the last target's); the other
  // formats: each model translates the documents the last gave.
  if (const DocumentFormat& format = document_format(options.format.value_or(TextFormat::kText));
      chain.size() > 1 && format.filled_once) {
    auto docs = parse_documents(
        format, texts, {chain.front()->model().source_language(), chain.back()->model().target_language()});
    if (!docs) return docs.status();
    return fill_in_through(chain, docs.value(),
                           format.html_units ? as_html(options) : as_plain_text(options));
  }
  std::vector<std::string> current = texts;
  for (Translator* t : chain) {
    auto r = t->translate(current, options);
    if (!r) return r.status();
    current = std::move(r.value());
  }
  return current;
}

}  // namespace edgemt
