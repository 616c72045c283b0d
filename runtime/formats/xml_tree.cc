#include "runtime/formats/xml_tree.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "runtime/core/utf8.h"
#include "runtime/text/markup.h"

namespace edgemt {
namespace {

constexpr size_t kMaxDepth = 400;

}  // namespace

Expected<XmlNode> parse_xml(std::string_view s, const std::string& part) {
  XmlNode root;
  std::vector<XmlNode*> stack{&root};
  auto bad = [&](const std::string& why) {
    return invalid_argument(part + " is not well-formed XML: " + why);
  };
  size_t at = 0;
  while (at < s.size()) {
    XmlNode& top = *stack.back();
    if (s[at] != '<') {
      const size_t e = std::min(s.find('<', at), s.size());
      top.children.push_back({XmlNode::kText, {}, std::string(s.substr(at, e - at)), {}, {}, -1});
      at = e;
      continue;
    }
    auto raw_until = [&](std::string_view end) -> bool {
      const size_t e = s.find(end, at);
      if (e == std::string_view::npos) return false;
      top.children.push_back({XmlNode::kRaw, {}, std::string(s.substr(at, e + end.size() - at)), {}, {}, -1});
      at = e + end.size();
      return true;
    };
    const std::string_view rest = s.substr(at);
    if (rest.substr(0, 4) == "<!--") {
      if (!raw_until("-->")) return bad("unterminated comment");
    } else if (rest.substr(0, 9) == "<![CDATA[") {
      if (!raw_until("]]>")) return bad("unterminated CDATA section");
    } else if (rest.substr(0, 2) == "<?") {
      if (!raw_until("?>")) return bad("unterminated processing instruction");
    } else if (rest.substr(0, 2) == "<!") {
      const size_t bracket = rest.find('['), gt = rest.find('>');
      if (!raw_until(bracket != std::string_view::npos && bracket < gt ? "]>" : ">"))
        return bad("unterminated declaration");
    } else {
      // A tag: '>' outside quoted attribute values ends it.
      size_t e = at + 1;
      char quote = 0;
      for (; e < s.size(); ++e) {
        if (quote != 0) {
          if (s[e] == quote) quote = 0;
        } else if (s[e] == '"' || s[e] == '\'') {
          quote = s[e];
        } else if (s[e] == '>') {
          break;
        }
      }
      if (e >= s.size()) return bad("unterminated tag");
      const std::string_view tag = s.substr(at, e + 1 - at);
      at = e + 1;
      const bool closing = tag.size() > 1 && tag[1] == '/';
      size_t n = closing ? 2 : 1, ne = n;
      while (ne < tag.size() && tag[ne] != '>' && tag[ne] != '/' &&
             !std::isspace(static_cast<unsigned char>(tag[ne])))
        ++ne;
      const std::string name(tag.substr(n, ne - n));
      if (name.empty()) return bad("a tag without a name");
      if (closing) {
        if (stack.size() == 1 || top.name != name)
          return bad("</" + name + "> does not close " +
                     (stack.size() == 1 ? "anything" : "<" + top.name + ">"));
        top.close.assign(tag);
        stack.pop_back();
        continue;
      }
      top.children.push_back({XmlNode::kElement, name, std::string(tag), {}, {}, -1});
      if (tag.size() >= 2 && tag[tag.size() - 2] == '/') continue;  // <empty/>
      if (stack.size() > kMaxDepth) return bad("elements nested too deep");
      stack.push_back(&top.children.back());
    }
  }
  if (stack.size() != 1) return bad("<" + stack.back()->name + "> is not closed");
  return root;
}

std::string write_xml(const XmlNode& n) {
  if (n.kind != XmlNode::kElement) return n.open;
  std::string s = n.open;
  for (const XmlNode& c : n.children) s += write_xml(c);
  return s + n.close;
}

namespace {

// Attribute `attr`'s value in a start tag, or nullopt.
std::optional<std::string_view> attribute_value(std::string_view tag, std::string_view attr) {
  for (size_t at = tag.find(attr); at != std::string_view::npos; at = tag.find(attr, at + 1)) {
    if (at == 0 || !std::isspace(static_cast<unsigned char>(tag[at - 1]))) continue;
    size_t e = at + attr.size();
    while (e < tag.size() && std::isspace(static_cast<unsigned char>(tag[e]))) ++e;
    if (e >= tag.size() || tag[e] != '=') continue;
    ++e;
    while (e < tag.size() && std::isspace(static_cast<unsigned char>(tag[e]))) ++e;
    if (e >= tag.size() || (tag[e] != '"' && tag[e] != '\'')) continue;
    const size_t end = tag.find(tag[e], e + 1);
    if (end == std::string_view::npos) return std::nullopt;
    return tag.substr(e + 1, end - e - 1);
  }
  return std::nullopt;
}

}  // namespace

std::string xml_attribute(std::string_view tag, std::string_view attr) {
  return std::string(attribute_value(tag, attr).value_or(std::string_view()));
}

bool has_xml_attribute(std::string_view tag, std::string_view attr) {
  return attribute_value(tag, attr).has_value();
}

std::string escape_xml(std::string_view s) {
  std::string clean;
  clean.reserve(s.size());
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n' || c == '\r') clean.push_back(c);
  return escape_html(clean);
}

bool is_xml_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == ':' || c == '-' || c == '_';
}

std::string_view xml_root_element(std::string_view s) {
  // As parse_xml reads the prolog: what ends a comment, CDATA section, processing
  // instruction or declaration (an internal subset's "]>").
  for (size_t at = 0; (at = s.find('<', at)) != std::string_view::npos;) {
    const std::string_view rest = s.substr(at);
    std::string_view end;
    if (rest.substr(0, 4) == "<!--") {
      end = "-->";
    } else if (rest.substr(0, 9) == "<![CDATA[") {
      end = "]]>";
    } else if (rest.substr(0, 2) == "<?") {
      end = "?>";
    } else if (rest.substr(0, 2) == "<!") {
      const size_t bracket = rest.find('['), gt = rest.find('>');
      end = bracket != std::string_view::npos && bracket < gt ? "]>" : ">";
    } else {
      size_t e = 1;
      while (e < rest.size() && rest[e] != '>' && rest[e] != '/' && !is_ascii_space(rest[e])) ++e;
      return rest.substr(1, e - 1);
    }
    const size_t e = s.find(end, at);
    if (e == std::string_view::npos) return {};
    at = e + end.size();
  }
  return {};
}

void set_xml_attribute(std::string* xml, const std::vector<std::string_view>& elements, std::string_view attr,
                       std::string_view value) {
  std::string& s = *xml;
  for (size_t at = s.find('<'); at != std::string::npos; at = s.find('<', at + 1)) {
    size_t e = at + 1;
    while (e < s.size() && is_xml_name_char(s[e])) ++e;
    const std::string_view name(s.data() + at + 1, e - at - 1);
    if (std::find(elements.begin(), elements.end(), name) == elements.end()) continue;
    // The tag's end, outside quoted values; the attribute's value inside it.
    size_t end = e;
    for (char q = 0; end < s.size() && (q != 0 || s[end] != '>'); ++end)
      if (s[end] == '"' || s[end] == '\'') q = q == 0 ? s[end] : (q == s[end] ? 0 : q);
    for (size_t a = e; a < end; ++a) {
      if (!std::isspace(static_cast<unsigned char>(s[a - 1])) || s.compare(a, attr.size(), attr) != 0)
        continue;
      const size_t v = a + attr.size();
      if (v + 1 >= end || s[v] != '=' || (s[v + 1] != '"' && s[v + 1] != '\'')) continue;
      const size_t close = s.find(s[v + 1], v + 2);
      // Within its tag, and a value (a quote left open would reach past other tags).
      if (close == std::string::npos || close > end || s.find_first_of("<>", v + 2) < close) break;
      s.replace(v + 2, close - v - 2, value);
      end = end + value.size() - (close - v - 2);
      break;
    }
    at = end;
  }
}

XmlNode* xml_document_element(XmlNode* tree, std::string_view name) {
  for (XmlNode& c : tree->children)
    if (c.kind == XmlNode::kElement) return c.name == name ? &c : nullptr;
  return nullptr;
}

}  // namespace edgemt
