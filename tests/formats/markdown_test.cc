// Markdown (runtime/formats/markdown.h).
#include "runtime/formats/markdown.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

namespace edgemt {
namespace {

// ---- Markdown (TextFormat::kMarkdown) ----------------------------------------------

TEST(Markdown, InlineMarkupRoundTrips) {
  for (const char* md :
       {"plain text & <stuff>", "a **bold** and *it* and __b__ and _i_ word",
        "see [the guide](docs/install.md \"Title\") or [ref][x]", "![logo](img/a.png) after",
        "run `make *all*` now", "a \\*literal\\* star", "press <kbd>Ctrl</kbd>+<kbd>C</kbd>",
        "<https://example.org> and <span class=\"x\">y</span>", "2 * 3 * 4 and snake_case_name",
        "unclosed **bold and [link", "nested **bold *it* more** [a **b**](u)", "&amp; &copy; \"q\" 'a'"}) {
    std::vector<std::string> originals;
    const std::string html = markdown_inline_to_html(md, &originals);
    EXPECT_EQ(markdown_inline_from_html(html, originals), md) << html;
  }
  std::vector<std::string> o;
  EXPECT_EQ(markdown_inline_to_html("a **b** [c](d) `e<f>`", &o),
            "a <strong data-md=\"0\">b</strong> <a href=\"1\">c</a> `e&lt;f&gt;`");
}

TEST(Markdown, ProseIsTranslatedCodeAndMarkupKept) {
  const std::string doc =
      "---\ntitle: x\n---\n# Title #\n\nA paragraph with `code`.\n\n- item one\n- [ ] task\n1. first\n> "
      "quoted\n\n"
      "```sh\nmake install\n```\n\n    indented code\n\n<div>\nhtml block\n</div>\n\n"
      "| A | B |\n|---|:-:|\n| cell `x` | two |\n\n***\n\nSetext\n======\n\n[ref]: https://example.org\n";
  MarkdownDocument d = MarkdownDocument::parse(doc);
  const std::vector<std::string> want = {
      "Title", "A paragraph with `code`.", "item one", "task", "first", "quoted", "A", "B", "cell `x`", "two",
      "Setext"};
  EXPECT_EQ(d.units(), want);
  // Translated as themselves, the document comes back byte for byte (CRLF too).
  EXPECT_EQ(d.render(d.units()), doc);
  std::string crlf;
  for (char c : doc) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  MarkdownDocument dc = MarkdownDocument::parse(crlf);
  EXPECT_EQ(dc.units(), want);
  EXPECT_EQ(dc.render(dc.units()), crlf);
  // Translations go in place, markers kept.
  std::vector<std::string> t(want.size());
  for (size_t i = 0; i < t.size(); ++i) t[i] = std::string("T").append(std::to_string(i));
  EXPECT_EQ(d.render(t),
            "---\ntitle: x\n---\n# T0 #\n\nT1\n\n- T2\n- [ ] T3\n1. T4\n> T5\n\n"
            "```sh\nmake install\n```\n\n    indented code\n\n<div>\nhtml block\n</div>\n\n"
            "| T6 | T7 |\n|---|:-:|\n| T8 | T9 |\n\n***\n\nT10\n======\n\n[ref]: https://example.org\n");
}

TEST(Markdown, WrappedParagraphIsJoinedAndWrappedAgain) {
  const std::string doc = "> one two three four\n> five six seven\n\nnext\n";
  MarkdownDocument d = MarkdownDocument::parse(doc);
  ASSERT_EQ(d.units().size(), 2u);
  EXPECT_EQ(d.units()[0], "one two three four five six seven");
  EXPECT_EQ(d.render(d.units()), doc);  // the greedy wrap at the widest line (20 columns)
  EXPECT_EQ(d.render({"eins zwei drei vier fünf sechs sieben acht - neun", "weiter"}),
            "> eins zwei drei\n> vier fünf sechs\n> sieben acht - neun\n\nweiter\n");
}

TEST(Markdown, SetextHeadingsAndLazyLinesAsCommonMarkReadsThem) {
  // A setext heading of two lines ("---" under a paragraph is an underline, not a rule);
  // a lazy continuation line belongs to the quote's paragraph.
  const std::string doc =
      "Install the\npackage first\n---\n\n> The file could not\nbe opened.\n\nText\n===\n\n---\n";
  MarkdownDocument d = MarkdownDocument::parse(doc);
  EXPECT_EQ(d.units(),
            (std::vector<std::string>{"Install the package first", "The file could not be opened.", "Text"}));
  EXPECT_EQ(d.render(d.units()), doc);
  EXPECT_EQ(d.render({"Zuerst das Paket installieren",
                      "Die Datei konnte nicht ge\xC3\xB6"
                      "ffnet werden.",
                      "T"}),
            "Zuerst das\nPaket\ninstallieren\n---\n\n> Die Datei konnte\nnicht ge\xC3\xB6"
            "ffnet\nwerden.\n\nT\n===\n\n---\n");
}

}  // namespace
}  // namespace edgemt
