#include "runtime/formats/xcstrings_document.h"

#include <algorithm>
#include <memory>

#include "runtime/core/utf8.h"
#include "runtime/formats/json_document.h"
#include "runtime/formats/plural_categories.h"
#include "runtime/formats/text_kind.h"

namespace edgemt {
namespace {

// A JSON value of a document already known to be valid JSON (JsonDocument::parse said so).
struct Node {
  enum Kind { kObject, kArray, kString, kOther };
  Kind kind = kOther;
  size_t begin = 0, end = 0;  // its bytes
  std::string text;           // a string's, decoded
  struct Member {
    std::string key;
    size_t key_begin = 0;
    std::unique_ptr<Node> value;
  };
  std::vector<Member> members;  // an object's

  const Node* member(std::string_view key) const {
    for (const Member& m : members)
      if (m.key == key) return m.value.get();
    return nullptr;
  }
  const Node* object(std::string_view key) const {
    const Node* n = member(key);
    return n != nullptr && n->kind == kObject ? n : nullptr;
  }
  const std::string* string(std::string_view key) const {
    const Node* n = member(key);
    return n != nullptr && n->kind == kString ? &n->text : nullptr;
  }
};

class Reader {
 public:
  explicit Reader(std::string_view t, size_t i) : t_(t), i_(i) {}

  std::unique_ptr<Node> value() {
    space();
    auto n = std::make_unique<Node>();
    n->begin = i_;
    if (i_ >= t_.size()) return n;
    const char c = t_[i_];
    if (c == '{') {
      n->kind = Node::kObject;
      ++i_;
      space();
      while (i_ < t_.size() && t_[i_] != '}') {
        Node::Member m;
        m.key_begin = i_;
        m.key = string();
        space();
        ++i_;  // ':'
        m.value = value();
        n->members.push_back(std::move(m));
        space();
        if (i_ < t_.size() && t_[i_] == ',') ++i_;
        space();
      }
      ++i_;
    } else if (c == '[') {
      n->kind = Node::kArray;
      ++i_;
      space();
      while (i_ < t_.size() && t_[i_] != ']') {
        value();
        space();
        if (i_ < t_.size() && t_[i_] == ',') ++i_;
        space();
      }
      ++i_;
    } else if (c == '"') {
      n->kind = Node::kString;
      n->text = string();
    } else {
      while (i_ < t_.size() && t_[i_] != ',' && t_[i_] != '}' && t_[i_] != ']' && !is_ascii_space(t_[i_]))
        ++i_;
    }
    n->end = std::min(i_, t_.size());
    return n;
  }

 private:
  void space() {
    while (i_ < t_.size() && is_ascii_space(t_[i_])) ++i_;
  }
  // The string at t_[i_] (its quote), decoded; i_ past it.
  std::string string() {
    std::string out;
    for (++i_; i_ < t_.size() && t_[i_] != '"'; ++i_) {
      if (t_[i_] != '\\') {
        out.push_back(t_[i_]);
        continue;
      }
      if (++i_ >= t_.size()) break;
      const char e = t_[i_];
      switch (e) {
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'u': {
          uint32_t cp = hex4(i_ + 1);
          i_ += 4;
          if (is_high_surrogate(cp) && t_.substr(i_ + 1, 2) == "\\u") {
            const uint32_t low = hex4(i_ + 3);
            if (is_low_surrogate(low)) {
              cp = surrogate_pair_code_point(cp, low);
              i_ += 6;
            }
          }
          append_utf8(is_surrogate(cp) ? 0xFFFD : cp, &out);
          break;
        }
        default:
          out.push_back(e);  // " \ /
      }
    }
    ++i_;
    return out;
  }
  uint32_t hex4(size_t at) const {
    uint32_t v = 0;
    for (size_t k = at; k < at + 4 && k < t_.size(); ++k)
      v = v * 16 + static_cast<uint32_t>(hex_digit_value(t_[k]));
    return v;
  }

  std::string_view t_;
  size_t i_;
};

// The spaces and tabs before t[at] on its line.
std::string indent_before(std::string_view t, size_t at) {
  size_t b = at;
  while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t')) --b;
  return std::string(t.substr(b, at - b));
}

std::string quoted(std::string_view s) {
  std::string out = "\"";
  append_json_escaped(s, false, &out);
  out += '"';
  return out;
}

// {"stringUnit" : {"state" : "needs_review", "value" : value}} in Xcode's layout, its
// braces' lines at `indent`.
std::string string_unit(std::string_view value, const std::string& indent) {
  return "{\n" + indent + "  \"stringUnit\" : {\n" + indent + "    \"state\" : \"needs_review\",\n" + indent +
         "    \"value\" : " + quoted(value) + "\n" + indent + "  }\n" + indent + "}";
}

}  // namespace

Expected<XcstringsDocument> XcstringsDocument::parse(std::string_view text) {
  auto valid = JsonDocument::parse(text);
  if (!valid) return valid.status();
  XcstringsDocument d;
  d.text_.assign(text);
  const std::unique_ptr<Node> root = Reader(text, text.starts_with("\xEF\xBB\xBF") ? 3 : 0).value();
  const std::string* source = root->kind == Node::kObject ? root->string("sourceLanguage") : nullptr;
  const Node* strings = root->kind == Node::kObject ? root->object("strings") : nullptr;
  if (source == nullptr || strings == nullptr || source->empty())
    return invalid_argument("not an Xcode String Catalog: no \"sourceLanguage\" or \"strings\"");
  d.source_language_ = *source;
  for (const Node::Member& s : strings->members) {
    const Node& e = *s.value;
    if (e.kind != Node::kObject) continue;
    const Node* should = e.member("shouldTranslate");
    if (should != nullptr && text.substr(should->begin, should->end - should->begin) == "false") continue;
    Entry entry;
    const Node* loc = e.object("localizations");
    if (loc != nullptr)
      for (const Node::Member& m : loc->members) entry.languages.push_back(m.key);
    std::vector<std::string> texts;
    const Node* src = loc != nullptr ? loc->object(*source) : nullptr;
    if (src == nullptr) {
      if (!holds_words(s.key)) continue;  // the key is the text where no source is given
      texts.push_back(s.key);
    } else if (src->member("substitutions") != nullptr) {
      continue;
    } else if (const Node* unit = src->object("stringUnit")) {
      const std::string* v = unit->string("value");
      if (v == nullptr || !holds_words(*v)) continue;
      texts.push_back(*v);
    } else if (const Node* variations = src->object("variations")) {
      const Node* plural = variations->object("plural");
      if (plural == nullptr || variations->members.size() != 1) continue;
      bool ok = !plural->members.empty();
      for (const Node::Member& b : plural->members) {
        const Node* unit = b.value->kind == Node::kObject ? b.value->object("stringUnit") : nullptr;
        const std::string* v = unit != nullptr ? unit->string("value") : nullptr;
        if (v == nullptr || plural_category_named(b.key) == 0) {
          ok = false;
          break;
        }
        texts.push_back(*v);
        entry.categories.push_back(b.key);
      }
      if (!ok) continue;
    } else {
      continue;
    }
    const Node& into = loc != nullptr ? *loc : e;
    entry.has_localizations = loc != nullptr;
    entry.place.open = into.begin;
    entry.place.close = into.end - 1;
    for (const Node::Member& m : into.members)
      entry.place.members.push_back({m.key, m.key_begin, m.value->end});
    const std::string string_indent = indent_before(text, s.key_begin);
    entry.place.indent = !into.members.empty() ? indent_before(text, into.members.front().key_begin)
                                               : string_indent + (loc != nullptr ? "    " : "  ");
    for (std::string& t : texts) {
      entry.units.push_back(d.units_.size());
      d.units_.push_back(std::move(t));
    }
    d.entries_.push_back(std::move(entry));
  }
  return d;
}

std::string XcstringsDocument::render(const std::vector<std::string>& translations,
                                      std::string_view language) const {
  if (language.empty() || language == source_language_) return text_;
  std::string out;
  size_t at = 0;
  for (const Entry& e : entries_) {
    if (std::find(e.languages.begin(), e.languages.end(), language) != e.languages.end()) continue;
    const bool all = std::all_of(e.units.begin(), e.units.end(), [&](size_t u) {
      return u < translations.size() && !translations[u].empty();
    });
    if (!all) continue;
    const Place& p = e.place;
    // The member to add, written at `indent`: the language's localization, inside a new
    // "localizations" where the string had none.
    const std::string& indent = p.indent;
    const std::string inner = e.has_localizations ? indent : indent + "  ";
    std::string localization;
    if (e.categories.empty()) {
      localization = string_unit(translations[e.units[0]], inner);
    } else {
      std::vector<std::string_view> selectors(e.categories.begin(), e.categories.end());
      localization = "{\n" + inner + "  \"variations\" : {\n" + inner + "    \"plural\" : {\n";
      bool first = true;
      for (const PluralBranch& b : plural_branches(plural_categories(language), selectors)) {
        if (!first) localization += ",\n";
        first = false;
        localization += inner + "      " + quoted(plural_category_name(b.category)) + " : " +
                        string_unit(translations[e.units[b.source]], inner + "      ");
      }
      localization += "\n" + inner + "    }\n" + inner + "  }\n" + inner + "}";
    }
    std::string key = std::string(language), value = std::move(localization);
    if (!e.has_localizations) {
      value = "{\n" + inner + quoted(language) + " : " + value + "\n" + indent + "}";
      key = "localizations";
    }
    const std::string member = quoted(key) + " : " + value;
    // In the object's key order (Xcode sorts them): before the first member whose key
    // comes after it, else after the last; an empty object gets it as its only member.
    const auto next =
        std::find_if(p.members.begin(), p.members.end(), [&](const Place::Member& m) { return m.key > key; });
    size_t where;
    std::string insert;
    size_t replaced = 0;
    if (p.members.empty()) {
      where = p.open + 1;
      replaced = p.close - where;
      insert = "\n" + indent + member + "\n" + indent.substr(0, indent.size() >= 2 ? indent.size() - 2 : 0);
    } else if (next != p.members.end()) {
      where = next->key_begin;
      insert = member + ",\n" + indent_before(text_, next->key_begin);
    } else {
      where = p.members.back().value_end;
      insert = ",\n" + indent + member;
    }
    out.append(text_, at, where - at);
    out += insert;
    at = where + replaced;
  }
  out.append(text_, at, std::string::npos);
  return out;
}

}  // namespace edgemt
