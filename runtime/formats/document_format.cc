#include "runtime/formats/document_format.h"

#include <algorithm>
#include <type_traits>
#include <utility>

#include "runtime/formats/android_strings.h"
#include "runtime/formats/apple_strings.h"
#include "runtime/formats/csv_document.h"
#include "runtime/formats/json_document.h"
#include "runtime/formats/markdown.h"
#include "runtime/formats/office_document.h"
#include "runtime/formats/po_catalog.h"
#include "runtime/formats/properties_file.h"
#include "runtime/formats/resx_document.h"
#include "runtime/formats/stringsdict_document.h"
#include "runtime/formats/subtitles.h"
#include "runtime/formats/xcstrings_document.h"
#include "runtime/formats/xliff_document.h"
#include "runtime/formats/yaml_document.h"
#include "runtime/text/wrapped_text.h"

namespace edgemt {
namespace {

// How each reader is called and each writer given the languages, by what it takes.
template <typename Doc>
concept ParseCanFail = requires(std::string_view text) {
  Doc::parse(text).has_value();
};
template <typename Doc>
concept ParsesWithLanguages = requires(std::string_view text) {
  Doc::parse(text, text, text);
};
template <typename Doc>
concept ParsesWithALimit = requires(std::string_view text) {
  Doc::parse(text, size_t{1});
};
template <typename Doc>
concept RendersALanguage = requires(const Doc& d, const std::vector<std::string>& t,
                                    std::string_view language) {
  d.render(t, language);
};
// One whose render also takes the language it is in (JSON v3's numbered plural forms).
template <typename Doc>
concept RendersFromALanguage = requires(const Doc& d, const std::vector<std::string>& t,
                                        std::string_view language) {
  d.render(t, language, language);
};

template <typename Doc>
class DocumentOf final : public Document {
 public:
  explicit DocumentOf(Doc doc) : doc_(std::move(doc)) {}
  const std::vector<std::string>& units() const override { return doc_.units(); }
  std::string render(const std::vector<std::string>& translations, std::string_view target,
                     std::string_view source) const override {
    if constexpr (RendersFromALanguage<Doc>)
      return doc_.render(translations, target, source);
    else if constexpr (RendersALanguage<Doc>)
      return doc_.render(translations, target);
    else
      return doc_.render(translations);
  }

 private:
  Doc doc_;
};

template <typename Doc>
Expected<std::unique_ptr<Document>> parse_as(std::string_view text, const ParseOptions& options) {
  auto parsed = [&] {
    if constexpr (ParsesWithLanguages<Doc>)
      return Doc::parse(text, options.source_language, options.target_language);
    else if constexpr (ParsesWithALimit<Doc>)
      return Doc::parse(text, options.max_bytes);
    else
      return Doc::parse(text);
  }();
  if constexpr (ParseCanFail<Doc> || ParsesWithALimit<Doc>) {
    if (!parsed) return parsed.status();
    return std::unique_ptr<Document>(std::make_unique<DocumentOf<Doc>>(std::move(parsed.value())));
  } else {
    return std::unique_ptr<Document>(std::make_unique<DocumentOf<Doc>>(std::move(parsed)));
  }
}

// The word of `list` (words separated by spaces) at *at, moving *at past it.
constexpr std::string_view next_word(std::string_view list, size_t* at) {
  size_t end = list.find(' ', *at);
  if (end == std::string_view::npos) end = list.size();
  const std::string_view word = list.substr(*at, end - *at);
  *at = end + 1;
  return word;
}

// "a b c" -> {"a", "b", "c"}
std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  for (size_t at = 0; at < s.size();)
    if (const std::string_view w = next_word(s, &at); !w.empty()) out.push_back(w);
  return out;
}

std::vector<FileExtension> extensions(std::string_view s) {
  std::vector<FileExtension> out;
  for (std::string_view w : words(s)) {
    const size_t eq = w.find('=');
    out.push_back({w.substr(0, eq), eq == std::string_view::npos ? std::string_view() : w.substr(eq + 1)});
  }
  return out;
}

constexpr unsigned kNoFlags = 0;  // (the table's flags, as bits)
constexpr unsigned kTextFile = 1, kFilledOnce = 2;
constexpr bool kHtml = true, kPlain = false;

// Which formats this build has (CMake's EDGEMT_FORMATS: their names, separated by
// spaces; every format where it is not given). A format left out is not linked in: its
// reader is never referred to.
#ifdef EDGEMT_FORMATS_IN_BUILD
constexpr bool has_word(std::string_view list, std::string_view word) {
  for (size_t at = 0; at < list.size();)
    if (next_word(list, &at) == word) return true;
  return false;
}
constexpr std::string_view kInBuild = EDGEMT_FORMATS_IN_BUILD;
#define EDGEMT_FORMAT_NAMES(Id, CValue, CName, Doc, Units, Names, Extensions, Flags) Names " "
constexpr std::string_view kAllNames = EDGEMT_DOCUMENT_FORMATS(EDGEMT_FORMAT_NAMES);
#undef EDGEMT_FORMAT_NAMES
// Any of a format's names in the list; and every name in the list a format's.
constexpr bool in_build(std::string_view names) {
  for (size_t at = 0; at < names.size();)
    if (has_word(kInBuild, next_word(names, &at))) return true;
  return false;
}
constexpr bool names_known() {
  for (size_t at = 0; at < kInBuild.size();)
    if (const std::string_view w = next_word(kInBuild, &at); !w.empty() && !has_word(kAllNames, w))
      return false;
  return true;
}
static_assert(names_known(),
              "EDGEMT_FORMATS names a format that runtime/formats/format_list.h does not have");
#else
constexpr bool in_build(std::string_view) { return true; }
#endif

template <typename Doc, bool kBuilt>
constexpr auto reader() {
  if constexpr (std::is_void_v<Doc> || !kBuilt)
    return static_cast<Expected<std::unique_ptr<Document>> (*)(std::string_view, const ParseOptions&)>(
        nullptr);
  else
    return &parse_as<Doc>;
}

// A format whose files share an extension with another's says which are its own
// (static bool recognizes(std::string_view)).
template <typename Doc>
concept Recognizes = requires(std::string_view text) {
  Doc::recognizes(text);
};
template <typename Doc, bool kBuilt>
constexpr auto recognizer() {
  if constexpr (std::is_void_v<Doc> || !kBuilt)
    return static_cast<bool (*)(std::string_view)>(nullptr);
  else if constexpr (!Recognizes<Doc>)
    return static_cast<bool (*)(std::string_view)>(nullptr);
  else
    return &Doc::recognizes;
}

template <typename Doc>
constexpr bool reads_languages() {
  if constexpr (std::is_void_v<Doc>)
    return false;
  else
    return ParsesWithLanguages<Doc>;
}

const std::vector<DocumentFormat>& table() {
  static const std::vector<DocumentFormat> formats = [] {
    std::vector<DocumentFormat> f;
#define EDGEMT_FORMAT_ROW(Id, CValue, CName, Doc, Units, Names, Extensions, Flags)                     \
  f.push_back(DocumentFormat{TextFormat::Id, CValue, #CName, words(Names).front(), words(Names),       \
                             extensions(Extensions), Units, ((Flags)&kTextFile) != 0,                  \
                             ((Flags)&kFilledOnce) != 0, reads_languages<Doc>(), !std::is_void_v<Doc>, \
                             reader<Doc, in_build(Names)>(), recognizer<Doc, in_build(Names)>()});
    EDGEMT_DOCUMENT_FORMATS(EDGEMT_FORMAT_ROW)
#undef EDGEMT_FORMAT_ROW
    return f;
  }();
  return formats;
}

}  // namespace

Status left_out(const DocumentFormat& format) {
  return {StatusCode::kUnsupported, "the " + std::string(format.name) +
                                        " format is not in this build (edgemt was built with "
                                        "-DEDGEMT_FORMATS naming the formats it has)"};
}

std::string_view DocumentFormat::content_type(std::string_view extension) const {
  for (const FileExtension& e : extensions)
    if (e.extension == extension) return e.content_type;
  return {};
}

std::span<const DocumentFormat> document_formats() { return table(); }

const DocumentFormat& document_format(TextFormat id) {
  for (const DocumentFormat& f : table())
    if (f.id == id) return f;
  return table().front();  // (every TextFormat has its line: the enum is the table's)
}

const DocumentFormat* document_format_named(std::string_view name) {
  for (const DocumentFormat& f : table())
    if (std::find(f.names.begin(), f.names.end(), name) != f.names.end()) return &f;
  return nullptr;
}

std::vector<const DocumentFormat*> document_formats_with_extension(std::string_view extension) {
  std::vector<const DocumentFormat*> out;
  for (const DocumentFormat& f : table())
    if (!f.content_type(extension).empty()) out.push_back(&f);
  return out;
}

const DocumentFormat* document_format_of_file(std::string_view extension, std::string_view content) {
  const std::vector<const DocumentFormat*> all = document_formats_with_extension(extension);
  if (all.size() == 1) return all[0];
  for (const DocumentFormat* f : all)
    if (f->recognizes == nullptr || f->recognizes(content)) return f;
  return nullptr;
}

Expected<std::vector<std::unique_ptr<Document>>> parse_documents(const DocumentFormat& format,
                                                                 const std::vector<std::string>& texts,
                                                                 const ParseOptions& options) {
  if (!format.document()) return invalid_argument("format '" + std::string(format.name) + "' has no reader");
  if (!format.built()) return left_out(format);
  std::vector<std::unique_ptr<Document>> docs;
  docs.reserve(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    auto d = format.parse(texts[i], options);
    if (!d)
      return invalid_argument((texts.size() > 1 ? "document " + std::to_string(i) + ": " : std::string()) +
                              d.status().message());
    docs.push_back(std::move(d.value()));
  }
  return docs;
}

}  // namespace edgemt
