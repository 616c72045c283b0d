// Character encodings (runtime/text/text_encoding.h): byte order marks, labels, round trips and
// malformed input.
#include "runtime/text/text_encoding.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace edgemt {
namespace {

TEST(TextEncoding, ByteOrderMarksAndLabels) {
  const auto bom = [](std::string_view b) {
    auto e = encoding_from_bom(b);
    return e ? e->name + (e->bom ? "+bom" : "") : std::string("none");
  };
  EXPECT_EQ(bom("\xEF\xBB\xBFx"), "utf-8+bom");
  EXPECT_EQ(bom("\xFF\xFEx\0"), "utf-16le+bom");
  EXPECT_EQ(bom("\xFE\xFF\0x"), "utf-16be+bom");
  EXPECT_EQ(bom(std::string_view("\xFF\xFE\0\0x\0\0\0", 8)), "utf-32le+bom");
  EXPECT_EQ(bom(std::string_view("\0\0\xFE\xFF", 4)), "utf-32be+bom");
  EXPECT_EQ(bom("plain"), "none");
  EXPECT_EQ(bom(""), "none");
  for (auto [label, name] : {std::pair{" UTF-8 ", "utf-8"},
                             {"Latin1", "windows-1252"},
                             {"ISO-8859-1", "windows-1252"},
                             {"cp1252", "windows-1252"},
                             {"utf-16le", "utf-16le"},
                             {"UTF-16", "utf-16"},
                             {"utf-32be", "utf-32be"}}) {
    auto e = find_text_encoding(label);
    ASSERT_TRUE(e.has_value()) << label;
    EXPECT_EQ(e.value().name, name) << label;
  }
  EXPECT_TRUE(find_text_encoding("UTF-16").value().bom);  // written with a mark
  EXPECT_FALSE(find_text_encoding("utf-16le").value().bom);
  for (const char* bad : {"x-no-such", "", "utf-9"}) {
    auto e = find_text_encoding(bad);
    ASSERT_FALSE(e.has_value()) << bad;
    EXPECT_NE(e.status().message().find(std::string("'") + bad + "'"), std::string::npos)
        << e.status().message();
  }
  // Text that says nothing: its mark, else UTF-8 where it is, else windows-1252.
  EXPECT_EQ(guess_text_encoding("K\xC3\xBC"
                                "che")
                .name,
            "utf-8");
  EXPECT_EQ(guess_text_encoding("K\xFC"
                                "che")
                .name,
            "windows-1252");
  EXPECT_EQ(guess_text_encoding("\xFE\xFF\0K").name, "utf-16be");
  EXPECT_TRUE(guess_text_encoding("\xFE\xFF\0K").bom);
}

TEST(TextEncoding, RoundTripsAndMalformedInput) {
  // Every character survives UTF-16 and UTF-32 both ways, astral ones as surrogate pairs.
  const std::string text =
      "A K\xC3\xBC"
      "che \xE2\x82\xAC \xE2\x98\x83 \xF0\x9F\x8E\x89 \xE6\x97\xA5\r\n";
  for (auto kind :
       {TextEncoding::kUtf16Le, TextEncoding::kUtf16Be, TextEncoding::kUtf32Le, TextEncoding::kUtf32Be})
    for (bool bom : {false, true}) {
      const TextEncoding e{kind, "x", bom};
      const EncodedText enc = encode_text(text, e).value();
      EXPECT_EQ(enc.unencodable, 0u);
      const size_t unit = kind == TextEncoding::kUtf16Le || kind == TextEncoding::kUtf16Be ? 2 : 4;
      EXPECT_EQ(enc.bytes.size(), (bom ? unit : 0) + (unit == 2 ? 18 : 17) * unit) << kind;
      EXPECT_EQ(encoding_from_bom(enc.bytes).has_value(), bom);
      const DecodedText dec = decode_text(enc.bytes, e).value();
      EXPECT_EQ(dec.utf8, text) << kind << bom;
      EXPECT_EQ(dec.bom, bom);
      EXPECT_EQ(dec.malformed, 0u);
    }
  EXPECT_EQ(encode_text("A", {TextEncoding::kUtf16Le, "utf-16le", false}).value().bytes,
            std::string("A\0", 2));
  EXPECT_EQ(encode_text("A", {TextEncoding::kUtf16Be, "utf-16be", false}).value().bytes,
            std::string("\0A", 2));
  // "utf-16" reads a big-endian mark too.
  const TextEncoding utf16 = find_text_encoding("utf-16").value();
  EXPECT_EQ(decode_text(std::string("\xFE\xFF\0H\0i", 6), utf16).value().utf8, "Hi");
  EXPECT_EQ(decode_text(std::string("\xFF\xFEH\0i\0", 6), utf16).value().utf8, "Hi");
  // A lone surrogate, a cut last unit: U+FFFD each, counted, the first's offset kept.
  const DecodedText bad = decode_text(std::string("a\0\x00\xD8"
                                                  "b\0c",
                                                  7),
                                      {TextEncoding::kUtf16Le, "utf-16le", false})
                              .value();
  EXPECT_EQ(bad.utf8,
            "a\xEF\xBF\xBD"
            "b\xEF\xBF\xBD");
  EXPECT_EQ(bad.malformed, 2u);
  EXPECT_EQ(bad.first_malformed, 2u);
  const DecodedText big32 =
      decode_text(std::string("\0\x11\0\0", 4), {TextEncoding::kUtf32Be, "utf-32be", false}).value();
  EXPECT_EQ(big32.utf8, "\xEF\xBF\xBD");  // past U+10FFFF
  EXPECT_EQ(big32.malformed, 1u);
  // Malformed UTF-8 is counted where it is, and kept as it is.
  const DecodedText u8 = decode_text("\xEF\xBB\xBFok \xFC!", {}).value();
  EXPECT_EQ(u8.utf8, "ok \xFC!");
  EXPECT_TRUE(u8.bom);
  EXPECT_EQ(u8.malformed, 1u);
  EXPECT_EQ(u8.first_malformed, 6u);

  // windows-1252: every byte is a character and comes back as it was.
  const TextEncoding cp1252 = find_text_encoding("latin1").value();
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  const DecodedText d = decode_text(all, cp1252).value();
  EXPECT_EQ(d.malformed, 0u);
  EXPECT_TRUE(is_valid_utf8(d.utf8));
  EXPECT_EQ(encode_text(d.utf8, cp1252).value().bytes, all);
  EXPECT_EQ(decode_text("\x80 \x93x\x94", cp1252).value().utf8, "\xE2\x82\xAC \xE2\x80\x9Cx\xE2\x80\x9D");
  // What it cannot hold: "?" or a reference, counted.
  const EncodedText q = encode_text(
                            "\xE2\x98\x83 K\xC3\xBC"
                            "che \xF0\x9F\x8E\x89",
                            cp1252)
                            .value();
  EXPECT_EQ(q.bytes,
            "? K\xFC"
            "che ?");
  EXPECT_EQ(q.unencodable, 2u);
  EXPECT_EQ(encode_text("\xE2\x98\x83", cp1252, Unencodable::kReference).value().bytes, "&#9731;");
#if EDGEMT_HAVE_ICU
  const TextEncoding latin9 = find_text_encoding("ISO-8859-15").value();
  EXPECT_EQ(latin9.kind, TextEncoding::kIcu);
  EXPECT_EQ(decode_text("5 \xA4", latin9).value().utf8, "5 \xE2\x82\xAC");
  EXPECT_EQ(encode_text("5 \xE2\x82\xAC", latin9).value().bytes, "5 \xA4");
  const EncodedText koi = encode_text("\xD0\xB0 \xC3\xBC", find_text_encoding("koi8-r").value()).value();
  EXPECT_EQ(koi.bytes, "\xC1 ?");
  EXPECT_EQ(koi.unencodable, 1u);
  const DecodedText cut = decode_text("ab \x82", find_text_encoding("shift_jis").value()).value();
  EXPECT_EQ(cut.malformed, 1u);
  EXPECT_EQ(cut.utf8.substr(0, 3), "ab ");
#endif
}

}  // namespace
}  // namespace edgemt
