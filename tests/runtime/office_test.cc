// Office documents and e-books (runtime/formats/office_document.h) and their ZIP container
// (runtime/formats/zip_archive.h), on files made by python-docx, python-pptx, odfpy and
// EbookLib (tools/text/make_office_samples.py), with stand-in translations: each unit's
// text upper-cased, tags kept or moved, objects lost.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/formats/office_document.h"
#include "runtime/formats/pdf_text.h"
#include "runtime/formats/zip_archive.h"

namespace edgemt {
namespace {

std::string read_sample(const std::string& name) {
  std::ifstream f(std::string(EDGEMT_DOCUMENTS_DIR) + "/" + name, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

const ZipEntry* entry(const std::vector<ZipEntry>& entries, const std::string& name) {
  for (const ZipEntry& e : entries)
    if (e.name == name) return &e;
  return nullptr;
}

std::string part(const std::string& archive, const std::string& name) {
  auto entries = read_zip(archive);
  EXPECT_TRUE(entries.has_value()) << entries.status().to_string();
  if (!entries) return {};
  const ZipEntry* e = entry(entries.value(), name);
  EXPECT_NE(e, nullptr) << name;
  return e == nullptr ? std::string() : e->data;
}

// A stand-in translation: letters outside tags and character references upper-cased.
std::string shout(const std::string& html) {
  std::string out;
  char until = 0;
  for (char c : html) {
    if (until == 0 && (c == '<' || c == '&')) until = c == '<' ? '>' : ';';
    out.push_back(until != 0 ? c : static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    if (c == until) until = 0;
  }
  return out;
}

std::vector<std::string> shout_all(const std::vector<std::string>& units) {
  std::vector<std::string> t;
  for (const std::string& u : units) t.push_back(shout(u));
  return t;
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

bool has_unit(const OfficeDocument& d, const std::string& u) {
  return std::find(d.units().begin(), d.units().end(), u) != d.units().end();
}

TEST(Zip, RoundTripsStoredAndDeflatedEntries) {
  std::vector<ZipEntry> in(4);
  in[0].name = "mimetype";
  in[0].data = "application/epub+zip";
  in[0].method = 0;
  in[1].name = "a/b.xml";
  for (int i = 0; i < 2000; ++i) in[1].data += "<p>line " + std::to_string(i) + "</p>\n";
  in[2].name = "empty.txt";
  in[3].name = "binary.bin";
  for (int i = 0; i < 256; ++i) in[3].data.push_back(static_cast<char>(i));
  in[3].dos_time = 0x1234;
  in[3].dos_date = 0x5678;
  auto zip = write_zip(in);
  ASSERT_TRUE(zip.has_value()) << zip.status().to_string();
  EXPECT_TRUE(looks_like_zip(zip.value()));
  EXPECT_LT(zip.value().size(), in[1].data.size() / 4);  // deflated
  auto out = read_zip(zip.value());
  ASSERT_TRUE(out.has_value()) << out.status().to_string();
  ASSERT_EQ(out.value().size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(out.value()[i].name, in[i].name);
    EXPECT_EQ(out.value()[i].data, in[i].data);
    EXPECT_EQ(out.value()[i].method, in[i].method);
    EXPECT_EQ(out.value()[i].dos_time, in[i].dos_time);
    EXPECT_EQ(out.value()[i].dos_date, in[i].dos_date);
  }
  // The stored mimetype is readable at its fixed place (OpenDocument and EPUB readers
  // look at bytes 30..).
  EXPECT_EQ(zip.value().substr(30, 8 + 20), "mimetypeapplication/epub+zip");
}

TEST(Zip, RefusesDamagedArchivesWithAMessage) {
  std::vector<ZipEntry> in(1);
  in[0].name = "a.txt";
  in[0].data = std::string(5000, 'x');
  const std::string zip = write_zip(in).value();
  EXPECT_FALSE(read_zip("").has_value());
  EXPECT_FALSE(read_zip("PK\x03\x04 not really").has_value());
  EXPECT_FALSE(read_zip(zip.substr(0, zip.size() - 5)).has_value());  // end record cut
  // Every truncation and every single-byte change either reads or fails cleanly.
  for (size_t cut = 0; cut < zip.size(); cut += 7) (void)read_zip(zip.substr(0, cut));
  for (size_t at = 0; at < zip.size(); ++at) {
    std::string bad = zip;
    bad[at] = static_cast<char>(bad[at] ^ 0x5a);
    auto r = read_zip(bad);
    if (r) {
      ASSERT_EQ(r.value().size(), 1u);
    } else {
      EXPECT_FALSE(r.status().message().empty());
    }
  }
  // The deflated data changed: its CRC or its inflation catches it.
  std::string bad = zip;
  bad[30 + 5 + 3] = static_cast<char>(bad[30 + 5 + 3] ^ 0x01);
  EXPECT_FALSE(read_zip(bad).has_value());
  // A small archive that inflates to more than allowed.
  auto big = read_zip(zip, 1000);
  ASSERT_FALSE(big.has_value());
  EXPECT_NE(big.status().message().find("too large"), std::string::npos) << big.status().message();
}

TEST(Office, RefusesWhatIsNotAnOfficeDocument) {
  auto text = OfficeDocument::parse("Hello, world");
  ASSERT_FALSE(text.has_value());
  EXPECT_NE(text.status().message().find("not a .docx"), std::string::npos) << text.status().message();
  std::vector<ZipEntry> in(1);
  in[0].name = "readme.txt";
  in[0].data = "hello";
  auto other = OfficeDocument::parse(write_zip(in).value());
  ASSERT_FALSE(other.has_value());
  EXPECT_NE(other.status().message().find("ZIP archive with no"), std::string::npos);
  in[0].name = "word/document.xml";
  in[0].data = "<w:document><w:body><w:p><w:r><w:t>Hi</w:t></w:p></w:body></w:document>";
  auto broken = OfficeDocument::parse(write_zip(in).value());
  ASSERT_FALSE(broken.has_value());
  EXPECT_NE(broken.status().message().find("word/document.xml is not well-formed XML"), std::string::npos)
      << broken.status().message();
}

TEST(Office, WordParagraphsAreUnitsWithTheirFormatting) {
  auto doc = OfficeDocument::parse(read_sample("sample.docx"));
  ASSERT_TRUE(doc.has_value()) << doc.status().to_string();
  const OfficeDocument& d = doc.value();
  EXPECT_EQ(d.kind(), OfficeDocument::Kind::kDocx);
  EXPECT_TRUE(has_unit(d, "Please restart your computer to complete the installation."));
  EXPECT_TRUE(has_unit(d, "Installation guide"));
  EXPECT_TRUE(has_unit(d, "The size of the file in bytes."));  // a table cell
  EXPECT_TRUE(has_unit(d, "Confidential document"));           // the header
  EXPECT_TRUE(has_unit(d, "All rights reserved."));            // the footer
  // A comment (its reference mark an object).
  EXPECT_TRUE(std::any_of(d.units().begin(), d.units().end(), [](const std::string& u) {
    return u.find("\">Please check this sentence again.") != std::string::npos;
  }));
  EXPECT_NE(part(d.render(shout_all(d.units())), "word/comments.xml")
                .find(">PLEASE CHECK THIS SENTENCE AGAIN.</w:t>"),
            std::string::npos);
  // Bold "Save" is a span; the rest of the paragraph plain.
  bool click = false, link = false, page = false, brk = false, tab = false;
  for (const std::string& u : d.units()) {
    click = click || (u.find("Click <span id=\"e") == 0 &&
                      u.find(">Save</span> before you close the window.") != std::string::npos);
    link = link ||
           (u.find("Read the <span") == 0 && u.find(">user manual</span> for more") != std::string::npos);
    page = page ||
           (u.find("This is page <img id=\"o") == 0 && u.find("\"> of the document.") != std::string::npos);
    brk = brk || u.find("The file could not be opened.<br id=\"o") == 0;
    tab = tab || u.find("Name:<br id=\"o") == 0;
  }
  EXPECT_TRUE(click);
  EXPECT_TRUE(link);
  EXPECT_TRUE(page);  // the field (begin...end) is one object, its "1" not translated
  EXPECT_TRUE(brk);
  EXPECT_TRUE(tab);
}

TEST(Office, WordTranslationKeepsRunsFieldsAndEverythingElse) {
  const std::string original = read_sample("sample.docx");
  auto doc = OfficeDocument::parse(original);
  ASSERT_TRUE(doc.has_value());
  const std::string out = doc.value().render(shout_all(doc.value().units()));
  const std::string xml = part(out, "word/document.xml");
  EXPECT_NE(xml.find("PLEASE RESTART YOUR COMPUTER TO COMPLETE THE INSTALLATION."), std::string::npos);
  EXPECT_EQ(xml.find("Please restart"), std::string::npos);
  // The bold run: its properties, then its text.
  EXPECT_NE(xml.find("<w:r><w:rPr><w:b/></w:rPr><w:t xml:space=\"preserve\">SAVE</w:t></w:r>"),
            std::string::npos)
      << xml;
  // The hyperlink still wraps its text; the field is whole, its result untouched.
  EXPECT_NE(xml.find("USER MANUAL</w:t></w:r></w:hyperlink>"), std::string::npos);
  EXPECT_EQ(count(xml, "w:fldCharType=\"begin\""), 1u);
  EXPECT_EQ(count(xml, "w:fldCharType=\"end\""), 1u);
  EXPECT_NE(xml.find(" PAGE "), std::string::npos);
  EXPECT_NE(xml.find("<w:tab/>"), std::string::npos);
  EXPECT_NE(xml.find("<w:br/>"), std::string::npos);
  EXPECT_NE(xml.find("THE DAY THE FILE WAS LAST CHANGED."), std::string::npos);
  EXPECT_NE(part(out, "word/header1.xml").find("CONFIDENTIAL DOCUMENT"), std::string::npos);
  EXPECT_NE(part(out, "word/footer1.xml").find("ALL RIGHTS RESERVED."), std::string::npos);
  // Parts not translated are byte for byte the same; the result parses again, into the
  // translated units.
  auto before = read_zip(original), after = read_zip(out);
  ASSERT_TRUE(before.has_value() && after.has_value());
  ASSERT_EQ(before.value().size(), after.value().size());
  for (size_t i = 0; i < before.value().size(); ++i) {
    EXPECT_EQ(before.value()[i].name, after.value()[i].name);
    const std::string& name = before.value()[i].name;
    if (name != "word/document.xml" && name != "word/comments.xml" && name.find("word/header") != 0 &&
        name.find("word/footer") != 0) {
      EXPECT_EQ(before.value()[i].data, after.value()[i].data) << name;
    }
  }
  auto again = OfficeDocument::parse(out);
  ASSERT_TRUE(again.has_value()) << again.status().to_string();
  EXPECT_EQ(again.value().units().size(), doc.value().units().size());
  EXPECT_TRUE(has_unit(again.value(), "PLEASE RESTART YOUR COMPUTER TO COMPLETE THE INSTALLATION."));
}

// A HYPERLINK field's result, the link's text, is translated inside the field, complex
// (fldChar begin ... end) or simple (w:fldSimple), and so are the results of the other
// fields whose result is text from words (a REF's, a STYLEREF's); other fields (PAGE,
// DATE), and such fields that hold another field, no text or no end, are kept whole.
TEST(Office, WordFieldsWithTextResultsAreTranslated) {
  auto entries = read_zip(read_sample("sample.docx"));
  ASSERT_TRUE(entries.has_value());
  std::string* xml = nullptr;
  for (ZipEntry& e : entries.value())
    if (e.name == "word/document.xml") xml = &e.data;
  ASSERT_NE(xml, nullptr);
  auto r = [](const std::string& inner) { return "<w:r>" + inner + "</w:r>"; };
  auto fld = [&](const std::string& type) { return r("<w:fldChar w:fldCharType=\"" + type + "\"/>"); };
  auto t = [&](const std::string& text) { return r("<w:t xml:space=\"preserve\">" + text + "</w:t>"); };
  auto instr = [&](const std::string& text) {
    return r("<w:instrText xml:space=\"preserve\">" + text + "</w:instrText>");
  };
  auto p = [](const std::string& runs) { return "<w:p>" + runs + "</w:p>"; };
  const std::string link =
      fld("begin") + instr(" HYPERLINK \"https://example.org/\" \\o \"Home\" ") + fld("separate");
  const std::string page = fld("begin") + instr(" PAGE ") + fld("separate");
  const std::string ref = fld("begin") + instr(" REF _Ref123 \\h ") + fld("separate");
  const std::string date = fld("begin") + instr(" DATE \\@ \"MMMM d, yyyy\" ") + fld("separate");
  const std::string body =
      p(t("Visit ") + link + r("<w:rPr><w:u w:val=\"single\"/></w:rPr><w:t>our website</w:t>") + fld("end") +
        t(" for news.")) +
      p(t("See ") + "<w:fldSimple w:instr=\" hyperlink &quot;https://example.org/&quot; \">" +
        t("the home page") + "</w:fldSimple>" + t(" today.")) +
      p(t("Page ") + page + t("3") + fld("end") + t(" of the guide.")) +
      p(t("Nested ") + link + t("outer ") + page + t("4") + fld("end") + fld("end") + t(" here.")) +
      p(t("Empty ") + link + fld("end") + t(" link.")) +
      p(t("As ") + ref + t("the first chapter") + fld("end") + t(" says, ") +
        "<w:fldSimple w:instr=\" STYLEREF  &quot;Heading 1&quot; \">" + t("Getting started") +
        "</w:fldSimple>" + t(" is next.")) +
      p(t("Written on ") + date + t("December 3, 2026") + fld("end") + t(" at home.")) +
      p(t("Open ") + link + t("never ends"));
  const size_t b = xml->find("<w:body>"), e = xml->find("<w:sectPr");
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  xml->replace(b + 8, e - b - 8, body);
  auto bytes = write_zip(entries.value());
  ASSERT_TRUE(bytes.has_value());
  auto doc = OfficeDocument::parse(bytes.value());
  ASSERT_TRUE(doc.has_value()) << doc.status().to_string();
  const std::vector<std::string>& u = doc.value().units();
  ASSERT_EQ(u.size(), 11u);  // and the sample's header, footer and comment
  EXPECT_EQ(u[0].substr(0, 12), "Visit <span ");
  EXPECT_NE(u[0].find(">our website</span> for news."), std::string::npos) << u[0];
  EXPECT_EQ(u[1], "<span id=\"e0\">See </span>the home page<span id=\"e0\"> today.</span>");
  EXPECT_EQ(u[2], "Page <img id=\"o1\"> of the guide.");
  EXPECT_EQ(u[3], "Nested <img id=\"o1\"> here.");
  EXPECT_EQ(u[4], "Empty <img id=\"o1\"> link.");
  EXPECT_EQ(
      u[5],
      "As <span id=\"e1\">the first chapter</span> says, <span id=\"e2\">Getting started</span> is next.");
  EXPECT_EQ(u[6], "Written on <img id=\"o1\"> at home.");
  EXPECT_EQ(u[7], "Open <img id=\"o1\">");

  const std::string out = doc.value().render(shout_all(u));
  const std::string x = part(out, "word/document.xml");
  EXPECT_NE(
      x.find("\\o \"Home\" </w:instrText></w:r><w:r><w:fldChar w:fldCharType=\"separate\"/></w:r>"
             "<w:r><w:rPr><w:u w:val=\"single\"/></w:rPr><w:t xml:space=\"preserve\">OUR WEBSITE</w:t></w:r>"
             "<w:r><w:fldChar w:fldCharType=\"end\"/></w:r>"),
      std::string::npos)
      << x;
  EXPECT_NE(x.find("&quot; \"><w:r><w:t xml:space=\"preserve\">THE HOME PAGE</w:t></w:r></w:fldSimple>"),
            std::string::npos)
      << x;
  EXPECT_NE(x.find("\\h </w:instrText></w:r><w:r><w:fldChar w:fldCharType=\"separate\"/></w:r>"
                   "<w:r><w:t xml:space=\"preserve\">THE FIRST CHAPTER</w:t></w:r>"
                   "<w:r><w:fldChar w:fldCharType=\"end\"/></w:r>"),
            std::string::npos)
      << x;
  EXPECT_NE(x.find("&quot; \"><w:r><w:t xml:space=\"preserve\">GETTING STARTED</w:t></w:r></w:fldSimple>"),
            std::string::npos)
      << x;
  for (const char* kept :
       {">3</w:t>", ">outer </w:t>", ">4</w:t>", ">never ends</w:t>", "PAGE", ">December 3, 2026</w:t>"})
    EXPECT_NE(x.find(kept), std::string::npos) << kept;
  EXPECT_EQ(count(x, "w:fldCharType=\"begin\""), 8u);
  EXPECT_EQ(count(x, "w:fldCharType=\"separate\""), 8u);
  EXPECT_EQ(count(x, "w:fldCharType=\"end\""), 7u);
  EXPECT_EQ(count(x, "HYPERLINK"), 4u);
  auto again = OfficeDocument::parse(out);
  ASSERT_TRUE(again.has_value()) << again.status().to_string();
  ASSERT_EQ(again.value().units().size(), 11u);
  EXPECT_NE(again.value().units()[0].find(">OUR WEBSITE</span> FOR NEWS."), std::string::npos);
}

TEST(Office, WordRunsFollowTheirWordsAndLostObjectsComeBack) {
  auto doc = OfficeDocument::parse(read_sample("sample.docx"));
  ASSERT_TRUE(doc.has_value());
  std::vector<std::string> t = doc.value().units();
  for (std::string& u : t) {
    if (u.find("Click <span") == 0) {  // the bold word moved to the front
      const size_t a = u.find("<span"), b = u.find("</span>") + 7;
      u = u.substr(a, b - a) + " klicken, bevor Sie das Fenster schließen.";
    } else if (u.find("Name:<br") == 0) {  // the tab lost
      u = "Name: der Name des neuen Benutzers";
    }
  }
  const std::string xml = part(doc.value().render(t), "word/document.xml");
  const size_t save = xml.find(">Save</w:t>"), rest = xml.find("klicken, bevor");
  ASSERT_NE(save, std::string::npos);
  ASSERT_NE(rest, std::string::npos);
  EXPECT_LT(save, rest);
  EXPECT_NE(xml.find("<w:rPr><w:b/></w:rPr><w:t xml:space=\"preserve\">Save</w:t>"), std::string::npos);
  // The tab is kept, after the text, in its paragraph.
  const size_t name = xml.find("Name: der Name des neuen Benutzers");
  ASSERT_NE(name, std::string::npos);
  EXPECT_NE(xml.find("<w:tab/>", name), std::string::npos);
  EXPECT_LT(xml.find("<w:tab/>", name), xml.find("</w:p>", name));
}

TEST(Office, PowerPointSlidesNotesAndTextBoxes) {
  auto doc = OfficeDocument::parse(read_sample("sample.pptx"));
  ASSERT_TRUE(doc.has_value()) << doc.status().to_string();
  EXPECT_EQ(doc.value().kind(), OfficeDocument::Kind::kPptx);
  EXPECT_TRUE(has_unit(doc.value(), "Welcome to the new version"));
  EXPECT_TRUE(has_unit(doc.value(), "Thank the audience for coming."));
  EXPECT_TRUE(has_unit(doc.value(), "Questions are welcome at any time."));
  const std::string out = doc.value().render(shout_all(doc.value().units()));
  const std::string slide = part(out, "ppt/slides/slide1.xml");
  EXPECT_NE(slide.find("<a:t>WELCOME TO THE NEW VERSION</a:t>"), std::string::npos) << slide;
  EXPECT_NE(slide.find("<a:rPr i=\"1\"/><a:t>SETTINGS</a:t>"), std::string::npos) << slide;
  EXPECT_NE(part(out, "ppt/notesSlides/notesSlide1.xml").find("THANK THE AUDIENCE"), std::string::npos);
  // A chart's title; its categories and series names (cached data) stay.
  EXPECT_TRUE(has_unit(doc.value(), "Sales by region"));
  const std::string chart = part(out, "ppt/charts/chart1.xml");
  EXPECT_NE(chart.find("<a:t>SALES BY REGION</a:t>"), std::string::npos) << chart;
  EXPECT_NE(chart.find("<c:v>North</c:v>"), std::string::npos) << chart;
  EXPECT_TRUE(OfficeDocument::parse(out).has_value());
}

TEST(Office, OpenDocumentTextAndPresentation) {
  auto doc = OfficeDocument::parse(read_sample("sample.odt"));
  ASSERT_TRUE(doc.has_value()) << doc.status().to_string();
  EXPECT_EQ(doc.value().kind(), OfficeDocument::Kind::kOpenDocument);
  EXPECT_TRUE(has_unit(doc.value(), "Installation guide"));
  EXPECT_TRUE(has_unit(doc.value(), "Two spaces."));
  const std::string out = doc.value().render(shout_all(doc.value().units()));
  const std::string xml = part(out, "content.xml");
  EXPECT_NE(xml.find(">SAVE</text:span> BEFORE YOU CLOSE THE WINDOW."), std::string::npos) << xml;
  EXPECT_NE(xml.find("xlink:href=\"https://example.org/manual\""), std::string::npos);
  EXPECT_NE(xml.find(">USER MANUAL</text:a>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("THE FILE COULD NOT BE OPENED.<text:line-break/>CHECK THAT IT EXISTS."),
            std::string::npos);
  EXPECT_NE(xml.find("<text:tab/>"), std::string::npos);
  // The mimetype entry stays first and stored.
  auto entries = read_zip(out);
  ASSERT_TRUE(entries.has_value());
  EXPECT_EQ(entries.value()[0].name, "mimetype");
  EXPECT_EQ(entries.value()[0].method, 0);

  auto odp = OfficeDocument::parse(read_sample("sample.odp"));
  ASSERT_TRUE(odp.has_value()) << odp.status().to_string();
  EXPECT_TRUE(has_unit(odp.value(), "The program starts faster than before."));
  EXPECT_NE(
      part(odp.value().render(shout_all(odp.value().units())), "content.xml").find("FASTER THAN BEFORE"),
      std::string::npos);
}

TEST(Office, SpreadsheetCellsAreUnitsNumbersAndFormulasStay) {
  // Excel, as openpyxl writes it: strings in the cells (inline), one with a bold word.
  auto xlsx = OfficeDocument::parse(read_sample("sample.xlsx"));
  ASSERT_TRUE(xlsx.has_value()) << xlsx.status().to_string();
  EXPECT_EQ(xlsx.value().kind(), OfficeDocument::Kind::kXlsx);
  EXPECT_TRUE(has_unit(xlsx.value(), "The file could not be opened."));
  EXPECT_TRUE(has_unit(xlsx.value(), "Click <span id=\"e1\">Save</span> before you close the window."));
  std::string sheet = part(xlsx.value().render(shout_all(xlsx.value().units())), "xl/worksheets/sheet1.xml");
  EXPECT_NE(sheet.find("<is><t xml:space=\"preserve\">THE FILE COULD NOT BE OPENED.</t></is>"),
            std::string::npos)
      << sheet;
  EXPECT_NE(sheet.find("<r><rPr><b val=\"1\"/></rPr><t xml:space=\"preserve\">SAVE</t></r>"),
            std::string::npos);
  EXPECT_NE(sheet.find("<f>B2*2</f>"), std::string::npos);
  EXPECT_NE(sheet.find("<v>12.5</v>"), std::string::npos);
  // A chart's title, in a DrawingML part of its own; its reference to the sheet stays.
  EXPECT_TRUE(has_unit(xlsx.value(), "Prices of the products"));
  const std::string chart =
      part(xlsx.value().render(shout_all(xlsx.value().units()), "de"), "xl/charts/chart1.xml");
  EXPECT_NE(chart.find("<a:t>PRICES OF THE PRODUCTS</a:t>"), std::string::npos) << chart;
  EXPECT_NE(chart.find("<f>'Prices'!$B$2</f>"), std::string::npos) << chart;
  // As Excel writes it: shared strings, a rich one with its phonetic reading last.
  std::vector<ZipEntry> in(2);
  in[0].name = "xl/workbook.xml";
  in[0].data = "<workbook/>";
  in[1].name = "xl/sharedStrings.xml";
  in[1].data =
      "<sst count=\"2\"><si><t>Hello world.</t></si><si><r><rPr><b/></rPr><t>Bold</t></r><r><t "
      "xml:space=\"preserve\">"
      " words.</t></r><rPh sb=\"0\" eb=\"1\"><t>x</t></rPh><phoneticPr fontId=\"1\"/></si></sst>";
  auto shared = OfficeDocument::parse(write_zip(in).value());
  ASSERT_TRUE(shared.has_value()) << shared.status().to_string();
  ASSERT_EQ(shared.value().units().size(), 2u);
  EXPECT_EQ(shared.value().units()[0], "Hello world.");
  EXPECT_EQ(shared.value().units()[1], "<span id=\"e0\">Bold</span> words.");
  EXPECT_EQ(part(shared.value().render(shout_all(shared.value().units())), "xl/sharedStrings.xml"),
            "<sst count=\"2\"><si><t xml:space=\"preserve\">HELLO WORLD.</t></si><si><r><rPr><b/></rPr><t "
            "xml:space=\"preserve\">BOLD</t></r><r><t xml:space=\"preserve\"> WORDS.</t></r><rPh sb=\"0\" "
            "eb=\"1\"><t>x</t></rPh><phoneticPr fontId=\"1\"/></si></sst>");
  // OpenDocument: string cells translated, a number's cell keeps the text showing it.
  auto ods = OfficeDocument::parse(read_sample("sample.ods"));
  ASSERT_TRUE(ods.has_value()) << ods.status().to_string();
  EXPECT_TRUE(has_unit(ods.value(), "Please restart your computer to complete the installation."));
  EXPECT_FALSE(has_unit(ods.value(), "12.5"));
  const std::string content = part(ods.value().render(shout_all(ods.value().units())), "content.xml");
  EXPECT_NE(content.find("<text:p>THE FILE COULD NOT BE OPENED.</text:p>"), std::string::npos) << content;
  EXPECT_NE(content.find("office:value=\"12.5\"><text:p>12.5</text:p>"), std::string::npos) << content;
}

TEST(Office, EpubChaptersAreHtmlUnits) {
  auto doc = OfficeDocument::parse(read_sample("sample.epub"));
  ASSERT_TRUE(doc.has_value()) << doc.status().to_string();
  EXPECT_EQ(doc.value().kind(), OfficeDocument::Kind::kEpub);
  bool chapter = false;
  for (const std::string& u : doc.value().units())
    chapter = chapter || u.find("<b>Save</b>") != std::string::npos;
  EXPECT_TRUE(chapter);
  EXPECT_TRUE(has_unit(doc.value(), "A short guide"));  // the package document's title
  const std::string out = doc.value().render(shout_all(doc.value().units()));
  EXPECT_NE(part(out, "EPUB/chap_01.xhtml").find("PLEASE RESTART"), std::string::npos);
  const std::string opf = part(out, "EPUB/content.opf");
  EXPECT_NE(opf.find(">A SHORT GUIDE</dc:title>"), std::string::npos) << opf;
  EXPECT_NE(opf.find(">edgemt-sample-1</dc:identifier>"), std::string::npos) << opf;
  EXPECT_NE(opf.find(">en</dc:language>"), std::string::npos) << opf;
  auto entries = read_zip(out);
  ASSERT_TRUE(entries.has_value());
  EXPECT_EQ(entries.value()[0].name, "mimetype");
  EXPECT_EQ(entries.value()[0].method, 0);
}

// A Word document as Word writes it: runs split by revision ids and spelling marks, a
// bookmark, a text box (a paragraph inside a drawing inside a paragraph).
std::string word_file(const std::string& body) {
  std::vector<ZipEntry> in(2);
  in[0].name = "[Content_Types].xml";
  in[0].data = "<?xml version=\"1.0\"?><Types/>";
  in[1].name = "word/document.xml";
  in[1].data =
      "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\r\n<w:document xmlns:w=\"x\"><w:body>" +
      body + "</w:body></w:document>";
  return write_zip(in).value();
}

TEST(Office, WordRevisionSplitsAndSpellingMarksAreOneRun) {
  const std::string lang = "<w:rPr><w:lang w:val=\"en-US\"/></w:rPr>";
  const std::string file = word_file(
      "<w:p w:rsidR=\"00A1\"><w:pPr><w:jc w:val=\"center\"/></w:pPr><w:bookmarkStart w:id=\"0\" "
      "w:name=\"_GoBack\"/>"
      "<w:r w:rsidR=\"001\">" +
      lang +
      "<w:t xml:space=\"preserve\">The </w:t></w:r><w:proofErr w:type=\"spellStart\"/>"
      "<w:r w:rsidR=\"002\">" +
      lang +
      "<w:t>quick</w:t></w:r><w:proofErr w:type=\"spellEnd\"/>"
      "<w:r w:rsidRPr=\"003\">" +
      lang +
      "<w:t xml:space=\"preserve\"> fox &amp; the well</w:t><w:noBreakHyphen/><w:softHyphen/><w:t>fed "
      "dog.</w:t></w:r>"
      "<w:bookmarkEnd w:id=\"0\"/></w:p>"
      "<w:p><w:r><w:t>Anchor text.</w:t></w:r><w:r><w:drawing><wp:inline><w:txbxContent>"
      "<w:p><w:r><w:t>Text in a box.</w:t></w:r></w:p></w:txbxContent></wp:inline></w:drawing></w:r></w:p>"
      "<w:p><w:pPr><w:pStyle w:val=\"Empty\"/></w:pPr></w:p>"
      "<w:p><w:r><w:t xml:space=\"preserve\">Due on "
      "</w:t></w:r><w:sdt><w:sdtPr><w:date/></w:sdtPr><w:sdtContent>"
      "<w:r><w:t>Monday</w:t></w:r></w:sdtContent></w:sdt><w:r><w:t>.</w:t></w:r></w:p>");
  auto doc = OfficeDocument::parse(file);
  ASSERT_TRUE(doc.has_value()) << doc.status().to_string();
  ASSERT_EQ(doc.value().units().size(), 4u);
  EXPECT_EQ(doc.value().units()[0], "The quick fox &amp; the well\u2011fed dog.");
  EXPECT_EQ(doc.value().units()[1].find("Anchor text.<img id=\"o"), 0u) << doc.value().units()[1];
  EXPECT_EQ(doc.value().units()[2], "Text in a box.");
  const std::string xml = part(doc.value().render(shout_all(doc.value().units())), "word/document.xml");
  EXPECT_NE(xml.find("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\r\n<w:document"),
            std::string::npos);
  EXPECT_NE(
      xml.find("<w:p w:rsidR=\"00A1\"><w:pPr><w:jc w:val=\"center\"/></w:pPr><w:bookmarkStart w:id=\"0\" "
               "w:name=\"_GoBack\"/><w:r>" +
               lang +
               "<w:t xml:space=\"preserve\">THE QUICK FOX &amp; THE WELL\u2011FED DOG.</w:t>"
               "</w:r><w:bookmarkEnd w:id=\"0\"/></w:p>"),
      std::string::npos)
      << xml;
  EXPECT_NE(
      xml.find("<w:r><w:t xml:space=\"preserve\">ANCHOR TEXT.</w:t><w:drawing><wp:inline><w:txbxContent>"
               "<w:p><w:r><w:t xml:space=\"preserve\">TEXT IN A BOX.</w:t></w:r></w:p>"),
      std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<w:p><w:pPr><w:pStyle w:val=\"Empty\"/></w:pPr></w:p>"), std::string::npos);
  // The content control: one unit with the text around it, its text inside it again.
  EXPECT_EQ(doc.value().units()[3], "Due on <span id=\"e1\">Monday</span>.");
  EXPECT_NE(
      xml.find("<w:p><w:r><w:t xml:space=\"preserve\">DUE ON </w:t></w:r><w:sdt><w:sdtPr><w:date/></w:sdtPr>"
               "<w:sdtContent><w:r><w:t xml:space=\"preserve\">MONDAY</w:t></w:r></w:sdtContent></w:sdt><w:r>"
               "<w:t xml:space=\"preserve\">.</w:t></w:r></w:p>"),
      std::string::npos)
      << xml;
}

// With the translation's language, each document says its text is in it; without,
// nothing of that changes.
TEST(Office, TheTranslationSaysItsLanguage) {
  // An OpenDocument text as LibreOffice writes its language: in the styles, the metadata.
  std::vector<ZipEntry> odt(3);
  odt[0].name = "mimetype";
  odt[0].data = "application/vnd.oasis.opendocument.text";
  odt[0].method = 0;
  odt[1].name = "content.xml";
  odt[1].data =
      "<office:document-content><office:automatic-styles><style:style "
      "style:name=\"T1\"><style:text-properties "
      "fo:font-weight=\"bold\" fo:language=\"en\" fo:country=\"GB\"/></style:style></office:automatic-styles>"
      "<office:body><office:text><text:p>Hello.</text:p></office:text></office:body></"
      "office:document-content>";
  odt[2].name = "meta.xml";
  odt[2].data =
      "<office:document-meta><office:meta><dc:language>en-GB</dc:language></office:meta></"
      "office:document-meta>";
  const std::string odt_file = write_zip(odt).value();
  struct Case {
    std::string file;
    const char* part;
    std::string before, after;
  };
  for (const Case& c :
       {Case{read_sample("sample.docx"), "word/styles.xml", "<w:lang w:val=\"en-US\"",
             "<w:lang w:val=\"de-DE\""},
        Case{read_sample("sample.pptx"), "ppt/presentation.xml", "<a:defRPr lang=\"en-US\"",
             "<a:defRPr lang=\"de-DE\""},
        Case{odt_file, "content.xml", "fo:language=\"en\" fo:country=\"GB\"",
             "fo:language=\"de\" fo:country=\"DE\""},
        Case{odt_file, "meta.xml", ">en-GB</dc:language>", ">de</dc:language>"},
        Case{read_sample("sample.epub"), "EPUB/chap_01.xhtml", "lang=\"en\" xml:lang=\"en\"",
             "lang=\"de\" xml:lang=\"de\""},
        Case{read_sample("sample.epub"), "EPUB/content.opf", ">en</dc:language>", ">de</dc:language>"}}) {
    auto doc = OfficeDocument::parse(c.file);
    ASSERT_TRUE(doc.has_value()) << c.part << ": " << doc.status().to_string();
    const std::string in = part(c.file, c.part);
    ASSERT_NE(in.find(c.before), std::string::npos) << c.part << " lacks " << c.before;
    const std::string kept = part(doc.value().render(doc.value().units()), c.part);
    EXPECT_NE(kept.find(c.before), std::string::npos) << c.part;
    const std::string out = part(doc.value().render(doc.value().units(), "de"), c.part);
    EXPECT_EQ(out.find(c.before), std::string::npos) << c.part;
    EXPECT_NE(out.find(c.after), std::string::npos) << c.part << ":\n" << out;
  }
  // A code with a region is used as it is.
  auto doc = OfficeDocument::parse(read_sample("sample.docx"));
  ASSERT_TRUE(doc.has_value());
  EXPECT_NE(part(doc.value().render({}, "pt-BR"), "word/styles.xml").find("<w:lang w:val=\"pt-BR\""),
            std::string::npos);
}

// A text element holding more than text (not what the formats allow, but what a file may
// hold): kept whole rather than rewritten without it.
TEST(Office, TextElementsHoldingElementsAreKept) {
  const std::string file = word_file(
      "<w:p><w:r><w:t>Keep <w:x>this</w:x> whole.</w:t></w:r><w:r><w:t xml:space=\"preserve\"> Then go "
      "on.</w:t></w:r>"
      "<w:proofErr><w:t>odd</w:t></w:proofErr></w:p>");
  auto doc = OfficeDocument::parse(file);
  ASSERT_TRUE(doc.has_value()) << doc.status().to_string();
  ASSERT_EQ(doc.value().units().size(), 1u);
  EXPECT_EQ(doc.value().units()[0].find("<img id=\"o0\"> Then go on.<img id=\"o2\">"), 0u)
      << doc.value().units()[0];
  const std::string xml = part(doc.value().render(shout_all(doc.value().units())), "word/document.xml");
  EXPECT_NE(xml.find("<w:t>Keep <w:x>this</w:x> whole.</w:t>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<w:proofErr><w:t>odd</w:t></w:proofErr>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("THEN GO ON."), std::string::npos) << xml;
}

TEST(Office, MissingTranslationsKeepTheText) {
  auto doc = OfficeDocument::parse(read_sample("sample.docx"));
  ASSERT_TRUE(doc.has_value());
  const std::string xml = part(doc.value().render({}), "word/document.xml");
  EXPECT_NE(xml.find("Please restart your computer to complete the installation."), std::string::npos);
  EXPECT_NE(xml.find(">Save</w:t>"), std::string::npos);
}

TEST(Office, DamagedDocumentsFailCleanly) {
  const std::string docx = read_sample("sample.docx");
  auto bounded = OfficeDocument::parse(docx, 10000);  // inflates to more than allowed
  ASSERT_FALSE(bounded.has_value());
  EXPECT_NE(bounded.status().message().find("too large"), std::string::npos) << bounded.status().message();
  for (size_t cut = 0; cut < docx.size(); cut += 997)
    EXPECT_FALSE(OfficeDocument::parse(docx.substr(0, cut)).has_value());
}

// PDF (runtime/formats/pdf_text.h): pdftotext's blocks become paragraphs, one a line with a
// blank line between; lines are joined, a word hyphenated at a line end ("pro-" /
// "gram", a soft hyphen) joined again but not before a capital or a non-letter; entities
// decoded; empty blocks and control characters dropped.
TEST(Pdf, BlocksBecomeParagraphs) {
  auto word = [](const std::string& w) { return "<word xMin=\"1\" yMin=\"2\">" + w + "</word>"; };
  auto line = [](const std::string& words) { return "<line xMin=\"1\">" + words + "</line>\n"; };
  const std::string xhtml =
      "<!DOCTYPE html><html><head></head><body><doc>\n<page width=\"612\" height=\"792\"><flow>\n"
      "<block xMin=\"72\">" +
      line(word("Installing") + word("the") + word("pro-")) + line(word("gram")) + "</block>\n<block>" +
      line(word("Salt") + word("&amp;") + word("pepper-")) + line(word("Free") + word("caf&#xE9;")) +
      line(word("ma\xC2\xAD")) + line(word("chine") + word("\x01x&lt;y&gt;")) + line(word("Ein-")) +
      line(word("\xC3\xBC"
                "ber")) +
      line(word("2-")) + line(word("3")) + "</block>\n" + "<block>" + line("") +
      "</block>\n</flow></page>\n<page><flow><block>" + line(word("Page") + word("two.")) +
      "</block></flow></page>\n</doc></body></html>\n";
  EXPECT_EQ(pdf_layout_to_paragraphs(xhtml),
            "Installing the program\n\nSalt & pepper- Free caf\xC3\xA9 machine x<y> Ein\xC3\xBC"
            "ber 2- 3\n\n"
            "Page two.\n");
  EXPECT_EQ(pdf_layout_to_paragraphs(""), "");
  EXPECT_EQ(pdf_layout_to_paragraphs("<word>unfinished"), "");
  EXPECT_EQ(pdf_layout_to_paragraphs("not xml at all <<<>>> </block>"), "");
}

// Running headers, footers and page numbers (page furniture) are left out; a heading at
// one page's top, a number in a table, text repeated on too few pages (and not beside a
// page number) or away from the edges, and everything of a one-page document stay.
TEST(Pdf, PageFurnitureIsLeftOut) {
  // A block of one line at `top` (points from the page's top), 10 points high.
  auto block = [](double top, const std::string& text) {
    return "<block xMin=\"72\" yMin=\"" + std::to_string(top) + "\" xMax=\"300\" yMax=\"" +
           std::to_string(top + 10) + "\"><line><word>" + text + "</word></line></block>\n";
  };
  auto page = [](const std::string& blocks, const char* height = "792") {
    return std::string("<page width=\"612\" height=\"") + height + "\"><flow>" + blocks + "</flow></page>\n";
  };
  auto doc = [](const std::string& pages) { return "<doc>\n" + pages + "</doc>\n"; };
  std::string pages;
  for (int p = 0; p < 5; ++p) {
    std::string b = block(30 + (p % 2) * 3, "Annual report 2025, part " + std::to_string(p + 1));
    if (p == 1) b += block(64, "Summary");
    if (p == 3) b += block(60, "42");
    if (p == 1 || p == 3) b += block(740, "Confidential");
    b += block(80 + 20 * p, "Body " + std::to_string(p) + " text.");
    b += block(400, "Repeated in the middle.");
    // A chapter's title beside the page numbers of two of its pages.
    if (p == 2 || p == 3) b += block(752, "Chapter 2: Setup");
    // Folios: pages 3-7 of a longer book, written three ways.
    b += block(750, p == 0 ? "3" : p == 1 ? "- 4 -" : p == 2 ? "Page 5 of 9" : p == 3 ? "6" : "Seite 7");
    pages += page(b);
  }
  EXPECT_EQ(pdf_layout_to_paragraphs(doc(pages)),
            "Body 0 text.\n\nRepeated in the middle.\n\n"
            "Summary\n\nConfidential\n\nBody 1 text.\n\nRepeated in the middle.\n\n"
            "Body 2 text.\n\nRepeated in the middle.\n\n"
            "42\n\nConfidential\n\nBody 3 text.\n\nRepeated in the middle.\n\n"
            "Body 4 text.\n\nRepeated in the middle.\n");
  // Two pages: a header on both is enough; roman folios count too.
  EXPECT_EQ(pdf_layout_to_paragraphs(doc(page(block(20, "Draft") + block(100, "One.") + block(760, "iv")) +
                                         page(block(20, "Draft") + block(100, "Two.") + block(760, "v")))),
            "One.\n\nTwo.\n");
  // The same text at other heights, numbers that do not follow the pages, one page alone,
  // pages of unknown height: all kept.
  EXPECT_EQ(pdf_layout_to_paragraphs(doc(page(block(10, "Draft") + block(760, "12")) +
                                         page(block(60, "Draft") + block(760, "3")))),
            "Draft\n\n12\n\nDraft\n\n3\n");
  EXPECT_EQ(pdf_layout_to_paragraphs(doc(page(block(20, "Title") + block(760, "1")))), "Title\n\n1\n");
  EXPECT_EQ(pdf_layout_to_paragraphs(doc(page(block(20, "Draft"), "") + page(block(20, "Draft"), "0"))),
            "Draft\n\nDraft\n");
}

TEST(Pdf, ClearErrors) {
  auto not_pdf = pdf_paragraphs("PK\x03\x04 a zip file");
  ASSERT_FALSE(not_pdf.has_value());
  EXPECT_NE(not_pdf.status().message().find("not a PDF"), std::string::npos);
  EXPECT_FALSE(pdf_paragraphs("").has_value());
  const char* before = std::getenv("EDGEMT_PDFTOTEXT");
  const std::string saved = before == nullptr ? "" : before;
  setenv("EDGEMT_PDFTOTEXT", "/nonexistent/pdftotext", 1);
  auto missing = pdf_paragraphs(read_sample("sample.pdf"));
  if (saved.empty()) {
    unsetenv("EDGEMT_PDFTOTEXT");
  } else {
    setenv("EDGEMT_PDFTOTEXT", saved.c_str(), 1);
  }
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.status().message().find("poppler-utils"), std::string::npos)
      << missing.status().to_string();
}

#ifdef EDGEMT_HAVE_PDFTOTEXT
// The sample (tools/text/make_pdf_sample.py) through pdftotext: its four paragraphs over
// two pages, without the pages' running header and numbers; a damaged copy and a
// text-less PDF are errors.
TEST(Pdf, SampleParagraphsThroughPdftotext) {
  const std::string pdf = read_sample("sample.pdf");
  auto text = pdf_paragraphs(pdf);
  ASSERT_TRUE(text.has_value()) << text.status().to_string();
  EXPECT_EQ(
      text.value(),
      "Installing the program\n\n"
      "The file could not be opened because the connection to the server was lost while the program was "
      "reading the configuration file of the application. Please try again later.\n\n"
      "Do you want to delete this folder? The password is too short (at least eight characters), so the "
      "system cannot accept it as a replacement for the administrator account & the caf\xC3\xA9.\n\n"
      "Save the document before closing the window.\n");
  auto damaged = pdf_paragraphs(pdf.substr(0, 40));
  ASSERT_FALSE(damaged.has_value());
  EXPECT_NE(damaged.status().message().find("could not read the PDF"), std::string::npos)
      << damaged.status().to_string();
  // The same file with every string it shows blanked (spaces, the same length): no text.
  std::string blank = pdf;
  size_t found = 0;
  for (size_t at = 0; (at = blank.find(" Tm (", at)) != std::string::npos; ++found) {
    const size_t end = blank.find(") Tj", at);
    ASSERT_NE(end, std::string::npos);
    for (size_t k = at + 5; k < end; ++k) blank[k] = ' ';
    at = end;
  }
  EXPECT_EQ(found, 10u);
  auto none = pdf_paragraphs(blank);
  ASSERT_FALSE(none.has_value());
  EXPECT_NE(none.status().message().find("no text"), std::string::npos) << none.status().to_string();
}
#endif

}  // namespace
}  // namespace edgemt
