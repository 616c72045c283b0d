// A document read as pieces, in order: bytes that come back as they were, and units of
// text to translate (a table's cell, a JSON string, an XML element's text). Each unit
// keeps the spaces it was trimmed of, which come back around its translation, and a
// format's own mark (was it quoted, how to escape it), which the format's writer reads.
// The readers of the line- and cell-based formats (CSV, JSON, ...) build one; render()
// puts the document together again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace edgemt {

// `s` split into its leading spaces, its core and its trailing spaces, `space` saying
// which bytes are spaces.
struct TrimmedText {
  std::string_view before, core, after;
};
template <class IsSpace>
TrimmedText trim_text(std::string_view s, IsSpace&& space) {
  size_t b = 0, e = s.size();
  while (b < e && space(s[b])) ++b;
  while (e > b && space(s[e - 1])) --e;
  return {s.substr(0, b), s.substr(b, e - b), s.substr(e)};
}

class TextPieces {
 public:
  // Bytes that come back as they are.
  void keep(std::string_view bytes) { pending_.append(bytes); }
  void keep(char c) { pending_.push_back(c); }

  // A unit to translate: `t.core`, with `t.before` and `t.after` around its translation.
  // `mark` is the format's (0 where it needs none).
  void add_unit(const TrimmedText& t, uint32_t mark = 0) {
    Piece p;
    p.verbatim = std::move(pending_);
    pending_.clear();
    p.unit = units_.size();
    p.before.assign(t.before);
    p.after.assign(t.after);
    p.mark = mark;
    pieces_.push_back(std::move(p));
    units_.emplace_back(t.core);
  }

  // The texts to translate, in order.
  const std::vector<std::string>& units() const { return units_; }

  // The document with units()[i] replaced by translations[i] (the unit itself where
  // there is none): write(text, mark, &out) appends each unit's text (its translation
  // between its spaces) as the format writes it.
  template <class Write>
  std::string render(const std::vector<std::string>& translations, Write&& write) const {
    std::string out;
    for (const Piece& p : pieces_) {
      out += p.verbatim;
      const std::string& t = p.unit < translations.size() ? translations[p.unit] : units_[p.unit];
      write(p.before + t + p.after, p.mark, &out);
    }
    out += pending_;
    return out;
  }

 private:
  struct Piece {
    std::string verbatim;  // the bytes before the unit, kept as they are
    size_t unit = 0;
    std::string before, after;  // the unit's spaces
    uint32_t mark = 0;
  };
  std::vector<Piece> pieces_;
  std::vector<std::string> units_;
  std::string pending_;  // the bytes after the last unit
};

}  // namespace edgemt
