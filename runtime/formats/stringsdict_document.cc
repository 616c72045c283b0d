#include "runtime/formats/stringsdict_document.h"

#include <utility>

#include "runtime/formats/apple_strings.h"
#include "runtime/formats/plural_categories.h"
#include "runtime/formats/text_kind.h"
#include "runtime/formats/text_pieces.h"
#include "runtime/formats/xml_tree.h"
#include "runtime/text/markup.h"

namespace edgemt {

struct StringsdictDocument::State {
  XmlNode root;
  std::vector<std::string> units;
  // A plural rule's <dict> (its XmlNode::unit is its index here): the categories it has,
  // its "other" <string>, and the spaces before a category's <key>.
  struct Rule {
    uint8_t present = 0;
    const XmlNode* other = nullptr;
    std::string indent;
  };
  std::vector<Rule> rules;
};

namespace {

using State = StringsdictDocument::State;

// An element's text (entities decoded), or nullopt-like false where it holds more than text.
bool text_of(const XmlNode& n, std::string* out) {
  std::string raw;
  for (const XmlNode& c : n.children) {
    if (c.kind != XmlNode::kText) return false;
    raw += c.open;
  }
  *out = decode_entities(raw);
  return true;
}

// The <dict>'s members: each <key>'s element and its value's element.
std::vector<std::pair<XmlNode*, XmlNode*>> members(XmlNode* dict) {
  std::vector<std::pair<XmlNode*, XmlNode*>> m;
  XmlNode* key = nullptr;
  for (XmlNode& c : dict->children) {
    if (c.kind != XmlNode::kElement) continue;
    if (key == nullptr) {
      if (c.name == "key") key = &c;
    } else {
      m.emplace_back(key, &c);
      key = nullptr;
    }
  }
  return m;
}

// A <string>'s text, a unit where it holds words (its spaces around kept as written).
void add_unit(XmlNode* v, State* st) {
  std::string value;
  if (v->name != "string" || v->close.empty() || !text_of(*v, &value)) return;
  const TrimmedText t = trim_text(value, is_xml_space);
  if (!holds_words(t.core) || t.before.size() + t.after.size() > 0) return;
  v->unit = static_cast<int>(st->units.size());
  st->units.emplace_back(t.core);
}

void collect(XmlNode* dict, State* st, bool texts = false) {
  const auto m = members(dict);
  bool rule = false;
  for (const auto& [k, v] : m) {
    std::string key, value;
    if (text_of(*k, &key) && key == "NSStringFormatSpecTypeKey" && v->name == "string" &&
        text_of(*v, &value) && value == "NSStringPluralRuleType")
      rule = true;
  }
  if (rule) {
    State::Rule r;
    for (const auto& [k, v] : m) {
      std::string key, value;
      const uint8_t category = text_of(*k, &key) ? plural_category_named(key) : 0;
      if (category == 0 || v->name != "string" || v->close.empty() || !text_of(*v, &value)) continue;
      r.present |= category;
      if (category == kPluralOther) r.other = v;
      // The spaces before this member's <key>: a new one's.
      for (size_t i = 0; i < dict->children.size(); ++i)
        if (&dict->children[i] == k && i > 0 && dict->children[i - 1].kind == XmlNode::kText &&
            is_xml_blank(dict->children[i - 1].open))
          r.indent = dict->children[i - 1].open;
      add_unit(v, st);
    }
    if (r.other != nullptr) {
      dict->unit = static_cast<int>(st->rules.size());
      st->rules.push_back(std::move(r));
    }
    return;
  }
  for (const auto& [k, v] : m) {
    std::string key;
    if (!text_of(*k, &key)) continue;
    if (v->name == "dict") {
      // A width's or a device's variants (Apple's other rules): each a text.
      collect(v, st, key == "NSStringVariableWidthRuleType" || key == "NSStringDeviceSpecificRuleType");
    } else if (texts || key == "NSStringLocalizedFormatKey") {
      add_unit(v, st);  // "%#@files@" alone has no words; "%#@files@ left" has
    }
  }
}

class Writer {
 public:
  Writer(const State& st, const std::vector<std::string>& t, std::string_view language)
      : st_(st), t_(t), categories_(plural_categories(language)) {}

  std::string write(const XmlNode& n) const {
    if (n.kind != XmlNode::kElement) return n.open;
    if (n.unit >= 0 && n.name == "string") {
      const size_t u = static_cast<size_t>(n.unit);
      if (u < t_.size() && !t_[u].empty()) return n.open + escape_xml(t_[u]) + n.close;
      return write_xml(n);
    }
    const bool rule = n.name == "dict" && n.unit >= 0;
    std::string s = n.open;
    size_t last_category = SIZE_MAX;  // the child after which new categories go
    if (rule)
      for (size_t i = 0; i < n.children.size(); ++i)
        if (n.children[i].kind == XmlNode::kElement && n.children[i].name == "string" && i > 0) {
          std::string key;
          for (size_t j = i; j-- > 0;)
            if (n.children[j].kind == XmlNode::kElement) {
              if (n.children[j].name == "key" && text_of(n.children[j], &key) &&
                  plural_category_named(key) != 0)
                last_category = i;
              break;
            }
        }
    for (size_t i = 0; i < n.children.size(); ++i) {
      s += write(n.children[i]);
      if (i == last_category && categories_ != 0) s += missing(st_.rules[static_cast<size_t>(n.unit)]);
    }
    return s + n.close;
  }

 private:
  // The members of the categories the language has and the rule has not, from "other".
  std::string missing(const State::Rule& r) const {
    std::string other = write_xml(*r.other);
    if (r.other->unit >= 0) {
      const size_t u = static_cast<size_t>(r.other->unit);
      if (u < t_.size() && !t_[u].empty()) other = r.other->open + escape_xml(t_[u]) + r.other->close;
    }
    const std::string& indent = r.indent;  // none in a file written on one line
    std::string s;
    for (const uint8_t c : kPluralCategories)
      if ((categories_ & c) != 0 && (r.present & c) == 0)
        s += indent + "<key>" + std::string(plural_category_name(c)) + "</key>" + indent + other;
    return s;
  }

  const State& st_;
  const std::vector<std::string>& t_;
  uint8_t categories_;
};

}  // namespace

Expected<StringsdictDocument> StringsdictDocument::parse(std::string_view text) {
  if (Status binary = refuse_binary_property_list(text, "the .stringsdict file"); !binary.is_ok())
    return binary;
  auto st = std::make_shared<State>();
  auto root = parse_xml(text, "the .stringsdict file");
  if (!root) return root.status();
  st->root = std::move(root.value());
  XmlNode* plist = xml_document_element(&st->root, "plist");
  if (plist == nullptr) return invalid_argument("not a .stringsdict file: its root element is not <plist>");
  for (XmlNode& c : plist->children)
    if (c.kind == XmlNode::kElement && c.name == "dict") collect(&c, st.get());
  StringsdictDocument d;
  d.state_ = std::move(st);
  return d;
}

const std::vector<std::string>& StringsdictDocument::units() const { return state_->units; }

std::string StringsdictDocument::render(const std::vector<std::string>& translations,
                                        std::string_view language) const {
  const Writer w(*state_, translations, language);
  std::string out;
  for (const XmlNode& c : state_->root.children) out += w.write(c);
  return out;
}

}  // namespace edgemt
