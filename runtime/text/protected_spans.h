// Protected spans for the text layer: parts of a sentence that must come through a
// translation verbatim (issue 15 item 3).
//
//   URLs          https://example.org/a?b=1, ftp://..., www.example.org/x
//   e-mail        user.name+tag@example.co.uk
//   file paths    /usr/share/doc, ~/.config/x, ./run.sh, ../x, C:\Users\x
//   code          `make install` (backquoted)
//   placeholders  printf's %s %d %5.2f %1$s %(name)s, {name} {0} {{name}}, ${HOME} $HOME $1
//   numbers with units   5 km, 3.5GB, 100 %, 20°C, 1,5 MiB
//
// Before a sentence is translated each span is replaced by a marker the model copies (a
// number not otherwise in the sentence); after, each marker in the translation is replaced
// by its span. A marker the model dropped gets its span back at the end of the
// translation (before its final punctuation), and a marker it repeated is kept once:
// every span comes out exactly once. A sentence that is nothing but spans, punctuation
// and whitespace is not translated at all.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/text/sentence_splitter.h"

namespace edgemt {

// Appends the protected spans of `text` to *out, in order, without overlaps.
void find_protected_spans(std::string_view text, std::vector<TextSpan>* out);

struct ProtectedSentence {
  std::string text;                    // what is translated: spans replaced by markers
                                       // (verbatim: the sentence as it was)
  std::vector<std::string> markers;    // markers[i] stands for originals[i]
  std::vector<std::string> originals;  // the spans, verbatim
  bool verbatim = false;               // nothing to translate: give the sentence back as is
};

ProtectedSentence protect_spans(std::string_view sentence);

// The translation with each marker replaced by its span (see above); a verbatim
// sentence as it was.
std::string restore_spans(std::string_view translation, const ProtectedSentence& p);

}  // namespace edgemt
