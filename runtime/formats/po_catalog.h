// gettext message catalogs (.po files) for the text layer (issue 15, TextFormat::kPo):
// the messages still to translate are found, and the catalog is written back with
// their translations filled in, everything else byte for byte.
//
// An entry is "to translate" when its msgid is not empty (the header entry is left
// alone) and every msgstr of it is empty. Its msgstr gets the translation of its msgid.
// A plural entry gets as many msgstr[N] as the header's Plural-Forms has forms: the
// msgid's translation in the form its expression gives for n = 1, the msgid_plural's in
// the others (without a Plural-Forms that evaluates: msgstr[0] the msgid's, the rest the
// msgid_plural's, as many as the entry had). A template's header gets the language, UTF-8
// and the language's Plural-Forms (render's `language`). A
// filled entry is flagged fuzzy ("#, fuzzy", as msgmerge marks guesses) so that
// gettext does not use it before a translator has reviewed it. Obsolete entries (#~),
// comments, contexts and translated entries are kept as they are. Strings are decoded
// from C escapes (\n, \t, \", \\, octal) for translation and encoded again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/status.h"

namespace edgemt {

class PoCatalog {
 public:
  // Parses a catalog (LF or CRLF lines). A malformed string (unterminated, a bad escape)
  // or a string outside an entry is an error naming its line.
  static Expected<PoCatalog> parse(std::string_view text);

  // The texts to translate, in order (decoded: real line breaks, tabs, quotes).
  const std::vector<std::string>& texts() const { return texts_; }
  const std::vector<std::string>& units() const { return texts_; }  // as MarkdownDocument's
  // The catalog with translations[i] as the translation of texts()[i].
  // `language` (BCP 47 or ll_CC) fills a template's header: "Language: " where empty,
  // "charset=CHARSET" as UTF-8, and "nplurals=INTEGER; plural=EXPRESSION;" as the
  // language's Plural-Forms (gettext_plural_forms), as msginit does.
  std::string render(const std::vector<std::string>& translations, std::string_view language = {}) const;

 private:
  struct Keyword {
    std::string name;       // msgctxt, msgid, msgid_plural, msgstr, msgstr[N]
    size_t first_line = 0;  // its keyword line
    size_t end_line = 0;    // one past its last continuation line
    std::string value;      // decoded
  };
  struct Entry {
    size_t first_line = 0;         // its first line (comments included)
    size_t flags_line = SIZE_MAX;  // its "#," line, if any
    std::vector<Keyword> keywords;
    // Set when it is to be translated: texts_ indices of the msgid and the msgid_plural.
    size_t singular = SIZE_MAX, plural = SIZE_MAX;
  };
  // Line i is text_[begin_[i], end_[i]), its line end ("\n", "\r\n" or "") up to
  // begin_[i + 1] (offsets, not views: a catalog may be moved).
  std::string_view line(size_t i) const {
    return std::string_view(text_).substr(begin_[i], end_[i] - begin_[i]);
  }
  std::string_view line_end(size_t i) const {
    const size_t next = i + 1 < begin_.size() ? begin_[i + 1] : text_.size();
    return std::string_view(text_).substr(end_[i], next - end_[i]);
  }
  // From the header's Plural-Forms (where it has one that evaluates): the number of forms,
  // 0 if not known, and the form for n = 1 (SIZE_MAX where one form serves every n).
  void read_plural_forms();
  size_t nplurals_ = 0, singular_form_ = 0;
  bool template_plural_forms_ = false;               // "nplurals=INTEGER; plural=EXPRESSION;"
  size_t header_begin_ = SIZE_MAX, header_end_ = 0;  // the header's msgstr lines
  std::vector<size_t> begin_, end_;
  std::string text_;
  std::vector<Entry> entries_;
  std::vector<std::string> texts_;
};

}  // namespace edgemt
