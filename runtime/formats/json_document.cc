#include "runtime/formats/json_document.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "runtime/core/utf8.h"
#include "runtime/formats/plural_categories.h"
#include "runtime/formats/text_kind.h"

namespace edgemt {
namespace {

constexpr int kMaxDepth = 512;

// One string of the document: [begin, end) with its quotes, decoded; a member's key, or
// a value (with the key of the member it is, or is in an array of).
struct JsonString {
  size_t begin = 0, end = 0;
  std::string value;
  bool key = false;
  bool meta = false;  // inside a member whose key starts with '@' (Flutter ARB's metadata, JSON-LD's @id)
  std::string member;
  // A value that is an object's member: the object (numbered in order), the spaces
  // before its key, and what is between its key and it (": ").
  size_t object = SIZE_MAX;
  std::string_view indent, colon;
};

class Scanner {
 public:
  explicit Scanner(std::string_view t) : t_(t) {}

  // The strings of one JSON text, in order; false with error() where it is not one.
  bool scan(size_t start, std::vector<JsonString>* strings) {
    strings_ = strings;
    i_ = start;
    space();
    if (i_ >= t_.size()) return fail("the document is empty");
    if (!value(0, "", false)) return false;
    space();
    if (i_ < t_.size()) return fail("text after the JSON value");
    return true;
  }
  std::string error() const {
    size_t line = 1, column = 1;
    for (size_t k = 0; k < error_at_ && k < t_.size(); ++k) {
      if (t_[k] == '\n') {
        ++line;
        column = 1;
      } else if ((static_cast<unsigned char>(t_[k]) & 0xC0) != 0x80) {
        ++column;
      }
    }
    return "JSON line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + error_;
  }

 private:
  bool fail(const std::string& what) {
    if (error_.empty()) {
      error_ = what;
      error_at_ = i_;
    }
    return false;
  }
  void space() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r')) ++i_;
  }
  bool expect(char c) {
    if (i_ < t_.size() && t_[i_] == c) {
      ++i_;
      return true;
    }
    return fail(std::string("expected '") + c + "'");
  }
  int hex4() {
    if (t_.size() - i_ < 4) return -1;
    int v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = t_[i_ + static_cast<size_t>(k)];

      const int d = hex_digit_value(c);
      if (d < 0) return -1;
      v = v * 16 + d;
    }
    i_ += 4;
    return v;
  }
  bool string(std::string* out) {
    ++i_;  // the opening quote
    while (true) {
      if (i_ >= t_.size()) return fail("a string is not closed");
      const char c = t_[i_];
      if (c == '"') {
        ++i_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("a control character in a string (write it as \\n, \\t, \\u00XX)");
      if (c != '\\') {
        out->push_back(c);
        ++i_;
        continue;
      }
      if (++i_ >= t_.size()) return fail("a string is not closed");
      const char e = t_[i_++];
      switch (e) {
        case '"':
          out->push_back('"');
          break;
        case '\\':
          out->push_back('\\');
          break;
        case '/':
          out->push_back('/');
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'u': {
          int u = hex4();
          if (u < 0) return fail("a \\u escape without four hex digits");
          uint32_t cp = static_cast<uint32_t>(u);
          if (is_high_surrogate(cp) && t_.substr(i_, 2) == "\\u") {
            const size_t back = i_;
            i_ += 2;
            const int low = hex4();
            if (low >= 0 && is_low_surrogate(static_cast<uint32_t>(low)))
              cp = surrogate_pair_code_point(cp, static_cast<uint32_t>(low));
            else
              i_ = back;  // a lone high surrogate; the next escape is read on its own
          }
          append_utf8(cp, out);  // a lone surrogate becomes U+FFFD
          break;
        }
        default:
          --i_;
          return fail("a bad escape in a string");
      }
    }
  }
  bool number() {
    const size_t start = i_;
    auto digits = [&] {
      const size_t b = i_;
      while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
      return i_ > b;
    };
    if (t_[i_] == '-') ++i_;
    if (i_ < t_.size() && t_[i_] == '0') {
      ++i_;
    } else if (!digits()) {
      i_ = start;
      return fail("a malformed number");
    }
    if (i_ < t_.size() && t_[i_] == '.') {
      ++i_;
      if (!digits()) return fail("a malformed number");
    }
    if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
      ++i_;
      if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
      if (!digits()) return fail("a malformed number");
    }
    return true;
  }
  bool value(int depth, const std::string& member, bool meta) {
    space();
    if (i_ >= t_.size()) return fail("the document ends inside a value");
    const char c = t_[i_];
    if (c == '{' || c == '[') {
      if (depth >= kMaxDepth) return fail("nested deeper than " + std::to_string(kMaxDepth));
      ++i_;
      space();
      const char close = c == '{' ? '}' : ']';
      const size_t object = c == '{' ? objects_++ : SIZE_MAX;
      size_t member_start = i_;  // after the '{' or ','
      space();
      if (i_ < t_.size() && t_[i_] == close) {
        ++i_;
        return true;
      }
      while (true) {
        std::string key = member;
        size_t key_end = 0;
        if (c == '{') {
          space();
          if (i_ >= t_.size() || t_[i_] != '"') return fail("expected a key (a string in quotes)");
          JsonString k;
          k.begin = i_;
          k.key = true;
          if (!string(&k.value)) return false;
          k.end = i_;
          key = k.value;
          key_end = k.end;
          strings_->push_back(std::move(k));
          space();
          if (!expect(':')) return false;
        }
        const size_t before = strings_->size();
        space();
        const bool string_value = i_ < t_.size() && t_[i_] == '"';
        if (!value(depth + 1, key, meta || (c == '{' && key.starts_with('@')))) return false;
        if (c == '{' && string_value && strings_->size() == before + 1) {
          JsonString& v = strings_->back();
          v.object = object;
          const size_t key_begin = (*strings_)[before - 1].begin;
          v.indent = t_.substr(member_start, key_begin - member_start);
          v.colon = t_.substr(key_end, v.begin - key_end);
        }
        space();
        if (i_ < t_.size() && t_[i_] == ',') {
          ++i_;
          member_start = i_;
          continue;
        }
        if (i_ < t_.size() && t_[i_] == close) {
          ++i_;
          return true;
        }
        return fail(std::string("expected ',' or '") + close + "'");
      }
    }
    if (c == '"') {
      JsonString s;
      s.begin = i_;
      s.member = member;
      s.meta = meta;
      if (!string(&s.value)) return false;
      s.end = i_;
      strings_->push_back(std::move(s));
      return true;
    }
    if (c == '-' || (c >= '0' && c <= '9')) return number();
    for (std::string_view w :
         {std::string_view("true"), std::string_view("false"), std::string_view("null")}) {
      if (t_.substr(i_, w.size()) == w) {
        i_ += w.size();
        return true;
      }
    }
    return fail("unexpected character");
  }

  std::string_view t_;
  size_t i_ = 0;
  std::vector<JsonString>* strings_ = nullptr;
  size_t objects_ = 0;
  std::string error_;
  size_t error_at_ = 0;
};

}  // namespace

void append_json_escaped(std::string_view s, bool ascii, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  auto u = [&](uint32_t v) {
    *out += "\\u";
    for (int sh = 12; sh >= 0; sh -= 4) out->push_back(kHex[(v >> sh) & 0xF]);
  };
  for (size_t i = 0; i < s.size();) {
    const Utf8Char c = decode_utf8(s, i);
    const char b = s[i];
    i += c.length;
    switch (c.code_point) {
      case '"':
        *out += "\\\"";
        continue;
      case '\\':
        *out += "\\\\";
        continue;
      case '\n':
        *out += "\\n";
        continue;
      case '\r':
        *out += "\\r";
        continue;
      case '\t':
        *out += "\\t";
        continue;
      case '\b':
        *out += "\\b";
        continue;
      case '\f':
        *out += "\\f";
        continue;
      default:
        break;
    }
    if (c.code_point < 0x20) {
      u(c.code_point);
    } else if (c.code_point < 0x80 || (!ascii && c.well_formed)) {
      out->append(s.substr(i - c.length, c.length));
    } else if (!c.well_formed) {
      out->push_back(b);  // as it was read
    } else {
      for_each_utf16_unit(c.code_point, u);
    }
  }
}

Expected<JsonDocument> JsonDocument::parse(std::string_view text) {
  JsonDocument doc;
  const size_t start = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  std::vector<JsonString> strings;
  Scanner scanner(text);
  if (!scanner.scan(start, &strings)) return invalid_argument(scanner.error());
  doc.ascii_ =
      std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }) &&
      text.find("\\u") != std::string_view::npos;
  // i18next's plural keys ("item_one", "item_other"): the members of each object.
  std::set<std::pair<size_t, std::string>> members;
  for (const JsonString& s : strings)
    if (!s.key && s.object != SIZE_MAX) members.emplace(s.object, s.member);
  std::map<std::pair<size_t, std::string>, size_t> value_of;  // a member's unit in values_
  size_t at = 0;
  for (JsonString& s : strings) {
    if (s.object == 0 && s.member == "@@locale" && !s.value.empty()) {
      // An ARB file's language: the translation's (a unit of no text for the model).
      doc.pieces_.keep(text.substr(at, s.begin - at));
      doc.pieces_.add_unit({{}, s.value, {}});
      Value v;
      v.first = doc.units_.size();
      v.locale = true;
      doc.values_.push_back(v);
      at = s.end;
      continue;
    }
    if (s.key || s.meta || key_names_a_code(s.member)) continue;
    const TrimmedText t = trim_text(s.value, is_ascii_space);
    if (t.core.empty() || !holds_words(t.core)) continue;
    auto m = IcuMessage::parse(t.core);
    if (!m && IcuMessage::has_choice_argument(t.core)) continue;  // an ICU message not taken apart: kept
    // An "_other" member beside another of its plural keys: the target language's
    // categories it has not are added after it.
    uint32_t mark = 0;
    constexpr std::string_view kOther = "_other";
    if (!m && s.object != SIZE_MAX && s.member.ends_with(kOther)) {
      PluralKeys p;
      p.base = s.member.substr(0, s.member.size() - kOther.size());
      p.ordinal = p.base.ends_with("_ordinal");
      for (const uint8_t c : kPluralCategories)
        if (members.count({s.object, p.base + "_" + std::string(plural_category_name(c))}) != 0)
          p.present |= c;
      if (p.present != kPluralOther && !p.base.empty()) {
        p.indent.assign(s.indent);
        p.colon.assign(s.colon);
        doc.plural_keys_.push_back(std::move(p));
        mark = static_cast<uint32_t>(doc.plural_keys_.size());
      }
    }
    // JSON v3: an "_plural" member beside its singular, the member of its base name.
    constexpr std::string_view kPlural = "_plural";
    if (mark == 0 && !m && s.object != SIZE_MAX && s.member.size() > kPlural.size() &&
        s.member.ends_with(kPlural) &&
        members.count({s.object, s.member.substr(0, s.member.size() - kPlural.size())}) != 0) {
      PluralKeys p;
      p.base = s.member.substr(0, s.member.size() - kPlural.size());
      p.v3 = true;
      p.object = s.object;
      for (uint8_t i = 0; i < 6; ++i)
        if (members.count({s.object, p.base + "_" + std::to_string(i)}) != 0)
          p.present = static_cast<uint8_t>(p.present | (1u << i));
      p.indent.assign(s.indent);
      p.colon.assign(s.colon);
      doc.plural_keys_.push_back(std::move(p));
      mark = static_cast<uint32_t>(doc.plural_keys_.size());
    }
    // JSON v3 from a language with other forms: the last of "x_0", "x_1", ... ("x_5" at
    // most), all present, beside no "x", "x_plural" or "x_other".
    if (mark == 0 && !m && s.object != SIZE_MAX && s.member.size() > 2 &&
        s.member[s.member.size() - 2] == '_' && s.member.back() >= '1' && s.member.back() <= '5') {
      const std::string base = s.member.substr(0, s.member.size() - 2);
      const int last = s.member.back() - '0';
      auto has = [&](const std::string& name) { return members.count({s.object, name}) != 0; };
      bool group = !has(base) && !has(base + "_plural") && !has(base + "_other") &&
                   !has(base + "_" + std::to_string(last + 1));
      for (int i = 0; group && i < last; ++i) group = has(base + "_" + std::to_string(i));
      if (group) {
        PluralKeys p;
        p.base = base;
        p.v3 = p.numbered = true;
        p.object = s.object;
        p.present = static_cast<uint8_t>((1u << (last + 1)) - 1);
        p.forms.assign(static_cast<size_t>(last + 1), SIZE_MAX);
        p.indent.assign(s.indent);
        p.colon.assign(s.colon);
        doc.plural_keys_.push_back(std::move(p));
        mark = static_cast<uint32_t>(doc.plural_keys_.size());
      }
    }
    if (s.object != SIZE_MAX) value_of[{s.object, s.member}] = doc.values_.size();
    doc.pieces_.keep(text.substr(at, s.begin - at));
    doc.pieces_.add_unit(t, mark);
    Value v;
    v.first = doc.units_.size();
    if (m) {
      v.message = doc.messages_.size();
      doc.units_.insert(doc.units_.end(), m->units().begin(), m->units().end());
      doc.messages_.push_back(std::move(*m));
    } else {
      doc.units_.emplace_back(t.core);
    }
    doc.values_.push_back(v);
    at = s.end;
  }
  doc.pieces_.keep(text.substr(at));
  for (PluralKeys& p : doc.plural_keys_) {
    if (!p.v3) continue;
    for (size_t i = 0; i < p.forms.size(); ++i) {
      const auto it = value_of.find({p.object, p.base + "_" + std::to_string(i)});
      if (it != value_of.end()) p.forms[i] = it->second;
    }
    if (p.numbered) continue;
    const auto it = value_of.find({p.object, p.base});
    if (it != value_of.end()) p.singular = it->second;
  }
  return doc;
}

std::string JsonDocument::render(const std::vector<std::string>& translations, std::string_view language,
                                 std::string_view source_language) const {
  // Each value's translation: its unit's, or its ICU message put together from its leaves'.
  std::vector<std::string> values(values_.size());
  for (size_t i = 0; i < values_.size(); ++i) {
    const Value& v = values_[i];
    if (v.locale) {
      values[i] = language.empty() ? pieces_.units()[i] : std::string(language);
      continue;
    }
    if (v.message == SIZE_MAX) {
      values[i] = v.first < translations.size() ? translations[v.first] : pieces_.units()[i];
      continue;
    }
    values[i] = messages_[v.message].render_from(translations, v.first, language);
  }
  const uint8_t cardinal = plural_categories(language), ordinal = ordinal_categories(language);
  const std::vector<int> v3_numbers = i18next_v3_plural_numbers(language);
  return pieces_.render(values, [&](const std::string& value, uint32_t mark, std::string* out) {
    out->push_back('"');
    append_json_escaped(value, ascii_, out);
    out->push_back('"');
    if (mark == 0) return;
    const PluralKeys& p = plural_keys_[mark - 1];
    auto add_member = [&](const std::string& name, const std::string& text) {
      *out += ',';
      *out += p.indent;
      out->push_back('"');
      append_json_escaped(name, ascii_, out);
      out->push_back('"');
      *out += p.colon;
      out->push_back('"');
      append_json_escaped(text, ascii_, out);
      out->push_back('"');
    };
    auto add = [&](std::string_view suffix, const std::string& text) {
      add_member(p.base + "_" + std::string(suffix), text);
    };
    const bool pair = v3_numbers.size() == 2 && v3_numbers[0] == 1;
    if (p.numbered) {
      // The source language's forms (as many as the object has, else it is not known
      // which is which): a number takes the form of its own example number, else 1 the
      // singular's and any other the most general's (the largest example number's:
      // Russian's 5, Arabic's 100, Slovenian's 5).
      const std::vector<int> from = i18next_v3_plural_numbers(source_language);
      // (A language of the pair writes "x" and "x_plural": its "x_0" and "x_1" are not forms.)
      const bool from_pair = from.size() == 2 && from[0] == 1;
      if (v3_numbers.empty() || from_pair || from.size() != p.forms.size()) return;
      size_t one = SIZE_MAX, general = 0;
      for (size_t i = 0; i < from.size(); ++i) {
        if (p.forms[i] >= values.size()) return;
        if (from[i] == 1) one = i;
        if (from[i] > from[general]) general = i;
      }
      auto form_of = [&](int number) -> const std::string& {
        for (size_t i = 0; i < from.size(); ++i)
          if (from[i] == number) return values[p.forms[i]];
        return values[p.forms[number == 1 && one != SIZE_MAX ? one : general]];
      };
      if (pair) {
        if (one == SIZE_MAX) return;
        add_member(p.base, values[p.forms[one]]);
        add("plural", values[p.forms[general]]);
        return;
      }
      for (size_t i = 0; i < v3_numbers.size(); ++i)
        if ((p.present & (1u << i)) == 0) add(std::to_string(i), form_of(v3_numbers[i]));
      return;
    }
    if (p.v3) {
      // A form whose example number is 1, in a language that tells 1 from 2, takes the
      // singular's translation; the others the plural's.
      const bool two_apart = std::find(v3_numbers.begin(), v3_numbers.end(), 2) != v3_numbers.end();
      for (size_t i = 0; !pair && i < v3_numbers.size(); ++i) {
        if ((p.present & (1 << i)) != 0) continue;
        const bool singular = v3_numbers[i] == 1 && two_apart && p.singular < values.size();
        add(std::to_string(i), singular ? values[p.singular] : value);
      }
      return;
    }
    const uint8_t categories = p.ordinal ? ordinal : cardinal;
    for (const uint8_t c : kPluralCategories) {
      if ((categories & c) == 0 || (p.present & c) != 0) continue;
      add(plural_category_name(c), value);
    }
  });
}

}  // namespace edgemt
