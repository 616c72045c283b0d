// ICU messages (runtime/formats/icu_message.h): leaves as sentences, written back in ICU's syntax.
#include "runtime/formats/icu_message.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace edgemt {
namespace {

// ICU messages: each leaf a unit with the text around its argument moved in, the number
// as {#}; the translation in ICU's syntax again, literal braces, '#' and apostrophes quoted
// where they must be, a plural with the target language's categories.
TEST(IcuMessage, LeavesAreSentencesAndComeBackInItsSyntax) {
  auto m = IcuMessage::parse(
      "You have {count, plural, =0 {no messages} one {# message} other {# messages}} "
      "from {name}.");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->units(), (std::vector<std::string>{"You have no messages from {name}.",
                                                  "You have {#} message from {name}.",
                                                  "You have {#} messages from {name}."}));
  const std::vector<std::string> de{"Keine Nachrichten von {name}.", "{#} Nachricht von {name}.",
                                    "{#} Nachrichten von {name}."};
  EXPECT_EQ(m->render(de, "de"),
            "{count, plural, =0 {Keine Nachrichten von {name}.} one {# Nachricht von {name}.} other {# "
            "Nachrichten von {name}.}}");
  EXPECT_EQ(m->render(de, "ru"),
            "{count, plural, =0 {Keine Nachrichten von {name}.} one {# Nachricht von {name}.} few {# "
            "Nachrichten von {name}.} many {# Nachrichten von {name}.} other {# Nachrichten von {name}.}}");
  EXPECT_EQ(m->render(de, "ja"),
            "{count, plural, =0 {Keine Nachrichten von {name}.} other {# Nachrichten von {name}.}}");
  EXPECT_EQ(m->render({}),
            "You have {count, plural, =0 {no messages} one {# message} other {# messages}} from {name}.");
  // Untranslated leaves keep the source's sentence.
  EXPECT_EQ(m->render({"", "x"}, "xx"),
            "{count, plural, =0 {You have no messages from {name}.} one {x} other {You have # messages from "
            "{name}.}}");

  // Nested select in plural; an offset; a simple argument with a style; layout kept.
  auto n = IcuMessage::parse(
      "{gender, select,\n  female {{n, plural, offset:1 one {She and {n, number} other} other {She and # "
      "others}}}\n"
      "  other {They}\n}");
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->units(),
            (std::vector<std::string>{"She and {n, number} other", "She and {#} others", "They"}));
  EXPECT_EQ(
      n->render({"Sie und {n, number} andere", "Sie und {#} andere", "Sie"}, "de"),
      "{gender, select,\n  female {{n, plural, offset:1 one {Sie und {n, number} andere} other {Sie und # "
      "andere}}}\n  other {Sie}\n}");

  // A selectordinal gets the language's ordinal categories: German's one ("1."), English's
  // four ("1st", "2nd", "3rd", "4th"); its explicit values stay.
  auto o = IcuMessage::parse(
      "{place, selectordinal, =1 {Winner} one {#st} two {#nd} few {#rd} other {#th}} place");
  ASSERT_TRUE(o.has_value());
  const std::vector<std::string> places{"Sieger", "{#}. Platz", "{#}. Platz", "{#}. Platz", "{#}. Platz"};
  EXPECT_EQ(o->render(places, "de"), "{place, selectordinal, =1 {Sieger} other {#. Platz}}");
  EXPECT_EQ(
      o->render(places, "en"),
      "{place, selectordinal, =1 {Sieger} one {#. Platz} two {#. Platz} few {#. Platz} other {#. Platz}}");
  auto o2 = IcuMessage::parse("{n, selectordinal, other {#.}}");
  ASSERT_TRUE(o2.has_value());
  EXPECT_EQ(o2->render({"#th"}, "en"),
            "{n, selectordinal, one {'#'th} two {'#'th} few {'#'th} other {'#'th}}");
  EXPECT_EQ(o2->render({"{#}th"}, "cy"),
            "{n, selectordinal, zero {#th} one {#th} two {#th} few {#th} many {#th} other {#th}}");

  // Quoting: literal text that ICU would read as syntax.
  auto q = IcuMessage::parse("{n, plural, one {It''s '{'one'}' #} other {'#' of # isn't '{n}'}}");
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->units(), (std::vector<std::string>{"It's {one} {#}", "# of {#} isn't {n}"}));
  const std::string back = q->render(q->units(), "en");
  EXPECT_EQ(back, "{n, plural, one {It's '{'one'}' #} other {'#' of # isn't '{'n'}'}}");
  auto again = IcuMessage::parse(back);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->units(), q->units());
  // An apostrophe before what would start a quote, and at a leaf's end, is doubled.
  auto a = IcuMessage::parse("{n, select, other {x}}");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->render({"the users' {brace"}), "{n, select, other {the users' '{'brace}}");
  EXPECT_EQ(a->render({"O'{x"}), "{n, select, other {O'''{'x}}");
  EXPECT_EQ(IcuMessage::parse(a->render({"O'{x"}))->units(), std::vector<std::string>{"O'{x"});
  EXPECT_EQ(IcuMessage::parse(a->render({"the users' {brace"}))->units(),
            std::vector<std::string>{"the users' {brace"});
  EXPECT_EQ(a->render({"Chris'"}), "{n, select, other {Chris''}}");

  // Two choices side by side: the second, and the text after it, inside each branch of
  // the first, so that each leaf is a sentence; the first's '#' there is its {name}.
  auto two = IcuMessage::parse(
      "{n, plural, one {# file was} other {# files were}} moved to {m, plural, one {# folder} other {# "
      "folders}}.");
  ASSERT_TRUE(two.has_value());
  EXPECT_EQ(two->units(),
            (std::vector<std::string>{
                "{n} file was moved to {#} folder.", "{n} file was moved to {#} folders.",
                "{n} files were moved to {#} folder.", "{n} files were moved to {#} folders."}));
  EXPECT_EQ(
      two->render({"{n} Datei in {#} Ordner.", "{n} Datei in {#} Ordner.", "{n} Dateien in {#} Ordner.",
                   "{n} Dateien in {#} Ordner."},
                  "de"),
      "{n, plural, one {{m, plural, one {{n} Datei in # Ordner.} other {{n} Datei in # Ordner.}}} other "
      "{{m, plural, one {{n} Dateien in # Ordner.} other {{n} Dateien in # Ordner.}}}}");
  auto again2 = IcuMessage::parse(two->render(two->units(), "en"));
  ASSERT_TRUE(again2.has_value());
  EXPECT_EQ(again2->units(), two->units());
  // Three selects side by side, and a '#' beside a nested select.
  auto three =
      IcuMessage::parse("{a, select, x {A} other {B}}{b, select, other {C}} {c, select, other {D}}!");
  ASSERT_TRUE(three.has_value());
  EXPECT_EQ(three->units(), (std::vector<std::string>{"AC D!", "BC D!"}));
  auto beside = IcuMessage::parse("{n, plural, other {# {g, select, male {his} other {their}} files}}");
  ASSERT_TRUE(beside.has_value());
  EXPECT_EQ(beside->units(), (std::vector<std::string>{"{n} his files", "{n} their files"}));

  // Not messages to take apart: plain text and simple placeholders, broken syntax, no
  // "other", nesting past 8, a '#' of a plural with an offset that would move, choices
  // side by side that would be copied past a bound.
  std::string deep = "x";
  for (int i = 0; i < 9; ++i) deep = "{a, select, other {" + deep + "}}";
  std::string many;
  for (int i = 0; i < 12; ++i) many += "{a" + std::to_string(i) + ", select, x {x} other {y}} ";
  for (const std::string& no : {std::string("Hello {name}, {n, number} items"), std::string("plain"),
                                std::string("{n, plural, one {x}"), std::string("{n, plural, one {x} two}"),
                                std::string("{n, plural, one {x}}"), std::string("{, plural, other {x}}"),
                                deep, std::string("{n, plural, offset:1 other {# {g, select, other {x}}}}"),
                                std::string("{n, number, {x}"), many})
    EXPECT_FALSE(IcuMessage::parse(no).has_value()) << no;
  deep = "x";
  for (int i = 0; i < 8; ++i) deep = "{a, select, other {" + deep + "}}";
  EXPECT_TRUE(IcuMessage::parse(deep).has_value());
  // No blow-up: text moved into thousands of leaves is not taken apart, and nested plurals
  // that the language's categories would multiply keep the source's branches.
  std::string wide = std::string(20000, 'w') + " {a, select,";
  for (int i = 0; i < 2000; ++i) wide += " k" + std::to_string(i) + " {x}";
  EXPECT_FALSE(IcuMessage::parse(wide + " other {y}}").has_value());
  EXPECT_TRUE(IcuMessage::parse(wide.substr(19990) + " other {y}}").has_value());
  std::string nest = "x";
  for (int i = 0; i < 8; ++i) nest = "{n" + std::to_string(i) + ", plural, other {" + nest + "}}";
  auto nested = IcuMessage::parse(nest);
  ASSERT_TRUE(nested.has_value());
  EXPECT_EQ(nested->render({"y"}, "ar").size(), nest.size());
}

}  // namespace
}  // namespace edgemt
