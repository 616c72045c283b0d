// edgemt-server's service and LibreTranslate API without HTTP: markup segmentation,
// request parsing and errors, dynamic batching (outputs equal one-at-a-time), queue
// limits (503/413), timeouts, API keys, n-best alternatives. Uses the bundled model.
#include <gtest/gtest.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <tuple>

#include "runtime/api/translator.h"
#include "runtime/formats/pdf_text.h"
#include "runtime/server/libretranslate.h"
#include "runtime/server/service.h"
#include "runtime/text/language_id.h"
#include "runtime/text/markup.h"
#include "runtime/text/text_encoding.h"

namespace edgemt::server {
namespace {

using json = nlohmann::json;

const std::string kModel = std::string(EDGEMT_MODELS_DIR) + "/edgemt-en-de.emt";

const std::vector<std::string> kSentences = {
    "The file could not be opened.",
    "Please try again later.",
    "Save the document before closing the window.",
    "The connection to the server was lost.",
    "Do you want to delete this folder?",
    "An error occurred while reading the configuration file.",
    "Print",
    "The password is too short.",
};

std::unique_ptr<TranslationService> make_service(ServiceOptions o = {}) {
  o.threads = 1;
  auto s = TranslationService::create({{kModel, "", ""}}, o);
  EXPECT_TRUE(s.has_value()) << s.status().to_string();
  return std::move(s.value());
}

HttpResponse post_json(const LibreTranslateApi& api, const json& body) {
  HttpRequest r;
  r.method = "POST";
  r.path = "/translate";
  r.content_type = "application/json";
  r.body = body.dump();
  return api.handle(r);
}

// The reference: the public Translator on the same model, default options.
std::vector<std::string> reference(const std::vector<std::string>& texts) {
  auto tr = Translator::create(kModel, {});
  EXPECT_TRUE(tr.has_value());
  auto out = tr.value()->translate(texts);
  EXPECT_TRUE(out.has_value());
  return out.value();
}

TEST(Markup, TextKeepsLinesAndWhitespace) {
  const Segmented d = segment_text("  Hello world. \n\nSecond line\n");
  ASSERT_EQ(d.text.size(), 2u);
  EXPECT_EQ(d.pieces[d.text[0]], "Hello world.");
  EXPECT_EQ(d.pieces[d.text[1]], "Second line");
  EXPECT_EQ(reassemble(d, {"A", "B"}), "  A \n\nB\n");
  EXPECT_TRUE(segment_text("").text.empty());
  EXPECT_EQ(reassemble(segment_text(" \n "), {}), " \n ");
}

TEST(Markup, SentencesOfEachPieceBecomePiecesOfTheirOwn) {
  auto splitter = SentenceSplitter::create("en");
  ASSERT_TRUE(splitter.has_value());
  Segmented d = segment_text(" One. Two?  Three\nFour. ");
  split_sentences(&d, *splitter.value());
  ASSERT_EQ(d.text.size(), 4u);
  EXPECT_EQ(d.pieces[d.text[0]], "One.");
  EXPECT_EQ(d.pieces[d.text[1]], "Two?");
  EXPECT_EQ(d.pieces[d.text[2]], "Three");
  EXPECT_EQ(d.pieces[d.text[3]], "Four.");
  EXPECT_EQ(reassemble(d, {"A", "B", "C", "D"}), " A B  C\nD ");
  Segmented h = segment_html("<p>Dr. Smith came. He left.</p><b>x</b>");
  split_sentences(&h, *splitter.value());
  ASSERT_EQ(h.text.size(), 3u);
  EXPECT_EQ(h.pieces[h.text[0]], "Dr. Smith came.");
  EXPECT_EQ(h.pieces[h.text[1]], "He left.");
  EXPECT_EQ(reassemble(h, {"A", "B", "C"}), "<p>A B</p><b>C</b>");
}

TEST(Markup, HtmlTranslatesTextNodesOnly) {
  const std::string html =
      "<p class=\"a>b\">Open the <b>file</b> &amp; save.</p><!-- note --><script>if (a < b) x();</script>"
      "<pre>keep me</pre> <i>Done</i>";
  const Segmented d = segment_html(html);
  std::vector<std::string> texts;
  for (size_t i : d.text) texts.push_back(d.pieces[i]);
  EXPECT_EQ(texts, (std::vector<std::string>{"Open the", "file", "& save.", "Done"}));
  EXPECT_EQ(reassemble(d, texts), html);  // identity translation gives the document back
  EXPECT_EQ(reassemble(d, {"X", "Y", "a < b & c", "Z"}),
            "<p class=\"a>b\">X <b>Y</b> a &lt; b &amp; c</p><!-- note --><script>if (a < b) x();</script>"
            "<pre>keep me</pre> <i>Z</i>");
}

TEST(Markup, Entities) {
  EXPECT_EQ(decode_entities("a &lt;b&gt; &#233;&#xE9; &nbsp;&bogus; &#xD800; &"),
            "a <b> \xC3\xA9\xC3\xA9 \xC2\xA0&bogus; \xEF\xBF\xBD &");
  // Every named reference of HTML5, not only the common ones: old pages write their
  // letters so ("K&uuml;che", "caf&eacute;"), and soft hyphens as &shy;.
  EXPECT_EQ(decode_entities("K&uuml;che, caf&eacute;, Stra&szlig;e, &Auml;rger, com&shy;puter"),
            "K\xC3\xBC"
            "che, caf\xC3\xA9, Stra\xC3\x9F"
            "e, \xC3\x84rger, com\xC2\xADputer");
  EXPECT_EQ(decode_entities("&CounterClockwiseContourIntegral; &hearts; &rarr; &frac12;"),
            "\xE2\x88\xB3 \xE2\x99\xA5 \xE2\x86\x92 \xC2\xBD");
  EXPECT_EQ(decode_entities("&NotEqualTilde;"), "\xE2\x89\x82\xCC\xB8");  // two code points
  // Names are case-sensitive: &AMP; is one, &Amp; is not.
  EXPECT_EQ(decode_entities("&AMP; &Amp; &Eacute;&eacute;"), "& &Amp; \xC3\x89\xC3\xA9");
  // The legacy names also without a semicolon, the longest that fits; the others not.
  EXPECT_EQ(decode_entities("&copy 2024 &amp me &notit; &notin; &hearts &uumlaut"),
            "\xC2\xA9 2024 & me \xC2\xACit; \xE2\x88\x89 &hearts \xC3\xBC"
            "aut");
  // Not references: kept as written.
  EXPECT_EQ(decode_entities("AT&T, R&D, Q&A, a & b, &;, &#;, &#x;, &#xZ, fish&chips, &"),
            "AT&T, R&D, Q&A, a & b, &;, &#;, &#x;, &#xZ, fish&chips, &");
  // Numeric ones: the semicolon optional; 128-159 as Windows-1252; NUL and values past
  // U+10FFFF as U+FFFD.
  EXPECT_EQ(decode_entities("&#233x &#150; &#x92; &#128; &#0; &#x110000; &#99999999999999999999;"),
            "\xC3\xA9x \xE2\x80\x93 \xE2\x80\x99 \xE2\x82\xAC \xEF\xBF\xBD \xEF\xBF\xBD \xEF\xBF\xBD");
  EXPECT_EQ(escape_html("<a & b>"), "&lt;a &amp; b&gt;");
  EXPECT_EQ(count_chars("h\xC3\xA9llo"), 5u);
}

TEST(Form, Decoding) {
  const auto f = parse_form("q=Hello+world%21&source=en&&target=de&bad=%zz&q=x");
  ASSERT_EQ(f.size(), 5u);
  EXPECT_EQ(f[0], (std::pair<std::string, std::string>{"q", "Hello world!"}));
  EXPECT_EQ(f[3], (std::pair<std::string, std::string>{"bad", "%zz"}));
}

TEST(Service, PairFromFileNameOrMetadata) {
  auto model = Model::load(kModel);
  ASSERT_TRUE(model.has_value());
  // The bundled model's metadata names its pair, and wins over the file name.
  auto e = describe_model("/x/opus-mt-fr-en.emt", *model.value());
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e.value().source, model.value()->source_language());
  EXPECT_EQ(e.value().target, model.value()->target_language());
  EXPECT_EQ(e.value().source + "-" + e.value().target, "en-de");
  // Without metadata the file name decides: "-<src>-<tgt>.emt", or no pair at all.
  std::string s, t;
  ASSERT_TRUE(Model::language_pair_of_file("/x/opus-mt-fr-en.emt", &s, &t));
  EXPECT_EQ(s, "fr");
  EXPECT_EQ(t, "en");
  EXPECT_FALSE(Model::language_pair_of_file("/x/model.emt", &s, &t));
  EXPECT_FALSE(TranslationService::scan("/nonexistent-dir").has_value());
}

// TranslateOptions::format kHtml: each document's text nodes are translated as texts
// (a line break inside one is a space) and put back between the kept markup, escaped;
// n-best's first is the translation; the server's html answers the same.
TEST(Api, TranslatorTranslatesHtmlDocuments) {
  auto tr = Translator::create(kModel, {});
  ASSERT_TRUE(tr.has_value());
  const std::string doc = "<!DOCTYPE html>\n<p class=\"a>b\">" + kSentences[0] + "\n   " + kSentences[1] +
                          "</p><script>if (a < b) x();</script>\n<!-- " + kSentences[2] + " -->\n<li>" +
                          kSentences[6] + " &amp; " + kSentences[6] + "</li>";
  TranslateOptions html;
  html.format = TextFormat::kHtml;
  auto got = tr.value()->translate({doc, "", "<br>"}, html);
  ASSERT_TRUE(got.has_value()) << got.status().to_string();
  auto nodes =
      tr.value()->translate({kSentences[0] + " " + kSentences[1], kSentences[6] + " & " + kSentences[6]});
  ASSERT_TRUE(nodes.has_value());
  const std::string want = "<!DOCTYPE html>\n<p class=\"a>b\">" + escape_html(nodes.value()[0]) +
                           "</p><script>if (a < b) x();</script>\n<!-- " + kSentences[2] + " -->\n<li>" +
                           escape_html(nodes.value()[1]) + "</li>";
  EXPECT_EQ(got.value()[0], want);
  // Text goes back escaped: the source's "&amp;" reached the model as "&", and no bare
  // "&" (whatever the model made of it) is left in the document.
  EXPECT_EQ(got.value()[0].find("& "), std::string::npos) << got.value()[0];
  EXPECT_EQ(got.value()[1], "");
  EXPECT_EQ(got.value()[2], "<br>");
  auto nbest = tr.value()->translate_nbest({doc}, 2, html);
  ASSERT_TRUE(nbest.has_value());
  ASSERT_GE(nbest.value()[0].size(), 1u);
  EXPECT_EQ(nbest.value()[0][0], want);
  // Inline elements: the sentence is translated whole, the tags come back once each,
  // nested as they were, in a well-formed document (n-best's first is the same).
  const std::string inline_doc =
      "<p>Save the <b>document</b> before closing the <a href=\"w\">window</a>.</p>";
  auto in = tr.value()->translate({inline_doc}, html);
  ASSERT_TRUE(in.has_value());
  const std::string& o = in.value()[0];
  EXPECT_EQ(o.rfind("<p>", 0), 0u) << o;
  EXPECT_EQ(o.substr(o.size() - 4), "</p>") << o;
  for (const char* t : {"<b>", "</b>", "<a href=\"w\">", "</a>"}) {
    const size_t at = o.find(t);
    ASSERT_NE(at, std::string::npos) << t << " in " << o;
    EXPECT_EQ(o.find(t, at + 1), std::string::npos) << t << " twice in " << o;
  }
  EXPECT_LT(o.find("<b>"), o.find("</b>")) << o;
  EXPECT_LT(o.find("<a "), o.find("</a>")) << o;
  auto in_nbest = tr.value()->translate_nbest({inline_doc}, 2, html);
  ASSERT_TRUE(in_nbest.has_value());
  EXPECT_EQ(in_nbest.value()[0][0], o);
  // Plain text leaves the markup to the model: not the same.
  auto plain = tr.value()->translate({doc});
  ASSERT_TRUE(plain.has_value());
  EXPECT_NE(plain.value()[0], want);
}

// format: html answers as the Translator's TextFormat::kHtml (inline runs included).
TEST(Api, HtmlLikeTheTranslator) {
  auto svc = make_service();
  LibreTranslateApi api(*svc, {});
  const std::vector<std::string> docs = {
      "<p>Save the <b>document</b> before closing the <a href=\"w\">window</a>.</p>",
      "<ul><li>" + kSentences[0] + "</li><li>" + kSentences[4] + " <i>" + kSentences[6] + "</i></li></ul>"};
  auto tr = Translator::create(kModel, {});
  ASSERT_TRUE(tr.has_value());
  TranslateOptions html;
  html.format = TextFormat::kHtml;
  auto want = tr.value()->translate(docs, html);
  ASSERT_TRUE(want.has_value());
  HttpResponse r = post_json(api, {{"q", docs}, {"source", "en"}, {"target", "de"}, {"format", "html"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["translatedText"].get<std::vector<std::string>>(), want.value());
}

// Soft hyphens (U+00AD, &shy;) and the other break hints inside words, and HTML's named
// references, go as in the Translator: removed and decoded before translating, so the
// server answers what the Translator gives for the text without them.
TEST(Api, BreakHintsAndReferencesLikeTheTranslator) {
  auto svc = make_service();
  LibreTranslateApi api(*svc, {});
  auto tr = Translator::create(kModel, {});
  ASSERT_TRUE(tr.has_value());
  const std::vector<std::string> plain = {
      "Please restart your com\xC2\xADputer to com\xC2\xADplete the "
      "instal\xC2\xADla\xE2\x81\xA0tion.",
      kSentences[1]};
  const std::vector<std::string> clean = {"Please restart your computer to complete the installation.",
                                          kSentences[1]};
  auto want = tr.value()->translate(clean);
  ASSERT_TRUE(want.has_value());
  HttpResponse r = post_json(api, {{"q", plain}, {"source", "en"}, {"target", "de"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["translatedText"].get<std::vector<std::string>>(), want.value());
  TranslateOptions html;
  html.format = TextFormat::kHtml;
  const std::vector<std::string> docs = {
      "<p>Please restart your com&shy;puter to complete the <b>instal&shy;lation</b> now.</p>",
      "<p>The caf&eacute; &ndash; K&uuml;che &amp; more.</p>"};
  auto want_html =
      tr.value()->translate({"<p>Please restart your computer to complete the <b>installation</b> now.</p>",
                             "<p>The caf\xC3\xA9 \xE2\x80\x93 K\xC3\xBC"
                             "che &amp; more.</p>"},
                            html);
  ASSERT_TRUE(want_html.has_value());
  r = post_json(api, {{"q", docs}, {"source", "en"}, {"target", "de"}, {"format", "html"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["translatedText"].get<std::vector<std::string>>(), want_html.value());
}

TEST(Api, TranslatesLikeTheTranslator) {
  auto svc = make_service();
  LibreTranslateApi api(*svc, {});
  const std::vector<std::string> ref = reference(kSentences);
  // One string.
  HttpResponse r = post_json(api, {{"q", kSentences[0]}, {"source", "en"}, {"target", "de"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["translatedText"], ref[0]);
  // A list, and lines of one text.
  r = post_json(api, {{"q", kSentences}, {"source", "en"}, {"target", "de"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["translatedText"].get<std::vector<std::string>>(), ref);
  r = post_json(api, {{"q", kSentences[0] + "\n\n" + kSentences[1]}, {"source", "en"}, {"target", "de"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["translatedText"], ref[0] + "\n\n" + ref[1]);
  // A paragraph is translated sentence by sentence, its spacing kept; in HTML too.
  r = post_json(api, {{"q", kSentences[0] + "  " + kSentences[3] + " " + kSentences[4]},
                      {"source", "en"},
                      {"target", "de"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["translatedText"], ref[0] + "  " + ref[3] + " " + ref[4]);
  r = post_json(api, {{"q", "<p>" + kSentences[1] + " " + kSentences[2] + "</p>"},
                      {"source", "en"},
                      {"target", "de"},
                      {"format", "html"}});
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string p1 = ref[1], p2 = ref[2];
  if (p1.find_first_of("<>&\"'") == std::string::npos && p2.find_first_of("<>&\"'") == std::string::npos) {
    EXPECT_EQ(json::parse(r.body)["translatedText"], "<p>" + p1 + " " + p2 + "</p>");
  }
  // Protected spans come through verbatim, as from the Translator; a text of nothing but
  // spans is given back as it is.
  const std::string spans = "Open https://example.org/a.html?id=7 or mail jane@example.com with %s.";
  r = post_json(api, {{"q", {spans, "https://example.org/ (%s)"}}, {"source", "en"}, {"target", "de"}});
  ASSERT_EQ(r.status, 200) << r.body;
  const auto got = json::parse(r.body)["translatedText"].get<std::vector<std::string>>();
  EXPECT_EQ(got[0], reference({spans})[0]);
  for (const char* s : {"https://example.org/a.html?id=7", "jane@example.com", "%s"})
    EXPECT_NE(got[0].find(s), std::string::npos) << got[0];
  EXPECT_EQ(got[1], "https://example.org/ (%s)");
  // Characters the model's vocabulary lacks ("€", "ç", emoji, CJK in the bundled model's)
  // come through too, as from the Translator; a text of nothing but those is given back.
  const std::string unknown = "Fran\u00e7ois paid 5 \u20ac for the coffee \U0001F642.";
  r = post_json(api, {{"q", {unknown, "\u65e5\u672c\u8a9e\u3002"}}, {"source", "en"}, {"target", "de"}});
  ASSERT_EQ(r.status, 200) << r.body;
  const auto kept = json::parse(r.body)["translatedText"].get<std::vector<std::string>>();
  EXPECT_EQ(kept[0], reference({unknown})[0]);
  for (const char* s : {"Fran\u00e7ois", "5 \u20ac", "\U0001F642"})
    EXPECT_NE(kept[0].find(s), std::string::npos) << kept[0];
  EXPECT_EQ(kept[1], "\u65e5\u672c\u8a9e\u3002");
  // A text written in capitals is translated recased and comes back in capitals, as from
  // the Translator.
  const std::string caps = "WARNING: DO NOT OPEN THE FILE.";
  r = post_json(api, {{"q", caps}, {"source", "en"}, {"target", "de"}});
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string caps_out = json::parse(r.body)["translatedText"].get<std::string>();
  EXPECT_EQ(caps_out, reference({caps})[0]);
  EXPECT_EQ(caps_out.find_first_of("abcdefghijklmnopqrstuvwxyz"), std::string::npos) << caps_out;
  // A span the model changes when it sees it as it is ("Documents" -> "Dokumente") goes
  // through a second job with markers, as in the Translator; where only alternatives
  // changed one, the best stays the Translator's and the alternatives are drawn again.
  // Either way every answer keeps the spans.
  const std::string path = "Open C:\\Users\\jane\\Documents\\report.docx or ~/Documents/report.odt.";
  r = post_json(api, {{"q", {path, spans}}, {"source", "en"}, {"target", "de"}, {"alternatives", 2}});
  ASSERT_EQ(r.status, 200) << r.body;
  const json both = json::parse(r.body);
  EXPECT_EQ(both["translatedText"][0], reference({path})[0]);
  std::vector<std::string> outs = {both["translatedText"][0].get<std::string>()};
  for (const json& a : both["alternatives"][0]) outs.push_back(a.get<std::string>());
  EXPECT_GE(outs.size(), 2u) << r.body;
  for (const std::string& x : outs) {
    EXPECT_NE(x.find("C:\\Users\\jane\\Documents\\report.docx"), std::string::npos) << x;
    EXPECT_NE(x.find("~/Documents/report.odt"), std::string::npos) << x;
  }
  // Form-encoded (what libretranslatepy sends), source auto.
  HttpRequest form;
  form.method = "POST";
  form.path = "/translate";
  form.content_type = "application/x-www-form-urlencoded";
  form.body = "q=The+file+could+not+be+opened.&source=auto&target=de";
  r = api.handle(form);
  ASSERT_EQ(r.status, 200) << r.body;
  const json j = json::parse(r.body);
  EXPECT_EQ(j["translatedText"], ref[0]);
  EXPECT_EQ(j["detectedLanguage"]["language"], "en");
  // Blank text.
  r = post_json(api, {{"q", "  "}, {"source", "en"}, {"target", "de"}});
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(json::parse(r.body)["translatedText"], "  ");
}

TEST(Api, Languages) {
  auto svc = make_service();
  LibreTranslateApi api(*svc, {});
  HttpRequest g;
  g.method = "GET";
  g.path = "/languages";
  const HttpResponse r = api.handle(g);
  ASSERT_EQ(r.status, 200);
  const json j = json::parse(r.body);
  ASSERT_TRUE(j.is_array());
  EXPECT_EQ(j[0]["code"], "en");
  EXPECT_EQ(j[0]["name"], "English");
  EXPECT_EQ(j[0]["targets"], json::array({"de"}));
  g.path = "/health";
  EXPECT_EQ(json::parse(api.handle(g).body)["status"], "ok");
  g.path = "/frontend/settings";
  EXPECT_EQ(json::parse(api.handle(g).body)["charLimit"], 5000);
}

const std::string kModelDeEn = std::string(EDGEMT_MODELS_DIR) + "/edgemt-de-en.emt";

TEST(Service, RouteThroughAPivotPrefersEnglish) {
  ServiceOptions o;
  o.threads = 1;
  // The bundled files under other language labels: only the pairs matter here.
  auto s = TranslationService::create(
      {{kModel, "xx", "de"}, {kModel, "xx", "en"}, {kModelDeEn, "de", "yy"}, {kModelDeEn, "en", "yy"}}, o);
  ASSERT_TRUE(s.has_value()) << s.status().to_string();
  const TranslationService& svc = *s.value();
  EXPECT_EQ(svc.route("xx", "de"), (std::vector<int>{0}));
  EXPECT_EQ(svc.route("xx", "yy"), (std::vector<int>{1, 3}));  // English over German
  EXPECT_EQ(svc.route("de", "yy"), (std::vector<int>{2}));
  EXPECT_TRUE(svc.route("xx", "xx").empty());
  EXPECT_TRUE(svc.route("yy", "xx").empty());
  EXPECT_TRUE(svc.route("de", "en").empty());
  auto t =
      TranslationService::create({{kModel, "xx", "de"}, {kModelDeEn, "de", "yy"}, {kModel, "de", "xx"}}, o);
  ASSERT_TRUE(t.has_value()) << t.status().to_string();
  EXPECT_EQ(t.value()->route("xx", "yy"), (std::vector<int>{0, 1}));  // the only pivot
  EXPECT_TRUE(t.value()->route("xx", "xx").empty());                  // not a round trip
}

// A pair without a model goes through two: en -> de (the bundled en-de) -> "fr" (the
// bundled de-en labelled French), as the two Translators one after the other.
TEST(Api, PivotTranslatesAsTwoTranslatorsInTurn) {
  ServiceOptions o;
  o.threads = 1;
  auto s = TranslationService::create({{kModel, "en", "de"}, {kModelDeEn, "de", "fr"}}, o);
  ASSERT_TRUE(s.has_value()) << s.status().to_string();
  LibreTranslateApi api(*s.value(), {});
  HttpRequest g;
  g.method = "GET";
  g.path = "/languages";
  const json langs = json::parse(api.handle(g).body);
  ASSERT_EQ(langs.size(), 3u) << langs;
  EXPECT_EQ(langs[0]["code"], "en");
  EXPECT_EQ(langs[0]["targets"], json::array({"de", "fr"}));
  EXPECT_EQ(langs[1]["targets"], json::array({"fr"}));
  EXPECT_EQ(langs[2]["targets"], json::array());

  auto first = Translator::create(kModel, {});
  auto second = Translator::create(kModelDeEn, {});
  ASSERT_TRUE(first.has_value() && second.has_value());
  const std::vector<std::string> texts = {kSentences[0],
                                          kSentences[2] + "  " + kSentences[3] + "\n" + kSentences[4], "",
                                          "Open https://example.org/a.html now."};
  auto mid = first.value()->translate(texts);
  ASSERT_TRUE(mid.has_value());
  auto want = second.value()->translate(mid.value());
  ASSERT_TRUE(want.has_value());
  HttpResponse r = post_json(api, {{"q", texts}, {"source", "en"}, {"target", "fr"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["translatedText"].get<std::vector<std::string>>(), want.value());
  EXPECT_NE(want.value()[0], mid.value()[0]);  // two models ran, not one
  EXPECT_NE(want.value()[3].find("https://example.org/a.html"), std::string::npos) << want.value()[3];

  // HTML: the document through both, inline tags kept once each.
  TranslateOptions html;
  html.format = TextFormat::kHtml;
  const std::vector<std::string> docs = {"<p>Save the <b>document</b> before closing the window.</p>"};
  auto mid_html = first.value()->translate(docs, html);
  ASSERT_TRUE(mid_html.has_value());
  auto want_html = second.value()->translate(mid_html.value(), html);
  ASSERT_TRUE(want_html.has_value());
  r = post_json(api, {{"q", docs[0]}, {"source", "en"}, {"target", "fr"}, {"format", "html"}});
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string got_html = json::parse(r.body)["translatedText"];
  EXPECT_EQ(got_html, want_html.value()[0]);
  EXPECT_EQ(got_html.rfind("<p>", 0), 0u) << got_html;
  EXPECT_NE(got_html.find("</b>"), std::string::npos) << got_html;

  // Alternatives: the second model's n-best of the first's best.
  r = post_json(api, {{"q", kSentences[2]}, {"source", "en"}, {"target", "fr"}, {"alternatives", 2}});
  ASSERT_EQ(r.status, 200) << r.body;
  const json alt = json::parse(r.body);
  auto mid_one = first.value()->translate({kSentences[2]});
  ASSERT_TRUE(mid_one.has_value());
  auto nbest = second.value()->translate_nbest(mid_one.value(), 3);
  ASSERT_TRUE(nbest.has_value());
  ASSERT_GE(nbest.value()[0].size(), 2u);
  EXPECT_EQ(alt["translatedText"], nbest.value()[0][0]);
  ASSERT_GE(alt["alternatives"].size(), 1u) << r.body;
  EXPECT_EQ(alt["alternatives"][0], nbest.value()[0][1]);

  // What no route reaches is still refused clearly.
  r = post_json(api, {{"q", "x"}, {"source", "fr"}, {"target", "en"}});
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(json::parse(r.body)["error"].get<std::string>().find("fr"), std::string::npos) << r.body;
  r = post_json(api, {{"q", "x"}, {"source", "de"}, {"target", "en"}});
  EXPECT_EQ(r.status, 400) << r.body;
}

TEST(Api, BadRequestsGetClearErrors) {
  auto svc = make_service();
  ApiOptions o;
  o.char_limit = 100;
  LibreTranslateApi api(*svc, o);
  auto status_of = [&](const std::string& content_type, const std::string& body, std::string* msg = nullptr) {
    HttpRequest r;
    r.method = "POST";
    r.path = "/translate";
    r.content_type = content_type;
    r.body = body;
    const HttpResponse out = api.handle(r);
    const json j = json::parse(out.body, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << out.body;
    if (out.status != 200) {
      EXPECT_TRUE(j.contains("error")) << out.body;
    }
    if (msg) *msg = j.value("error", "");
    return out.status;
  };
  const std::string js = "application/json";
  std::string msg;
  EXPECT_EQ(status_of(js, "{not json", &msg), 400);
  EXPECT_NE(msg.find("JSON"), std::string::npos);
  EXPECT_EQ(status_of(js, "[1,2]"), 400);
  EXPECT_EQ(status_of(js, R"({"source":"en","target":"de"})", &msg), 400);
  EXPECT_NE(msg.find("q"), std::string::npos);
  EXPECT_EQ(status_of(js, R"({"q":5,"source":"en","target":"de"})"), 400);
  EXPECT_EQ(status_of(js, R"({"q":["a",{}],"source":"en","target":"de"})"), 400);
  EXPECT_EQ(status_of(js, R"({"q":"a","target":"de"})"), 400);
  EXPECT_EQ(status_of(js, R"({"q":"a","source":"xx","target":"de"})", &msg), 400);
  EXPECT_NE(msg.find("xx"), std::string::npos);
  EXPECT_EQ(status_of(js, R"({"q":"a","source":"en","target":"fr"})"), 400);
  EXPECT_EQ(status_of(js, R"({"q":"a","source":"en","target":"de","format":"pdf"})"), 400);
  EXPECT_EQ(status_of(js, R"({"q":"a","source":"en","target":"de","alternatives":-1})"), 400);
  EXPECT_EQ(status_of(js, R"({"q":"a","source":"en","target":"de","alternatives":99})"), 400);
  EXPECT_EQ(status_of(js, R"({"q":")" + std::string(101, 'a') + R"(","source":"en","target":"de"})"), 413);
  EXPECT_EQ(status_of("text/plain", "garbage"), 400);
  EXPECT_EQ(status_of(js, std::string(5000, '[')), 400);
  HttpRequest r;
  r.method = "GET";
  r.path = "/translate";
  EXPECT_EQ(api.handle(r).status, 405);
  r.path = "/nope";
  EXPECT_EQ(api.handle(r).status, 404);
  r.method = "POST";
  r.path = "/detect";
  EXPECT_EQ(api.handle(r).status, 400);  // no q
  r.path = "/translate_file";
  EXPECT_EQ(api.handle(r).status, 400);  // no file
  r.path = "/suggest";
  EXPECT_EQ(api.handle(r).status, 501);
}

// /translate_file and /download_file: each file translated as the Translator translates
// its format, kept for download under its own name; bad files are clear errors.
HttpRequest file_request(const std::string& filename, const std::string& content,
                         const std::string& source = "en") {
  HttpRequest r;
  r.method = "POST";
  r.path = "/translate_file";
  r.content_type = "multipart/form-data; boundary=x";
  r.host = "localhost:5000";
  r.params = {{"source", source}, {"target", "de"}, {"file", content}};
  r.files = {{"file", filename, content}};
  return r;
}

TEST(Api, TranslatesFilesLikeTheTranslator) {
  auto svc = make_service();
  LibreTranslateApi api(*svc, {});
  HttpRequest get;
  get.method = "GET";
  get.path = "/frontend/settings";
  const json settings = json::parse(api.handle(get).body);
  EXPECT_EQ(settings["filesTranslation"], true);
  EXPECT_NE(settings["supportedFilesFormat"].dump().find(".srt"), std::string::npos);
  auto tr = Translator::create(kModel, {});
  ASSERT_TRUE(tr.has_value());
  const std::string srt = "1\n00:00:01,000 --> 00:00:04,000\n" + kSentences[2] +
                          "\n\n2\n00:00:05,000 --> 00:00:06,000\n" + kSentences[1] + "\n";
  const std::string txt =
      "Hello,\n\nThe file could not be opened because the connection to the\nserver was lost. "
      "Please try again later.\n\nThe team\n";
  const std::string html = "<p>" + kSentences[0] + " <b>" + kSentences[6] + "</b></p>";
  const std::string md = "# " + kSentences[3] + "\n\n```\nkeep\n```\n";
  const std::string po = "msgid \"" + kSentences[7] + "\"\nmsgstr \"\"\n";
  const std::string csv = "key;text\napp.title;" + kSentences[4] + "\n";
  const std::string locale = "{\"title\": \"" + kSentences[5] + "\", \"count\": 2}\n";
  const std::string xlf =
      "<?xml version=\"1.0\"?>\n<xliff version=\"2.0\" srcLang=\"en\"><file id=\"f\"><unit "
      "id=\"u\"><segment><source>" +
      escape_html(kSentences[6]) + "</source></segment></unit></file></xliff>\n";
  std::stringstream docx;
  docx << std::ifstream(std::string(EDGEMT_DOCUMENTS_DIR) + "/sample.docx", std::ios::binary).rdbuf();
  ASSERT_GT(docx.str().size(), 1000u);
  struct Case {
    std::string name, content;
    TextFormat format;
  };
  for (const Case& c :
       {Case{"film.srt", srt, TextFormat::kSubtitles}, Case{"mail.txt", txt, TextFormat::kWrapped},
        Case{"page.html", html, TextFormat::kHtml}, Case{"README.md", md, TextFormat::kMarkdown},
        Case{"de.po", po, TextFormat::kPo}, Case{"table.csv", csv, TextFormat::kCsv},
        // A translation table (Godot's): its "en" column into its "de" one.
        Case{"godot.csv", "keys,en,de\nA,\"" + kSentences[1] + "\",\n", TextFormat::kCsv},
        Case{"de.json", locale, TextFormat::kJson},
        Case{"app_en.arb",
             "{\"@@locale\": \"en\", \"title\": \"" + kSentences[5] +
                 "\", \"@title\": {\"description\": \"The title\"}}\n",
             TextFormat::kJson},
        Case{"app.xlf", xlf, TextFormat::kXliff},
        Case{"app_de.ts",
             "<TS version=\"2.1\"><context><message><source>" + escape_html(kSentences[2]) +
                 "</source><translation type=\"unfinished\"/></message></context></TS>\n",
             TextFormat::kXliff},
        Case{
            "strings.xml",
            "<resources>\n    <string name=\"a\">" + escape_html(kSentences[3]) + "</string>\n</resources>\n",
            TextFormat::kAndroid},
        Case{"messages.properties", "# App\napp.title = " + kSentences[4] + "\napp.url = https://x.org\n",
             TextFormat::kProperties},
        Case{"Resources.resx",
             "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<root>\n  <data name=\"Title\" "
             "xml:space=\"preserve\">\n"
             "    <value>" +
                 escape_html(kSentences[6]) + "</value>\n  </data>\n</root>\n",
             TextFormat::kResx},
        Case{"Localizable.xcstrings",
             "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n    \"" + kSentences[3] +
                 "\" : {\n\n    }\n  },\n  \"version\" : \"1.0\"\n}\n",
             TextFormat::kXcstrings},
        Case{"en.yml", "# app\nen:\n  title: \"" + kSentences[2] + "\"\n", TextFormat::kYaml},
        Case{"Localizable.stringsdict",
             "<plist version=\"1.0\"><dict><key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>"
             "NSStringPluralRuleType</string><key>other</key><string>" +
                 escape_html(kSentences[0]) + "</string></dict></dict></plist>\n",
             TextFormat::kStringsdict},
        Case{"Localizable.strings", "/* Title */\n\"title\" = \"" + kSentences[5] + "\";\n",
             TextFormat::kStrings},
        // XLIFF saved as .xml (as some tools export it): told by its root element.
        Case{"export.xml", "<?xml version=\"1.0\"?>\n<!-- exported -->\n" + xlf, TextFormat::kXliff},
        Case{"guide.docx", docx.str(), TextFormat::kOffice}}) {
    const HttpResponse r = api.handle(
        file_request(c.name, c.content, c.name == "mail.txt" || c.name == "godot.csv" ? "auto" : "en"));
    ASSERT_EQ(r.status, 200) << c.name << ": " << r.body;
    const std::string url = json::parse(r.body)["translatedFileUrl"];
    const std::string prefix = "http://localhost:5000/download_file/";
    ASSERT_EQ(url.rfind(prefix, 0), 0u) << url;
    EXPECT_EQ(url.substr(url.size() - c.name.size() - 1), "." + c.name) << url;
    get.path = url.substr(std::string("http://localhost:5000").size());
    const HttpResponse d = api.handle(get);
    ASSERT_EQ(d.status, 200) << d.body;
    EXPECT_EQ(d.filename, c.name);
    TranslateOptions o;
    o.format = c.format;
    auto want = tr.value()->translate({c.content}, o);
    ASSERT_TRUE(want.has_value());
    EXPECT_EQ(d.body, want.value()[0]) << c.name;
    EXPECT_NE(d.body, c.content) << c.name;
    if (c.name == "app_en.arb") {
      EXPECT_NE(d.body.find("{\"@@locale\": \"de\""), std::string::npos) << d.body;
    }
    if (c.name == "godot.csv") {  // the source column kept, the translation after it
      EXPECT_EQ(d.body.rfind(c.content.substr(0, c.content.size() - 1), 0), 0u) << d.body;
    }
  }
  // Errors: an unknown or expired file, another file type, no file, a malformed catalog,
  // a pair not served, too much text, file translation turned off.
  get.path = "/download_file/0123456789abcdef0123456789abcdef.film.srt";
  EXPECT_EQ(api.handle(get).status, 404);
  const HttpResponse not_pdf = api.handle(file_request("report.pdf", "Dear customer,"));
  EXPECT_EQ(not_pdf.status, 400);
  EXPECT_NE(not_pdf.body.find("not a PDF"), std::string::npos) << not_pdf.body;
  EXPECT_EQ(api.handle(file_request("report.exe", "MZ")).status, 400);
  EXPECT_EQ(api.handle(file_request("noext", "text")).status, 400);
  HttpRequest no_file = file_request("a.txt", "x");
  no_file.files.clear();
  EXPECT_EQ(api.handle(no_file).status, 400);
  EXPECT_EQ(api.handle(file_request("bad.po", "msgid \"x\n")).status, 400);
  const HttpResponse bad_strings =
      api.handle(file_request("Localizable.strings", "\"a\" = \"Open the file\"\n"));
  EXPECT_EQ(bad_strings.status, 400);
  EXPECT_NE(bad_strings.body.find(".strings line 1"), std::string::npos) << bad_strings.body;
  // An .xml file that is none of the XML formats: an error naming its root element.
  const HttpResponse docbook = api.handle(file_request("guide.xml",
                                                       "<?xml version=\"1.0\"?>\n<!DOCTYPE book [\n"
                                                       "<!ENTITY v \"1\">]>\n<book><para>Hi.</para></book>"));
  EXPECT_EQ(docbook.status, 400);
  EXPECT_NE(docbook.body.find("its root element is <book>"), std::string::npos) << docbook.body;
  EXPECT_EQ(api.handle(file_request("empty.xml", "<!-- nothing -->")).status, 400);
  const HttpResponse bad_docx = api.handle(file_request("cut.docx", docx.str().substr(0, 5000)));
  EXPECT_EQ(bad_docx.status, 400);
  EXPECT_NE(bad_docx.body.find("ZIP"), std::string::npos) << bad_docx.body;
  EXPECT_EQ(api.handle(file_request("a.txt", "Hello.", "fr")).status, 400);
  ApiOptions small;
  small.file_char_limit = 10;
  LibreTranslateApi limited(*svc, small);
  EXPECT_EQ(limited.handle(file_request("a.txt", "This text is longer than ten characters.")).status, 413);
  ApiOptions expiring;
  expiring.file_ttl = std::chrono::seconds(0);
  LibreTranslateApi gone(*svc, expiring);
  const HttpResponse r = gone.handle(file_request("a.txt", "Hello."));
  ASSERT_EQ(r.status, 200) << r.body;
  get.path = json::parse(r.body)["translatedFileUrl"].get<std::string>().substr(
      std::string("http://localhost:5000").size());
  EXPECT_EQ(gone.handle(get).status, 404);
  ApiOptions off;
  off.file_char_limit = 0;
  LibreTranslateApi no_files(*svc, off);
  EXPECT_EQ(no_files.handle(file_request("a.txt", "Hello.")).status, 501);
  get.path = "/frontend/settings";
  EXPECT_EQ(json::parse(no_files.handle(get).body)["filesTranslation"], false);
}

// A text file in another encoding than UTF-8 comes back in it, its type saying so: a
// Latin-1 file (no U+FFFD for its bytes), a UTF-16 file with a byte order mark (Windows'
// Notepad), a UTF-8 file with one (kept), an HTML page that declares nothing.
TEST(Api, TextFilesComeBackInTheirEncoding) {
  auto svc = make_service();
  LibreTranslateApi api(*svc, {});
  auto tr = Translator::create(kModel, {});
  ASSERT_TRUE(tr.has_value());
  const std::string utf8 =
      "The kitchen is open.\n\nThe caf\xC3\xA9 is closed. Gr\xC3\xBC\xC3\x9F"
      "e!\n";
  const TextEncoding latin1 = find_text_encoding("latin1").value();
  const TextEncoding utf16 = find_text_encoding("utf-16").value();
  const TextEncoding utf8_bom{TextEncoding::kUtf8, "utf-8", true};
  struct Case {
    std::string name;
    TextEncoding encoding;
    TextFormat format;
    std::string charset;
  };
  for (const Case& c : {Case{"latin1.txt", latin1, TextFormat::kWrapped, "windows-1252"},
                        Case{"notepad.txt", utf16, TextFormat::kWrapped, "utf-16le"},
                        Case{"bom.md", utf8_bom, TextFormat::kMarkdown, "utf-8"},
                        Case{"page.html", latin1, TextFormat::kHtml, "windows-1252"}}) {
    const std::string text = c.format == TextFormat::kHtml ? "<p>" + utf8 + "</p>" : utf8;
    const std::string bytes = encode_text(text, c.encoding).value().bytes;
    ASSERT_NE(bytes, text) << c.name;
    const HttpResponse r = api.handle(file_request(c.name, bytes));
    ASSERT_EQ(r.status, 200) << c.name << ": " << r.body;
    HttpRequest get;
    get.method = "GET";
    get.path = json::parse(r.body)["translatedFileUrl"].get<std::string>().substr(
        std::string("http://localhost:5000").size());
    const HttpResponse d = api.handle(get);
    ASSERT_EQ(d.status, 200) << d.body;
    TranslateOptions o;
    o.format = c.format;
    auto want = tr.value()->translate({text}, o);
    ASSERT_TRUE(want.has_value());
    EXPECT_EQ(d.body, encode_text(want.value()[0], c.encoding).value().bytes) << c.name;
    EXPECT_NE(d.content_type.find("charset=" + c.charset), std::string::npos)
        << c.name << ": " << d.content_type;
    EXPECT_EQ(decode_text(d.body, c.encoding).value().utf8.find("\xEF\xBF\xBD"), std::string::npos) << c.name;
  }
}

#ifdef EDGEMT_HAVE_PDFTOTEXT
// A PDF comes back as a text file of its translated paragraphs, as translate --format pdf
// gives them: each paragraph (pdf_paragraphs) translated as a line of text.
TEST(Api, TranslatesPdfToText) {
  auto svc = make_service();
  LibreTranslateApi api(*svc, {});
  std::stringstream pdf;
  pdf << std::ifstream(std::string(EDGEMT_DOCUMENTS_DIR) + "/sample.pdf", std::ios::binary).rdbuf();
  const HttpResponse r = api.handle(file_request("Report.PDF", pdf.str()));
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string url = json::parse(r.body)["translatedFileUrl"];
  EXPECT_EQ(url.substr(url.size() - 11), ".Report.txt") << url;
  HttpRequest get;
  get.method = "GET";
  get.path = url.substr(std::string("http://localhost:5000").size());
  const HttpResponse d = api.handle(get);
  ASSERT_EQ(d.status, 200) << d.body;
  EXPECT_EQ(d.filename, "Report.txt");
  EXPECT_NE(d.content_type.find("text/plain"), std::string::npos);
  auto paragraphs = pdf_paragraphs(pdf.str());
  ASSERT_TRUE(paragraphs.has_value());
  std::vector<std::string> lines;
  std::istringstream in(paragraphs.value());
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) lines.push_back(l);
  ASSERT_EQ(lines.size(), 4u);
  auto tr = Translator::create(kModel, {});
  ASSERT_TRUE(tr.has_value());
  auto want = tr.value()->translate(lines);
  ASSERT_TRUE(want.has_value());
  std::string expected;
  for (const std::string& t : want.value()) expected += (expected.empty() ? "" : "\n") + t + "\n";
  EXPECT_EQ(d.body, expected);
  // A damaged PDF: 400, saying so.
  const HttpResponse cut = api.handle(file_request("cut.pdf", pdf.str().substr(0, 60)));
  EXPECT_EQ(cut.status, 400);
  EXPECT_NE(cut.body.find("could not read the PDF"), std::string::npos) << cut.body;
}
#endif

TEST(Api, DetectRanksServedSources) {
  auto svc = make_service();
  LibreTranslateApi api(*svc, {});
  HttpRequest r;
  r.method = "POST";
  r.path = "/detect";
  r.content_type = "application/x-www-form-urlencoded";
  r.body = "q=The+file+could+not+be+opened.";
  const HttpResponse out = api.handle(r);
  ASSERT_EQ(out.status, 200) << out.body;
  const json j = json::parse(out.body);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["language"], "en");
  EXPECT_GT(j[0]["confidence"].get<double>(), 90.0);
  // Text the vocabulary barely knows scores lower.
  r.body = "q=%E4%BD%A0%E5%A5%BD%E4%B8%96%E7%95%8C%E4%BD%A0%E5%A5%BD";
  const json cjk = json::parse(api.handle(r).body);
  EXPECT_LT(cjk[0]["confidence"].get<double>(), j[0]["confidence"].get<double>());
}

// Both bundled models share one English+German vocabulary: /detect tells the two apart by
// CLD2, and source "auto" with a target both reach picks the identified one.
TEST(Api, DetectIdentifiesTheLanguage) {
  if (!language_identification_available()) GTEST_SKIP() << "built without CLD2";
  ServiceOptions o;
  o.threads = 1;
  auto s = TranslationService::create({{kModel, "", ""}, {kModelDeEn, "", ""}, {kModelDeEn, "de", "fr"}}, o);
  ASSERT_TRUE(s.has_value()) << s.status().to_string();
  LibreTranslateApi api(*s.value(), {});
  HttpRequest r;
  r.method = "POST";
  r.path = "/detect";
  r.content_type = "application/json";
  for (const auto& [text, want, other] : {std::tuple{"Die Datei konnte nicht ge\xC3\xB6"
                                                     "ffnet werden.",
                                                     "de", "en"},
                                          std::tuple{"The file could not be opened.", "en", "de"},
                                          // German names in English (CLD2 alone: German)
                                          std::tuple{"M\xC3\xBCller and Schr\xC3\xB6"
                                                     "der met in D\xC3\xBCsseldorf yesterday.",
                                                     "en", "de"},
                                          // so short that only the whole text tells
                                          std::tuple{"Vielen Dank f\xC3\xBCr Ihre Hilfe", "de", "en"}}) {
    r.body = json{{"q", text}}.dump();
    const HttpResponse out = api.handle(r);
    ASSERT_EQ(out.status, 200) << out.body;
    const json j = json::parse(out.body);
    ASSERT_EQ(j.size(), 2u) << j;
    EXPECT_EQ(j[0]["language"], want) << j;
    EXPECT_GT(j[0]["confidence"].get<double>(), 50.0) << j;
    EXPECT_EQ(j[1]["language"], other) << j;
    EXPECT_EQ(j[1]["confidence"].get<double>(), 0.0) << j;
  }
  // auto -> fr: English (through German) or German (its model); the text decides.
  auto first = Translator::create(kModel, {});
  auto second = Translator::create(kModelDeEn, {});
  ASSERT_TRUE(first.has_value() && second.has_value());
  const std::string de =
      "Die Datei konnte nicht ge\xC3\xB6"
      "ffnet werden.";
  HttpResponse t = post_json(api, {{"q", de}, {"source", "auto"}, {"target", "fr"}});
  ASSERT_EQ(t.status, 200) << t.body;
  json j = json::parse(t.body);
  EXPECT_EQ(j["detectedLanguage"]["language"], "de") << j;
  EXPECT_EQ(j["translatedText"], second.value()->translate({de}).value()[0]);
  const std::string en = kSentences[3];
  t = post_json(api, {{"q", en}, {"source", "auto"}, {"target", "fr"}});
  ASSERT_EQ(t.status, 200) << t.body;
  j = json::parse(t.body);
  EXPECT_EQ(j["detectedLanguage"]["language"], "en") << j;
  EXPECT_EQ(j["translatedText"],
            second.value()->translate(first.value()->translate({en}).value()).value()[0]);
}

TEST(Api, ApiKeys) {
  auto svc = make_service();
  ApiOptions o;
  o.api_keys = {"secret"};
  LibreTranslateApi api(*svc, o);
  EXPECT_EQ(post_json(api, {{"q", "Print"}, {"source", "en"}, {"target", "de"}}).status, 403);
  EXPECT_EQ(post_json(api, {{"q", "Print"}, {"source", "en"}, {"target", "de"}, {"api_key", "wrong"}}).status,
            403);
  EXPECT_EQ(
      post_json(api, {{"q", "Print"}, {"source", "en"}, {"target", "de"}, {"api_key", "secret"}}).status,
      200);
}

TEST(Api, AlternativesAreDistinctBeamHypotheses) {
  auto svc = make_service();
  LibreTranslateApi api(*svc, {});
  const std::vector<std::string> ref = reference(kSentences);
  const HttpResponse r =
      post_json(api, {{"q", kSentences}, {"source", "en"}, {"target", "de"}, {"alternatives", 3}});
  ASSERT_EQ(r.status, 200) << r.body;
  const json j = json::parse(r.body);
  ASSERT_EQ(j["alternatives"].size(), kSentences.size());
  size_t total = 0;
  for (size_t i = 0; i < kSentences.size(); ++i) {
    // The best is the plain translation (the model's beam is at least 4 here).
    EXPECT_EQ(j["translatedText"][i], ref[i]);
    const auto alts = j["alternatives"][i].get<std::vector<std::string>>();
    EXPECT_LE(alts.size(), 3u);
    for (size_t a = 0; a < alts.size(); ++a) {
      EXPECT_NE(alts[a], ref[i]);
      for (size_t b = 0; b < a; ++b) EXPECT_NE(alts[a], alts[b]);
    }
    total += alts.size();
  }
  EXPECT_GT(total, kSentences.size());  // a 4-beam gives alternatives for most sentences
}

// --rerank: a served pair whose reverse is served too is reranked as the Translator with
// set_reranker reranks (plain text, HTML, alternatives in the reranked order); a pair
// without a served reverse is not; a heavy weight changes some translations.
TEST(Service, RerankLikeTheTranslator) {
  const std::vector<std::string> texts = {"I would like a cup of coffee, please.",
                                          "She forgot her umbrella at the restaurant.",
                                          "The cat sat on the mat. Where is the nearest train station?",
                                          "My brother has been living in Berlin for three years.",
                                          kSentences[0],
                                          kSentences[5]};
  ServiceOptions o;
  o.threads = 1;
  o.rerank = true;
  o.rerank_weight = 3.0f;
  auto s =
      TranslationService::create({{kModel, "en", "de"}, {kModelDeEn, "de", "en"}, {kModel, "en", "fr"}}, o);
  ASSERT_TRUE(s.has_value()) << s.status().to_string();
  EXPECT_EQ(s.value()->reranker(0), 1);
  EXPECT_EQ(s.value()->reranker(1), 0);
  EXPECT_EQ(s.value()->reranker(2), -1);  // no fr->en model
  LibreTranslateApi api(*s.value(), {});
  TranslatorOptions ro;
  ro.max_beam = 1;
  auto plain = Translator::create(kModel, {});
  auto reranked = Translator::create(kModel, {});
  auto reverse = Translator::create(kModelDeEn, ro);
  ASSERT_TRUE(plain.has_value() && reranked.has_value() && reverse.has_value());
  ASSERT_TRUE(reranked.value()->set_reranker(std::move(reverse.value()), 3.0f).is_ok());
  TranslateOptions to;  // as the service translates: its default length limit
  to.max_length_factor = 2.0f;
  to.max_length_offset = 10;
  auto want = reranked.value()->translate(texts, to);
  auto unranked = plain.value()->translate(texts, to);
  ASSERT_TRUE(want.has_value() && unranked.has_value());
  EXPECT_NE(want.value(), unranked.value());  // the weight is heavy enough to change some
  HttpResponse r = post_json(api, {{"q", texts}, {"source", "en"}, {"target", "de"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["translatedText"].get<std::vector<std::string>>(), want.value());
  // Alternatives: the best is still the reranked one.
  r = post_json(api, {{"q", texts}, {"source", "en"}, {"target", "de"}, {"alternatives", 2}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["translatedText"].get<std::vector<std::string>>(), want.value());
  // HTML goes through the same segments.
  r = post_json(api,
                {{"q", "<p>" + texts[1] + "</p>"}, {"source", "en"}, {"target", "de"}, {"format", "html"}});
  ASSERT_EQ(r.status, 200) << r.body;
  if (want.value()[1].find_first_of("<>&\"'") == std::string::npos) {
    EXPECT_EQ(json::parse(r.body)["translatedText"], "<p>" + want.value()[1] + "</p>");
  }
  // The pair without a reverse: the plain translations.
  r = post_json(api, {{"q", texts}, {"source", "en"}, {"target", "fr"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["translatedText"].get<std::vector<std::string>>(), unranked.value());
  // A weight out of range is refused at start.
  o.rerank_weight = -1.0f;
  EXPECT_FALSE(TranslationService::create({{kModel, "en", "de"}, {kModelDeEn, "de", "en"}}, o).has_value());
}

// Concurrent requests are batched together and give the same outputs as one at a time.
TEST(Service, DynamicBatchingKeepsOutputs) {
  const std::vector<std::string> ref = reference(kSentences);
  for (bool batching : {true, false}) {
    ServiceOptions o;
    o.batching = batching;
    o.max_batch = 8;
    o.cache_size = 0;  // every request translated (the clients repeat sentences)
    auto svc = make_service(o);
    LibreTranslateApi api(*svc, {});
    std::vector<std::thread> clients;
    std::atomic<int> wrong{0};
    for (int c = 0; c < 8; ++c) {
      clients.emplace_back([&, c] {
        for (int k = 0; k < 3; ++k) {
          const size_t i = static_cast<size_t>(c + k) % kSentences.size();
          const HttpResponse r = post_json(api, {{"q", kSentences[i]}, {"source", "en"}, {"target", "de"}});
          if (r.status != 200 || json::parse(r.body)["translatedText"] != ref[i]) ++wrong;
        }
      });
    }
    for (auto& t : clients) t.join();
    EXPECT_EQ(wrong.load(), 0) << "batching " << batching;
    const ServiceStats s = svc->stats();
    EXPECT_EQ(s.segments, 24u);
    if (batching) {
      EXPECT_GT(s.max_batch_seen, 1u);  // requests from different clients shared a batch
    } else {
      EXPECT_EQ(s.max_batch_seen, 1u);  // one request (one segment) at a time
    }
  }
}

// The service's default length limit (2 x source tokens + 10) stops a model that repeats
// itself, and gives what the Translator gives with the same limit. The bundled model
// loops on this sentence without a limit ("...KKKKKKKK...titititi...").
TEST(Service, SourceRelativeLengthLimit) {
  const std::string looping = "Cannot load from the Gimp curves text file.";
  auto svc = make_service();
  LibreTranslateApi api(*svc, {});
  const HttpResponse r =
      post_json(api, {{"q", {looping, kSentences[0]}}, {"source", "en"}, {"target", "de"}});
  ASSERT_EQ(r.status, 200) << r.body;
  const auto got = json::parse(r.body)["translatedText"].get<std::vector<std::string>>();
  auto tr = Translator::create(kModel, {});
  ASSERT_TRUE(tr.has_value());
  TranslateOptions limited;
  limited.max_length_factor = 2.0f;
  limited.max_length_offset = 10;
  auto want = tr.value()->translate({looping, kSentences[0]}, limited);
  auto unlimited = tr.value()->translate({looping, kSentences[0]});
  ASSERT_TRUE(want.has_value() && unlimited.has_value());
  EXPECT_EQ(got, want.value());
  EXPECT_EQ(got[1], unlimited.value()[1]);  // a normal sentence is not cut
  EXPECT_LE(got[0].size(), unlimited.value()[0].size());
  std::vector<int32_t> src, out;
  ASSERT_TRUE(tr.value()->model().tokenizer().encode(looping, &src).is_ok());
  ASSERT_TRUE(tr.value()->model().tokenizer().encode(got[0], &out).is_ok());
  // Re-encoding the text approximates the generated tokens (and a looping model's
  // unlimited output is several times longer).
  EXPECT_LE(out.size(), 2 * src.size() + 10 + 4) << got[0];
}

// One long sentence of `clauses` clauses (the server translates sentence by sentence:
// a slow segment is a long sentence).
std::string long_text(int clauses) {
  std::string t;
  for (int i = 0; i < clauses; ++i) {
    std::string c = kSentences[static_cast<size_t>(i) % kSentences.size()];
    while (!c.empty() && (c.back() == '.' || c.back() == '?')) c.pop_back();
    if (i > 0) {
      t += ", and ";
      c[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(c[0])));
    }
    t += c;
  }
  return t + ".";
}

TEST(Service, FullQueueAnswers503AndTooBigAnswers413) {
  ServiceOptions o;
  o.max_batch = 1;
  o.queue_capacity = 8;
  o.cache_size = 0;  // the repeated segments all queue
  auto svc = make_service(o);
  LibreTranslateApi api(*svc, {});
  // More segments than the queue ever holds: 413.
  std::vector<std::string> nine(9, "Print");
  EXPECT_EQ(post_json(api, {{"q", nine}, {"source", "en"}, {"target", "de"}}).status, 413);
  // Fill the queue with 8 slow segments, then a request that does not fit: 503.
  std::vector<std::string> slow(8, long_text(6));
  std::thread filler([&] {
    const HttpResponse r = post_json(api, {{"q", slow}, {"source", "en"}, {"target", "de"}});
    EXPECT_EQ(r.status, 200);
  });
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (svc->stats().queued + svc->stats().segments < 7) {
    if (std::chrono::steady_clock::now() > give_up) {
      ADD_FAILURE() << "the filler's segments never queued";
      filler.join();
      return;
    }
    std::this_thread::yield();
  }
  const HttpResponse busy =
      post_json(api, {{"q", std::vector<std::string>(3, "Print")}, {"source", "en"}, {"target", "de"}});
  EXPECT_EQ(busy.status, 503) << busy.body;
  EXPECT_GT(busy.retry_after_s, 0);
  filler.join();
  EXPECT_GE(svc->stats().rejected, 1u);
  // Afterwards the server answers again.
  EXPECT_EQ(post_json(api, {{"q", "Print"}, {"source", "en"}, {"target", "de"}}).status, 200);
}

TEST(Service, TimeoutAnswers503AndDropsTheWork) {
  ServiceOptions so;
  so.max_batch = 1;
  so.cache_size = 0;  // the 16 equal segments all queue
  auto svc = make_service(so);
  ApiOptions o;
  o.timeout = std::chrono::milliseconds(1);
  LibreTranslateApi api(*svc, o);
  const HttpResponse r =
      post_json(api, {{"q", std::vector<std::string>(16, long_text(8))}, {"source", "en"}, {"target", "de"}});
  EXPECT_EQ(r.status, 503) << r.body;
  EXPECT_NE(json::parse(r.body)["error"].get<std::string>().find("did not finish"), std::string::npos);
  // The service is still usable, and the cancelled segments were not all translated.
  LibreTranslateApi normal(*svc, {});
  EXPECT_EQ(post_json(normal, {{"q", "Print"}, {"source", "en"}, {"target", "de"}}).status, 200);
  EXPECT_LT(svc->stats().segments, 17u);
}

// A batch being translated stops (cancel flag, within one decoder step) once every
// request it serves has timed out, and not while another request that joined one of its
// segments still waits; a later request for the same text is translated afresh.
TEST(Service, TimeoutAnswersStopTheBatchWhenNoRequestWaits) {
  ServiceOptions so;
  so.max_batch = 16;
  auto svc = make_service(so);
  std::vector<std::string> texts;
  for (int i = 0; i < 16; ++i) texts.push_back(long_text(6 + i % 3) + " " + std::to_string(i));
  auto a = svc->submit(0, texts, 0);
  ASSERT_TRUE(a.job != nullptr) << a.message;
  // Wait until the worker holds A's segments (none queued), then B joins one of them.
  for (int i = 0; i < 2000 && svc->stats().queued > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(svc->stats().queued, 0u);
  auto b = svc->submit(0, {texts[3]}, 0);
  ASSERT_TRUE(b.job != nullptr) << b.message;
  EXPECT_EQ(svc->stats().joined, 1u);
  // 16 sentences of 60-90 tokens at beam 4 take far longer than 20 ms on any CPU.
  ASSERT_FALSE(a.job->wait_until(std::chrono::steady_clock::now() + std::chrono::milliseconds(20)));
  EXPECT_EQ(svc->stats().cancelled_batches, 0u) << "B still waits for one of the batch's segments";
  ASSERT_FALSE(b.job->wait_until(std::chrono::steady_clock::now() + std::chrono::milliseconds(1)));
  EXPECT_EQ(svc->stats().cancelled_batches, 1u);
  EXPECT_EQ(b.job->status().code(), StatusCode::kCancelled) << b.job->status().to_string();
  // C asks for B's text again: not joined to the stopped batch, translated on its own.
  auto c = svc->submit(0, {texts[3]}, 0);
  ASSERT_TRUE(c.job != nullptr) << c.message;
  ASSERT_TRUE(c.job->wait_until(std::chrono::steady_clock::now() + std::chrono::seconds(600)));
  ASSERT_TRUE(c.job->status().is_ok()) << c.job->status().to_string();
  auto fresh = make_service(so);  // the same segment on a service that never timed out
  auto f = fresh->submit(0, {texts[3]}, 0);
  ASSERT_TRUE(f.job != nullptr &&
              f.job->wait_until(std::chrono::steady_clock::now() + std::chrono::seconds(600)));
  EXPECT_EQ(c.job->segments()[0].text, f.job->segments()[0].text);
  EXPECT_EQ(svc->stats().joined, 1u);
  // The worker took C after the batch came back: stopped, not run to its end.
  EXPECT_EQ(a.job->status().code(), StatusCode::kCancelled) << a.job->status().to_string();
}

TEST(Service, ShutdownFinishesQueuedWork) {
  auto svc = make_service();
  auto sub = svc->submit(0, {long_text(4), long_text(5), "Print"}, 0);
  ASSERT_TRUE(sub.job != nullptr) << sub.message;
  svc->shutdown();
  ASSERT_TRUE(sub.job->wait_until(std::chrono::steady_clock::now()));
  for (const Job::Segment& s : sub.job->segments()) EXPECT_FALSE(s.text.empty());
  EXPECT_EQ(svc->submit(0, {"Print"}, 0).refusal, TranslationService::Submitted::Refusal::kStopping);
}

// The cache's memory bound: entries go least recently used first once their bytes pass
// it, the count follows refreshes, and an entry larger than the bound is not kept.
TEST(TranslationCache, MemoryBoundEvictsTheLeastRecentlyUsed) {
  const auto key = [](int32_t i) {
    return TranslationCache::key(std::vector<int32_t>{i, i + 1, 0}, 0, false);
  };
  const CachedTranslation small{"klein", {}, {4, 5, 0}, {}};
  const size_t one = TranslationCache::entry_bytes(key(1), small);
  EXPECT_GT(one, key(1).size() + small.text.size() + 12);  // the nodes count too
  TranslationCache c(100, 3 * one + one / 2);
  for (int32_t i = 1; i <= 4; ++i) c.put(key(i), small);
  EXPECT_EQ(c.size(), 3u);
  EXPECT_EQ(c.bytes(), 3 * one);
  CachedTranslation got;
  EXPECT_FALSE(c.get(key(1), &got));  // the oldest went
  ASSERT_TRUE(c.get(key(2), &got));   // 2 is now the most recent: 3 goes next
  // A refresh with a larger value: counted as it is now, and others make room.
  const CachedTranslation bigger{
      std::string(one, 'g'), {"eine Alternative"}, {4, 5, 6, 7, 0}, {0, 1, 1, 2, 3}};
  ASSERT_LE(TranslationCache::entry_bytes(key(4), bigger) + one, c.max_bytes());
  c.put(key(4), bigger);
  EXPECT_LE(c.bytes(), c.max_bytes());
  EXPECT_TRUE(c.get(key(4), &got));
  EXPECT_EQ(got.text, bigger.text);
  EXPECT_TRUE(c.get(key(2), &got));
  EXPECT_FALSE(c.get(key(3), &got));
  EXPECT_EQ(c.bytes(), TranslationCache::entry_bytes(key(4), bigger) + one);
  // Too large for the bound: not kept, and nothing else is evicted for it.
  const CachedTranslation huge{std::string(4 * one, 'x'), {}, {}, {}};
  c.put(key(9), huge);
  EXPECT_FALSE(c.get(key(9), &got));
  EXPECT_EQ(c.size(), 2u);
  EXPECT_EQ(c.bytes(), TranslationCache::entry_bytes(key(4), bigger) + one);
  // Refreshing a key to a value too large drops the old value too (it is stale).
  c.put(key(2), huge);
  EXPECT_FALSE(c.get(key(2), &got));
  EXPECT_EQ(c.bytes(), TranslationCache::entry_bytes(key(4), bigger));
}

// The cache alone: least recently used out first, keys apart by alternatives and alignment.
TEST(TranslationCache, KeepsTheMostRecentlyUsed) {
  TranslationCache c(2);
  const std::vector<int32_t> a = {5, 6, 0}, b = {7, 0}, d = {8, 9, 0};
  const std::string ka = TranslationCache::key(a, 0, false), kb = TranslationCache::key(b, 0, false);
  EXPECT_NE(ka, TranslationCache::key(a, 1, false));
  EXPECT_NE(ka, TranslationCache::key(a, 0, true));
  EXPECT_NE(ka, TranslationCache::key(std::vector<int32_t>{5, 6}, 0, false));
  CachedTranslation got;
  EXPECT_FALSE(c.get(ka, &got));
  c.put(ka, {"A", {"A2"}, {1, 2}, {0, 1}});
  c.put(kb, {"B", {}, {}, {}});
  ASSERT_TRUE(c.get(ka, &got));  // a is now the most recent: b goes first
  EXPECT_EQ(got.text, "A");
  EXPECT_EQ(got.alternatives, std::vector<std::string>{"A2"});
  EXPECT_EQ(got.target_ids, (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(got.alignment, (std::vector<int32_t>{0, 1}));
  c.put(TranslationCache::key(d, 0, false), {"D", {}, {}, {}});
  EXPECT_EQ(c.size(), 2u);
  EXPECT_FALSE(c.get(kb, &got));
  EXPECT_TRUE(c.get(ka, &got));
  c.put(ka, {"A again", {}, {}, {}});  // a refresh replaces, it does not add
  EXPECT_EQ(c.size(), 2u);
  ASSERT_TRUE(c.get(ka, &got));
  EXPECT_EQ(got.text, "A again");
  EXPECT_EQ(c.hits(), 3u);
  EXPECT_EQ(c.misses(), 2u);
  TranslationCache off(0);
  off.put(ka, {"A", {}, {}, {}});
  EXPECT_FALSE(off.get(ka, &got));
  EXPECT_EQ(off.size(), 0u);
}

// Segment results: text, alternatives and alignments, per segment of a job.
std::vector<std::tuple<std::string, std::vector<std::string>, std::vector<int32_t>, std::vector<int32_t>>>
results(TranslationService& svc, const std::vector<std::string>& texts, int alternatives, bool align) {
  auto sub = svc.submit(0, texts, alternatives, align);
  EXPECT_TRUE(sub.job != nullptr) << sub.message;
  std::vector<std::tuple<std::string, std::vector<std::string>, std::vector<int32_t>, std::vector<int32_t>>>
      out;
  if (sub.job == nullptr) return out;
  EXPECT_TRUE(sub.job->wait_until(std::chrono::steady_clock::now() + std::chrono::seconds(120)));
  EXPECT_TRUE(sub.job->status().is_ok());
  for (const Job::Segment& g : sub.job->segments())
    out.emplace_back(g.text, g.alternatives, g.target_ids, g.alignment);
  return out;
}

// A segment asked for again is answered from the cache and one repeated within a request
// is translated once, with the results the model gives (text, alternatives, alignments);
// other alternatives or alignment are other entries; the oldest entries go first.
TEST(Service, CacheAnswersRepeatedSegments) {
  ServiceOptions off;
  off.cache_size = 0;
  auto plain = make_service(off);
  ServiceOptions on;
  on.cache_size = 3;
  auto svc = make_service(on);
  const std::string a = kSentences[0], b = kSentences[1], c = kSentences[2], d = kSentences[3];
  // One request repeating a: translated once.
  const std::vector<std::string> first = {a, b, a, "", a};
  EXPECT_EQ(results(*svc, first, 0, false), results(*plain, first, 0, false));
  ServiceStats s = svc->stats();
  EXPECT_EQ(s.segments, 2u);
  EXPECT_EQ(s.repeats, 2u);
  EXPECT_EQ(s.cache_hits, 0u);
  EXPECT_EQ(s.cached, 2u);
  // The next request: a and b from the cache, c translated.
  const std::vector<std::string> second = {b, c, a};
  EXPECT_EQ(results(*svc, second, 0, false), results(*plain, second, 0, false));
  s = svc->stats();
  EXPECT_EQ(s.segments, 3u);
  EXPECT_EQ(s.cache_hits, 2u);
  EXPECT_EQ(s.cached, 3u);
  // Alternatives and alignments are other entries, with what the model gives.
  for (int alternatives : {0, 2})
    for (bool align : {false, true}) {
      if (alternatives == 0 && !align) continue;
      const std::vector<std::string> texts = {a, a};
      const auto want = results(*plain, texts, alternatives, align);
      EXPECT_EQ(results(*svc, texts, alternatives, align), want);  // translated once
      EXPECT_EQ(results(*svc, texts, alternatives, align), want);  // from the cache
      if (align) {
        EXPECT_FALSE(std::get<3>(want[0]).empty());
      }
      if (alternatives > 0) {
        EXPECT_FALSE(std::get<1>(want[0]).empty());
      }
    }
  s = svc->stats();
  EXPECT_EQ(s.segments, 6u);
  EXPECT_EQ(s.cache_hits, 8u);
  // Capacity 3, most recent first: (a, 2, aligned), (a, 2), (a, aligned). d pushes out
  // (a, aligned); a use of (a, 2, aligned) keeps it; then (a, aligned) pushes out (a, 2),
  // which pushes out d.
  results(*svc, {d}, 0, false);
  const uint64_t before = svc->stats().segments;
  results(*svc, {a}, 2, true);  // held
  EXPECT_EQ(svc->stats().segments, before);
  results(*svc, {a}, 0, true);  // pushed out by d: translated again
  EXPECT_EQ(svc->stats().segments, before + 1);
  results(*svc, {a}, 2, false);  // pushed out by it
  EXPECT_EQ(svc->stats().segments, before + 2);
  results(*svc, {a}, 2, true);  // still held
  EXPECT_EQ(svc->stats().segments, before + 2);
  results(*svc, {d}, 0, false);  // the oldest, pushed out by it
  EXPECT_EQ(svc->stats().segments, before + 3);
  EXPECT_EQ(svc->stats().cached, 3u);
}

// A segment asked for while another request's equal segment waits or is being translated
// joins it: translated once, with the result the model gives. When the request it joined
// times out before its segment is reached, the one that joined is translated in its place.
TEST(Service, SegmentsInFlightAreSharedAcrossRequests) {
  ServiceOptions off;
  off.cache_size = 0;
  auto plain = make_service(off);
  ServiceOptions o;
  o.workers = 1;
  o.max_batch = 1;
  auto svc = make_service(o);
  auto deadline = [] { return std::chrono::steady_clock::now() + std::chrono::seconds(120); };
  auto texts = [](const Job& j) {
    std::vector<std::string> t;
    for (const Job::Segment& g : j.segments()) t.push_back(g.text);
    return t;
  };
  // Eight segments keep the one worker busy (one a batch); the second request asks for
  // the last three of them and one of its own.
  const std::vector<std::string> a(kSentences.begin(), kSentences.end());
  const std::vector<std::string> b = {kSentences[7], kSentences[6], "Open the file.", kSentences[5]};
  auto ja = svc->submit(0, a, 0);
  auto jb = svc->submit(0, b, 0);
  ASSERT_TRUE(ja.job && jb.job);
  ASSERT_TRUE(ja.job->wait_until(deadline()));
  ASSERT_TRUE(jb.job->wait_until(deadline()));
  EXPECT_EQ(texts(*ja.job), reference(a));
  EXPECT_EQ(texts(*jb.job), reference(b));
  ServiceStats s = svc->stats();
  EXPECT_EQ(s.segments, 9u);  // a's eight and "Open the file."
  EXPECT_EQ(s.joined + s.cache_hits, 3u);
  EXPECT_GE(s.joined, 1u);  // a's last segment was still waiting when b came
  // c's segment waits behind eight others; d joins it; c times out (cancelled).
  std::vector<std::string> blocker;
  for (int i = 0; i < 8; ++i)
    blocker.push_back("Chapter " + std::to_string(i + 2) + " describes the settings.");
  const std::vector<std::string> window = {"The window was closed."};
  auto jblock = svc->submit(0, blocker, 0);
  auto jc = svc->submit(0, window, 0);
  auto jd = svc->submit(0, window, 0);
  ASSERT_TRUE(jblock.job && jc.job && jd.job);
  EXPECT_FALSE(jc.job->wait_until(std::chrono::steady_clock::now()));
  ASSERT_TRUE(jd.job->wait_until(deadline()));
  EXPECT_TRUE(jd.job->status().is_ok());
  EXPECT_EQ(texts(*jd.job), reference(window));
  ASSERT_TRUE(jblock.job->wait_until(deadline()));
  const ServiceStats t = svc->stats();
  EXPECT_EQ(t.joined, s.joined + 1);
  EXPECT_EQ(t.segments, s.segments + 9);  // the eight and the window's, once
  // Without the cache nothing is shared.
  auto p1 = plain->submit(0, a, 0), p2 = plain->submit(0, b, 0);
  ASSERT_TRUE(p1.job->wait_until(deadline()) && p2.job->wait_until(deadline()));
  EXPECT_EQ(plain->stats().joined, 0u);
  EXPECT_EQ(plain->stats().segments, 12u);
}

// Over HTTP: the cache is invisible but in /health, and a repeated request gives the same.
TEST(Api, RepeatedRequestsFromTheCache) {
  auto svc = make_service();
  LibreTranslateApi api(*svc, {});
  const json body = {
      {"q", {kSentences[4], kSentences[5], kSentences[4]}}, {"source", "en"}, {"target", "de"}};
  const HttpResponse r1 = post_json(api, body), r2 = post_json(api, body);
  ASSERT_EQ(r1.status, 200) << r1.body;
  ASSERT_EQ(r2.status, 200) << r2.body;
  EXPECT_EQ(r1.body, r2.body);
  const auto got = json::parse(r1.body)["translatedText"].get<std::vector<std::string>>();
  EXPECT_EQ(got, reference({kSentences[4], kSentences[5], kSentences[4]}));
  HttpRequest h;
  h.method = "GET";
  h.path = "/health";
  const json health = json::parse(api.handle(h).body);
  EXPECT_EQ(health["segments"], 2);
  EXPECT_EQ(health["repeated_segments"], 1);
  EXPECT_EQ(health["cache_hits"], 3);
  EXPECT_EQ(health["cached_segments"], 2);
  EXPECT_EQ(health["joined_segments"], 0);
  EXPECT_EQ(health["cancelled_batches"], 0);
  EXPECT_EQ(health["cached_bytes"], svc->stats().cached_bytes);
  EXPECT_GT(health["cached_bytes"].get<size_t>(), kSentences[4].size() + kSentences[5].size());
  EXPECT_LT(health["cached_bytes"].get<size_t>(), 4096u);
  // A memory bound smaller than one entry keeps nothing: the same request is translated again.
  ServiceOptions tiny;
  tiny.cache_bytes = 64;
  auto t = make_service(tiny);
  LibreTranslateApi tapi(*t, {});
  const json one = {{"q", std::vector<std::string>{kSentences[4]}}, {"source", "en"}, {"target", "de"}};
  ASSERT_EQ(post_json(tapi, one).status, 200);
  ASSERT_EQ(post_json(tapi, one).status, 200);
  EXPECT_EQ(t->stats().segments, 2u);
  EXPECT_EQ(t->stats().cached, 0u);
  EXPECT_EQ(t->stats().cached_bytes, 0u);
}

}  // namespace
}  // namespace edgemt::server
