// Sentences written in capitals ("WARNING: DO NOT OPEN THE LID", "FILE NOT FOUND"). Models
// learn from text in normal case and mistranslate capitals badly (the bundled English ->
// German model: "WARNUNG: DO NICHT OPEN THE LID"; on a test set written in capitals, BLEU 8
// instead of 29). With span protection on, such a sentence goes to the model recased, each
// word as the model's vocabulary knows it best ("Warning: do not open the lid"), and its
// translation comes back in capitals (ProtectedSentence::capitals).
//
// The letters with case here are Latin (ASCII, Latin-1, Latin Extended-A), Greek and
// Cyrillic: lowering and raising them keeps every character's UTF-8 length (byte offsets
// into a recased sentence are offsets into the sentence); other characters are caseless.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace edgemt {

// Whether `sentence` is written in capitals: no lower-case letter, at least four capitals,
// and a word of at least two ("OK" and "USB" alone are not; "SAVE" and "NO ENTRY" are).
bool written_in_capitals(std::string_view sentence);

// Whether the character starting at s[i] is a capital letter (i < s.size()).
bool capital_at(std::string_view s, size_t i);

// `text` with its lower-case letters raised ("ß" -> "SS"; the others keep their length).
std::string to_capitals(std::string_view text);

// `text` with its capitals lowered (the same length).
std::string to_lower_case(std::string_view text);

// A sentence written in capitals recased word by word (words: runs of non-space bytes):
// a word with capitals becomes whichever of its lower-case ("the"), capitalized ("Hut")
// and capital ("USB") forms `log_prob` rates highest (the first of a tie, in that order);
// a sentence's first word (the text's, and after one ending in '.', '!' or '?') is
// capitalized or kept. to_capitals() of the result is `sentence`.
std::string recase_capitals(std::string_view sentence,
                            const std::function<double(std::string_view)>& log_prob);

}  // namespace edgemt
