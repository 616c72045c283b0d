// .NET .resx (runtime/formats/resx_document.h).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "runtime/formats/resx_document.h"

namespace edgemt {
namespace {

// ---- .NET .resx (TextFormat::kResx) -----------------------------------------------
TEST(ResxDocument, StringResourcesAreUnits) {
  const std::string text =
      "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
      "<root>\n"
      "  <xsd:schema id=\"root\" xmlns=\"\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><xsd:element "
      "name=\"root\"/></xsd:schema>\n"
      "  <resheader name=\"resmimetype\"><value>text/microsoft-resx</value></resheader>\n"
      "  <data name=\"Greeting\" xml:space=\"preserve\">\n"
      "    <value>Welcome to the &lt;b&gt;shop&lt;/b&gt;, {0}!</value>\n"
      "    <comment>Shown on the start page</comment>\n"
      "  </data>\n"
      "  <data name=\"$this.Text\" xml:space=\"preserve\"><value>Settings</value></data>\n"
      "  <data name=\"&gt;&gt;button1.Name\" xml:space=\"preserve\"><value>Save button</value></data>\n"
      "  <data name=\"button1.Size\" type=\"System.Drawing.Size, System.Drawing\"><value>Big "
      "one</value></data>\n"
      "  <data name=\"Title\" type=\"System.String, mscorlib\"><value>File &amp; folder</value></data>\n"
      "  <data name=\"Logo\" mimetype=\"application/x-microsoft.net.object.bytearray.base64\"><value>Some "
      "words</value></data>\n"
      "  <data name=\"Help.Url\"><value>Help page</value></data>\n"
      "  <data name=\"Padded\" xml:space=\"preserve\"><value>  Close the window  </value></data>\n"
      "  <data name=\"Flag\"><value>true</value></data>\n"
      "  <data name=\"Mixed\"><value>Bold <!-- c --> text</value></data>\n"
      "  <data name=\"Empty\"><value/></data>\n"
      "</root>\n";
  auto doc = ResxDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  EXPECT_EQ(doc.value().units(), (std::vector<std::string>{"Welcome to the <b>shop</b>, {0}!", "Settings",
                                                           "File & folder", "Close the window"}));
  EXPECT_EQ(doc.value().render({}), text);
  const std::string out = doc.value().render({"Willkommen im <b>Laden</b>, {0}!", "", "Datei & Ordner",
                                              "Fenster schlie\xC3\x9F"
                                              "en"});
  std::string want = text;
  auto swap = [&](const std::string& from, const std::string& to) {
    ASSERT_NE(want.find(from), std::string::npos) << from;
    want.replace(want.find(from), from.size(), to);
  };
  swap("Welcome to the &lt;b&gt;shop&lt;/b&gt;, {0}!", "Willkommen im &lt;b&gt;Laden&lt;/b&gt;, {0}!");
  swap("File &amp; folder", "Datei &amp; Ordner");
  swap("  Close the window  ",
       "  Fenster schlie\xC3\x9F"
       "en  ");
  EXPECT_EQ(out, want);
  for (auto [bad, what] : {std::pair{"<root><data name=\"a\"><value>x</data></root>", "not well-formed"},
                           {"<resources><string name=\"a\">x</string></resources>", "not a .resx file"}}) {
    auto d = ResxDocument::parse(bad);
    ASSERT_FALSE(d.has_value()) << bad;
    EXPECT_NE(d.status().message().find(what), std::string::npos) << d.status().message();
  }
}

}  // namespace
}  // namespace edgemt
