// Languages' names, in English and in the language itself ("German", "Deutsch"), for the
// languages edgemt's models and the peers' serve: what LibreTranslate's /languages calls
// them, and what a translation table's header may name its columns by ("English",
// "Deutsch", "Français") rather than by a code.
#pragma once

#include <string>
#include <string_view>

namespace edgemt {

struct LanguageName {
  std::string_view code;     // BCP 47's primary subtag ("de")
  std::string_view english;  // "German"
  std::string_view native;   // "Deutsch"
};

// The language `code` names (its primary subtag: "de" for "de-AT"); nullptr if the table
// has none.
const LanguageName* language_name_of(std::string_view code);

// The language whose English or own name `name` is, whatever its case ("english",
// "DEUTSCH", "français"); nullptr if none. *native says which of its names it was.
const LanguageName* language_named(std::string_view name, bool* native = nullptr);

}  // namespace edgemt
