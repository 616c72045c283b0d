#include "runtime/formats/resx_document.h"

#include <utility>

#include "runtime/formats/text_kind.h"
#include "runtime/formats/text_pieces.h"
#include "runtime/formats/xml_tree.h"
#include "runtime/text/markup.h"

namespace edgemt {

struct ResxDocument::State {
  XmlNode root;
  std::vector<std::string> units;
  std::vector<std::pair<std::string, std::string>> spaces;  // per unit: around its text
};

namespace {

// Is the <data> a string resource (no type, or System.String's; no mimetype)?
bool is_string_resource(const XmlNode& data) {
  if (has_xml_attribute(data.open, "mimetype")) return false;
  const std::string type = xml_attribute(data.open, "type");
  return type.empty() || type == "System.String" || type.rfind("System.String,", 0) == 0;
}

// The <value> of a <data> whose text is to translate, and that text (decoded); nullptr
// where there is none (a value holding elements, comments or CDATA is kept as it is).
XmlNode* value_to_translate(XmlNode* data, std::string* text) {
  if (!is_string_resource(*data)) return nullptr;
  const std::string name = decode_entities(xml_attribute(data->open, "name"));
  if (name.empty() || name.rfind(">>", 0) == 0) return nullptr;
  const size_t dot = name.find_last_of('.');
  if (key_names_a_code(dot == std::string::npos ? name : name.substr(dot + 1))) return nullptr;
  XmlNode* value = nullptr;
  for (XmlNode& c : data->children)
    if (c.kind == XmlNode::kElement && c.name == "value") {
      value = &c;
      break;
    }
  if (value == nullptr || value->close.empty()) return nullptr;
  std::string raw;
  for (const XmlNode& c : value->children) {
    if (c.kind != XmlNode::kText) return nullptr;
    raw += c.open;
  }
  *text = decode_entities(raw);
  return value;
}

}  // namespace

Expected<ResxDocument> ResxDocument::parse(std::string_view text) {
  auto st = std::make_shared<State>();
  auto root = parse_xml(text, "the .resx file");
  if (!root) return root.status();
  st->root = std::move(root.value());
  XmlNode* top = xml_document_element(&st->root, "root");
  if (top == nullptr) return invalid_argument("not a .resx file: its root element is not <root>");
  for (XmlNode& data : top->children) {
    if (data.kind != XmlNode::kElement || data.name != "data") continue;
    std::string value;
    XmlNode* v = value_to_translate(&data, &value);
    if (v == nullptr) continue;
    const TrimmedText t = trim_text(value, is_xml_space);
    if (!holds_words(t.core) || is_literal(t.core)) continue;
    v->unit = static_cast<int>(st->units.size());
    st->units.emplace_back(t.core);
    st->spaces.emplace_back(t.before, t.after);
  }
  ResxDocument d;
  d.state_ = std::move(st);
  return d;
}

const std::vector<std::string>& ResxDocument::units() const { return state_->units; }

namespace {

std::string write(const XmlNode& n, const ResxDocument::State& st,
                  const std::vector<std::string>& translations) {
  if (n.kind != XmlNode::kElement) return n.open;
  const size_t u = static_cast<size_t>(n.unit);
  if (n.unit >= 0 && u < translations.size() && !translations[u].empty())
    return n.open + escape_xml(st.spaces[u].first + translations[u] + st.spaces[u].second) + n.close;
  std::string s = n.open;
  for (const XmlNode& c : n.children) s += write(c, st, translations);
  return s + n.close;
}

}  // namespace

std::string ResxDocument::render(const std::vector<std::string>& translations) const {
  std::string out;
  for (const XmlNode& c : state_->root.children) out += write(c, *state_, translations);
  return out;
}

}  // namespace edgemt
