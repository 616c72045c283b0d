// Character encodings of the text files people have, at the edges of the text layer
// (which works in UTF-8): UTF-8, UTF-16 and UTF-32 in either byte order (with or without
// a byte order mark), windows-1252 (and the labels browsers read as it: latin1,
// iso-8859-1, ascii, cp1252 ...), all of them without any library, and where edgemt is
// built with ICU every other encoding ICU converts (iso-8859-15, koi8-r, shift_jis, gbk ...).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/core/status.h"

namespace edgemt {

struct TextEncoding {
  enum Kind { kUtf8, kUtf16Le, kUtf16Be, kUtf32Le, kUtf32Be, kWindows1252, kIcu } kind = kUtf8;
  std::string name = "utf-8";  // lower case: a canonical name, or for kIcu the label ICU opened
  bool bom = false;            // a byte order mark begins the text, and its translation
  bool is_utf8() const { return kind == kUtf8; }
};

// The encoding a byte order mark at the start of `bytes` names (bom set), if one does.
std::optional<TextEncoding> encoding_from_bom(std::string_view bytes);

// The encoding a label names (case and surrounding space ignored): "utf-8", "utf-16le",
// "utf-16be", "utf-16" (read by its byte order mark, else little-endian; written
// little-endian with one), the same for "utf-32", windows-1252's labels, and with ICU
// any label ICU knows. Error (kInvalidArgument): a label it does not know.
Expected<TextEncoding> find_text_encoding(std::string_view label);

// How a text file that says nothing about its encoding is read, as browsers and editors
// do: by its byte order mark; else UTF-8 where all its bytes are UTF-8; else windows-1252
// (the legacy encoding of English and Western European text, whose every byte is a
// character, so nothing is lost either way).
TextEncoding guess_text_encoding(std::string_view bytes);

// The character a windows-1252 byte stands for: 0x80-0x9F its own (the five it leaves
// undefined the C1 control of their value, as HTML reads them), the rest as Latin-1.
uint32_t windows1252_code_point(unsigned char byte);

// True where every byte sequence of `s` is well-formed UTF-8.
bool is_valid_utf8(std::string_view s);

struct DecodedText {
  std::string utf8;
  bool bom = false;            // the bytes began with the encoding's byte order mark (left out)
  size_t malformed = 0;        // byte sequences not in the encoding, each read as U+FFFD
  size_t first_malformed = 0;  // the byte offset of the first of them
};
// `bytes` in UTF-8. UTF-8 is returned as it is (its malformed bytes counted, the text
// layer reads them), without a byte order mark. Error only where ICU cannot open the
// encoding.
Expected<DecodedText> decode_text(std::string_view bytes, const TextEncoding& encoding);

// What becomes of a character the encoding cannot hold ("☃" in windows-1252).
enum class Unencodable {
  kQuestionMark,  // "?" (plain text)
  kReference,     // "&#9731;" (HTML and XML, where it is right whatever the encoding)
};
struct EncodedText {
  std::string bytes;
  size_t unencodable = 0;  // characters written as kQuestionMark or kReference says
};
// `utf8` in `encoding`, a byte order mark first where encoding.bom and `with_bom`.
// Malformed UTF-8 bytes are written as U+FFFD would be. Error only where ICU cannot open
// the encoding.
Expected<EncodedText> encode_text(std::string_view utf8, const TextEncoding& encoding,
                                  Unencodable unencodable = Unencodable::kQuestionMark, bool with_bom = true);

}  // namespace edgemt
