#include "runtime/text/text_encoding.h"

#include <algorithm>
#include <iterator>

#include "runtime/core/utf8.h"

#if EDGEMT_HAVE_ICU
#include <unicode/ucnv.h>
#include <unicode/ucnv_cb.h>
#endif

namespace edgemt {
namespace {

// Windows-1252's bytes 0x80-0x9F (the rest is Latin-1); the five it leaves undefined are
// the C1 controls of their value, as HTML's decoder reads them.
constexpr uint16_t kWindows1252[32] = {0x20AC, 0x81,   0x201A, 0x192,  0x201E, 0x2026, 0x2020, 0x2021,
                                       0x2C6,  0x2030, 0x160,  0x2039, 0x152,  0x8D,   0x17D,  0x8F,
                                       0x90,   0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                       0x2DC,  0x2122, 0x161,  0x203A, 0x153,  0x9D,   0x17E,  0x178};

int windows1252_byte(uint32_t cp) {  // -1: not in windows-1252
  if (cp < 0x80 || (cp >= 0xA0 && cp <= 0xFF)) return static_cast<int>(cp);
  for (int b = 0; b < 32; ++b)
    if (kWindows1252[b] == cp) return 0x80 + b;
  return -1;
}

bool is_windows1252_label(std::string_view l) {
  // WHATWG's labels of windows-1252 (which browsers read iso-8859-1 and ASCII as).
  static constexpr std::string_view kLabels[] = {
      "ansi_x3.4-1968", "ascii",        "cp1252",   "cp819",      "csisolatin1",     "ibm819", "iso-8859-1",
      "iso-ir-100",     "iso8859-1",    "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1",     "latin1",
      "us-ascii",       "windows-1252", "x-cp1252"};
  return std::find(std::begin(kLabels), std::end(kLabels), l) != std::end(kLabels);
}

std::string lower_trimmed(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && is_ascii_space(s[b])) ++b;
  while (e > b && is_ascii_space(s[e - 1])) --e;
  std::string out(s.substr(b, e - b));
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

constexpr std::string_view kBom8 = "\xEF\xBB\xBF";
constexpr std::string_view kBom16Le = "\xFF\xFE";
constexpr std::string_view kBom16Be = "\xFE\xFF";
constexpr std::string_view kBom32Le{"\xFF\xFE\x00\x00", 4};
constexpr std::string_view kBom32Be{"\x00\x00\xFE\xFF", 4};

std::string_view bom_of(TextEncoding::Kind k) {
  switch (k) {
    case TextEncoding::kUtf8:
      return kBom8;
    case TextEncoding::kUtf16Le:
      return kBom16Le;
    case TextEncoding::kUtf16Be:
      return kBom16Be;
    case TextEncoding::kUtf32Le:
      return kBom32Le;
    case TextEncoding::kUtf32Be:
      return kBom32Be;
    default:
      return {};
  }
}

TextEncoding make(TextEncoding::Kind k, std::string name, bool bom) {
  TextEncoding e;
  e.kind = k;
  e.name = std::move(name);
  e.bom = bom;
  return e;
}

// Code units of `bytes` read as UTF-16 or UTF-32 in one byte order, decoded to UTF-8.
void decode_utf16(std::string_view b, bool big, DecodedText* d) {
  auto unit = [&](size_t i) {
    const auto x = static_cast<unsigned char>(b[i]), y = static_cast<unsigned char>(b[i + 1]);
    return static_cast<uint32_t>(big ? (x << 8) | y : (y << 8) | x);
  };
  auto bad = [&](size_t at) {
    if (d->malformed++ == 0) d->first_malformed = at;
    append_utf8(0xFFFD, &d->utf8);
  };
  const size_t start = d->bom ? 2 : 0;
  size_t i = start;
  for (; i + 1 < b.size(); i += 2) {
    const uint32_t u = unit(i);
    if (is_high_surrogate(u) && i + 3 < b.size()) {
      const uint32_t v = unit(i + 2);
      if (is_low_surrogate(v)) {
        append_utf8(surrogate_pair_code_point(u, v), &d->utf8);
        i += 2;
        continue;
      }
    }
    if (is_surrogate(u))
      bad(i);
    else
      append_utf8(u, &d->utf8);
  }
  if (i < b.size()) bad(i);  // an odd byte at the end
}

void decode_utf32(std::string_view b, bool big, DecodedText* d) {
  size_t i = d->bom ? 4 : 0;
  for (; i + 3 < b.size(); i += 4) {
    uint32_t u = 0;
    for (int k = 0; k < 4; ++k)
      u |= static_cast<uint32_t>(static_cast<unsigned char>(b[i + static_cast<size_t>(k)]))
           << (big ? 8 * (3 - k) : 8 * k);
    if (u > 0x10FFFF || is_surrogate(u)) {
      if (d->malformed++ == 0) d->first_malformed = i;
      u = 0xFFFD;
    }
    append_utf8(u, &d->utf8);
  }
  if (i < b.size()) {
    if (d->malformed++ == 0) d->first_malformed = i;
    append_utf8(0xFFFD, &d->utf8);
  }
}

void put_unit16(uint32_t u, bool big, std::string* out) {
  out->push_back(static_cast<char>(big ? u >> 8 : u & 0xFF));
  out->push_back(static_cast<char>(big ? u & 0xFF : u >> 8));
}

#if EDGEMT_HAVE_ICU
Expected<UConverter*> open_converter(const std::string& name) {
  UErrorCode err = U_ZERO_ERROR;
  UConverter* c = ucnv_open(name.c_str(), &err);
  if (U_FAILURE(err) || c == nullptr) return invalid_argument("unknown character encoding '" + name + "'");
  return c;
}

struct Count {
  size_t n = 0;
  size_t first = 0;
  const char* base = nullptr;
  bool reference = false;
};

// ICU's substitutions, counted.
void count_to_unicode(const void* context, UConverterToUnicodeArgs* args, const char* units, int32_t length,
                      UConverterCallbackReason reason, UErrorCode* err) {
  if (reason <= UCNV_IRREGULAR) {
    auto* c = static_cast<Count*>(const_cast<void*>(context));
    if (c->n++ == 0 && c->base != nullptr)
      c->first = static_cast<size_t>(std::max<std::ptrdiff_t>(0, args->source - length - c->base));
  }
  UCNV_TO_U_CALLBACK_SUBSTITUTE(nullptr, args, units, length, reason, err);
}

void count_from_unicode(const void* context, UConverterFromUnicodeArgs* args, const UChar* units,
                        int32_t length, UChar32 cp, UConverterCallbackReason reason, UErrorCode* err) {
  auto* c = static_cast<Count*>(const_cast<void*>(context));
  if (reason <= UCNV_IRREGULAR) ++c->n;
  if (c->reference)
    UCNV_FROM_U_CALLBACK_ESCAPE(UCNV_ESCAPE_XML_DEC, args, units, length, cp, reason, err);
  else
    UCNV_FROM_U_CALLBACK_SUBSTITUTE(nullptr, args, units, length, cp, reason, err);
}
#endif

}  // namespace

uint32_t windows1252_code_point(unsigned char b) {
  return b >= 0x80 && b <= 0x9F ? kWindows1252[b - 0x80] : b;
}

bool is_valid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const Utf8Char c = decode_utf8(s, i);
    if (!c.well_formed) return false;
    i += c.length;
  }
  return true;
}

std::optional<TextEncoding> encoding_from_bom(std::string_view b) {
  if (b.starts_with(kBom8)) return make(TextEncoding::kUtf8, "utf-8", true);
  if (b.starts_with(kBom32Le)) return make(TextEncoding::kUtf32Le, "utf-32le", true);
  if (b.starts_with(kBom32Be)) return make(TextEncoding::kUtf32Be, "utf-32be", true);
  if (b.starts_with(kBom16Le)) return make(TextEncoding::kUtf16Le, "utf-16le", true);
  if (b.starts_with(kBom16Be)) return make(TextEncoding::kUtf16Be, "utf-16be", true);
  return std::nullopt;
}

Expected<TextEncoding> find_text_encoding(std::string_view label) {
  const std::string l = lower_trimmed(label);
  if (l == "utf-8" || l == "utf8") return make(TextEncoding::kUtf8, "utf-8", false);
  if (l == "utf-16le" || l == "utf16le") return make(TextEncoding::kUtf16Le, "utf-16le", false);
  if (l == "utf-16be" || l == "utf16be") return make(TextEncoding::kUtf16Be, "utf-16be", false);
  if (l == "utf-16" || l == "utf16" || l == "ucs-2" || l == "unicode")
    return make(TextEncoding::kUtf16Le, "utf-16", true);
  if (l == "utf-32le" || l == "utf32le") return make(TextEncoding::kUtf32Le, "utf-32le", false);
  if (l == "utf-32be" || l == "utf32be") return make(TextEncoding::kUtf32Be, "utf-32be", false);
  if (l == "utf-32" || l == "utf32") return make(TextEncoding::kUtf32Le, "utf-32", true);
  if (is_windows1252_label(l)) return make(TextEncoding::kWindows1252, "windows-1252", false);
#if EDGEMT_HAVE_ICU
  if (!l.empty()) {
    auto c = open_converter(l);
    if (c) {
      ucnv_close(c.value());
      return make(TextEncoding::kIcu, l, false);
    }
  }
  return invalid_argument("unknown character encoding '" + std::string(label.substr(0, 64)) + "'");
#else
  return invalid_argument("character encoding '" + std::string(label.substr(0, 64)) +
                          "' is not one this build of edgemt (without ICU) reads: it knows UTF-8, UTF-16, "
                          "UTF-32 and windows-1252 (latin1)");
#endif
}

TextEncoding guess_text_encoding(std::string_view bytes) {
  if (auto b = encoding_from_bom(bytes)) return *b;
  if (is_valid_utf8(bytes)) return {};
  return make(TextEncoding::kWindows1252, "windows-1252", false);
}

Expected<DecodedText> decode_text(std::string_view b, const TextEncoding& e) {
  DecodedText d;
  const std::string_view bom = bom_of(e.kind);
  d.bom = !bom.empty() && b.starts_with(bom);
  // "utf-16"/"utf-32" (read by the mark): big-endian where the mark says so.
  TextEncoding::Kind kind = e.kind;
  if (!d.bom && kind == TextEncoding::kUtf16Le && b.starts_with(kBom16Be)) {
    kind = TextEncoding::kUtf16Be;
    d.bom = true;
  } else if (!d.bom && kind == TextEncoding::kUtf32Le && b.starts_with(kBom32Be)) {
    kind = TextEncoding::kUtf32Be;
    d.bom = true;
  }
  switch (kind) {
    case TextEncoding::kUtf8: {
      d.utf8.assign(b.substr(d.bom ? 3 : 0));
      for (size_t i = 0; i < d.utf8.size();) {
        const Utf8Char c = decode_utf8(d.utf8, i);
        if (!c.well_formed && d.malformed++ == 0) d.first_malformed = i + (d.bom ? 3 : 0);
        i += c.length;
      }
      return d;
    }
    case TextEncoding::kUtf16Le:
    case TextEncoding::kUtf16Be:
      d.utf8.reserve(b.size() / 2 + b.size() / 8);
      decode_utf16(b, kind == TextEncoding::kUtf16Be, &d);
      return d;
    case TextEncoding::kUtf32Le:
    case TextEncoding::kUtf32Be:
      d.utf8.reserve(b.size() / 4 + b.size() / 8);
      decode_utf32(b, kind == TextEncoding::kUtf32Be, &d);
      return d;
    case TextEncoding::kWindows1252:
      d.utf8.reserve(b.size() + b.size() / 8);
      for (char ch : b) append_utf8(windows1252_code_point(static_cast<unsigned char>(ch)), &d.utf8);
      return d;
    case TextEncoding::kIcu:
      break;
  }
#if EDGEMT_HAVE_ICU
  auto c = open_converter(e.name);
  if (!c) return c.status();
  Count count;
  count.base = b.data();
  UErrorCode err = U_ZERO_ERROR;
  ucnv_setToUCallBack(c.value(), count_to_unicode, &count, nullptr, nullptr, &err);
  std::u16string u(b.size() * 2 + 16, u'\0');
  const int32_t n = ucnv_toUChars(c.value(), u.data(), static_cast<int32_t>(u.size()), b.data(),
                                  static_cast<int32_t>(b.size()), &err);
  ucnv_close(c.value());
  if (U_FAILURE(err)) return invalid_argument("cannot read the text as " + e.name + ": " + u_errorName(err));
  u.resize(static_cast<size_t>(n));
  d.utf8.reserve(u.size() + u.size() / 4);
  for (size_t i = 0; i < u.size(); ++i) {
    uint32_t cp = u[i];
    if (is_high_surrogate(cp) && i + 1 < u.size() && is_low_surrogate(u[i + 1]))
      cp = surrogate_pair_code_point(cp, u[++i]);
    append_utf8(cp, &d.utf8);
  }
  d.malformed = count.n;
  d.first_malformed = count.first;
  return d;
#else
  return invalid_argument("this build of edgemt (without ICU) does not read " + e.name);
#endif
}

Expected<EncodedText> encode_text(std::string_view utf8, const TextEncoding& e, Unencodable how,
                                  bool with_bom) {
  EncodedText out;
  if (e.bom && with_bom) out.bytes.assign(bom_of(e.kind));
  auto refuse = [&](uint32_t cp) {
    ++out.unencodable;
    if (how == Unencodable::kReference)
      out.bytes += "&#" + std::to_string(cp) + ";";
    else
      out.bytes.push_back('?');
  };
  auto each = [&](auto put) {
    for (size_t i = 0; i < utf8.size();) {
      const Utf8Char ch = decode_utf8(utf8, i);
      i += ch.length;
      put(ch.well_formed ? ch.code_point : 0xFFFD);
    }
  };
  switch (e.kind) {
    case TextEncoding::kUtf8:
      out.bytes.append(utf8);
      return out;
    case TextEncoding::kUtf16Le:
    case TextEncoding::kUtf16Be: {
      const bool big = e.kind == TextEncoding::kUtf16Be;
      out.bytes.reserve(out.bytes.size() + utf8.size() * 2);
      each([&](uint32_t cp) {
        for_each_utf16_unit(cp, [&](uint32_t unit) { put_unit16(unit, big, &out.bytes); });
      });
      return out;
    }
    case TextEncoding::kUtf32Le:
    case TextEncoding::kUtf32Be: {
      const bool big = e.kind == TextEncoding::kUtf32Be;
      out.bytes.reserve(out.bytes.size() + utf8.size() * 4);
      each([&](uint32_t cp) {
        for (int k = 0; k < 4; ++k) out.bytes.push_back(static_cast<char>(cp >> (big ? 8 * (3 - k) : 8 * k)));
      });
      return out;
    }
    case TextEncoding::kWindows1252:
      out.bytes.reserve(out.bytes.size() + utf8.size());
      each([&](uint32_t cp) {
        const int b = windows1252_byte(cp);
        if (b >= 0)
          out.bytes.push_back(static_cast<char>(b));
        else
          refuse(cp);
      });
      return out;
    case TextEncoding::kIcu:
      break;
  }
#if EDGEMT_HAVE_ICU
  auto c = open_converter(e.name);
  if (!c) return c.status();
  Count count;
  count.reference = how == Unencodable::kReference;
  UErrorCode err = U_ZERO_ERROR;
  ucnv_setSubstChars(c.value(), "?", 1, &err);
  err = U_ZERO_ERROR;  // an encoding without "?" keeps its own substitute
  ucnv_setFromUCallBack(c.value(), count_from_unicode, &count, nullptr, nullptr, &err);
  std::u16string u;
  u.reserve(utf8.size());
  each([&](uint32_t cp) {
    for_each_utf16_unit(cp, [&](uint32_t unit) { u.push_back(static_cast<char16_t>(unit)); });
  });
  std::string bytes(u.size() * 12 + 16, '\0');  // an escape is at most "&#1114111;"
  const int32_t n = ucnv_fromUChars(c.value(), bytes.data(), static_cast<int32_t>(bytes.size()), u.data(),
                                    static_cast<int32_t>(u.size()), &err);
  ucnv_close(c.value());
  if (U_FAILURE(err)) return invalid_argument("cannot write the text as " + e.name + ": " + u_errorName(err));
  bytes.resize(static_cast<size_t>(n));
  out.bytes += bytes;
  out.unencodable = count.n;
  return out;
#else
  return invalid_argument("this build of edgemt (without ICU) does not write " + e.name);
#endif
}

}  // namespace edgemt
