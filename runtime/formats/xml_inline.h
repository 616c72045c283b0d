// The inline content of an XML element (an XLIFF source, an Android string) as a unit for
// the HTML path, and a translation of that unit back into the element's content. Text
// becomes text; the format's paired elements (and pairs of empty codes around words)
// become <span id="eN"> around their words; every other element, comment or processing
// instruction an object, <img id="oN">, written back as it was read, with the spaces it
// had around it; a line break an object too. The translator's inline markup
// (runtime/formats/html_document.h) puts each where its words went; a code the translation
// lost comes at the end. The format's dialect says which elements pair, how its text is
// read and written, and what a line break is written as.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/formats/xml_tree.h"

namespace edgemt {

struct InlineDialect {
  // An element that wraps words (XLIFF's <g>, HTML's <b>).
  std::function<bool(const XmlNode&)> paired;
  // For each of the siblings `ch`, where the code that begins there ends among them
  // (XLIFF 1.2's <bpt>..<ept>: the index of the <ept>), or SIZE_MAX; may be empty.
  std::function<std::vector<size_t>(const std::vector<XmlNode>&)> pair_ends;
  // The text of a text node (entities decoded) or CDATA section, '\n' for a line break;
  // empty: as it is.
  std::function<std::string(std::string_view)> read_text;
  // Text as the element's content holds it (escaped for XML, and the format's escapes).
  std::function<std::string(std::string_view)> write_text;
  // What a line break is written as.
  std::string line_break = "\n";
};

struct InlineUnit {
  struct Code {
    std::string open, close;  // a paired code's tags; any other code: open is it all
    bool paired = false;
    bool line_break = false;                         // an object for a line break
    bool space_before = false, space_after = false;  // in the source
  };
  std::vector<Code> codes;  // by the id the unit's markup gives them
  std::string lead, trail;  // the element's spaces around its text, as written
  std::string source;       // the element's content, as written
  std::string html;         // the unit
  std::string words;        // its text
};

// `element`'s content as a unit.
InlineUnit read_inline(const XmlNode& element, const InlineDialect& dialect);

// The element's content from a translation of unit.html (its spaces around it). A code
// the translation holds twice is written once, unless `repeats` (an ICU message whose
// plural branches copied the one that holds it).
std::string write_inline(const InlineUnit& unit, std::string_view html, const InlineDialect& dialect,
                         bool repeats = false);

}  // namespace edgemt
