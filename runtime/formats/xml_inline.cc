#include "runtime/formats/xml_inline.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include "runtime/text/markup.h"

namespace edgemt {
namespace {

InlineUnit::Code paired_code(std::string open, std::string close) {
  InlineUnit::Code c;
  c.open = std::move(open);
  c.close = std::move(close);
  c.paired = true;
  return c;
}

class Reader {
 public:
  Reader(const InlineDialect& d, InlineUnit* u) : d_(d), u_(u) {}

  void read(const XmlNode& element) {
    // The spaces at either end stay out of the unit and come back around its translation.
    std::vector<XmlNode> ch = element.children;
    for (const XmlNode& c : ch) u_->source += write_xml(c);
    if (!ch.empty() && ch.front().kind == XmlNode::kText) {
      std::string& t = ch.front().open;
      const size_t b = std::min(t.find_first_not_of(" \t\r\n"), t.size());
      u_->lead = t.substr(0, b);
      t.erase(0, b);
    }
    if (!ch.empty() && ch.back().kind == XmlNode::kText) {
      std::string& t = ch.back().open;
      const size_t e = t.find_last_not_of(" \t\r\n");
      const size_t keep = e == std::string::npos ? 0 : e + 1;
      u_->trail = t.substr(keep) + u_->trail;
      t.erase(keep);
    }
    u_->html = sequence(ch, 0, ch.size(), pairs_of(ch), 0);
  }

 private:
  // Text, its line breaks as objects written back as the dialect writes them.
  std::string text(std::string_view raw) {
    const std::string t = d_.read_text ? d_.read_text(raw) : std::string(raw);
    u_->words += t;
    std::string html;
    for (size_t at = 0; at < t.size();) {
      const size_t nl = t.find('\n', at);
      const size_t end = nl == std::string::npos ? t.size() : nl;
      html += escape_html(std::string_view(t).substr(at, end - at));
      if (nl == std::string::npos) break;
      InlineUnit::Code br;
      br.open = d_.line_break;
      br.line_break = true;
      html += "<br id=\"o" + std::to_string(add(std::move(br))) + "\">";
      at = nl + 1;
    }
    return html;
  }

  size_t add(InlineUnit::Code c) {
    u_->codes.push_back(std::move(c));
    return u_->codes.size() - 1;
  }

  // ch[i] as an object, with the spaces it has around it among its siblings.
  std::string object(const std::vector<XmlNode>& ch, size_t i, size_t begin, size_t end) {
    InlineUnit::Code c;
    c.open = write_xml(ch[i]);
    c.space_before = i > begin && ch[i - 1].kind == XmlNode::kText && !ch[i - 1].open.empty() &&
                     is_xml_space(ch[i - 1].open.back());
    c.space_after = i + 1 < end && ch[i + 1].kind == XmlNode::kText && !ch[i + 1].open.empty() &&
                    is_xml_space(ch[i + 1].open.front());
    return "<img id=\"o" + std::to_string(add(std::move(c))) + "\">";
  }

  std::vector<size_t> pairs_of(const std::vector<XmlNode>& ch) const {
    return d_.pair_ends ? d_.pair_ends(ch) : std::vector<size_t>(ch.size(), SIZE_MAX);
  }

  // ch[begin, end), whose pairs of codes `pairs` gives; `depth` pairs of codes deep (past
  // kMaxPairDepth, codes are objects: no input nests the stack without bound).
  static constexpr int kMaxPairDepth = 64;
  std::string sequence(const std::vector<XmlNode>& ch, size_t begin, size_t end,
                       const std::vector<size_t>& pairs, int depth) {
    std::string html;
    for (size_t i = begin; i < end; ++i) {
      const XmlNode& n = ch[i];
      if (n.kind == XmlNode::kText) {
        html += text(decode_entities(n.open));
      } else if (n.kind == XmlNode::kRaw && n.open.starts_with("<![CDATA[") && n.open.size() >= 12) {
        html += text(std::string_view(n.open).substr(9, n.open.size() - 12));
      } else if (n.kind != XmlNode::kElement) {
        html += object(ch, i, begin, end);
      } else if (!n.close.empty() && d_.paired && d_.paired(n)) {
        const size_t id = add(paired_code(n.open, n.close));
        html += "<span id=\"e" + std::to_string(id) + "\">" +
                sequence(n.children, 0, n.children.size(), pairs_of(n.children), 0) + "</span>";
      } else if (const size_t k = pairs[i]; k != SIZE_MAX && k > i && k < end && depth < kMaxPairDepth) {
        // A pair of codes around words: a span from the one to the other.
        const size_t id = add(paired_code(write_xml(n), write_xml(ch[k])));
        html += "<span id=\"e" + std::to_string(id) + "\">" + sequence(ch, i + 1, k, pairs, depth + 1) +
                "</span>";
        i = k;
      } else {
        html += object(ch, i, begin, end);
      }
    }
    return html;
  }

  const InlineDialect& d_;
  InlineUnit* u_;
};

}  // namespace

InlineUnit read_inline(const XmlNode& element, const InlineDialect& dialect) {
  InlineUnit u;
  Reader(dialect, &u).read(element);
  return u;
}

std::string write_inline(const InlineUnit& unit, std::string_view html, const InlineDialect& dialect,
                         bool repeats) {
  struct Out {
    std::string text;
    size_t code = SIZE_MAX;
    bool close = false;  // a paired code's end
  };
  std::vector<Out> out;
  std::vector<size_t> open;
  std::vector<bool> placed(unit.codes.size(), false);
  for (size_t at = 0; at < html.size();) {
    if (html[at] != '<') {
      const size_t e = std::min(html.find('<', at), html.size());
      out.push_back({decode_entities(html.substr(at, e - at)), SIZE_MAX, false});
      at = e;
      continue;
    }
    const size_t e = html.find('>', at);
    if (e == std::string_view::npos) break;
    const std::string_view tag = html.substr(at, e + 1 - at);
    at = e + 1;
    if (tag == "</span>") {
      if (!open.empty()) {
        out.push_back({{}, open.back(), true});
        open.pop_back();
      }
      continue;
    }
    const std::string id = xml_attribute(tag, "id");
    if (id.size() < 2) continue;
    char* end = nullptr;
    const unsigned long k = std::strtoul(id.c_str() + 1, &end, 10);
    if (end == id.c_str() + 1 || *end != '\0' || k >= unit.codes.size() || (placed[k] && !repeats)) continue;
    const InlineUnit::Code& c = unit.codes[k];
    if ((id[0] == 'e' && tag.starts_with("<span") && c.paired) || (id[0] == 'o' && !c.paired)) {
      placed[k] = true;
      out.push_back({{}, k, false});
      if (c.paired) open.push_back(k);
    }
  }
  while (!open.empty()) {
    out.push_back({{}, open.back(), true});
    open.pop_back();
  }
  for (size_t k = 0; k < unit.codes.size(); ++k)
    if (!placed[k] && !unit.codes[k].paired && !unit.codes[k].line_break) out.push_back({{}, k, false});
  // An object keeps the spaces it had around it in the source ("You have <x/> messages"),
  // which the translation next to it may have lost or moved before punctuation.
  auto punctuation = [](char c) {
    return c == ',' || c == '.' || c == '!' || c == '?' || c == ';' || c == ':';
  };
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i].code == SIZE_MAX || unit.codes[out[i].code].paired) continue;
    const InlineUnit::Code& c = unit.codes[out[i].code];
    if (c.line_break) continue;
    if (i > 0 && out[i - 1].code == SIZE_MAX && !out[i - 1].text.empty()) {
      std::string& t = out[i - 1].text;
      if (c.space_before && !is_xml_space(t.back())) t += ' ';
      if (!c.space_before && is_xml_space(t.back()) && i + 1 < out.size() && out[i + 1].code == SIZE_MAX &&
          !out[i + 1].text.empty() && punctuation(out[i + 1].text.front()))
        t.pop_back();  // "Willkommen, <ph/> !": the space goes after the object
    }
    if (i + 1 < out.size() && out[i + 1].code == SIZE_MAX && !out[i + 1].text.empty()) {
      std::string& t = out[i + 1].text;
      if (c.space_after && !is_xml_space(t.front()) && !punctuation(t.front())) t.insert(0, 1, ' ');
      if (!c.space_after && is_xml_space(t.front()) && t.size() > 1 && punctuation(t[1])) t.erase(0, 1);
    }
  }
  std::string xml = unit.lead;
  for (const Out& o : out) {
    if (o.code == SIZE_MAX)
      xml += dialect.write_text ? dialect.write_text(o.text) : escape_xml(o.text);
    else if (o.close)
      xml += unit.codes[o.code].close;
    else
      xml += unit.codes[o.code].open;
  }
  return xml + unit.trail;
}

}  // namespace edgemt
