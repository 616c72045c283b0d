// YAML locale files (TextFormat::kYaml): Ruby on Rails' config/locales/en.yml, and the
// translation files of Symfony, Hugo, Jekyll and other apps, in the block style they are
// written in:
//
//   en:
//     greeting: "Hello, %{name}!"      # a comment
//     inbox:
//       one: You have one message.
//       other: You have %{count} messages.
//     help: |
//       Press F1 for help.
//
// Each scalar value with words (plain, 'single-' or "double-quoted", or a | or > block's
// lines) is translated as plain text (%{name}, {{ name }} and %s kept by span
// protection) and written back in its style where the translation allows it (a plain
// value that would no longer read as the same string, "Hinweis: Speichern", gets double
// quotes); keys, comments, indentation, the document's layout and values without words
// come back byte for byte, as do values YAML reads as something else than a string
// (true, yes, no, on, off, null, ~), the values of keys whose name is a code
// (text_kind.h's key_names_a_code), and what this reader does not take apart (flow
// collections [a, b] and {a: b}, anchors, aliases and tags, values continued on the next
// line, complex keys). A file whose only top-level key is a language ("en:", Rails'
// convention) gets the translation's language as that key ("de:"). A mapping of plural
// forms (keys among zero, one, two, few, many and other, with other) gets the
// translation's language's categories it lacks, from "other"'s translation (Russian's few
// and many beside English's one and other), before its "other".
//
// Every text reads (what is not understood is kept), so parsing cannot fail.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace edgemt {

class YamlDocument {
 public:
  static YamlDocument parse(std::string_view text);

  // The texts to translate, in order (decoded from their quoting).
  const std::vector<std::string>& units() const { return units_; }
  // The file with units()[i] replaced by translations[i] (a missing or empty one keeps
  // the value as it was written); `language` (BCP 47) renames a top-level language key and
  // gives plural forms its categories.
  std::string render(const std::vector<std::string>& translations, std::string_view language = {}) const;

 private:
  // The file as lines, each with its end; a line may hold a unit's value at [begin, end).
  struct Line {
    std::string text;
    size_t unit = SIZE_MAX;
    size_t begin = 0, end = 0;  // the value's bytes in text (a block line: its text after the indentation)
    char style = 0;             // '"', '\'', 0 (plain), '|' or '>' (a block's line)
    bool skip = false;          // a folded block's later line of a paragraph: written with its first
    std::string before, after;  // a quoted value's spaces around its text
  };
  struct Plural {
    size_t other_line = 0;  // its "other" member's line
    uint8_t present = 0;    // the categories it has
    std::string indent;     // its members'
  };
  std::vector<Line> lines_;
  std::vector<Plural> plurals_;
  size_t language_line_ = SIZE_MAX;  // the top-level language key's line (its key at column 0)
  size_t language_key_size_ = 0;
  std::vector<std::string> units_;
};

}  // namespace edgemt
