#include "runtime/formats/android_strings.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "runtime/core/utf8.h"
#include "runtime/formats/plural_categories.h"
#include "runtime/formats/text_kind.h"
#include "runtime/formats/xml_inline.h"
#include "runtime/formats/xml_tree.h"

namespace edgemt {

struct AndroidStrings::State {
  XmlNode root;
  std::vector<InlineUnit> unit_info;  // per unit (XmlNode::unit on its element)
  std::vector<bool> quoted;           // per unit: its value was wrapped in double quotes
  std::vector<std::string> units;
};

namespace {

using State = AndroidStrings::State;

// Text as Android reads a string resource's: its escapes, its quotes (which quote, and
// are not text) and white space (a run of it one space; a \n escape a line break).
std::string android_text(std::string_view t) {
  std::string out;
  bool quoted = false;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '\\' && i + 1 < t.size()) {
      const char e = t[++i];
      if (e == 'n') {
        out += '\n';
      } else if (e == 't') {
        out += '\t';
      } else if (e == 'u' && i + 4 < t.size() && hex_digit_value(t[i + 1]) >= 0 &&
                 hex_digit_value(t[i + 2]) >= 0 && hex_digit_value(t[i + 3]) >= 0 &&
                 hex_digit_value(t[i + 4]) >= 0) {
        uint32_t cp = 0;
        for (size_t k = 1; k <= 4; ++k) cp = cp * 16 + static_cast<uint32_t>(hex_digit_value(t[i + k]));
        append_utf8(cp, &out);
        i += 4;
      } else {
        out += e;  // \' \" \\ \@ \? and any other: the character itself
      }
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == '\n' || c == '\r' || c == '\t') {
      out += quoted && c != '\r' ? c : ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// Text as a string resource holds it: Android's escapes, then XML's.
std::string android_escaped(std::string_view t) {
  std::string out;
  for (char c : t) {
    if (c == '\\' || c == '\'' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      out += c;
    }
  }
  return escape_xml(out);
}

InlineDialect android_dialect() {
  InlineDialect d;
  // Styling tags wrap words; <xliff:g> is a placeholder, kept as it is.
  d.paired = [](const XmlNode& n) { return xml_local_name(n.name) != "g"; };
  d.read_text = android_text;
  d.write_text = android_escaped;
  d.line_break = "\\n";
  return d;
}

bool untranslatable(const XmlNode& n) { return xml_attribute(n.open, "translatable") == "false"; }

// The value, trimmed, as written: a reference to another resource, or wrapped in quotes.
std::string_view trimmed_source(const XmlNode& n, std::string* buffer) {
  for (const XmlNode& c : n.children) *buffer += write_xml(c);
  const size_t b = buffer->find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  const size_t e = buffer->find_last_not_of(" \t\r\n");
  return std::string_view(*buffer).substr(b, e + 1 - b);
}

// Is the value one quoted run ("It's \"here\"")? Escaped quotes are text.
bool wrapped_in_quotes(std::string_view raw) {
  if (raw.size() < 2 || raw.front() != '"') return false;
  for (size_t i = 1; i < raw.size(); ++i) {
    if (raw[i] == '\\') {
      ++i;
    } else if (raw[i] == '"') {
      return i == raw.size() - 1;
    }
  }
  return false;
}

class Collector {
 public:
  explicit Collector(State* st) : st_(st), dialect_(android_dialect()) {}

  void resources(XmlNode* res) {
    for (XmlNode& c : res->children) {
      if (c.kind != XmlNode::kElement || untranslatable(c)) continue;
      if (c.name == "string") {
        value(&c);
      } else if (c.name == "string-array" || c.name == "plurals") {
        for (XmlNode& item : c.children)
          if (item.kind == XmlNode::kElement && item.name == "item") value(&item);
      }
    }
  }

 private:
  void value(XmlNode* n) {
    if (n->close.empty()) return;
    std::string buffer;
    const std::string_view raw = trimmed_source(*n, &buffer);
    if (raw.empty() || ((raw[0] == '@' || raw[0] == '?') && raw.find(' ') == std::string_view::npos)) return;
    InlineUnit u = read_inline(*n, dialect_);
    if (!has_letter(u.words)) return;
    n->unit = static_cast<int>(st_->units.size());
    st_->quoted.push_back(wrapped_in_quotes(raw));
    st_->units.push_back(std::move(u.html));
    u.html.clear();
    u.words.clear();
    st_->unit_info.push_back(std::move(u));
  }

  State* st_;
  InlineDialect dialect_;
};

class Writer {
 public:
  Writer(const State& st, const std::vector<std::string>& translations, std::string_view language)
      : st_(st), translations_(translations), language_(language), dialect_(android_dialect()) {}

  std::string write(const XmlNode& n, bool top) const {
    if (n.kind != XmlNode::kElement) return n.open;
    if (top && n.name == "resources") return resources(n);
    if (n.name == "plurals") {
      std::string s;
      if (plurals(n, &s)) return s;
    }
    if (n.unit >= 0) {
      const size_t u = static_cast<size_t>(n.unit);
      if (u < translations_.size() && !translations_[u].empty()) return n.open + value(u) + n.close;
      return write_xml(n);
    }
    std::string s = n.open;
    for (const XmlNode& c : n.children) s += write(c, false);
    return s + n.close;
  }

 private:
  std::string resources(const XmlNode& n) const {
    std::string open = n.open;
    if (!language_.empty() && has_xml_attribute(open, "tools:locale"))
      set_xml_attribute(&open, {"resources"}, "tools:locale", language_);
    std::string s = open;
    const std::vector<XmlNode>& ch = n.children;
    for (size_t i = 0; i < ch.size(); ++i) {
      // What must not be translated stays in the source's folder only: left out, with
      // the line it was on.
      const bool next_dropped =
          i + 1 < ch.size() && ch[i + 1].kind == XmlNode::kElement && untranslatable(ch[i + 1]);
      if (ch[i].kind == XmlNode::kElement && untranslatable(ch[i])) continue;
      if (next_dropped && ch[i].kind == XmlNode::kText && is_xml_blank(ch[i].open)) {
        // Keep the line end before the next kept node: only the dropped element's indentation goes.
        continue;
      }
      s += write(ch[i], false);
    }
    return s + n.close;
  }

  // A <plurals> with an <item> for each of the language's plural categories (CLDR's, in
  // their order): the source's item of that quantity, else the "other" item with its
  // quantity changed (Russian's "few" and "many" from English's "other"); items of
  // categories the language does not have are left out. False (as it is) for a language
  // the table does not know, or a <plurals> with more than items and spaces in it.
  bool plurals(const XmlNode& n, std::string* out) const {
    const uint8_t want = plural_categories(language_);
    if (want == 0) return false;
    std::vector<const XmlNode*> items;
    std::vector<std::string_view> spaces;  // before each item, and after the last
    spaces.emplace_back();
    for (const XmlNode& c : n.children) {
      if (c.kind == XmlNode::kText && is_xml_blank(c.open)) {
        spaces.back() = c.open;
      } else if (c.kind == XmlNode::kElement && c.name == "item" &&
                 plural_category_named(xml_attribute(c.open, "quantity")) != 0) {
        items.push_back(&c);
        spaces.emplace_back();
      } else {
        return false;
      }
    }
    if (items.empty()) return false;
    std::vector<std::string> quantities;
    for (const XmlNode* i : items) quantities.push_back(xml_attribute(i->open, "quantity"));
    *out = n.open;
    bool first = true;
    for (const PluralBranch& b : plural_branches(want, {quantities.begin(), quantities.end()})) {
      const std::string_view name = plural_category_name(b.category);
      const XmlNode* item = items[b.source];
      *out += spaces[first || items.size() < 2 ? 0 : 1];
      first = false;
      std::string open = item->open;
      if (quantities[b.source] != name) set_xml_attribute(&open, {"item"}, "quantity", name);
      *out += open;
      const size_t u = static_cast<size_t>(item->unit);
      if (item->unit >= 0 && u < translations_.size() && !translations_[u].empty()) {
        *out += value(u);
      } else {
        for (const XmlNode& c2 : item->children) *out += write_xml(c2);
      }
      *out += item->close;
    }
    *out += spaces.back();
    *out += n.close;
    return true;
  }

  std::string value(size_t u) const {
    const InlineUnit& unit = st_.unit_info[u];
    std::string xml = write_inline(unit, translations_[u], dialect_);
    // The text's start, after the spaces the value had: a leading @ or ? would read as a
    // reference; a quoted value stays quoted.
    const size_t at = unit.lead.size(), tail = std::min(unit.trail.size(), xml.size() - at);
    const std::string_view body = std::string_view(xml).substr(at, xml.size() - at - tail);
    std::string out(unit.lead);
    if (st_.quoted[u]) {
      out += '"';
      out += body;
      out += '"';
    } else {
      if (!body.empty() && (body[0] == '@' || body[0] == '?')) out += '\\';
      out += body;
    }
    out += std::string_view(xml).substr(xml.size() - tail);
    return out;
  }

  const State& st_;
  const std::vector<std::string>& translations_;
  std::string language_;
  InlineDialect dialect_;
};

}  // namespace

bool AndroidStrings::recognizes(std::string_view text) {
  return xml_local_name(xml_root_element(text)) == "resources";
}

Expected<AndroidStrings> AndroidStrings::parse(std::string_view text) {
  auto st = std::make_shared<State>();
  auto root = parse_xml(text, "the string resources");
  if (!root) return root.status();
  st->root = std::move(root.value());
  XmlNode* res = xml_document_element(&st->root, "resources");
  if (res == nullptr)
    return invalid_argument("not an Android string resource file: its root element is not <resources>");
  Collector(st.get()).resources(res);
  AndroidStrings a;
  a.state_ = std::move(st);
  return a;
}

const std::vector<std::string>& AndroidStrings::units() const { return state_->units; }

std::string AndroidStrings::render(const std::vector<std::string>& translations,
                                   std::string_view language) const {
  const Writer w(*state_, translations, language);
  std::string out;
  for (const XmlNode& c : state_->root.children) out += w.write(c, true);
  return out;
}

}  // namespace edgemt
