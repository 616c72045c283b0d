// The format table (runtime/formats/format_list.h) and what is generated from it: names
// and extensions that lead to one format, a reader for every document format, .xml files
// told apart by their root element, and docs/formats.md's list of every format.
#include "runtime/formats/document_format.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace edgemt {
namespace {

TEST(DocumentFormats, NamesAndExtensionsLeadToOneFormat) {
  std::set<std::string_view> names;
  std::set<int> c_values;
  for (const DocumentFormat& f : document_formats()) {
    EXPECT_EQ(&document_format(f.id), &f);
    ASSERT_FALSE(f.names.empty());
    EXPECT_EQ(f.name, f.names.front());
    for (std::string_view n : f.names) {
      EXPECT_TRUE(names.insert(n).second) << "two formats are named " << n;
      EXPECT_EQ(document_format_named(n), &f) << n;
    }
    if (f.c_value >= 0) {
      EXPECT_TRUE(c_values.insert(f.c_value).second) << f.name;
    }
    for (const FileExtension& e : f.extensions) {
      ASSERT_GE(e.extension.size(), 2u) << f.name;
      EXPECT_EQ(e.extension[0], '.') << f.name;
      for (char c : e.extension) EXPECT_FALSE(c >= 'A' && c <= 'Z') << e.extension;
      EXPECT_NE(e.content_type.find('/'), std::string_view::npos) << e.extension;
      EXPECT_EQ(f.content_type(e.extension), e.content_type);
      const std::vector<const DocumentFormat*> all = document_formats_with_extension(e.extension);
      ASSERT_FALSE(all.empty());
      // An extension two formats share is one whose files they tell apart (.xml).
      if (all.size() > 1) {
        for (const DocumentFormat* g : all)
          EXPECT_TRUE(g->id == TextFormat::kXliff || g->id == TextFormat::kAndroid) << e.extension;
      }
    }
    // Text and HTML are the text pipeline's; every other format has its reader.
    EXPECT_EQ(f.document(), f.id != TextFormat::kText && f.id != TextFormat::kHtml) << f.name;
  }
  // The C values are 0, 1, 2, ... (include/edgemt.h's edgemt_format).
  ASSERT_FALSE(c_values.empty());
  EXPECT_EQ(*c_values.begin(), 0);
  EXPECT_EQ(*c_values.rbegin(), static_cast<int>(c_values.size()) - 1);
  EXPECT_EQ(document_format_named("pdf"), nullptr);
  EXPECT_EQ(document_format_named("PO"), nullptr);
  EXPECT_TRUE(document_formats_with_extension(".exe").empty());
  EXPECT_EQ(document_format_named("docx")->id, TextFormat::kOffice);
  EXPECT_EQ(document_format_named("tsv")->id, TextFormat::kCsv);
}

TEST(DocumentFormats, EveryReaderReadsAndRendersADocument) {
  // One small document of each format: read through the table, its units rendered back
  // as their own translations.
  const std::vector<std::pair<TextFormat, std::string>> samples = {
      {TextFormat::kWrapped, "Open the file\nand save it.\n"},
      {TextFormat::kMarkdown, "# Title\n\nOpen the *file*.\n"},
      {TextFormat::kPo, "msgid \"Open the file\"\nmsgstr \"\"\n"},
      {TextFormat::kSubtitles, "1\n00:00:01,000 --> 00:00:02,000\nOpen the file.\n"},
      {TextFormat::kCsv, "id,text\n1,Open the file\n"},
      {TextFormat::kJson, "{\"open\": \"Open the file\"}"},
      {TextFormat::kXliff,
       "<xliff version=\"1.2\"><file source-language=\"en\"><body><trans-unit id=\"1\"><source>Open the "
       "file</source></trans-unit></body></file></xliff>"},
      {TextFormat::kAndroid, "<resources><string name=\"open\">Open the file</string></resources>"},
      {TextFormat::kProperties, "open=Open the file\n"},
      {TextFormat::kStrings, "\"open\" = \"Open the file\";\n"},
      {TextFormat::kYaml, "en:\n  open: Open the file\n"},
  };
  for (const auto& [id, text] : samples) {
    const DocumentFormat& f = document_format(id);
    auto docs = parse_documents(f, {text}, {"en", "de"});
    ASSERT_TRUE(docs.has_value()) << f.name << ": " << docs.status().to_string();
    ASSERT_EQ(docs.value().size(), 1u);
    const Document& d = *docs.value()[0];
    ASSERT_FALSE(d.units().empty()) << f.name;
    bool found = false;
    for (const std::string& u : d.units()) found = found || u.find("Open") != std::string::npos;
    EXPECT_TRUE(found) << f.name << ": " << d.units()[0];
    std::vector<std::string> translations = d.units();
    for (std::string& t : translations) t += " (de)";
    const std::string out = d.render(translations, "de", "en");
    EXPECT_NE(out.find("(de)"), std::string::npos) << f.name << ": " << out;
  }
  // A reader that refuses a text says so, naming the document where there are several.
  auto bad = parse_documents(document_format(TextFormat::kJson), {"{}", "{"}, {});
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.status().message().rfind("document 1: ", 0), 0u) << bad.status().message();
  EXPECT_FALSE(parse_documents(document_format(TextFormat::kText), {"a"}, {}).has_value());
}

TEST(DocumentFormats, XmlFilesAreToldApartByTheirRootElement) {
  EXPECT_EQ(document_format_of_file(".xml", "<?xml version=\"1.0\"?>\n<resources/>")->id,
            TextFormat::kAndroid);
  EXPECT_EQ(document_format_of_file(".xml", "<xliff version=\"2.0\"/>")->id, TextFormat::kXliff);
  EXPECT_EQ(document_format_of_file(".xml", "<TS version=\"2.1\"/>")->id, TextFormat::kXliff);
  EXPECT_EQ(document_format_of_file(".xml", "<svg/>"), nullptr);
  EXPECT_EQ(document_format_of_file(".xml", ""), nullptr);
  EXPECT_EQ(document_format_of_file(".ts", "<svg/>")->id, TextFormat::kXliff);  // (its reader says why)
  EXPECT_EQ(document_format_of_file(".exe", "MZ"), nullptr);
}

// docs/formats.md's list of every format, as the table gives it.
std::string format_list_markdown() {
  std::string out = "| `--format` | file extensions | C API | units |\n|---|---|---|---|\n";
  for (const DocumentFormat& f : document_formats()) {
    std::string names, extensions;
    for (std::string_view n : f.names) names += (names.empty() ? "`" : ", `") + std::string(n) + "`";
    for (const FileExtension& e : f.extensions)
      extensions += (extensions.empty() ? "`" : ", `") + std::string(e.extension) + "`";
    out += "| " + names + " | " + (extensions.empty() ? "(lines)" : extensions) + " | " +
           (f.c_value < 0 ? "edgemt_translate_document" : "`EDGEMT_FORMAT_" + std::string(f.c_name) + "`") +
           " | " +
           (f.id == TextFormat::kText   ? "lines of text"
            : f.id == TextFormat::kHtml ? "HTML documents (text nodes)"
            : f.html_units              ? "HTML fragments"
                                        : "plain text") +
           " |\n";
  }
  out += "| `pdf` | `.pdf` | edgemt_translate_pdf | paragraphs as lines |\n";
  return out;
}

TEST(DocumentFormats, DocsListEveryFormat) {
  std::ifstream in(EDGEMT_DOCS_DIR "/formats.md");
  ASSERT_TRUE(in) << EDGEMT_DOCS_DIR "/formats.md";
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string begin = "<!-- format list: begin -->\n", end = "<!-- format list: end -->";
  const size_t a = doc.find(begin), b = doc.find(end);
  ASSERT_NE(a, std::string::npos);
  ASSERT_NE(b, std::string::npos);
  EXPECT_EQ(doc.substr(a + begin.size(), b - a - begin.size()), format_list_markdown())
      << "docs/formats.md's format list is not the table's; between the markers it should read:\n"
      << format_list_markdown();
}

}  // namespace
}  // namespace edgemt
