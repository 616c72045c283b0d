#include "runtime/formats/office_document.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <utility>

#include "runtime/formats/xml_tree.h"
#include "runtime/formats/zip_archive.h"
#include "runtime/text/markup.h"

namespace edgemt {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// Does the text hold anything to translate: more than spaces, no-break spaces and the
// control characters XML does not allow (which escape_xml drops)?
bool has_words(std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xA0) {
      ++i;
    } else if (c > 0x20) {
      return true;
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------
// A paragraph flattened: what it keeps first and last, and its text and objects in order,
// each under the elements that wrap it (hyperlink, run with its properties, w:t...).
struct Wrapper {
  std::string open, close;
};

struct Item {
  std::vector<Wrapper> stack;
  std::string text;                   // decoded text, when `nodes` is empty
  std::vector<const XmlNode*> nodes;  // an object: these nodes, written as they were
  bool line_break = false;            // an object that breaks the line
};

struct Paragraph {
  std::vector<const XmlNode*> head, tail;
  std::vector<Item> items;
  // Per text item, its formatting (an index into styles); styles[base] is plain text.
  std::vector<int> style_of;
  std::vector<size_t> style_item;  // per style, an item that has it (its stack)
  int base = -1;
};

std::string write_node(const XmlNode& n, const std::vector<std::string>* rendered);

std::string serialize(const XmlNode& n) { return write_xml(n); }

std::string key_of(const std::vector<Wrapper>& stack) {
  std::string k;
  for (const Wrapper& w : stack) k += w.open;
  return k;
}

// Does `n` hold text alone (a text element as the formats define it)? Anything else in it
// would be lost by rewriting its text, so such an element is kept whole instead.
bool text_only(const XmlNode& n) {
  return std::all_of(n.children.begin(), n.children.end(),
                     [](const XmlNode& c) { return c.kind == XmlNode::kText; });
}

std::string text_of(const XmlNode& n) {
  std::string t;
  for (const XmlNode& c : n.children)
    if (c.kind == XmlNode::kText) t += decode_entities(c.open);
  return t;
}

// A wrapper for element `n`: its start tag with its leading properties child ("w:rPr",
// "w:hyperlink"'s none...), which must stay first. Returns the index of the first child
// after them.
size_t wrapper_of(const XmlNode& n, Wrapper* w) {
  w->open = n.open;
  w->close = n.close;
  size_t i = 0;
  while (i < n.children.size() && n.children[i].kind == XmlNode::kText &&
         n.children[i].open.find_first_not_of(" \t\r\n") == std::string::npos)
    ++i;
  if (i < n.children.size() && n.children[i].kind == XmlNode::kElement &&
      ends_with(n.children[i].name, "Pr")) {
    w->open += serialize(n.children[i]);
    ++i;
  }
  return i;
}

// Office Open XML: Word's paragraphs (w:p), DrawingML's in PowerPoint (a:p), and Excel's
// strings (si in the shared strings, is in a cell), whose runs (r) and text (t) are alike.
enum class Dialect { kWord, kDrawing, kSheet };

class OoxmlFlattener {
 public:
  explicit OoxmlFlattener(Dialect d)
      : word_(d == Dialect::kWord),
        sheet_(d == Dialect::kSheet),
        p_(d == Dialect::kWord      ? "w:"
           : d == Dialect::kDrawing ? "a:"
                                    : "") {}

  bool is_paragraph(const XmlNode& n) const {
    return sheet_ ? n.name == "si" || n.name == "is" : n.name == p_ + "p";
  }

  void flatten(const XmlNode& para, Paragraph* out) {
    out_ = out;
    stack_.clear();
    field_ = nullptr;
    field_depth_ = 0;
    children(para, 0, true);
  }

 private:
  void object(const XmlNode& n, bool line_break = false, const Wrapper* run = nullptr) {
    Item it;
    it.stack = stack_;
    if (run != nullptr) it.stack.push_back(*run);
    it.nodes.push_back(&n);
    it.line_break = line_break;
    out_->items.push_back(std::move(it));
  }

  // A content control's w:sdtContent, when it has one with an end tag.
  static const XmlNode* content_of(const XmlNode& sdt) {
    if (sdt.close.empty()) return nullptr;
    for (const XmlNode& x : sdt.children)
      if (x.kind == XmlNode::kElement && x.name == "w:sdtContent" && !x.close.empty()) return &x;
    return nullptr;
  }

  static int field_change(const XmlNode& run) { return field_chars(run, "begin") - field_chars(run, "end"); }
  // How many w:fldChar of `type` ("begin", "separate", "end") the run holds.
  static int field_chars(const XmlNode& run, std::string_view type) {
    int n = 0;
    for (const XmlNode& c : run.children)
      n += c.kind == XmlNode::kElement && c.name == "w:fldChar" &&
           xml_attribute(c.open, "w:fldCharType") == type;
    return n;
  }

  // Is a field's result text the reader reads, in the document's language, that comes
  // from its words: a link's text (" HYPERLINK \"https://...\" \o \"tip\""), a
  // cross-reference to a bookmark's or a heading's text (REF, STYLEREF: a heading
  // translated elsewhere, its copy here), a form field's text (FORMTEXT), or the
  // document's title, subject or a property (TITLE, SUBJECT, DOCPROPERTY)? Not page and
  // figure numbers, dates, merge fields' placeholders and the like, which Word computes.
  static bool text_result_instruction(std::string_view instr) {
    const size_t b = instr.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return false;
    std::string word(instr.substr(b, instr.find_first_of(" \t\r\n", b) - b));
    for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return word == "HYPERLINK" || word == "REF" || word == "STYLEREF" || word == "FORMTEXT" ||
           word == "TITLE" || word == "SUBJECT" || word == "DOCPROPERTY";
  }

  // A complex field with a text result (text_result_instruction: a HYPERLINK, a REF, ...)
  // whose parts are siblings here: its begin run (at `begin`), the runs of its
  // instruction, a separate run, the runs of its result (the link's text) and an end run.
  // Its result is translated as a w:hyperlink's text is: the runs from begin to separate
  // open a wrapper around it, the end run closes it. Returns the end run's index, or 0
  // where the field has another shape, holds another field or no text (then it is kept
  // whole, untranslated, as every other field).
  size_t text_result_field(const XmlNode& parent, size_t begin) {
    const std::vector<XmlNode>& ch = parent.children;
    if (field_chars(ch[begin], "begin") != 1 || field_chars(ch[begin], "end") != 0 ||
        field_chars(ch[begin], "separate") != 0)
      return 0;
    std::string instr;
    size_t separate = 0;
    for (size_t k = begin + 1; k < ch.size() && separate == 0; ++k) {
      const XmlNode& x = ch[k];
      if (x.kind != XmlNode::kElement) continue;
      if (x.name != "w:r" || field_chars(x, "begin") != 0 || field_chars(x, "end") != 0) return 0;
      for (const XmlNode& c : x.children)
        if (c.kind == XmlNode::kElement && c.name == "w:instrText") instr += text_of(c);
      if (field_chars(x, "separate") != 0) separate = k;
    }
    if (separate == 0 || !text_result_instruction(instr)) return 0;
    bool words = false;
    for (size_t k = separate + 1; k < ch.size(); ++k) {
      const XmlNode& x = ch[k];
      if (x.kind != XmlNode::kElement || x.name != "w:r") continue;
      if (field_chars(x, "begin") != 0 || field_chars(x, "separate") != 0) return 0;
      if (field_chars(x, "end") != 0) {
        // The end run holds the end alone (and the run's properties).
        for (const XmlNode& c : x.children)
          if (c.kind == XmlNode::kElement && c.name != "w:rPr" && c.name != "w:fldChar") return 0;
        if (!words) return 0;
        Wrapper w;
        for (size_t j = begin; j <= separate; ++j) w.open += serialize(ch[j]);
        w.close = serialize(x);
        stack_.push_back(w);
        children(parent, separate + 1, false, k);
        stack_.pop_back();
        return k;
      }
      for (const XmlNode& c : x.children)
        words = words || (c.kind == XmlNode::kElement && c.name == "w:t" && has_words(text_of(c)));
    }
    return 0;
  }

  // The children [from, to) of `parent`.
  void children(const XmlNode& parent, size_t from, bool top, size_t to = SIZE_MAX) {
    for (size_t i = from; i < std::min(to, parent.children.size()); ++i) {
      const XmlNode& c = parent.children[i];
      // Inside a complex field (w:fldChar begin ... end): kept whole, untranslated.
      if (field_ != nullptr) {
        field_->nodes.push_back(&c);
        if (c.kind == XmlNode::kElement && c.name == p_ + "r") field_depth_ += field_change(c);
        if (field_depth_ <= 0) field_ = nullptr;
        continue;
      }
      if (c.kind == XmlNode::kText) {
        if (c.open.find_first_not_of(" \t\r\n") != std::string::npos) object(c);
        continue;
      }
      if (c.kind == XmlNode::kRaw) {
        object(c);
        continue;
      }
      const std::string local = c.name.substr(0, p_.size()) == p_ ? c.name.substr(p_.size()) : std::string();
      if (top && (local == "pPr")) {
        out_->head.push_back(&c);
      } else if (top && (local == "endParaRPr" || (sheet_ && (local == "rPh" || local == "phoneticPr")))) {
        out_->tail.push_back(&c);  // what must come last (Excel's phonetic reading of the text too)
      } else if (sheet_ && top && local == "t" && text_only(c)) {
        text_item(text_of(c), nullptr);  // Excel's plain string: its text without a run
      } else if (top && word_ && (ends_with(local, "Start") || local == "bookmarkStart")) {
        out_->head.push_back(&c);  // bookmarkStart, commentRangeStart, permStart...
      } else if (top && word_ && ends_with(local, "End")) {
        out_->tail.push_back(&c);
      } else if (local == "proofErr" && c.children.empty()) {
        // a spelling mark: dropped (the text under it changes anyway)
      } else if (local == "r") {
        if (word_ && field_change(c) > 0) {
          if (const size_t end = text_result_field(parent, i); end > 0) {
            i = end;
            continue;
          }
          Item it;
          it.stack = stack_;
          it.nodes.push_back(&c);
          out_->items.push_back(std::move(it));
          field_ = &out_->items.back();
          field_depth_ = field_change(c);
          continue;
        }
        run(c);
      } else if (word_ &&
                 (local == "hyperlink" || local == "smartTag" || local == "ins" || local == "customXml" ||
                  local == "dir" || local == "bdo" || local == "moveTo" ||
                  (local == "fldSimple" && text_result_instruction(xml_attribute(c.open, "w:instr"))))) {
        // (A simple field with a text result, w:fldSimple, wraps it as w:hyperlink does.)
        Wrapper w;
        const size_t first = wrapper_of(c, &w);
        if (c.close.empty()) continue;
        stack_.push_back(w);
        children(c, first, false);  // a field begun inside ends with it
        field_ = nullptr;
        field_depth_ = 0;
        stack_.pop_back();
      } else if (word_ && local == "sdt" && content_of(c) != nullptr) {
        // An inline content control: its properties and its w:sdtContent's start tag open
        // it, its runs are the paragraph's.
        const XmlNode& content = *content_of(c);
        Wrapper w{c.open, {}};
        bool after = false;
        std::string tail;
        for (const XmlNode& x : c.children) {
          if (&x == &content) {
            after = true;
          } else {
            (after ? tail : w.open) += serialize(x);
          }
        }
        w.open += content.open;
        w.close = content.close + tail + c.close;
        stack_.push_back(w);
        children(content, 0, false);
        field_ = nullptr;
        field_depth_ = 0;
        stack_.pop_back();
      } else {
        object(c, !word_ && local == "br");
      }
    }
    if (top) field_ = nullptr;
  }

  void run(const XmlNode& r) {
    if (r.close.empty()) return;
    Wrapper w;
    const size_t first = wrapper_of(r, &w);
    w.open = "<" + r.name + ">" + w.open.substr(r.open.size());  // revision ids of the run dropped
    for (size_t i = first; i < r.children.size(); ++i) {
      const XmlNode& c = r.children[i];
      if (c.kind != XmlNode::kElement) {
        if (c.kind == XmlNode::kRaw || c.open.find_first_not_of(" \t\r\n") != std::string::npos)
          object(c, false, &w);
        continue;
      }
      auto text = [&](std::string t) { text_item(std::move(t), &w); };
      if (c.name == p_ + "t" && text_only(c)) {
        text(text_of(c));
      } else if (c.name == "w:noBreakHyphen" && c.children.empty()) {
        text("\u2011");  // a word's hyphen ("well-known"): the character, in its word
      } else if ((c.name == "w:lastRenderedPageBreak" || c.name == "w:softHyphen") && c.children.empty()) {
        // where Word last broke the page, where it may hyphenate: dropped, the text moves
      } else if (c.name == "w:br" || c.name == "w:cr") {
        const std::string type = xml_attribute(c.open, "w:type");
        object(c, type.empty() || type == "textWrapping", &w);
      } else if (c.name == "w:tab") {
        object(c, true, &w);  // a tab separates ("Name:<tab>Value", "Chapter 1<tab>5") as a line break does
      } else {
        object(c, false, &w);
      }
    }
  }

  // A text item under the current wrappers and `run` (if any), in a text element.
  void text_item(std::string t, const Wrapper* run) {
    if (t.empty()) return;
    Item it;
    it.stack = stack_;
    if (run != nullptr) it.stack.push_back(*run);
    it.stack.push_back(word_    ? Wrapper{"<w:t xml:space=\"preserve\">", "</w:t>"}
                       : sheet_ ? Wrapper{"<t xml:space=\"preserve\">", "</t>"}
                                : Wrapper{"<a:t>", "</a:t>"});
    it.text = std::move(t);
    out_->items.push_back(std::move(it));
  }

  bool word_, sheet_;
  std::string p_;
  Paragraph* out_ = nullptr;
  std::vector<Wrapper> stack_;
  Item* field_ = nullptr;
  int field_depth_ = 0;
};

// OpenDocument: text:p and text:h hold text directly, spans and links around parts of it.
// Also EPUB's package document, whose dc:title and dc:description hold text alone.
class OdfFlattener {
 public:
  explicit OdfFlattener(std::vector<std::string> paragraphs) : paragraphs_(std::move(paragraphs)) {}
  bool is_paragraph(const XmlNode& n) const {
    return std::find(paragraphs_.begin(), paragraphs_.end(), n.name) != paragraphs_.end();
  }

  void flatten(const XmlNode& para, Paragraph* out) {
    out_ = out;
    stack_.clear();
    children(para, true);
  }

 private:
  void object(const XmlNode& n, bool line_break = false) {
    Item it;
    it.stack = stack_;
    it.nodes.push_back(&n);
    it.line_break = line_break;
    out_->items.push_back(std::move(it));
  }
  void text(std::string t) {
    if (!out_->items.empty() && out_->items.back().nodes.empty() &&
        key_of(out_->items.back().stack) == key_of(stack_)) {
      out_->items.back().text += t;
      return;
    }
    Item it;
    it.stack = stack_;
    it.text = std::move(t);
    out_->items.push_back(std::move(it));
  }

  void children(const XmlNode& parent, bool top) {
    for (const XmlNode& c : parent.children) {
      if (c.kind == XmlNode::kText) {
        text(decode_entities(c.open));
        continue;
      }
      if (c.kind == XmlNode::kRaw) {
        object(c);
        continue;
      }
      const std::string& n = c.name;
      if (n == "text:span" || n == "text:a" || n == "text:meta") {
        if (c.close.empty()) continue;
        stack_.push_back({c.open, c.close});
        children(c, false);
        stack_.pop_back();
      } else if (n == "text:s" && c.children.empty()) {
        text(" ");
      } else if (n == "text:soft-page-break" && c.children.empty()) {
        // where the page last broke: dropped
      } else if (top && (n == "text:bookmark" || n == "text:bookmark-start" || n == "text:reference-mark" ||
                         n == "text:reference-mark-start")) {
        out_->head.push_back(&c);
      } else if (top && (n == "text:bookmark-end" || n == "text:reference-mark-end")) {
        out_->tail.push_back(&c);
      } else {
        object(c, n == "text:line-break" || n == "text:tab");
      }
    }
  }

  std::vector<std::string> paragraphs_;
  Paragraph* out_ = nullptr;
  std::vector<Wrapper> stack_;
};

std::string span_open(int style) { return "<span id=\"e" + std::to_string(style) + "\">"; }

// The paragraph's unit: its text, each formatting but the commonest in a <span>, objects
// as <img> (<br> for line breaks). Empty if it has no text to translate.
std::string paragraph_html(Paragraph* p) {
  std::map<std::string, int> ids;
  std::vector<size_t> chars;
  bool words = false;
  p->style_of.assign(p->items.size(), -1);
  for (size_t i = 0; i < p->items.size(); ++i) {
    const Item& it = p->items[i];
    if (!it.nodes.empty()) continue;
    const auto [pos, added] = ids.emplace(key_of(it.stack), static_cast<int>(ids.size()));
    if (added) {
      p->style_item.push_back(i);
      chars.push_back(0);
    }
    p->style_of[i] = pos->second;
    chars[static_cast<size_t>(pos->second)] += it.text.size();
    words = words || has_words(it.text);
  }
  if (!words) return {};
  p->base = static_cast<int>(std::max_element(chars.begin(), chars.end()) - chars.begin());
  std::string html;
  int open = -1;
  for (size_t i = 0; i < p->items.size(); ++i) {
    const Item& it = p->items[i];
    // Spaces alone are plain text (a bold space is no phrase to place).
    int style = it.nodes.empty() ? p->style_of[i] : -1;
    if (style >= 0 && it.text.find_first_not_of(" \t\r\n") == std::string::npos) style = p->base;
    if (open >= 0 && style != open) {
      html += "</span>";
      open = -1;
    }
    if (!it.nodes.empty()) {
      html += (it.line_break ? "<br id=\"o" : "<img id=\"o") + std::to_string(i) + "\">";
      continue;
    }
    if (style != p->base && style != open) {
      html += span_open(style);
      open = style;
    }
    html += escape_html(it.text);
  }
  if (open >= 0) html += "</span>";
  return html;
}

// The paragraph's content (between its start and end tags) from its unit's translation.
std::string paragraph_xml(const Paragraph& p, std::string_view html,
                          const std::vector<std::string>& rendered) {
  struct Out {
    int style;  // text: its style
    size_t object = SIZE_MAX;
    std::string text;
  };
  std::vector<Out> out;
  std::vector<int> styles;  // open spans
  std::vector<bool> placed(p.items.size(), false);
  const int style_count = static_cast<int>(p.style_item.size());
  for (size_t at = 0; at < html.size();) {
    if (html[at] != '<') {
      const size_t e = std::min(html.find('<', at), html.size());
      const int style = styles.empty() ? p.base : styles.back();
      out.push_back({style, SIZE_MAX, decode_entities(html.substr(at, e - at))});
      at = e;
      continue;
    }
    const size_t e = html.find('>', at);
    if (e == std::string_view::npos) break;
    const std::string_view tag = html.substr(at, e + 1 - at);
    at = e + 1;
    if (tag == "</span>") {
      if (!styles.empty()) styles.pop_back();
      continue;
    }
    const std::string id = xml_attribute(tag, "id");
    if (id.size() < 2) continue;
    const long n = std::strtol(id.c_str() + 1, nullptr, 10);
    if (id[0] == 'e' && starts_with(tag, "<span") && n >= 0 && n < style_count) {
      styles.push_back(static_cast<int>(n));
    } else if (id[0] == 'o' && n >= 0 && static_cast<size_t>(n) < p.items.size() &&
               !p.items[static_cast<size_t>(n)].nodes.empty() && !placed[static_cast<size_t>(n)]) {
      placed[static_cast<size_t>(n)] = true;
      out.push_back({-1, static_cast<size_t>(n), {}});
    }
  }
  for (size_t i = 0; i < p.items.size(); ++i)  // an object the translation lost: at the end
    if (!p.items[i].nodes.empty() && !placed[i]) out.push_back({-1, i, {}});
  // An object between words ("page <field> of") keeps the spaces it had around it, which
  // the translation's text next to it may have lost.
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n'; };
  for (size_t k = 0; k < out.size(); ++k) {
    if (out[k].object == SIZE_MAX || p.items[out[k].object].line_break) continue;
    const size_t i = out[k].object;
    const bool before = i > 0 && p.items[i - 1].nodes.empty() && !p.items[i - 1].text.empty() &&
                        space(p.items[i - 1].text.back());
    const bool after = i + 1 < p.items.size() && p.items[i + 1].nodes.empty() &&
                       !p.items[i + 1].text.empty() && space(p.items[i + 1].text.front());
    if (before && k > 0 && out[k - 1].object == SIZE_MAX && !out[k - 1].text.empty() &&
        !space(out[k - 1].text.back()))
      out[k - 1].text += ' ';
    if (after && k + 1 < out.size() && out[k + 1].object == SIZE_MAX && !out[k + 1].text.empty() &&
        !space(out[k + 1].text.front()))
      out[k + 1].text.insert(0, 1, ' ');
  }

  std::string xml;
  for (const XmlNode* n : p.head) xml += write_node(*n, &rendered);
  std::vector<const Wrapper*> open;
  auto move_to = [&](const std::vector<Wrapper>& target) {
    size_t common = 0;
    while (common < open.size() && common < target.size() && open[common]->open == target[common].open)
      ++common;
    for (size_t i = open.size(); i > common;) xml += open[--i]->close;
    open.resize(common);
    for (size_t i = common; i < target.size(); ++i) {
      xml += target[i].open;
      open.push_back(&target[i]);
    }
  };
  for (const Out& o : out) {
    if (o.object != SIZE_MAX) {
      const Item& it = p.items[o.object];
      move_to(it.stack);
      for (const XmlNode* n : it.nodes) xml += write_node(*n, &rendered);
    } else if (!o.text.empty()) {
      move_to(p.items[p.style_item[static_cast<size_t>(o.style)]].stack);
      xml += escape_xml(o.text);
    }
  }
  move_to({});
  for (const XmlNode* n : p.tail) xml += write_node(*n, &rendered);
  return xml;
}

// ---------------------------------------------------------------------------------------
// The translation's language, where a document names its text's language (spell
// checking, hyphenation, a screen reader's voice).
struct Language {
  std::string tag;      // "de-DE": Word's and PowerPoint's form (a region where it is usual)
  std::string primary;  // "de"
  std::string region;   // "DE" (may be empty)
};

Language language_of(std::string_view code) {
  static constexpr std::pair<std::string_view, std::string_view> kRegion[] = {
      {"ar", "SA"}, {"bg", "BG"}, {"cs", "CZ"}, {"da", "DK"}, {"de", "DE"}, {"el", "GR"},
      {"en", "US"}, {"es", "ES"}, {"et", "EE"}, {"fi", "FI"}, {"fr", "FR"}, {"he", "IL"},
      {"hu", "HU"}, {"it", "IT"}, {"ja", "JP"}, {"ko", "KR"}, {"lt", "LT"}, {"lv", "LV"},
      {"nb", "NO"}, {"nl", "NL"}, {"pl", "PL"}, {"pt", "PT"}, {"ro", "RO"}, {"ru", "RU"},
      {"sk", "SK"}, {"sl", "SI"}, {"sv", "SE"}, {"tr", "TR"}, {"uk", "UA"}, {"zh", "CN"}};
  Language l;
  const size_t dash = code.find_first_of("-_");
  l.primary = std::string(code.substr(0, dash));
  if (dash != std::string_view::npos) {
    l.region = std::string(code.substr(dash + 1));
  } else {
    for (const auto& [lang, region] : kRegion)
      if (lang == l.primary) l.region = std::string(region);
  }
  l.tag = l.region.empty() ? l.primary : l.primary + "-" + l.region;
  return l;
}

// The text of every `element` becomes `value` ("<dc:language>en</dc:language>").
void set_text(std::string* xml, std::string_view element, std::string_view value) {
  std::string& s = *xml;
  const std::string open = "<" + std::string(element);
  for (size_t at = s.find(open); at != std::string::npos; at = s.find(open, at + 1)) {
    const size_t gt = s.find('>', at);
    if (gt == std::string::npos || at + open.size() >= s.size() || is_xml_name_char(s[at + open.size()]) ||
        s[gt - 1] == '/')
      continue;
    const size_t lt = s.find('<', gt);
    if (lt == std::string::npos) return;
    s.replace(gt + 1, lt - gt - 1, value);
  }
}

}  // namespace

struct OfficeDocument::State {
  Kind kind = Kind::kDocx;
  std::vector<ZipEntry> entries;
  struct Part {
    size_t entry;
    XmlNode root;  // XML parts; empty for an HTML part (a whole unit)
    bool html = false;
    size_t unit = 0;       // an HTML part's unit
    bool drawing = false;  // Office Open XML: DrawingML's paragraphs (a:p) in any kind of file
  };
  std::vector<Part> parts;
  std::vector<Paragraph> paragraphs;
  std::vector<size_t> unit_of;  // per paragraph: its unit, or SIZE_MAX
  std::vector<std::string> units;
};

namespace {

// Writes `n`; a paragraph with a unit as rendered[its index] between its tags.
std::string write_node(const XmlNode& n, const std::vector<std::string>* rendered) {
  if (n.kind != XmlNode::kElement) return n.open;
  if (rendered != nullptr && n.unit >= 0 && !(*rendered)[static_cast<size_t>(n.unit)].empty())
    return n.open + (*rendered)[static_cast<size_t>(n.unit)] + n.close;
  std::string s = n.open;
  for (const XmlNode& c : n.children) s += write_node(c, rendered);
  return s + n.close;
}

template <typename Flattener>
void collect(XmlNode* n, Flattener& f, OfficeDocument::State* st) {
  if (n->kind != XmlNode::kElement) return;
  // A spreadsheet cell holding a number, date or the like: its text shows the value.
  if (n->name == "table:table-cell" || n->name == "table:covered-table-cell") {
    const std::string type = xml_attribute(n->open, "office:value-type");
    if (!type.empty() && type != "string") return;
  }
  if (f.is_paragraph(*n) && !n->close.empty()) {
    Paragraph p;
    f.flatten(*n, &p);
    std::string html = paragraph_html(&p);
    if (!html.empty()) {
      n->unit = static_cast<int>(st->paragraphs.size());
      st->unit_of.push_back(st->units.size());
      st->units.push_back(std::move(html));
      st->paragraphs.push_back(std::move(p));
    }
    // Paragraphs inside its objects (text boxes, notes, frames), and inside it if it was
    // not taken (nothing to translate in its own text).
    for (XmlNode& c : n->children) collect(&c, f, st);
    return;
  }
  for (XmlNode& c : n->children) collect(&c, f, st);
}

bool is_numbered_part(std::string_view name, std::string_view prefix) {
  if (!starts_with(name, prefix) || !ends_with(name, ".xml")) return false;
  const std::string_view mid = name.substr(prefix.size(), name.size() - prefix.size() - 4);
  return std::all_of(mid.begin(), mid.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

const std::vector<std::string>& OfficeDocument::extensions() {
  static const std::vector<std::string> kExt = {".docx", ".pptx", ".xlsx", ".odt", ".odp", ".ods", ".epub"};
  return kExt;
}

Expected<OfficeDocument> OfficeDocument::parse(std::string_view bytes, size_t max_bytes) {
  constexpr const char* kWhat = "a .docx, .pptx, .xlsx, .odt, .odp, .ods or .epub file";
  if (!looks_like_zip(bytes))
    return invalid_argument(std::string("not ") + kWhat + " (those are ZIP archives; this is not one)");
  auto entries = read_zip(bytes, max_bytes);
  if (!entries) return entries.status();
  auto st = std::make_shared<State>();
  st->entries = std::move(entries.value());
  auto find = [&](std::string_view name) -> const ZipEntry* {
    for (const ZipEntry& e : st->entries)
      if (e.name == name) return &e;
    return nullptr;
  };
  std::string mimetype;
  if (const ZipEntry* m = find("mimetype")) mimetype = m->data.substr(0, 200);
  while (!mimetype.empty() && std::isspace(static_cast<unsigned char>(mimetype.back()))) mimetype.pop_back();
  if (find("word/document.xml") != nullptr) {
    st->kind = Kind::kDocx;
  } else if (find("ppt/presentation.xml") != nullptr) {
    st->kind = Kind::kPptx;
  } else if (find("xl/workbook.xml") != nullptr) {
    st->kind = Kind::kXlsx;
  } else if (starts_with(mimetype, "application/vnd.oasis.opendocument.")) {
    st->kind = Kind::kOpenDocument;
  } else if (mimetype == "application/epub+zip") {
    st->kind = Kind::kEpub;
  } else {
    return invalid_argument(
        std::string("not ") + kWhat +
        " (a ZIP archive with no word/document.xml, ppt/presentation.xml, xl/workbook.xml, or "
        "OpenDocument or EPUB mimetype)");
  }
  std::vector<size_t> xml_parts, html_parts;
  std::vector<bool> drawing(st->entries.size(), false);
  for (size_t i = 0; i < st->entries.size(); ++i) {
    const std::string& n = st->entries[i].name;
    // Office Open XML's DrawingML parts, in Word, PowerPoint and Excel files alike: the
    // titles of charts (their category and series names are cached values of the chart's
    // data, left as they are), SmartArt's text and its drawn copy, and (Excel) text boxes
    // and shapes on a sheet.
    const std::string_view folder = st->kind == Kind::kDocx   ? "word/"
                                    : st->kind == Kind::kPptx ? "ppt/"
                                                              : "xl/";
    if ((st->kind == Kind::kDocx || st->kind == Kind::kPptx || st->kind == Kind::kXlsx) &&
        starts_with(n, folder)) {
      const std::string_view rest = std::string_view(n).substr(folder.size());
      if (is_numbered_part(rest, "charts/chart") || is_numbered_part(rest, "diagrams/data") ||
          is_numbered_part(rest, "diagrams/drawing") ||
          (st->kind == Kind::kXlsx && is_numbered_part(rest, "drawings/drawing"))) {
        xml_parts.push_back(i);
        drawing[i] = true;
        continue;
      }
    }
    switch (st->kind) {
      case Kind::kDocx:  // comments too: a reader of the translation reads them
        if (n == "word/document.xml" || is_numbered_part(n, "word/header") ||
            is_numbered_part(n, "word/footer") || n == "word/footnotes.xml" || n == "word/endnotes.xml" ||
            n == "word/comments.xml")
          xml_parts.push_back(i);
        break;
      case Kind::kPptx:
        if (is_numbered_part(n, "ppt/slides/slide") || is_numbered_part(n, "ppt/notesSlides/notesSlide"))
          xml_parts.push_back(i);
        break;
      case Kind::kXlsx:  // the strings cells share, and strings written in a cell
        if (n == "xl/sharedStrings.xml" || is_numbered_part(n, "xl/worksheets/sheet")) xml_parts.push_back(i);
        break;
      case Kind::kOpenDocument:
        if (n == "content.xml" || n == "styles.xml") xml_parts.push_back(i);
        break;
      case Kind::kEpub:
        if (ends_with(n, ".xhtml") || ends_with(n, ".html") || ends_with(n, ".htm") || ends_with(n, ".ncx"))
          html_parts.push_back(i);
        else if (ends_with(n, ".opf"))  // the package document: the book's title and description
          xml_parts.push_back(i);
        break;
    }
  }
  if (st->kind == Kind::kOpenDocument &&
      (mimetype.find("formula") != std::string::npos || mimetype.find("chart") != std::string::npos))
    return unsupported("OpenDocument type " + mimetype +
                       " is not supported (text, presentations, spreadsheets and drawings are)");
  for (size_t i : xml_parts) {
    auto root = parse_xml(st->entries[i].data, st->entries[i].name);
    if (!root) return root.status();
    st->parts.push_back({i, std::move(root.value()), false, 0, drawing[i]});
  }
  for (size_t i : html_parts) {
    st->parts.push_back({i, {}, true, st->units.size()});
    st->units.push_back(st->entries[i].data);
  }
  // Paragraphs, once the trees no longer move.
  for (State::Part& part : st->parts) {
    if (part.html) continue;
    if (st->kind == Kind::kOpenDocument) {
      OdfFlattener f({"text:p", "text:h"});
      collect(&part.root, f, st.get());
    } else if (st->kind == Kind::kEpub) {
      OdfFlattener f({"dc:title", "dc:description"});
      collect(&part.root, f, st.get());
    } else {
      OoxmlFlattener f(part.drawing || st->kind == Kind::kPptx ? Dialect::kDrawing
                       : st->kind == Kind::kDocx               ? Dialect::kWord
                                                               : Dialect::kSheet);
      collect(&part.root, f, st.get());
    }
  }
  OfficeDocument doc;
  doc.state_ = std::move(st);
  return doc;
}

OfficeDocument::Kind OfficeDocument::kind() const { return state_->kind; }

const std::vector<std::string>& OfficeDocument::units() const { return state_->units; }

std::string OfficeDocument::render(const std::vector<std::string>& translations,
                                   std::string_view language) const {
  const State& st = *state_;
  auto translation = [&](size_t unit) -> std::string_view {
    if (unit < translations.size() && !translations[unit].empty()) return translations[unit];
    return st.units[unit];
  };
  // Each paragraph's new content, nested ones first (a text box's paragraphs are inside
  // its anchor's paragraph, and were collected after it).
  std::vector<std::string> rendered(st.paragraphs.size());
  for (size_t k = st.paragraphs.size(); k-- > 0;)
    rendered[k] = paragraph_xml(st.paragraphs[k], translation(st.unit_of[k]), rendered);
  std::vector<ZipEntry> entries = st.entries;
  for (const State::Part& part : st.parts)
    entries[part.entry].data =
        part.html ? std::string(translation(part.unit)) : write_node(part.root, &rendered);
  if (!language.empty()) {
    // The text's language, where the document names it: its translated parts, and the
    // defaults that hold for them (Word's and OpenDocument's styles, the metadata).
    const Language l = language_of(language);
    std::vector<bool> translated(entries.size(), false), drawing(entries.size(), false);
    for (const State::Part& part : st.parts) {
      translated[part.entry] = true;
      drawing[part.entry] = part.drawing;
    }
    for (size_t i = 0; i < entries.size(); ++i) {
      const std::string& n = entries[i].name;
      std::string* x = &entries[i].data;
      if (drawing[i]) {  // DrawingML's runs name their language as PowerPoint's do
        set_xml_attribute(x, {"a:rPr", "a:endParaRPr", "a:defRPr"}, "lang", l.tag);
        continue;
      }
      switch (st.kind) {
        case Kind::kDocx:
          if (translated[i] || n == "word/styles.xml") set_xml_attribute(x, {"w:lang"}, "w:val", l.tag);
          break;
        case Kind::kPptx:
          if (translated[i] || n == "ppt/presentation.xml" || starts_with(n, "ppt/slideMasters/"))
            set_xml_attribute(x, {"a:rPr", "a:endParaRPr", "a:defRPr"}, "lang", l.tag);
          break;
        case Kind::kXlsx:  // a workbook's strings do not name their language
          break;
        case Kind::kOpenDocument:
          if (n == "content.xml" || n == "styles.xml") {
            set_xml_attribute(x, {"style:text-properties"}, "fo:language", l.primary);
            if (!l.region.empty()) set_xml_attribute(x, {"style:text-properties"}, "fo:country", l.region);
          } else if (n == "meta.xml") {
            set_text(x, "dc:language", language);
          }
          break;
        case Kind::kEpub:
          if (ends_with(n, ".opf")) {
            set_text(x, "dc:language", language);
          } else if (translated[i]) {
            set_xml_attribute(x, {"html", "ncx"}, "lang", language);
            set_xml_attribute(x, {"html", "ncx"}, "xml:lang", language);
          }
          break;
      }
    }
  }
  auto zip = write_zip(entries);
  if (!zip) return std::string();
  return std::move(zip.value());
}

}  // namespace edgemt
