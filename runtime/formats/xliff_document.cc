#include "runtime/formats/xliff_document.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <utility>

#include "runtime/core/utf8.h"
#include "runtime/formats/icu_message.h"
#include "runtime/formats/plural_categories.h"
#include "runtime/formats/text_kind.h"
#include "runtime/formats/xml_inline.h"
#include "runtime/formats/xml_tree.h"

namespace edgemt {

struct XliffDocument::State {
  // A piece of a target's content: XML as written, or a unit (between a 1.2 seg-source's
  // segment marker tags, where it has them).
  struct Piece {
    std::string xml;
    size_t unit = SIZE_MAX;
    std::string open, close;
  };
  // One segment to translate: a 1.2 trans-unit, a 2.x segment (the node marked with its
  // index in `segments`).
  struct Segment {
    std::vector<Piece> pieces;
    int target = -1;       // the existing target: its index among the node's children
    size_t after = 0;      // where a new target goes: after this child
    std::string indent;    // before a new target (the source's)
    std::string prefix;    // the elements' namespace prefix ("xlf:"), as the source's
    bool numerus = false;  // Qt: a message with plural forms
  };
  XmlNode root;
  int version = 1;  // XLIFF 1.x, 2.x; kQt: Qt Linguist's .ts
  std::vector<Segment> segments;
  std::vector<InlineUnit> unit_info;  // per unit: its codes, and its source where it gets no translation
  std::vector<bool> accelerator;      // per unit: Qt: its source marks a keyboard accelerator ("&File")
  // What units() gives: each unit, or an ICU message's leaves (Angular's plurals and
  // selects) in its place; per unit, its first leaf and its message (SIZE_MAX: none).
  std::vector<std::string> leaves;
  std::vector<size_t> first_leaf, message;
  std::vector<IcuMessage> messages;
  std::vector<std::string> units;
};

namespace {

using State = XliffDocument::State;
constexpr int kQt = 3;

// Qt's keyboard accelerator, a '&' before the letter to underline ("&File", "Save &As";
// "&&" is a '&'), in a unit's HTML ("&amp;File"): taken out of the unit, as the model
// would read it as text. True where there was one.
bool take_accelerator(std::string* html) {
  std::string& h = *html;
  bool tag = false;
  for (size_t i = 0; i < h.size(); ++i) {
    if (tag || h[i] == '<') {
      tag = h[i] != '>';
      continue;
    }
    if (h.compare(i, 5, "&amp;") != 0) continue;
    if (h.compare(i + 5, 5, "&amp;") == 0) {  // "&&"
      i += 9;
      continue;
    }
    if (i + 5 < h.size() && is_letter(decode_utf8(h, i + 5).code_point)) {
      h.erase(i, 5);
      return true;
    }
  }
  return false;
}

// The accelerator back, before the translation's first letter ("&Datei"), outside tags
// (the unit's markup, and rich text's: "&lt;b&gt;").
std::string with_accelerator(std::string_view html) {
  bool tag = false, rich_tag = false;
  for (size_t i = 0; i < html.size(); ++i) {
    if (tag || html[i] == '<') {
      tag = html[i] != '>';
      continue;
    }
    if (html[i] == '&') {  // an entity
      const size_t semi = html.find(';', i);
      if (semi == std::string_view::npos) break;
      const std::string_view entity = html.substr(i, semi + 1 - i);
      if (entity == "&lt;") rich_tag = true;
      if (entity == "&gt;") rich_tag = false;
      i = semi;
      continue;
    }
    if (!rich_tag && is_letter(decode_utf8(html, i).code_point)) {
      std::string out(html.substr(0, i));
      out += "&amp;";
      out += html.substr(i);
      return out;
    }
  }
  return std::string(html);
}

// Has `n` text other than spaces (in it or in its elements)?
bool has_text(const XmlNode& n) {
  for (const XmlNode& c : n.children)
    if (c.kind == XmlNode::kElement ? has_text(c) : !is_xml_blank(c.open)) return true;
  return false;
}

// Has `n` content other than spaces?
bool has_content(const XmlNode& n) {
  for (const XmlNode& c : n.children)
    if (c.kind != XmlNode::kText || !is_xml_blank(c.open)) return true;
  return false;
}

// `tag` with attribute `name` set to `value` (replaced where it has it, else added).
std::string with_attribute(std::string tag, std::string_view element, std::string_view name,
                           std::string_view value) {
  if (has_xml_attribute(tag, name)) {
    set_xml_attribute(&tag, {element}, name, value);
    return tag;
  }
  const size_t end = tag.size() >= 2 && tag[tag.size() - 2] == '/' ? tag.size() - 2 : tag.size() - 1;
  std::string out(tag, 0, end);
  out += ' ';
  out += name;
  out += "=\"";
  out += escape_xml(value);
  out += '"';
  out.append(tag, end);
  return out;
}

// XLIFF's inline codes: <g>, <pc> and <mrk> wrap words (but a protected or translate="no"
// one); 1.2's <bpt>..<ept> and 2.x's <sc/>..<ec/> pair around words.
InlineDialect xliff_dialect(int version) {
  InlineDialect d;
  d.paired = [version](const XmlNode& n) {
    const std::string_view name = xml_local_name(n.name);
    if (xml_attribute(n.open, "translate") == "no") return false;
    if (name == "g" || name == "pc") return true;
    if (name == "mrk") return version == 2 || xml_attribute(n.open, "mtype") != "protected";
    return false;
  };
  // Each start code with the nearest end code after it that names it (1.2: <ept> by its
  // rid, or else its id; 2.x: <ec startRef>), found in one pass from the end.
  d.pair_ends = [version](const std::vector<XmlNode>& ch) {
    std::vector<size_t> ends(ch.size(), SIZE_MAX);
    if (version != 1 && version != 2) return ends;
    std::map<std::string, size_t> by_id, by_rid;  // the nearest end code after, by what it names
    for (size_t i = ch.size(); i-- > 0;) {
      if (ch[i].kind != XmlNode::kElement) continue;
      const std::string_view name = xml_local_name(ch[i].name);
      if (version == 1 && name == "ept") {
        by_id[xml_attribute(ch[i].open, "id")] = i;
        by_rid[xml_attribute(ch[i].open, "rid")] = i;
      } else if (version == 2 && name == "ec") {
        by_id[xml_attribute(ch[i].open, "startRef")] = i;
      } else if ((version == 1 && name == "bpt") || (version == 2 && name == "sc")) {
        const std::string id = xml_attribute(ch[i].open, "id"), rid = xml_attribute(ch[i].open, "rid");
        if (id.empty()) continue;
        const auto& index = version == 1 && !rid.empty() ? by_rid : by_id;
        const auto it = index.find(version == 1 && !rid.empty() ? rid : id);
        if (it != index.end()) ends[i] = it->second;
      }
    }
    return ends;
  };
  return d;
}

class Collector {
 public:
  explicit Collector(State* st) : st_(st), dialect_(xliff_dialect(st->version)) {}

  void walk(XmlNode* n, bool translate) {
    if (n->kind != XmlNode::kElement) return;
    const std::string t = xml_attribute(n->open, "translate");
    if (t == "no") translate = false;
    if (t == "yes") translate = true;
    const std::string_view name = xml_local_name(n->name);
    if (st_->version == 1 && name == "trans-unit") {
      if (translate) segment(n);
      return;
    }
    if (st_->version == 2 && name == "segment") {
      if (translate) segment(n);
      return;
    }
    if (st_->version == kQt && name == "message") {
      segment(n);
      return;
    }
    if (st_->version == 2 && name == "ignorable") return;
    for (XmlNode& c : n->children) walk(&c, translate);
  }

 private:
  void segment(XmlNode* n) {
    State::Segment seg;
    int source = -1, seg_source = -1;
    first_unit_ = st_->units.size();
    for (size_t i = 0; i < n->children.size(); ++i) {
      const XmlNode& c = n->children[i];
      if (c.kind != XmlNode::kElement) continue;
      const std::string_view name = xml_local_name(c.name);
      if (name == "source" && source < 0) {
        source = static_cast<int>(i);
        seg.after = i;
        seg.prefix = c.name.substr(0, c.name.size() - name.size());
        if (i > 0 && n->children[i - 1].kind == XmlNode::kText && is_xml_blank(n->children[i - 1].open))
          seg.indent = n->children[i - 1].open;
      } else if (name == "seg-source" && source >= 0 && seg_source < 0) {
        seg.after = i;
        seg_source = static_cast<int>(i);
      } else if (name == (st_->version == kQt ? "translation" : "target") && seg.target < 0) {
        seg.target = static_cast<int>(i);
      } else if (st_->version == kQt && seg.target < 0 && source >= 0 &&
                 (name == "comment" || name == "extracomment" || name == "translatorcomment" ||
                  name == "oldsource" || name == "oldcomment")) {
        seg.after = i;  // a new translation goes after the message's comments
      }
    }
    if (source < 0) return;
    if (st_->version == kQt) {
      // Qt Linguist: an empty unfinished translation (numerus forms too) is to do;
      // finished, vanished and obsolete ones are kept, and so is a translator's draft.
      seg.numerus = xml_attribute(n->open, "numerus") == "yes";
      if (seg.target >= 0) {
        const XmlNode& target = n->children[static_cast<size_t>(seg.target)];
        if (xml_attribute(target.open, "type") != "unfinished" || has_text(target)) return;
      }
    } else if (seg.target >= 0) {
      const XmlNode& target = n->children[static_cast<size_t>(seg.target)];
      const std::string state = xml_attribute(target.open, "state");
      const bool to_do =
          !has_content(target) || (st_->version == 1 && (state == "new" || state == "needs-translation"));
      if (!to_do) return;
    }
    // 1.2's seg-source, where it marks segments (<mrk mtype="seg">): each a unit, the
    // target the same markers around their translations.
    bool words = false;
    const XmlNode* marked = seg_source >= 0 ? &n->children[static_cast<size_t>(seg_source)] : nullptr;
    if (marked != nullptr &&
        std::none_of(marked->children.begin(), marked->children.end(), [](const XmlNode& c) {
          return c.kind == XmlNode::kElement && xml_local_name(c.name) == "mrk" &&
                 xml_attribute(c.open, "mtype") == "seg";
        }))
      marked = nullptr;
    if (marked != nullptr) {
      for (const XmlNode& c : marked->children) {
        if (c.kind == XmlNode::kElement && xml_local_name(c.name) == "mrk" &&
            xml_attribute(c.open, "mtype") == "seg" && !c.close.empty()) {
          State::Piece p;
          p.open = c.open;
          p.close = c.close;
          p.unit = add_unit(c, &words);
          seg.pieces.push_back(std::move(p));
        } else {
          State::Piece p;
          p.xml = write_xml(c);
          seg.pieces.push_back(std::move(p));
        }
      }
    } else {
      State::Piece p;
      p.unit = add_unit(n->children[static_cast<size_t>(source)], &words);
      seg.pieces.push_back(std::move(p));
    }
    if (!words) {  // nothing to translate: the units go
      st_->units.resize(first_unit_);
      st_->unit_info.resize(first_unit_);
      st_->accelerator.resize(first_unit_);
      return;
    }
    n->unit = static_cast<int>(st_->segments.size());
    st_->segments.push_back(std::move(seg));
  }

  // `n`'s content as a unit; `words` set where it has some.
  size_t add_unit(const XmlNode& n, bool* words) {
    InlineUnit u = read_inline(n, dialect_);
    *words = *words || has_letter(u.words);
    st_->accelerator.push_back(st_->version == kQt && take_accelerator(&u.html));
    st_->units.push_back(std::move(u.html));
    u.html.clear();
    u.words.clear();
    st_->unit_info.push_back(std::move(u));
    return st_->units.size() - 1;
  }

  State* st_;
  InlineDialect dialect_;
  size_t first_unit_ = 0;
};

// The document's root element, where it is <xliff> or Qt Linguist's <TS>.
const XmlNode* find_root(const XmlNode& root) {
  for (const XmlNode& c : root.children)
    if (c.kind == XmlNode::kElement)
      return xml_local_name(c.name) == "xliff" || c.name == "TS" ? &c : nullptr;
  return nullptr;
}

class Writer {
 public:
  Writer(const State& st, const std::vector<std::string>& translations, std::string_view language)
      : st_(st), translations_(translations), language_(language), dialect_(xliff_dialect(st.version)) {
    // Qt: a plural message's new translation has the numerus forms of the file's language
    // (the <TS>'s, else the translation's), two for a language Qt's table does not know.
    if (st.version == kQt) {
      const XmlNode* ts = find_root(st.root);
      const std::string named = ts != nullptr ? xml_attribute(ts->open, "language") : std::string();
      numerus_forms_ = qt_numerus_forms(named.empty() ? language_ : named);
      if (numerus_forms_ == 0) numerus_forms_ = 2;
    }
  }

  std::string write(const XmlNode& n) const {
    if (n.kind != XmlNode::kElement) return n.open;
    if (n.unit >= 0 && translated(st_.segments[static_cast<size_t>(n.unit)]))
      return segment(n, static_cast<size_t>(n.unit));
    std::string s = open_tag(n);
    for (const XmlNode& c : n.children) s += write(c);
    return s + n.close;
  }

 private:
  // A start tag, with the target language added where the document's needs it.
  std::string open_tag(const XmlNode& n) const {
    if (language_.empty()) return n.open;
    const std::string_view name = xml_local_name(n.name);
    if (st_.version == 1 && name == "file" && xml_attribute(n.open, "target-language").empty())
      return with_attribute(n.open, n.name, "target-language", language_);
    if (st_.version == 2 && name == "xliff" && xml_attribute(n.open, "trgLang").empty())
      return with_attribute(n.open, n.name, "trgLang", language_);
    if (st_.version == kQt && name == "TS" && xml_attribute(n.open, "language").empty())
      return with_attribute(n.open, n.name, "language", language_);
    return n.open;
  }

  // Has a unit of the segment a translation?
  bool translated(const State::Segment& seg) const {
    return std::any_of(seg.pieces.begin(), seg.pieces.end(), [&](const State::Piece& p) {
      return p.unit != SIZE_MAX && p.unit < translations_.size() && !translations_[p.unit].empty();
    });
  }

  std::string segment(const XmlNode& n, size_t index) const {
    const State::Segment& seg = st_.segments[index];
    std::string content;
    for (const State::Piece& p : seg.pieces) {
      if (p.unit == SIZE_MAX) {
        content += p.xml;
        continue;
      }
      const InlineUnit& u = st_.unit_info[p.unit];
      const bool has = p.unit < translations_.size() && !translations_[p.unit].empty();
      const std::string& t = has ? translations_[p.unit] : u.source;
      content += p.open;
      content += !has                      ? u.source
                 : st_.accelerator[p.unit] ? write_inline(u, with_accelerator(t), dialect_)
                                           : write_inline(u, t, dialect_, st_.message[p.unit] != SIZE_MAX);
      content += p.close;
    }
    std::string s = n.open;
    if (st_.version == 2 && xml_local_name(n.name) == "segment") {
      // 2.x: the segment is translated, by a machine (a subState needs a prefix: ours).
      s = with_attribute(s, n.name, "state", "translated");
      s = with_attribute(s, n.name, "subState", "edgemt:mt-suggestion");
    }
    for (size_t i = 0; i < n.children.size(); ++i) {
      const XmlNode& c = n.children[i];
      if (static_cast<int>(i) == seg.target && st_.version == kQt) {
        s += qt_translation(c, content, seg.numerus);
      } else if (static_cast<int>(i) == seg.target) {
        std::string open = c.open;
        if (c.close.empty()) open.replace(open.size() - 2, 2, ">");  // <target/>
        if (st_.version == 1) {
          open = with_attribute(open, c.name, "state", "needs-review-translation");
          open = with_attribute(open, c.name, "state-qualifier", "mt-suggestion");
        }
        s += open + content + (c.close.empty() ? "</" + c.name + ">" : c.close);
      } else {
        s += write_xml(c);
      }
      if (seg.target < 0 && i == seg.after && st_.version == kQt) {
        s += seg.indent + "<translation type=\"unfinished\">" + (seg.numerus ? numerus(content) : content) +
             "</translation>";
      } else if (seg.target < 0 && i == seg.after) {
        const std::string name = seg.prefix + "target";
        std::string open = "<" + name;
        if (st_.version == 1) {
          if (!language_.empty()) open += " xml:lang=\"" + escape_xml(language_) + "\"";
          open += " state=\"needs-review-translation\" state-qualifier=\"mt-suggestion\"";
        }
        s += seg.indent + open + ">" + content + "</" + name + ">";
      }
    }
    return s + n.close;
  }

  // The content in each numerus form of the language.
  std::string numerus(const std::string& content) const {
    std::string s;
    for (int i = 0; i < numerus_forms_; ++i) s += "<numerusform>" + content + "</numerusform>";
    return s;
  }

  // Qt Linguist's <translation type="unfinished"> (kept so: a draft to review) with the
  // content, in each of its numerus forms where it has them (in the language's, for a
  // plural message's translation without them).
  std::string qt_translation(const XmlNode& t, const std::string& content, bool numerus_message) const {
    const bool forms = std::any_of(t.children.begin(), t.children.end(), [](const XmlNode& c) {
      return c.kind == XmlNode::kElement && c.name == "numerusform";
    });
    if (!forms)
      return (t.close.empty() ? t.open.substr(0, t.open.size() - 2) + ">" : t.open) +
             (numerus_message ? numerus(content) : content) + "</translation>";
    std::string s = t.open;
    for (const XmlNode& c : t.children)
      if (c.kind == XmlNode::kElement && c.name == "numerusform")
        s += (c.close.empty() ? c.open.substr(0, c.open.size() - 2) + ">" : c.open) + content +
             "</numerusform>";
      else
        s += write_xml(c);
    return s + t.close;
  }

  const State& st_;
  const std::vector<std::string>& translations_;
  std::string language_;
  InlineDialect dialect_;
  int numerus_forms_ = 2;
};

}  // namespace

bool XliffDocument::recognizes(std::string_view text) {
  const std::string_view root = xml_local_name(xml_root_element(text));
  return root == "xliff" || root == "TS";
}

Expected<XliffDocument> XliffDocument::parse(std::string_view text) {
  auto st = std::make_shared<State>();
  auto root = parse_xml(text, "the XLIFF document");
  if (!root) return root.status();
  st->root = std::move(root.value());
  const XmlNode* xliff = find_root(st->root);
  if (xliff == nullptr)
    return invalid_argument(
        "not an XLIFF document: its root element is not <xliff> (nor Qt Linguist's <TS>)");
  const std::string version = xml_attribute(xliff->open, "version");
  st->version = version.starts_with('2') ? 2 : 1;
  if (version.empty() && xliff->open.find("urn:oasis:names:tc:xliff:document:2") != std::string::npos)
    st->version = 2;
  if (xliff->name == "TS") st->version = kQt;
  Collector collect(st.get());
  for (XmlNode& c : st->root.children) collect.walk(&c, true);
  // An ICU message (Angular's {VAR_PLURAL, plural, ...}) leaf by leaf; one not taken apart
  // is no unit (its segment is kept as it is).
  for (const std::string& u : st->units) {
    st->first_leaf.push_back(st->leaves.size());
    st->message.push_back(SIZE_MAX);
    if (st->version == kQt) {
      st->leaves.push_back(u);
    } else if (auto m = IcuMessage::parse(u)) {
      st->message.back() = st->messages.size();
      st->leaves.insert(st->leaves.end(), m->units().begin(), m->units().end());
      st->messages.push_back(std::move(*m));
    } else if (!IcuMessage::has_choice_argument(u)) {
      st->leaves.push_back(u);
    }
  }
  XliffDocument d;
  d.state_ = std::move(st);
  return d;
}

const std::vector<std::string>& XliffDocument::units() const { return state_->leaves; }

XliffDocument::Kind XliffDocument::kind() const {
  return state_->version == kQt ? Kind::kQtLinguist : state_->version == 2 ? Kind::kXliff2 : Kind::kXliff12;
}

std::string XliffDocument::render(const std::vector<std::string>& translations,
                                  std::string_view language) const {
  // Each unit's translation: its leaf's, or its message put together from its leaves'.
  const State& st = *state_;
  std::vector<std::string> units(st.units.size());
  for (size_t i = 0; i < units.size(); ++i) {
    const size_t first = st.first_leaf[i];
    const size_t end = i + 1 < units.size() ? st.first_leaf[i + 1] : st.leaves.size();
    if (st.message[i] == SIZE_MAX) {
      if (end > first && first < translations.size()) units[i] = translations[first];
      continue;
    }
    std::vector<std::string> leaves;
    bool any = false;
    for (size_t k = first; k < end; ++k) {
      leaves.push_back(k < translations.size() ? translations[k] : std::string());
      any = any || !leaves.back().empty();
    }
    if (any) units[i] = st.messages[st.message[i]].render(leaves, language);
  }
  const Writer w(st, units, language);
  std::string out;
  for (const XmlNode& c : state_->root.children) out += w.write(c);
  return out;
}

}  // namespace edgemt
