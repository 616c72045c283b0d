// CSV tables (runtime/formats/csv_document.h).
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "runtime/formats/csv_document.h"
#include "runtime/text/language_names.h"

namespace edgemt {
namespace {

TEST(Csv, CellsWithWordsAreTheUnits) {
  const std::string text =
      "id,name,description,price,updated\r\n"
      "app.title,Open file,\"Opens a file from the disk, or from the network.\",12.50,2024-01-05\r\n"
      "btn_ok,Cancel,\"The file could not be opened.\nPlease try again.\",0,2024-02-01\r\n"
      "SKU42,  Save as  ,\"He said \"\"hello\"\".\",,\r\n"
      "user@example.org,camelCase,\xE2\x82\xAC 5,-,\"\"\r\n";
  const CsvDocument doc = CsvDocument::parse(text);
  EXPECT_EQ(doc.delimiter(), ',');
  EXPECT_EQ(doc.units(),
            (std::vector<std::string>{"id", "name", "description", "price", "updated", "Open file",
                                      "Opens a file from the disk, or from the network.", "Cancel",
                                      "The file could not be opened.\nPlease try again.", "Save as",
                                      "He said \"hello\"."}));
  EXPECT_EQ(doc.render(doc.units()), text);
  // Translations go where the cells were: spaces kept, quotes where they were or where
  // the translation needs them (a comma, a quote), "" inside.
  std::vector<std::string> t = doc.units();
  t[5] = "Datei, \"neu\"";
  t[9] = "Speichern unter";
  t[10] = "Er sagte \"Hallo\".";
  const std::string out = doc.render(t);
  EXPECT_NE(out.find("app.title,\"Datei, \"\"neu\"\"\",\"Opens"), std::string::npos) << out;
  EXPECT_NE(out.find("SKU42,  Speichern unter  ,\"Er sagte \"\"Hallo\"\".\",,\r\n"), std::string::npos)
      << out;
}

TEST(Csv, DelimitersAndOddFiles) {
  // ';' (Excel in German: the decimal comma takes ','), tabs, '|'.
  const CsvDocument semi = CsvDocument::parse("Name;Beschreibung;Preis\nDatei;Schnell, sicher.;12,50\n");
  EXPECT_EQ(semi.delimiter(), ';');
  EXPECT_EQ(semi.units(),
            (std::vector<std::string>{"Name", "Beschreibung", "Preis", "Datei", "Schnell, sicher."}));
  EXPECT_EQ(CsvDocument::parse("a\tb\tc\nx\ty, z\tw\n").delimiter(), '\t');
  EXPECT_EQ(CsvDocument::parse("a|b\nc|d\n").delimiter(), '|');
  EXPECT_EQ(CsvDocument::parse("One column\nof text\n").units(),
            (std::vector<std::string>{"One column", "of text"}));
  // A translation with the delimiter in an unquoted cell gets quotes.
  const CsvDocument one = CsvDocument::parse("Hello;World\n");
  EXPECT_EQ(one.render({"Hallo; du", "Welt"}), "\"Hallo; du\";Welt\n");
  // Excel's byte order mark stays first and out of the cells; an unclosed quote and
  // text after a closing quote are kept as they are; nothing is lost.
  for (const std::string& s :
       {std::string("\xEF\xBB\xBFName,Text\nA,B\n"), std::string("a,\"never closed\nb,c"),
        std::string("x,\"quoted\" tail,y\n"), std::string(",,\n\n,\r\n"), std::string(""),
        std::string("\"\"\"\",\"a\"\"b\"\n"), std::string("Monitor,5\" screen,x\n")}) {
    const CsvDocument d = CsvDocument::parse(s);
    EXPECT_EQ(d.render(d.units()), s);
    for (const std::string& u : d.units()) EXPECT_EQ(u.find("\xEF\xBB\xBF"), std::string::npos) << u;
  }
  EXPECT_EQ(CsvDocument::parse("x,\"quoted\" tail,y\n").units(), (std::vector<std::string>{"x", "y"}));
}

// A translation table (Godot's "keys,en,de"): the source language's column is read, its
// translations go in the target's column where empty (or a new one), the header and the
// rest as they are.
// A table whose header names its languages by name, in English or in the language itself.
TEST(Csv, TranslationTablesNamedByLanguageNames) {
  const CsvDocument english = CsvDocument::parse("Key;ENGLISH\nquit;Quit the game\n", "en", "de");
  EXPECT_EQ(english.source_column(), 1u);
  EXPECT_EQ(english.target_column(), 2u);
  EXPECT_EQ(english.render({"Spiel beenden"}), "Key;ENGLISH;German\nquit;Quit the game;Spiel beenden\n");
  const CsvDocument native = CsvDocument::parse(
      "id,Deutsch,Fran\xC3\xA7"
      "ais\n1,Hallo Welt,\n",
      "de", "en");
  EXPECT_EQ(native.source_column(), 1u);
  EXPECT_EQ(native.target_column(), 3u);
  EXPECT_EQ(native.render({"Hello world"}),
            "id,Deutsch,Fran\xC3\xA7"
            "ais,English\n1,Hallo Welt,,Hello world\n");
  const CsvDocument both = CsvDocument::parse("English,German\nOpen,\n", "en", "de");
  EXPECT_EQ(both.target_column(), 1u);
  EXPECT_EQ(both.render({"\xC3\x96"
                         "ffnen"}),
            "English,German\nOpen,\xC3\x96"
            "ffnen\n");
  // No column names the source language: every cell with words, in place.
  const CsvDocument none = CsvDocument::parse("Name,Notes\nAnna,Likes tea\n", "en", "de");
  EXPECT_EQ(none.source_column(), SIZE_MAX);
  EXPECT_EQ(language_named("deutsch")->code, "de");
  EXPECT_EQ(language_named("Fran\xC3\x87"
                           "AIS")
                ->code,
            "fr");
  EXPECT_EQ(language_named("Klingon"), nullptr);
  EXPECT_EQ(language_name_of("pt-BR")->english, "Portuguese");
}

TEST(Csv, TranslationTablesFillTheTargetLanguagesColumn) {
  const std::string godot =
      "keys,en,de,fr\r\n"
      "GREET,\"Hello, friend!\",,Bonjour\r\n"
      "QUIT,Quit,Beenden,Quitter\r\n"
      "EMPTY,,,\r\n"
      "SHORT,Open file\r\n"
      "\r\n"
      "ID,btn_ok,,\r\n";
  const CsvDocument doc = CsvDocument::parse(godot, "en", "de");
  EXPECT_EQ(doc.source_column(), 1u);
  EXPECT_EQ(doc.target_column(), 2u);
  EXPECT_EQ(doc.units(), (std::vector<std::string>{"Hello, friend!", "Open file"}));
  EXPECT_EQ(doc.render({"Hallo, Freund!",
                        "Datei \xC3\xB6"
                        "ffnen"}),
            "keys,en,de,fr\r\n"
            "GREET,\"Hello, friend!\",\"Hallo, Freund!\",Bonjour\r\n"
            "QUIT,Quit,Beenden,Quitter\r\n"
            "EMPTY,,,\r\n"
            "SHORT,Open file,Datei \xC3\xB6"
            "ffnen\r\n"
            "\r\n"
            "ID,btn_ok,,\r\n");
  // Without translations the target's cells stay empty (a short row gets its cell).
  std::string same = godot;
  same.replace(same.find("SHORT,Open file"), 15, "SHORT,Open file,");
  EXPECT_EQ(doc.render({}), same);
  // No column for the target language: a new last one, headed with its name; a region
  // subtag or a POSIX name matches its language; the target's column may come first.
  const CsvDocument added =
      CsvDocument::parse("id;en_US;comment\nok;Save the file;x\nk2;Print\n", "en", "de");
  EXPECT_EQ(added.delimiter(), ';');
  EXPECT_EQ(added.target_column(), 3u);
  EXPECT_EQ(added.render({"Datei speichern", "Drucken"}),
            "id;en_US;comment;de\nok;Save the file;x;Datei speichern\nk2;Print;;Drucken\n");
  const CsvDocument first = CsvDocument::parse("DE-de,EN-gb,en\n,Colour,Color\n", "en_US.UTF-8", "de");
  EXPECT_EQ(first.source_column(), 1u);
  EXPECT_EQ(first.target_column(), 0u);
  EXPECT_EQ(first.render({"Farbe"}), "DE-de,EN-gb,en\nFarbe,Colour,Color\n");
  // A quote never closed runs to the file's end: nothing goes after it.
  for (const char* open : {"keys,en\nA,Hello,\"x\n", "keys,en,de\nA,Hello,\""}) {
    const CsvDocument d = CsvDocument::parse(open, "en", "de");
    EXPECT_TRUE(d.units().empty()) << open;
    EXPECT_TRUE(d.render({}).ends_with(std::string(open).substr(std::string(open).find("\nA,")))) << open;
  }
  // A header that names no source language column: every cell with words, in place.
  for (const auto& [text, from, to] : {std::tuple{"name,description\nOpen,Opens a file\n", "en", "de"},
                                       {"keys,en\nA,Hello\n", "fr", "de"},
                                       {"keys,en\nA,Hello\n", "en", "en-GB"},
                                       {"keys,en\nA,Hello\n", "en", ""}}) {
    const CsvDocument d = CsvDocument::parse(text, from, to);
    EXPECT_EQ(d.source_column(), SIZE_MAX) << text << from << to;
    EXPECT_EQ(d.units(), CsvDocument::parse(text).units()) << text;
  }
}

}  // namespace
}  // namespace edgemt
