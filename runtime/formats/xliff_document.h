// XLIFF documents (TextFormat::kXliff): the files translators' tools (OmegaT, Okapi,
// Weblate, memoQ, Trados) and software's localization exports (Xcode's .xliff, Angular's
// messages.xlf, Symfony, Qt's lconvert) exchange. Versions 1.2 (trans-unit) and 2.x (unit
// and segment) are read.
//
// Each segment still to translate gets a <target> with its translation: one that has none,
// or whose target is empty, or (1.2) whose target's state is "new" or
// "needs-translation". Translated, reviewed and final targets are kept as they are, and
// so is a unit with translate="no" (on itself, its group or its file; the innermost
// says), and a source without words. The source's inline codes travel as inline markup
// (runtime/formats/html_document.h), so each lands where its words went: paired codes (1.2's
// <g> and <mrk>, 2.x's <pc> and <mrk>) as spans around their words, every other code
// (<x/>, <ph>, <bpt>/<ept>, <sc/>/<ec/>, a protected or translate="no" <mrk>, ...) as an
// object written back as it was read; a code the translation lost goes at its end. Where
// a 1.2 trans-unit has a <seg-source> that marks segments (<mrk mtype="seg">, as Okapi,
// memoQ and Trados write), each segment is a unit and the target holds the same markers
// around their translations (a segment without one keeps its source). A
// new 1.2 target says state="needs-review-translation" state-qualifier="mt-suggestion"
// (and the target's language in xml:lang), so the tool shows it as a machine's draft (a
// 2.x segment: state="translated" subState="edgemt:mt-suggestion");
// a 1.2 <file> without target-language, and a 2.x <xliff> without trgLang, get the
// model's target language. An ICU message in a source (Angular's {VAR_PLURAL, plural,
// ...}) is translated leaf by leaf (icu_message.h); one it cannot take apart is kept.
// Everything else (notes, alternatives, metadata, comments, the layout) comes back byte
// for byte.
//
// Qt Linguist's .ts files (<TS>, <context>, <message>) are read the same way: a message
// whose translation is missing, or empty and unfinished, gets its source's translation
// as an unfinished translation (a draft Linguist shows for review; lrelease includes it),
// in each numerus form of a plural message (a new translation with as many as Qt gives
// the file's language: plural_categories.h); finished, vanished and obsolete translations
// and a translator's unfinished draft are kept; a <TS> without language gets the model's.
// A keyboard accelerator ("&File"; "&&" is a '&') is not text for the model: it is taken
// out of the unit and put back before the translation's first letter ("&Datei").
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/status.h"

namespace edgemt {

class XliffDocument {
 public:
  // Fails, saying why, on XML that is not well-formed or a document without <xliff> (or
  // <TS>).
  static Expected<XliffDocument> parse(std::string_view text);
  // Whether `text` is meant to be XLIFF or a Qt Linguist catalog: its root element is
  // <xliff> or <TS> (an .xml file may also be Android string resources).
  static bool recognizes(std::string_view text);

  // The sources to translate, as HTML fragments (their inline codes as markup).
  const std::vector<std::string>& units() const;
  // The document with a target holding translations[i] for units()[i] (an empty or
  // missing translation: no target written); `language` (BCP 47, "de") for the file's
  // target language where it names none.
  std::string render(const std::vector<std::string>& translations, std::string_view language = {}) const;
  enum class Kind { kXliff12, kXliff2, kQtLinguist };
  Kind kind() const;

  struct State;

 private:
  std::shared_ptr<const State> state_;
};

}  // namespace edgemt
