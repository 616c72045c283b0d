// A lossless XML tree for the document formats built of XML (office documents, XLIFF):
// every tag, text, comment, CDATA section and declaration keeps its bytes, so what is not
// translated is written back exactly as it was read. Well-formedness is checked as far
// as the tree needs it (tags closed in order, nothing left open, depth at most 400);
// entities are left as written (decode_entities reads a text's).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/status.h"

namespace edgemt {

// A lossless XML tree: every tag, text and comment keeps its bytes, so what is not
// translated is written back exactly as it was read.
struct XmlNode {
  enum Kind : uint8_t { kElement, kText, kRaw };  // kRaw: comment, PI, CDATA, DOCTYPE
  Kind kind = kElement;
  std::string name;   // element name as written ("w:p")
  std::string open;   // the start tag ("<w:p w:rsidR=...>", "<w:b/>"); text and raw: the bytes
  std::string close;  // the end tag ("" for an empty-element tag)
  std::vector<XmlNode> children;
  int unit = -1;  // the format's mark: a translated element's index
};

// The tree of `s`; an error naming `part` (the file or entry) and what is wrong.
Expected<XmlNode> parse_xml(std::string_view s, const std::string& part);

// `n` as it was read.
std::string write_xml(const XmlNode& n);

// The value of attribute `attr` in a start tag, as written ("" if absent).
std::string xml_attribute(std::string_view tag, std::string_view attr);

// Does the start tag have attribute `attr` (with any value, "" too)?
bool has_xml_attribute(std::string_view tag, std::string_view attr);

// Text for XML: &, < and > escaped, and the control characters XML 1.0 forbids dropped.
std::string escape_xml(std::string_view s);

// XML's white space (space, tab, line feed, carriage return).
constexpr bool is_xml_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Is `s` empty or only XML white space?
inline bool is_xml_blank(std::string_view s) {
  return s.find_first_not_of(" \t\n\r") == std::string_view::npos;
}

// A name without its namespace prefix ("xlf:target" -> "target").
inline std::string_view xml_local_name(std::string_view name) {
  const size_t colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

// The name of the document's root element as written ("resources", "xliff", "xlf:xliff"),
// found past a byte order mark, the XML declaration, processing instructions, comments, a
// DOCTYPE (with its internal subset) and text; "" where there is none to be found. A look, not a
// check: parse_xml says whether the document is well-formed.
std::string_view xml_root_element(std::string_view s);

// The document's root element (the first element among a parsed tree's children) where
// it is named `name`; nullptr where it is not, or there is none.
XmlNode* xml_document_element(XmlNode* tree, std::string_view name);

// A character of an XML name as the formats write them (ASCII letters, digits, ':', '-', '_').
bool is_xml_name_char(char c);

// In every start tag named one of `elements`, the value of attribute `attr`, where it
// has one, becomes `value`.
void set_xml_attribute(std::string* xml, const std::vector<std::string_view>& elements, std::string_view attr,
                       std::string_view value);

}  // namespace edgemt
