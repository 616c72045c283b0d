// Protected spans (runtime/text/protected_spans.h): what is kept in place or behind markers,
// glossary terms, characters the vocabulary lacks.
#include "runtime/text/protected_spans.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/text/sentence_splitter.h"

namespace edgemt {
namespace {

// ---- protected spans ----------------------------------------------------------------

std::vector<std::string> spans_of(std::string_view text) {
  std::vector<TextSpan> spans;
  find_protected_spans(text, &spans);
  std::vector<std::string> out;
  for (const TextSpan& sp : spans) out.emplace_back(text.substr(sp.begin, sp.size()));
  return out;
}

using Strings = std::vector<std::string>;

TEST(ProtectedSpans, KnownKinds) {
  EXPECT_EQ(spans_of("See https://example.org/a?b=1&c=(2). Or www.example.com, then."),
            (Strings{"https://example.org/a?b=1&c=(2)", "www.example.com"}));
  EXPECT_EQ(spans_of("Mail jane.doe+x@mail.example.co.uk. Or mailto:a@b.de"),
            (Strings{"jane.doe+x@mail.example.co.uk", "mailto:a@b.de"}));
  EXPECT_EQ(spans_of("Edit /etc/edgemt/server.conf, ~/.bashrc and ./run.sh (or ../x/y) or C:\\Users\\a.txt."),
            (Strings{"/etc/edgemt/server.conf", "~/.bashrc", "./run.sh", "../x/y", "C:\\Users\\a.txt"}));
  EXPECT_EQ(spans_of("Run `make install` or ``a ` b``."), (Strings{"`make install`", "``a ` b``"}));
  EXPECT_EQ(spans_of("Copy %s to %1$s: %5.2f%% %(name)s %ld %@"),
            (Strings{"%s", "%1$s", "%5.2f", "%(name)s", "%ld", "%@"}));
  EXPECT_EQ(spans_of("%#@files@ left in %2$#@folders@."), (Strings{"%#@files@", "%2$#@folders@"}));
  EXPECT_EQ(spans_of("Hello {name}, {0} {} {{count}} {user.name:>10} ${HOME} $HOME $1"),
            (Strings{"{name}", "{0}", "{}", "{{count}}", "{user.name:>10}", "${HOME}", "$HOME", "$1"}));
  EXPECT_EQ(spans_of("It is 5 km away, weighs 3.5kg, uses 1,5 GB, 100% or 20 \xC2\xB0"
                     "C, at 2.4\xC2\xA0GHz."),
            (Strings{"5 km", "3.5kg", "1,5 GB", "100%",
                     "20 \xC2\xB0"
                     "C",
                     "2.4\xC2\xA0GHz"}));
}

TEST(ProtectedSpans, LongTokensAreKept) {
  const std::string sha = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";  // 64
  EXPECT_EQ(spans_of("Check the sum " + sha + " first."), (Strings{sha}));
  const std::string b64 = "dGhpcyBpcyBhIHZlcnkgbG9uZyBiYXNlNjQgZW5jb2RlZCBzdHJpbmcgZm9yIHRlc3Rpbmc=";
  EXPECT_EQ(spans_of("Der Schl\xC3\xBCssel: " + b64 + "."), (Strings{b64 + "."}));
  EXPECT_EQ(spans_of(std::string(5000, 'a')), (Strings{std::string(5000, 'a')}));
  // Shorter than 64, or the tail of a word with letters beyond ASCII: not a token.
  EXPECT_TRUE(spans_of("Donaudampfschifffahrtsgesellschaftskapitaensmuetzenabzeichen ist lang.").empty());
  EXPECT_TRUE(spans_of(std::string(63, 'x') + " y").empty());
  EXPECT_TRUE(spans_of("\xC3\xBC" + std::string(70, 'a')).empty());
  EXPECT_TRUE(spans_of(std::string(70, 'a') + "\xC3\xBC").empty());
}

TEST(ProtectedSpans, OrdinaryProseIsNotProtected) {
  for (const char* text :
       {"The file could not be opened.", "He said: yes/no, and/or maybe.", "It is 50 % off",
        "5 apples and 3 oranges", "Page 2 of 10.", "a@b", "{ not a placeholder }", "Costs 100 dollars.",
        "100 %s", "Use the / key.", "1.5 million people"}) {
    const std::vector<std::string> got = spans_of(text);
    if (std::string(text) == "It is 50 % off") {
      EXPECT_EQ(got, (Strings{"50 %"})) << text;  // a number with its unit
    } else if (std::string(text) == "100 %s") {
      EXPECT_EQ(got, (Strings{"%s"})) << text;  // a placeholder after a number
    } else {
      EXPECT_TRUE(got.empty()) << text << ": " << (got.empty() ? "" : got[0]);
    }
  }
}

TEST(ProtectedSpans, MarkersAreNewNumbersAndComeBack) {
  const ProtectedSentence p = protect_spans("Open https://a.example/101 in 102 s or mail me@x.org now");
  ASSERT_EQ(p.originals, (Strings{"https://a.example/101", "102 s", "me@x.org"}));
  ASSERT_EQ(p.markers.size(), 3u);
  EXPECT_FALSE(p.verbatim);
  for (const std::string& m : p.markers) {
    EXPECT_NE(m, "101");  // numbers in the sentence are not markers
    EXPECT_NE(m, "102");
    EXPECT_NE(p.text.find(m), std::string::npos);
  }
  EXPECT_EQ(p.text.find("https"), std::string::npos);
  // The identity "translation" gives the sentence back.
  EXPECT_EQ(restore_spans(p.text, p), "Open https://a.example/101 in 102 s or mail me@x.org now");
  // Reordered, one repeated, one dropped: each span exactly once, the dropped one before
  // the final punctuation.
  const std::string t = "Mail " + p.markers[2] + " " + p.markers[2] + ", open " + p.markers[0] + ".";
  EXPECT_EQ(restore_spans(t, p), "Mail me@x.org, open https://a.example/101 102 s.");
  // In a piece (a word of the translation) markers become their spans and nothing else
  // changes: a repeated marker stays repeated, other numbers stay, nothing is added.
  EXPECT_EQ(replace_markers("(" + p.markers[1] + ")" + p.markers[1] + " 101", p), "(102 s)102 s 101");
  EXPECT_EQ(replace_markers("Haus", p), "Haus");
  EXPECT_EQ(replace_markers(p.markers[0], protect_spans("no spans here")), p.markers[0]);
  // A sentence of nothing but spans and punctuation is not translated.
  const ProtectedSentence v = protect_spans("https://example.org/ (%s)");
  EXPECT_TRUE(v.verbatim);
  EXPECT_EQ(restore_spans("whatever the model says", v), "https://example.org/ (%s)");
  EXPECT_TRUE(protect_spans("no spans here").markers.empty());
  EXPECT_EQ(restore_spans("keine", protect_spans("no spans here")), "keine");
  // Nor is one without any letter (subtitle cue numbers and time codes, rules, table
  // borders), unless only the glossary protects; a blank one is not "verbatim".
  for (const char* text : {"12", "00:00:01,000 --> 00:00:03,500", "----", "|---|---|", "3 + 4 = 7", "(1)"}) {
    const ProtectedSentence n = protect_spans(text);
    EXPECT_TRUE(n.verbatim) << text;
    EXPECT_EQ(restore_spans("Haus", n), text);
    EXPECT_FALSE(protect_spans(text, nullptr, false).verbatim) << text;
  }
  for (const char* text : {"", "  ", "a 7", "7 Zwerge", "\xC3\xA9t\xC3\xA9 2"})
    EXPECT_FALSE(protect_spans(text).verbatim) << text;
}

// Whatever a model does with the markers, each span comes out exactly once, on generated
// text mixing spans, digits and prose.
// 1 to 10 words, spans, digits and punctuation, separated by spaces.
std::string random_span_sentence(std::mt19937& rng) {
  static const std::vector<std::string> parts = {
      "the", "file", "5 GB", "%s", "{name}", "https://x.org/a.b", "u@v.io", "/usr/bin/env", "`ls -l`",
      "42",  "101",  "103",  ",",  "."};
  std::string s;
  const size_t n = 1 + rng() % 10;
  for (size_t i = 0; i < n; ++i) {
    if (!s.empty()) s += ' ';
    s += parts[rng() % parts.size()];
  }
  return s;
}

TEST(ProtectedSpans, EverySpanComesOutOnce) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 500; ++iter) {
    const std::string s = random_span_sentence(rng);
    const ProtectedSentence p = protect_spans(s);
    ASSERT_EQ(p.markers.size(), p.originals.size());
    EXPECT_EQ(restore_spans(p.text, p), s) << s;
    if (p.verbatim) continue;
    // A "translation" that keeps a random subset of the markers, some twice, shuffled.
    std::vector<std::string> words = {"das", "ist"};
    for (const std::string& m : p.markers) {
      const unsigned r = rng() % 4;
      for (unsigned c = 0; c < (r == 0 ? 0u : r == 3 ? 2u : 1u); ++c) words.push_back(m);
    }
    std::shuffle(words.begin(), words.end(), rng);
    std::string t;
    for (const std::string& w : words) t += (t.empty() ? "" : " ") + w;
    const std::string out = restore_spans(t + ".", p);
    for (const std::string& o : p.originals) {
      size_t count = 0;
      for (size_t at = out.find(o); at != std::string::npos; at = out.find(o, at + o.size())) ++count;
      size_t in_originals = 0;
      for (const std::string& o2 : p.originals)
        if (o2.find(o) != std::string::npos) ++in_originals;
      EXPECT_EQ(count, in_originals) << "'" << o << "' in '" << out << "' from '" << t << "' (" << s << ")";
    }
    for (const std::string& m : p.markers) {
      // No marker is left over (as its own number).
      std::vector<TextSpan> none;
      EXPECT_EQ(out.find(" " + m + " "), std::string::npos) << out;
    }
  }
}

// SpanMode::kInPlace: builtin spans stay in the text the model sees; spans_kept says
// whether a translation carries each of them, whole and as often; touching spans and
// glossary terms still get markers.
TEST(ProtectedSpans, InPlaceSpansStayAndAreChecked) {
  const std::string s = "Open https://a.example/x in /usr/bin or %s now, or %s later";
  const ProtectedSentence p = protect_spans(s, nullptr, true, SpanMode::kInPlace);
  EXPECT_EQ(p.text, s);
  EXPECT_TRUE(p.markers.empty());
  EXPECT_FALSE(p.verbatim);
  EXPECT_EQ(p.in_place, (std::vector<std::string>{"https://a.example/x", "/usr/bin", "%s", "%s"}));
  EXPECT_EQ(restore_spans("Öffne es", p), "Öffne es");  // nothing is added back
  EXPECT_TRUE(spans_kept(s, p));
  EXPECT_TRUE(spans_kept("Öffne %s jetzt in /usr/bin, https://a.example/x oder später %s", p));
  EXPECT_FALSE(spans_kept("Öffne https://a.example/x in /usr/bin oder jetzt %s", p));   // one %s lost
  EXPECT_FALSE(spans_kept("Öffne https://a.example/x in /usr/bin %s %s %s", p));        // one too many
  EXPECT_FALSE(spans_kept("Öffne https://a.example/y in /usr/bin oder %s, %s", p));     // changed
  EXPECT_FALSE(spans_kept("Öffne https://a.example/x in /usr/binary oder %s, %s", p));  // inside a word
  EXPECT_FALSE(spans_kept("Öffne https://a.example/xy in /usr/bin oder %s, %s", p));
  EXPECT_TRUE(spans_kept("anything", protect_spans("no spans here", nullptr, true, SpanMode::kInPlace)));
  // Typographic quotes and dashes are not letters; accented letters are.
  const ProtectedSentence q = protect_spans("Cannot open '%s' or \"%d\"", nullptr, true, SpanMode::kInPlace);
  EXPECT_EQ(q.in_place, (std::vector<std::string>{"%s", "%d"}));
  EXPECT_TRUE(spans_kept("»%s« oder „%d“ kann nicht geöffnet werden", q));
  EXPECT_TRUE(spans_kept("%s—%d…", q));
  EXPECT_FALSE(spans_kept("»%sé« oder %d", q));
  EXPECT_FALSE(spans_kept("»%s« oder %dß", q));
  const ProtectedSentence u = protect_spans("See user@example.org.", nullptr, true, SpanMode::kInPlace);
  EXPECT_TRUE(spans_kept("Siehe «user@example.org».", u));
  EXPECT_FALSE(spans_kept("Siehe äuser@example.org.", u));
  // Apple's .stringsdict variables go as the object placeholders they stand for, a free
  // one each, checked and put back.
  const ProtectedSentence av =
      protect_spans("%#@n@ were moved from %@ to %#@m@ and %2$#@k@.", nullptr, true, SpanMode::kInPlace);
  EXPECT_EQ(av.text, "%1$@ were moved from %@ to %2$@ and %3$@.");
  EXPECT_TRUE(spans_kept("%1$@ wurden von %@ nach %2$@ und %3$@ verschoben.", av));
  EXPECT_FALSE(spans_kept("%1$@ wurden von %@ nach %2$@ verschoben.", av));
  EXPECT_EQ(restore_spans("%1$@ wurden von %@ nach %2$@ und %3$@ verschoben.", av),
            "%#@n@ wurden von %@ nach %#@m@ und %2$#@k@ verschoben.");
  // Their stand-ins, which start and end with no letter, may touch a word (or a byte
  // that is not UTF-8): still theirs, put back in place, not after the text.
  const ProtectedSentence touching = protect_spans("Delete %#@files@now", nullptr, true, SpanMode::kInPlace);
  EXPECT_EQ(touching.text, "Delete %@now");
  EXPECT_TRUE(spans_kept("%@jetzt löschen", touching));
  EXPECT_EQ(restore_spans("%@jetzt löschen", touching), "%#@files@jetzt löschen");
  const ProtectedSentence after_byte = protect_spans("\xff%##@", nullptr, true, SpanMode::kInPlace);
  EXPECT_EQ(restore_spans(after_byte.text, after_byte), "\xff%##@");
  // A number with a unit is a span; inside a longer number it is not that span.
  const ProtectedSentence gb = protect_spans("The disk has 5 GB free.", nullptr, true, SpanMode::kInPlace);
  EXPECT_EQ(gb.in_place, (std::vector<std::string>{"5 GB"}));
  EXPECT_TRUE(spans_kept("Die Platte hat 5 GB frei.", gb));
  EXPECT_FALSE(spans_kept("Die Platte hat 15 GB frei.", gb));
  EXPECT_FALSE(spans_kept("Die Platte hat 5 GBit frei.", gb));
  // Touching spans share a marker; a glossary term is a marker; spans only: verbatim.
  auto g = Glossary::parse("Firefox\tFeuerfuchs\n");
  ASSERT_TRUE(g.has_value());
  const ProtectedSentence m =
      protect_spans("Firefox opens %s%d and https://x.org/", g.value().get(), true, SpanMode::kInPlace);
  EXPECT_EQ(m.markers.size(), 2u);
  EXPECT_EQ(m.originals[0], "Feuerfuchs");
  EXPECT_EQ(m.originals[1], "%s%d");
  EXPECT_EQ(m.in_place, (std::vector<std::string>{"https://x.org/"}));
  EXPECT_EQ(restore_spans(m.markers[0] + " öffnet " + m.markers[1] + " und https://x.org/", m),
            "Feuerfuchs öffnet %s%d und https://x.org/");
  const ProtectedSentence v = protect_spans("https://example.org/ (%s)", nullptr, true, SpanMode::kInPlace);
  EXPECT_TRUE(v.verbatim);
  EXPECT_EQ(restore_spans("", v), "https://example.org/ (%s)");
}

// On generated text, a sentence protected in place reads as it was, keeps its spans when
// translated as itself, and its spans are those kMarkers would replace.
TEST(ProtectedSpans, InPlaceAndMarkersAgree) {
  std::mt19937 rng(11);
  for (int iter = 0; iter < 500; ++iter) {
    const std::string s = random_span_sentence(rng);
    const ProtectedSentence in = protect_spans(s, nullptr, true, SpanMode::kInPlace);
    const ProtectedSentence mk = protect_spans(s);
    EXPECT_EQ(in.text, s);
    EXPECT_EQ(in.verbatim, mk.verbatim) << s;
    EXPECT_EQ(restore_spans(in.text, in), s);
    EXPECT_TRUE(spans_kept(in.text, in)) << s;
    EXPECT_EQ(in.in_place, mk.originals) << s;  // no span here touches another
    if (!in.in_place.empty()) {
      EXPECT_FALSE(spans_kept("das ist es", in)) << s;
    }
  }
}

TEST(ProtectedSpans, GlossaryTermsBecomeTheirTargets) {
  auto g = Glossary::parse(
      "# terms\nfile\tDatei\nFirefox\tFirefox\n\nfile manager\tDateimanager\r\nfile\tDokument\n");
  ASSERT_TRUE(g.has_value()) << g.status().to_string();
  EXPECT_EQ(g.value()->size(), 3u);  // the later "file" line replaced the earlier one
  const ProtectedSentence p = protect_spans(
      "File a bug: open the file manager, not the files or profile. Visit firefox.org", g.value().get());
  // Whole words only, the longest term first, a lower-case term also capitalized; the
  // URL-less "firefox.org" is not the term "Firefox" (case-sensitive).
  ASSERT_EQ(p.originals, (Strings{"Dokument", "Dateimanager"}));
  EXPECT_EQ(restore_spans(p.text, p),
            "Dokument a bug: open the Dateimanager, not the files or profile. Visit firefox.org");
  // A sentence of nothing but a term is not translated: it becomes the term's target.
  const ProtectedSentence only = protect_spans("Firefox", g.value().get());
  EXPECT_TRUE(only.verbatim);
  EXPECT_EQ(restore_spans("anything", only), "Firefox");
  // Terms only (the built-in spans off).
  const ProtectedSentence t = protect_spans("Open the file at https://x.org/", g.value().get(), false);
  EXPECT_EQ(t.originals, (Strings{"Dokument"}));
  // Errors name the line.
  auto bad = Glossary::parse("a\tb\nno tab here\n");
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.status().message().find("line 2"), std::string::npos) << bad.status().message();
  EXPECT_FALSE(Glossary::parse("a\t \n").has_value());
  EXPECT_FALSE(Glossary::load("/nonexistent/glossary.tsv").has_value());
  EXPECT_EQ(Glossary::parse("").value()->size(), 0u);
}

// Characters the model's vocabulary lacks (Tokenizer::unknown_spans gives their byte
// ranges): copied through with markers, each widened to its whole word, a symbol alone to
// the number beside it, runs with no letter between them joined. In place, a word whose
// unknown letters all have an ASCII spelling goes to the model as that stand-in.
TEST(ProtectedSpans, UnknownCharactersComeThrough) {
  using Ranges = std::vector<std::pair<size_t, size_t>>;
  auto range_of = [](const std::string& s, const std::string& part) {
    const size_t at = s.find(part);
    EXPECT_NE(at, std::string::npos) << part;
    return std::make_pair(at, at + part.size());
  };
  struct Case {
    std::string text;
    std::vector<std::string> unknown;  // what the vocabulary lacks
    Strings originals;                 // the spans copied through
    bool verbatim = false;
    Strings stand_ins = {};  // in place: what the model sees for them (none: markers)
  };
  const std::vector<Case> cases = {
      {"The ticket costs 20 € at the café.", {"€"}, {"20 €"}},
      {"It costs €20, or 15,50 € today.", {"€", "€"}, {"€20", "15,50 €"}},
      {"See § 5 of the contract.", {"§"}, {"§ 5"}},
      {"François lives in São Paulo.", {"ç", "ã"}, {"François", "São"}, false, {"Francois", "Sao"}},
      {"Dvořák and Łódź, not Lodz.", {"ř", "Ł", "ó", "ź"}, {"Dvořák", "Łódź"}, false, {"Dvorák"}},
      {"I love 🍕 and 日本.", {"🍕", "日本"}, {"🍕", "日本"}},
      {"The word мир means peace.", {"мир"}, {"мир"}},
      {"Привет, как дела?", {"Привет", "как", "дела"}, {"Привет, как дела"}, true},
      {"日本語", {"日本語"}, {"日本語"}, true},
      {"Price: 5 € (A4 €)", {"€", "€"}, {"5 €", "€"}},
  };
  for (const Case& c : cases) {
    Ranges r;
    for (const std::string& u : c.unknown) {
      const size_t from = r.empty() ? 0 : r.back().second;
      const size_t at = c.text.find(u, from);
      ASSERT_NE(at, std::string::npos) << u;
      r.emplace_back(at, at + u.size());
    }
    for (SpanMode mode : {SpanMode::kInPlace, SpanMode::kMarkers}) {
      const ProtectedSentence p = protect_spans(c.text, nullptr, true, mode, r);
      EXPECT_EQ(p.originals, c.originals) << c.text;
      // The model could not write them: markers, or in place their stand-ins.
      EXPECT_EQ(p.in_place, mode == SpanMode::kInPlace ? c.stand_ins : Strings{}) << c.text;
      EXPECT_EQ(p.verbatim, c.verbatim) << c.text;
      EXPECT_EQ(restore_spans(p.text, p), c.text);
      for (const std::string& u : c.unknown) EXPECT_EQ(p.text.find(u), std::string::npos) << p.text;
      // A translation that drops every marker still gives every span back.
      if (!p.verbatim) {
        const std::string out = restore_spans("Das ist es.", p);
        for (const std::string& o : c.originals) EXPECT_NE(out.find(o), std::string::npos) << out;
      }
    }
    // Without the builtin spans (--no-protect with a glossary), nothing but the terms.
    EXPECT_TRUE(protect_spans(c.text, nullptr, false, SpanMode::kMarkers, r).originals.empty());
  }
  // Stand-ins: checked as spans left in place are, put back as markers are (every whole
  // occurrence), also in single words (replace_markers).
  const std::string names = "François lives in São Paulo.";
  const ProtectedSentence st = protect_spans(names, nullptr, true, SpanMode::kInPlace,
                                             Ranges{range_of(names, "ç"), range_of(names, "ã")});
  EXPECT_EQ(st.text, "Francois lives in Sao Paulo.");
  EXPECT_TRUE(spans_kept("Francois wohnt in Sao Paulo.", st));
  EXPECT_EQ(restore_spans("Francois wohnt in Sao Paulo.", st), "François wohnt in São Paulo.");
  EXPECT_EQ(replace_markers("Francois,", st), "François,");
  EXPECT_FALSE(spans_kept("Francoise wohnt in Sao Paulo.", st));      // changed
  EXPECT_FALSE(spans_kept("Er wohnt in Sao Paulo.", st));             // dropped
  EXPECT_FALSE(spans_kept("Francois wohnt in Sao Paulo, Sao.", st));  // repeated
  // Where the stand-in is a word of the sentence already, a marker.
  const std::string both = "Sao and São";
  const ProtectedSentence m = protect_spans(both, nullptr, true, SpanMode::kInPlace, Ranges{{10, 12}});
  EXPECT_TRUE(m.in_place.empty());
  ASSERT_EQ(m.markers.size(), 1u);
  EXPECT_EQ(m.text, "Sao and " + m.markers[0]);
  // A stand-in is one well-formed word: a stray byte glued to a letter ("ät\x9f", where
  // the stray byte is unknown too) or punctuation inside the span ("ā-ē": "a" and "a-e"
  // would overlap) gives a marker, and everything comes back.
  for (const std::string& odd : {std::string("\xc3\xa4t.r.\xc3\xa4t\x9f"), std::string("~ x ~-~ y")}) {
    Ranges r;
    for (size_t i = 0; i < odd.size(); ++i) {
      if (static_cast<unsigned char>(odd[i]) < 0x80 && odd[i] != '~') continue;
      if (!r.empty() && r.back().second == i)
        r.back().second = i + 1;
      else
        r.emplace_back(i, i + 1);
    }
    const ProtectedSentence o = protect_spans(odd, nullptr, true, SpanMode::kInPlace, r);
    EXPECT_EQ(restore_spans(o.text, o), odd);
    for (const std::string& s : o.in_place)
      EXPECT_TRUE(std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalpha(static_cast<unsigned char>(c));
      })) << s;
  }
  const std::string dash = "\xc4\x81 x \xc4\x81-\xc4\x93 y";  // "ā x ā-ē y", ā and ē unknown
  const ProtectedSentence dp =
      protect_spans(dash, nullptr, true, SpanMode::kInPlace, Ranges{{0, 2}, {5, 7}, {8, 10}});
  EXPECT_EQ(dp.in_place, Strings{"a"});
  EXPECT_EQ(restore_spans(dp.text, dp), dash);
  // A builtin span holding an unknown character gets a marker, not left in place.
  const std::string path = "Open /home/françois/notes.txt now";
  const ProtectedSentence pp =
      protect_spans(path, nullptr, true, SpanMode::kInPlace, Ranges{range_of(path, "ç")});
  EXPECT_TRUE(pp.in_place.empty());
  EXPECT_EQ(pp.originals, Strings{"/home/françois/notes.txt"});
  // A glossary term wins over an unknown character inside it.
  auto g = Glossary::parse("café\tKaffeehaus\n");
  ASSERT_TRUE(g.has_value());
  const std::string cafe = "Meet me at the café ☕ today";
  const ProtectedSentence gp = protect_spans(cafe, g.value().get(), true, SpanMode::kMarkers,
                                             Ranges{range_of(cafe, "é"), range_of(cafe, "☕")});
  EXPECT_EQ(gp.originals, (Strings{"Kaffeehaus", "☕"}));
  // Ranges outside the sentence or empty are ignored.
  EXPECT_TRUE(
      protect_spans("abc", nullptr, true, SpanMode::kMarkers, Ranges{{2, 9}, {1, 1}}).originals.empty());
}

TEST(ProtectedSpans, SentenceSpansOfTheProtectedText) {
  const std::string sentence = "Get 5 km maps from https://a.org/x now.";
  const ProtectedSentence p = protect_spans(sentence);
  ASSERT_EQ(p.markers.size(), 2u) << p.text;
  ASSERT_EQ(p.spans.size(), 2u);
  EXPECT_EQ(sentence.substr(p.spans[0].begin, p.spans[0].size()), "5 km");
  EXPECT_EQ(sentence.substr(p.spans[1].begin, p.spans[1].size()), "https://a.org/x");
  // Every word of the protected text maps to the sentence's bytes: a marker to its span.
  auto back = [&](std::string_view word) {
    const size_t at = p.text.find(word);
    const TextSpan s = sentence_span(p, {at, at + word.size()});
    return sentence.substr(s.begin, s.size());
  };
  EXPECT_EQ(back("Get"), "Get");
  EXPECT_EQ(back(p.markers[0]), "5 km");
  EXPECT_EQ(back("maps"), "maps");
  EXPECT_EQ(back(p.markers[1]), "https://a.org/x");
  EXPECT_EQ(back("now."), "now.");
  EXPECT_EQ(back(p.text), sentence);
}

}  // namespace
}  // namespace edgemt
