// HTML's segmentation and tag placement (runtime/text/markup.h): inline runs and their tags
// put back (placeholders, found elements, word alignments), what a page marks not to be
// translated, the encodings pages declare, lang attributes.
#include "runtime/text/markup.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <functional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/formats/html_document.h"
#include "runtime/text/sentence_splitter.h"
#include "runtime/text/text_encoding.h"

namespace edgemt {
namespace {

using Strings = std::vector<std::string>;

// Inline runs (HTML): text nodes joined across inline tags, tags back in place.
std::string same(std::string_view s) { return std::string(s); }

TEST(InlineRuns, PlaceholdersBecomeTheTagsAgain) {
  const Segmented doc = segment_html("<p>Click <b>Save</b> now &amp; here.</p>");
  const std::vector<InlineRun> runs = inline_runs(doc, same);
  ASSERT_EQ(runs.size(), 1u);
  const InlineRun& r = runs[0];
  EXPECT_EQ(r.source, "Click {tag1} Save {tag2} now & here.");
  EXPECT_EQ(r.plain, "Click Save now & here.");
  EXPECT_EQ(r.element, (std::vector<std::string>{"Save"}));
  std::string html;
  // The identity gives the run back; a translation gets its text escaped.
  ASSERT_TRUE(place_inline_tags(r, r.source, &html));
  EXPECT_EQ(html, "Click <b>Save</b> now &amp; here.");
  ASSERT_TRUE(place_inline_tags(r, "Klicke {tag1}  Speichern {tag2} & <jetzt>.", &html));
  EXPECT_EQ(html, "Klicke <b>Speichern</b> &amp; &lt;jetzt&gt;.");
  EXPECT_EQ(reassemble_runs(doc, runs, {html}, {}), "<p>Klicke <b>Speichern</b> &amp; &lt;jetzt&gt;.</p>");
  // Refused: a placeholder missing or repeated, the tags reversed, an element emptied
  // (or left with punctuation only).
  html = "unchanged";
  for (const char* bad : {"Klicke {tag1} Speichern.", "Klicke {tag1} {tag1} x {tag2}.", "{tag2} x {tag1} y",
                          "Speichern {tag1}{tag2} jetzt", "Speichern {tag1} , {tag2} jetzt"}) {
    EXPECT_FALSE(place_inline_tags(r, bad, &html)) << bad;
    EXPECT_EQ(html, "unchanged");
  }
  // A failed run: its text nodes' own translations.
  EXPECT_EQ(reassemble_runs(doc, runs, {""}, {"A", "B", "C & D"}), "<p>A <b>B</b> C &amp; D</p>");
}

TEST(InlineRuns, FoundElementsAreWrapped) {
  const Segmented doc = segment_html("<li>Open the <a href=\"f.html\">folder</a> and <i>select</i> it.</li>");
  const std::vector<InlineRun> runs = inline_runs(doc, same);
  ASSERT_EQ(runs.size(), 1u);
  ASSERT_EQ(runs[0].element, (std::vector<std::string>{"folder", "select"}));
  std::string html;
  // The first letter in either case; the elements in the sentence's order, whatever the
  // source's; a fragment's final full stop ignored.
  ASSERT_TRUE(wrap_found_elements(runs[0],
                                  "W\xC3\xA4hle den Ordner & \xC3\xB6"
                                  "ffne ihn.",
                                  {"Ordner", "w\xC3\xA4hle."}, &html));
  EXPECT_EQ(html,
            "<i>W\xC3\xA4hle</i> den <a href=\"f.html\">Ordner</a> &amp; \xC3\xB6"
            "ffne ihn.");
  // Only whole words, never overlapping.
  EXPECT_FALSE(
      wrap_found_elements(runs[0], "Die Ordnerliste w\xC3\xA4hlen", {"Ordner", "w\xC3\xA4hlen"}, &html));
  EXPECT_FALSE(wrap_found_elements(runs[0], "Ordner", {"Ordner", "Ordner"}, &html));
  EXPECT_FALSE(wrap_found_elements(runs[0], "Ordner w", {"Ordner", ""}, &html));
}

// An aligned translation: words (target, source) given as substrings, found in order.
AlignedText aligned(const std::string& plain, const std::string& text,
                    const std::vector<std::pair<std::string, std::string>>& words) {
  AlignedText a;
  a.text = text;
  size_t t_at = 0;
  for (const auto& [t, src] : words) {
    const size_t tb = text.find(t, t_at), sb = plain.find(src);
    EXPECT_NE(tb, std::string::npos) << t;
    EXPECT_NE(sb, std::string::npos) << src;
    a.words.push_back({{tb, tb + t.size()}, {sb, sb + src.size()}});
    t_at = tb + t.size();
  }
  return a;
}

TEST(InlineRuns, AlignedWordsCarryTheTags) {
  const Segmented doc = segment_html("<p>Please <b>do not <i>delete</i> this</b> file.<br>Thank you!</p>");
  const std::vector<InlineRun> runs = inline_runs(doc, same);
  ASSERT_EQ(runs.size(), 1u);
  const InlineRun& r = runs[0];
  // A <br> is a line break of the plain text; each cluster knows its place there.
  EXPECT_EQ(r.plain, "Please do not delete this file.\nThank you!");
  ASSERT_EQ(r.cluster_at.size(), r.clusters.size());
  EXPECT_EQ(r.plain.substr(r.cluster_at[0]), " do not delete this file.\nThank you!");
  std::string html = "unchanged";
  // Elements around their words' stretch (the outer one around the inner one too, even
  // where the translation puts them in another order), the <br> at the line break.
  const std::string text = "Bitte l\xC3\xB6schen Sie diese Datei nicht.\nDanke!";
  ASSERT_TRUE(place_aligned_tags(r,
                                 aligned(r.plain, text,
                                         {{"Bitte", "Please"},
                                          {"l\xC3\xB6schen", "delete"},
                                          {"diese", "this"},
                                          {"Datei", "file."},
                                          {"nicht.", "not"},
                                          {"Danke!", "Thank"}}),
                                 &html));
  EXPECT_EQ(html, "Bitte <b><i>l\xC3\xB6schen</i> Sie diese Datei nicht</b>.<br>Danke!");
  // Refused: an element with no aligned word; two side by side that would overlap; a
  // line break the translation lacks.
  html = "unchanged";
  EXPECT_FALSE(
      place_aligned_tags(r, aligned(r.plain, text, {{"Bitte", "Please"}, {"Danke!", "Thank"}}), &html));
  EXPECT_FALSE(place_aligned_tags(r,
                                  aligned(r.plain, "Bitte nicht l\xC3\xB6schen. Danke!",
                                          {{"nicht", "not"}, {"l\xC3\xB6schen.", "delete"}}),
                                  &html));
  EXPECT_EQ(html, "unchanged");
  const Segmented two = segment_html("<p>Open the <b>folder</b> and <i>select</i> it.</p>");
  const std::vector<InlineRun> side = inline_runs(two, same);
  ASSERT_EQ(side.size(), 1u);
  const std::string t2 =
      "W\xC3\xA4hle den Ordner & \xC3\xB6"
      "ffne ihn.";
  EXPECT_FALSE(place_aligned_tags(
      side[0],
      aligned(side[0].plain, t2, {{"W\xC3\xA4hle", "folder"}, {"den", "select"}, {"Ordner", "folder"}}),
      &html));
  EXPECT_EQ(html, "unchanged");
  ASSERT_TRUE(place_aligned_tags(side[0],
                                 aligned(side[0].plain, t2,
                                         {{"W\xC3\xA4hle", "select"},
                                          {"Ordner", "folder"},
                                          {"\xC3\xB6"
                                           "ffne",
                                           "Open"}}),
                                 &html));
  EXPECT_EQ(html,
            "<i>W\xC3\xA4hle</i> den <b>Ordner</b> &amp; \xC3\xB6"
            "ffne ihn.");
}

TEST(InlineRuns, OnlyTagsThatPairUpWithinARun) {
  // Tags at a run's edges belong to it when they pair up; <br> makes a run non-flat;
  // block tags and comments end runs.
  const Segmented doc = segment_html("<b>Hi</b> you <i>there</i> and<br>more<p>x <em>y</em></p><!-- c --> z");
  const std::vector<InlineRun> runs = inline_runs(doc, same);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].source, "{tag1} Hi {tag2} you {tag3} there {tag4} and {tag5} more");
  EXPECT_TRUE(runs[0].element.empty());
  EXPECT_EQ(runs[1].source, "x {tag1} y {tag2}");
  EXPECT_EQ(runs[1].plain, "x y");
  // An element around a block: its tags pair up in no run, and end them.
  const std::vector<InlineRun> split =
      inline_runs(segment_html("<b>Bold <p>block</p> text</b> and more <i>words</i>"), same);
  ASSERT_EQ(split.size(), 1u);
  EXPECT_EQ(split[0].source, "and more {tag1} words {tag2}");
  // Crossing (malformed) tags never form a run with both.
  for (const InlineRun& r : inline_runs(segment_html("a <b>b <i>c</b> d</i> e"), same)) {
    std::string out;
    EXPECT_TRUE(place_inline_tags(r, r.source, &out)) << r.source;
  }
  // The placeholder prefix avoids the document's own braces.
  const std::vector<InlineRun> braces = inline_runs(segment_html("Use {tag1} <b>now</b> please"), same);
  ASSERT_EQ(braces.size(), 1u);
  EXPECT_EQ(braces[0].source, "Use {tag1} {tagx1} now {tagx2} please");
}

// A <wbr> with text against it on both sides is a line break opportunity inside a word or
// URL: the run reads the word whole and its translation goes without it; one between
// spaces stays an element.
TEST(InlineRuns, WordBreaksInsideWordsAreNoElements) {
  const std::vector<InlineRun> runs = inline_runs(
      segment_html("<p>The con<wbr>figuration<WBR/>file at <b>example.com/<wbr>docs</b> and A <wbr> B</p>"),
      same);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].source, "The configurationfile at {tag1} example.com/docs {tag2} and A {tag3} B");
  EXPECT_EQ(runs[0].plain, "The configurationfile at example.com/docs and A B");
  EXPECT_TRUE(runs[0].element.empty());
  std::string out;
  ASSERT_TRUE(place_inline_tags(
      runs[0], "Die Konfigurationsdatei bei {tag1} example.com/docs {tag2} und A {tag3} B", &out));
  EXPECT_EQ(out, "Die Konfigurationsdatei bei <b>example.com/docs</b> und A <wbr> B");
  // Two words and a break: a run of its own, without placeholders.
  const std::vector<InlineRun> word = inline_runs(segment_html("<td>Super<wbr>market</td>"), same);
  ASSERT_EQ(word.size(), 1u);
  EXPECT_EQ(word[0].source, "Supermarket");
  ASSERT_TRUE(place_inline_tags(word[0], "Supermarkt", &out));
  EXPECT_EQ(out, "Supermarkt");
}

// Generated documents of words and nested inline elements: the identity comes back byte
// for byte; any shuffle of the placeholders is refused or nests properly.
TEST(InlineRuns, IdentityAndShufflesKeepTheMarkupWellFormed) {
  std::mt19937 rng(7);
  const char* words[] = {"file", "Open", "the", "x1", "r\xC3\xA9sum\xC3\xA9", "now."};
  const char* tags[] = {"b", "i", "a href=\"u\"", "em", "span class=\"k\""};
  for (int iter = 0; iter < 300; ++iter) {
    std::string doc = "<p>";
    std::vector<std::string> open;
    const int n = 3 + static_cast<int>(rng() % 10);
    for (int k = 0; k < n; ++k) {
      const unsigned c = rng() % 5;
      if (c == 0 && open.size() < 3) {
        const std::string t = tags[rng() % 5];
        doc += "<" + t + ">";
        open.push_back(t.substr(0, t.find(' ')));
      } else if (c == 1 && !open.empty()) {
        doc += "</" + open.back() + ">";
        open.pop_back();
      } else if (c == 2) {
        doc += "<br>";
      }
      doc += words[rng() % 6];
      if (rng() % 2) doc += " ";
    }
    while (!open.empty()) {
      doc += "</" + open.back() + ">";
      open.pop_back();
    }
    doc += "</p>";
    const Segmented seg = segment_html(doc);
    const std::vector<InlineRun> runs = inline_runs(seg, same);
    std::vector<std::string> html;
    for (const InlineRun& r : runs) {
      std::string out;
      ASSERT_TRUE(place_inline_tags(r, r.source, &out)) << doc;
      html.push_back(out);
    }
    std::vector<std::string> nodes;
    for (size_t i : seg.text) nodes.push_back(seg.pieces[i]);
    EXPECT_EQ(reassemble_runs(seg, runs, html, nodes), doc);
    for (const InlineRun& r : runs) {
      std::vector<std::string> order = r.holders;
      std::shuffle(order.begin(), order.end(), rng);
      std::string t;
      for (const std::string& h : order) t += "w " + h + " ";
      std::string out;
      if (!place_inline_tags(r, t, &out)) continue;
      // Well nested: every close tag closes the innermost open one.
      std::vector<std::string> stack;
      for (size_t at = out.find('<'); at != std::string::npos; at = out.find('<', at + 1)) {
        const size_t end = out.find_first_of(" >", at);
        const std::string name = out.substr(at + 1, end - at - 1);
        if (name == "br") continue;
        if (name[0] == '/') {
          ASSERT_FALSE(stack.empty()) << out;
          EXPECT_EQ("/" + stack.back(), name) << out;
          stack.pop_back();
        } else {
          stack.push_back(name);
        }
      }
      EXPECT_TRUE(stack.empty()) << out;
    }
  }
}

// What a document marks not to be translated (translate="no", class "notranslate")
// never reaches the model: its pieces are kept, not text, and give the document back.
std::vector<std::string> texts_of(const Segmented& seg) {
  std::vector<std::string> out;
  for (size_t i : seg.text) out.push_back(seg.pieces[i]);
  return out;
}

std::string joined(const Segmented& seg) {
  std::string out;
  for (const std::string& p : seg.pieces) out += p;
  return out;
}

// The pieces kept as written, each followed by '|'.
std::string kept_of(const Segmented& seg) {
  std::string kept;
  for (size_t k : seg.kept) kept += seg.pieces[k] + "|";
  return kept;
}

TEST(HtmlNoTranslate, MarkedElementsAreKeptWithEverythingInside) {
  using Strings = std::vector<std::string>;
  const std::string doc =
      "<div translate=\"no\"><div>Inner</div> <p>Kept <b>too</b></p></div><p>Yes.</p>"
      "<span class='x notranslate y'>ACME Corp</span> sells "
      "<p TRANSLATE=NO>Brand<p>Next item.</p>"
      "<ul><li translate=\"no\">Name<li>Other</ul>"
      "<p translate=\"no\">Intro<h2>Heading</h2>"
      "<section><p translate=\"no\">x<b>y</section> after"
      "<img translate=\"no\" alt=\"a\"> <br translate=\"no\"/>Tail <span translate=\"yes\">t</span>"
      "<div class=\"notranslatex\">Translated.</div>"
      "<div translate=\"no\"><script>if (a < b) x = '</div>';</script>Still kept</div>Last.";
  const Segmented seg = segment_html(doc);
  EXPECT_EQ(texts_of(seg), (Strings{"Yes.", "sells", "Next item.", "Other", "Heading", "after", "Tail", "t",
                                    "Translated.", "Last."}));
  EXPECT_EQ(joined(seg), doc);
  // Kept pieces are exactly those inside the marked elements (and raw content).
  EXPECT_EQ(kept_of(seg),
            "<div>|Inner|</div>| |<p>|Kept |<b>|too|</b>|</p>|ACME Corp|Brand|Name|Intro|x|<b>|y|"
            "<script>|if (a < b) x = '</div>';|</script>|Still kept|");
  // Sentence splitting carries the kept pieces along.
  auto splitter = SentenceSplitter::create("en");
  ASSERT_TRUE(splitter.has_value());
  Segmented two = segment_html("<p>One. Two.</p><code>a. b.</code><p>Three.</p>");
  split_sentences(&two, *splitter.value());
  EXPECT_EQ(texts_of(two), (Strings{"One.", "Two.", "Three."}));
  ASSERT_EQ(two.kept.size(), 1u);
  EXPECT_EQ(two.pieces[two.kept[0]], "a. b.");
}

// translate="yes" (or translate="") inside an element not to be translated: its content
// is translated again, and an element inside it that keeps its content keeps it again.
TEST(HtmlNoTranslate, TranslateYesInsideIsTranslatedAgain) {
  using Strings = std::vector<std::string>;
  const std::string doc =
      "<div translate=\"no\">Brand <span translate=\"yes\">Tagline here</span> Corp<p>Kept</p>"
      "<p translate>Empty means yes</p><p translate=\"yes\">Outer yes <b translate=\"no\">inner no "
      "<i translate=\"yes\">deep yes</i> still no</b> back</p> tail</div>After."
      "<kbd>ls <span translate=\"yes\">comment</span></kbd><p class=\"notranslate\">x <q "
      "translate=\"YES\">y</q></p>";
  const Segmented seg = segment_html(doc);
  EXPECT_EQ(texts_of(seg), (Strings{"Tagline here", "Empty means yes", "Outer yes", "deep yes", "back",
                                    "After.", "comment", "y"}));
  EXPECT_EQ(joined(seg), doc);
  EXPECT_EQ(kept_of(seg), "Brand | Corp|<p>|Kept|</p>|inner no | still no| tail|ls |x |");

  // Through the HTML path (a stand-in translator: letters outside placeholders upper-cased):
  // the kept words stay, the words around and inside are translated, every tag stays.
  auto upper = [](const std::vector<std::string>& units) -> Expected<std::vector<std::vector<std::string>>> {
    std::vector<std::vector<std::string>> out;
    for (const std::string& u : units) {
      std::string t;
      bool holder = false;
      for (char c : u) {
        holder = c == '{' ? true : c == '}' ? false : holder;
        t.push_back(holder ? c : static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
      }
      out.push_back({t});
    }
    return out;
  };
  const std::function<Expected<std::vector<std::vector<AlignedText>>>(const std::vector<std::string>&)> none;
  auto out =
      translate_html({"<p>Click <span translate=\"no\">Save <span translate=\"yes\">all</span> files</span> "
                      "now.</p><div translate=\"no\">Brand <em translate=\"yes\">Tagline</em></div>"},
                     true, upper, none);
  ASSERT_TRUE(out.has_value()) << out.status().to_string();
  EXPECT_EQ(out.value()[0][0],
            "<p>CLICK <span translate=\"no\">Save <span translate=\"yes\">ALL</span> files</span> NOW.</p>"
            "<div translate=\"no\">Brand <em translate=\"yes\">TAGLINE</em></div>");
}

TEST(HtmlNoTranslate, KeyboardInputAndOtherLanguagesAreKept) {
  using Strings = std::vector<std::string>;
  const std::string doc =
      "<html lang=\"de\"><body lang=\"fr\"><p>Type <kbd>sudo <kbd>apt</kbd> update</kbd> and "
      "<samp>Done.</samp></p>"
      "<blockquote lang=\"fr-CA\">Je pense, donc je suis.</blockquote><p lang=\"en-GB\">Colour.</p>"
      "<p lang=\"\">Empty.</p><p lang=\"und\">Unknown.</p><p xml:lang=\"de\" translate=\"yes\">Asked.</p>"
      "<q lang=\"la\">Carpe diem</q></body></html>";
  // With the source language: another language's elements are kept (not the root's or
  // the body's: a page's template often names the wrong one).
  EXPECT_EQ(texts_of(segment_html(doc, "en")),
            (Strings{"Type", "and", "Colour.", "Empty.", "Unknown.", "Asked."}));
  // Without it, only kbd and samp.
  EXPECT_EQ(texts_of(segment_html(doc)), (Strings{"Type", "and", "Je pense, donc je suis.", "Colour.",
                                                  "Empty.", "Unknown.", "Asked.", "Carpe diem"}));
  const Segmented seg = segment_html(doc, "en");
  const std::vector<InlineRun> runs = inline_runs(seg, same);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].source, "Type {tag1} and {tag2}");
}

TEST(HtmlNoTranslate, InlineKeptElementIsOnePlaceholderOfItsSentence) {
  const Segmented doc = segment_html(
      "<p>Click <span translate=\"no\">Save <b>All</b></span> to continue.</p>"
      "<li><code>ls -l</code> lists files.</li><p>Press <b>Enter</b>.</p>");
  const std::vector<InlineRun> runs = inline_runs(doc, same);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_TRUE(runs[0].verbatim);
  EXPECT_EQ(runs[0].source, "Click {tag1} to continue.");
  EXPECT_TRUE(runs[0].element.empty());
  EXPECT_TRUE(runs[1].verbatim);  // one text node beside kept code is a run too
  EXPECT_EQ(runs[1].source, "{tag1} lists files.");
  EXPECT_FALSE(runs[2].verbatim);
  std::string a, b;
  ASSERT_TRUE(place_inline_tags(runs[0], "Klicken Sie auf {tag1}, um fortzufahren.", &a));
  EXPECT_EQ(a, "Klicken Sie auf <span translate=\"no\">Save <b>All</b></span>, um fortzufahren.");
  ASSERT_TRUE(place_inline_tags(runs[1], "{tag1} listet Dateien auf.", &b));
  EXPECT_EQ(b, "<code>ls -l</code> listet Dateien auf.");
  // A lost placeholder is refused: the text nodes are then translated alone, the kept
  // element still in place.
  std::string c;
  EXPECT_FALSE(place_inline_tags(runs[0], "Klicken Sie, um fortzufahren.", &c));
  EXPECT_EQ(reassemble_runs(doc, runs, {"", b, ""},
                            {"Klicken", "fortfahren.", "x",
                             "Dr\xC3\xBC"
                             "cken",
                             "Eingabe", "."}),
            "<p>Klicken <span translate=\"no\">Save <b>All</b></span> fortfahren.</p>"
            "<li><code>ls -l</code> listet Dateien auf.</li><p>Dr\xC3\xBC"
            "cken <b>Eingabe</b>.</p>");
}

TEST(HtmlCharset, DeclaredEncodings) {
  EXPECT_EQ(declared_html_charset("<html><head><meta charset=\"ISO-8859-1\"></head>"), "iso-8859-1");
  EXPECT_EQ(declared_html_charset("<META CHARSET=windows-1252>"), "windows-1252");
  EXPECT_EQ(declared_html_charset("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=Latin1\">"),
            "latin1");
  EXPECT_EQ(declared_html_charset("<meta content='text/html;charset=\"koi8-r\"' http-equiv='content-type'>"),
            "koi8-r");
  EXPECT_EQ(declared_html_charset("<?xml version=\"1.0\" encoding=\"ISO-8859-15\"?><html>"), "iso-8859-15");
  EXPECT_EQ(declared_html_charset("\xEF\xBB\xBF<meta charset=\"iso-8859-1\">"), "utf-8");  // the BOM wins
  EXPECT_EQ(declared_html_charset("\xFF\xFE<\0p\0>\0"), "utf-16le");
  EXPECT_EQ(declared_html_charset("<meta name=\"charset\" content=\"x\"><p>charset=latin1</p>"), "");
  EXPECT_EQ(declared_html_charset("<p>nothing</p>"), "");
  // Only the first 1024 bytes count, as a browser's prescan.
  EXPECT_EQ(declared_html_charset(std::string(1100, ' ') + "<meta charset=\"latin1\">"), "");
}

TEST(HtmlCharset, LegacyPagesAreReadAndWrittenInTheirEncoding) {
  // A stand-in translator: "kitchen" becomes "Küche", "euro" "€", "snowman" "☃".
  auto fake = [](const std::vector<std::string>& units) -> Expected<std::vector<std::vector<std::string>>> {
    std::vector<std::vector<std::string>> out;
    for (std::string u : units) {
      for (auto [from, to] : {std::pair<std::string, std::string>{"kitchen",
                                                                  "K\xC3\xBC"
                                                                  "che"},
                              {"euro", "\xE2\x82\xAC"},
                              {"snowman", "\xE2\x98\x83"}})
        for (size_t at; (at = u.find(from)) != std::string::npos;) u.replace(at, from.size(), to);
      out.push_back({u});
    }
    return out;
  };
  auto one = [&](const std::string& html) {
    auto r = translate_html({html}, true, fake);
    return r.has_value() ? r.value()[0][0] : "error: " + r.status().message();
  };
  // Latin-1 bytes (caf\xE9) under a Latin-1 declaration: decoded, and the translation
  // written back in Latin-1 (ü as the byte 0xFC), windows-1252's € as 0x80, what it
  // cannot hold as a reference; the rest of the page byte for byte.
  EXPECT_EQ(one("<meta charset=\"iso-8859-1\"><p title=\"caf\xE9\">The caf\xE9 kitchen, euro, snowman.</p>"),
            "<meta charset=\"iso-8859-1\"><p title=\"caf\xE9\">The caf\xE9 K\xFC"
            "che, \x80, &#9731;.</p>");
  // A page of entities under a Latin-1 declaration (all its bytes ASCII): written in
  // ASCII, every other character a reference (right whatever the page is read as).
  EXPECT_EQ(one("<meta charset=\"iso-8859-1\"><p>The caf&eacute; kitchen.</p>"),
            "<meta charset=\"iso-8859-1\"><p>The caf&#233; K&#252;che.</p>");
  // Text that is UTF-8 already (a string from JSON, Python or C) is not converted,
  // whatever its <meta> says; nor is a page that declares UTF-8 or nothing.
  EXPECT_EQ(one("<meta charset=\"iso-8859-1\"><p>The caf\xC3\xA9 kitchen.</p>"),
            "<meta charset=\"iso-8859-1\"><p>The caf\xC3\xA9 K\xC3\xBC"
            "che.</p>");
  EXPECT_EQ(one("<meta charset=\"utf-8\"><p>The caf&eacute; kitchen.</p>"),
            "<meta charset=\"utf-8\"><p>The caf\xC3\xA9 K\xC3\xBC"
            "che.</p>");
  EXPECT_EQ(one("<p>kitchen \xC3\xA9</p>"),
            "<p>K\xC3\xBC"
            "che \xC3\xA9</p>");  // nothing declared, UTF-8: as it is
  // Nothing declared and not UTF-8: a legacy page, read and written as windows-1252.
  EXPECT_EQ(one("<p>kitchen \xE9 snowman</p>"),
            "<p>K\xFC"
            "che \xE9 &#9731;</p>");
  // A UTF-16 page (Windows' "Unicode"): read by its byte order mark, written back in it.
  const auto utf16 = [](std::string_view utf8, bool big) {
    return encode_text(utf8, {big ? TextEncoding::kUtf16Be : TextEncoding::kUtf16Le, "utf-16", true})
        .value()
        .bytes;
  };
  for (bool big : {false, true})
    EXPECT_EQ(one(utf16("<meta charset=\"utf-16\"><p>The kitchen \xE2\x98\x83 \xF0\x9F\x8E\x89.</p>", big)),
              utf16("<meta charset=\"utf-16\"><p>The K\xC3\xBC"
                    "che \xE2\x98\x83 \xF0\x9F\x8E\x89.</p>",
                    big));
  // An encoding edgemt cannot read: a clear error, naming it.
  const std::string bogus = one("<meta charset=\"x-no-such\"><p>The caf\xE9.</p>");
  EXPECT_NE(bogus.find("x-no-such"), std::string::npos) << bogus;
  EXPECT_NE(bogus.find("UTF-8"), std::string::npos) << bogus;
  // Every byte of a windows-1252 page comes back as it was where nothing is translated.
  std::string all = "<meta charset=\"windows-1252\"><pre>";
  for (int b = 1; b < 256; ++b)
    if (b != '<' && b != '&') all.push_back(static_cast<char>(b));
  all += "</pre>";
  EXPECT_EQ(one(all), all);
#if EDGEMT_HAVE_ICU
  // Other encodings through ICU: ISO-8859-15's € is 0xA4; KOI8-R has no ü.
  EXPECT_EQ(one("<meta charset=\"iso-8859-15\"><p>5 \xA4 kitchen \xE9</p>"),
            "<meta charset=\"iso-8859-15\"><p>5 \xA4 K\xFC"
            "che \xE9</p>");
  EXPECT_EQ(one("<meta charset=\"koi8-r\"><p>\xC1 kitchen</p>"),
            "<meta charset=\"koi8-r\"><p>\xC1 K&#252;che</p>");
  // Bytes that are not in the declared encoding (Shift_JIS cut after a lead byte).
  const std::string cut = one("<meta charset=\"shift_jis\"><p>kitchen \x82</p>");
  EXPECT_NE(cut.find("not in it"), std::string::npos) << cut;
#endif
}

TEST(HtmlLanguage, NamedLanguagesBecomeTheTranslations) {
  auto marked = [](const std::string& html, std::string_view from, std::string_view to) {
    Segmented seg = segment_html(html);
    set_html_language(&seg, from, to);
    return joined(seg);
  };
  EXPECT_EQ(
      marked("<!DOCTYPE html><html lang=\"en\" xml:lang='en-US'><head>"
             "<meta http-equiv=\"Content-Language\" content=\"en\"><meta name=\"lang\" content=\"en\">"
             "</head><body><p lang=en-GB>Hi</p><q lang=\"fr\">Oui</q>"
             "<span lang=\"en\" translate=\"no\">Kept</span><div translate=\"no\"><p lang=\"en\">x</p></div>"
             "<pre lang=\"en\">a <b lang=\"en\">b</b></pre></body></html>",
             "en", "de"),
      "<!DOCTYPE html><html lang=\"de\" xml:lang='de'><head>"
      "<meta http-equiv=\"Content-Language\" content=\"de\"><meta name=\"lang\" content=\"en\">"
      "</head><body><p lang=\"de\">Hi</p><q lang=\"fr\">Oui</q>"
      "<span lang=\"en\" translate=\"no\">Kept</span><div translate=\"no\"><p lang=\"en\">x</p></div>"
      "<pre lang=\"de\">a <b lang=\"en\">b</b></pre></body></html>");
  // The root says the document's language even where it named another or none.
  EXPECT_EQ(marked("<HTML><body>x</body></HTML>", "en", "de"), "<HTML lang=\"de\"><body>x</body></HTML>");
  EXPECT_EQ(marked("<html dir=ltr lang=\"fr\">", "", "de"), "<html dir=ltr lang=\"de\">");
  // No target, or one that is not a language tag: nothing changes.
  EXPECT_EQ(marked("<html lang=\"en\">", "en", ""), "<html lang=\"en\">");
  EXPECT_EQ(marked("<html lang=\"en\">", "en", "de\"><x"), "<html lang=\"en\">");
  // A fragment without a root: only the elements in the source language.
  EXPECT_EQ(marked("<p lang=\"EN\">a</p><p>b</p>", "en", "de"), "<p lang=\"de\">a</p><p>b</p>");
}

}  // namespace
}  // namespace edgemt
