// .NET resource files (TextFormat::kResx): the Resources.resx of C#, Visual Basic,
// WinForms, WPF and ASP.NET apps, whose translation is Resources.de.resx. Each string
// resource, a <data name="..."> of the <root> with a <value>, is translated as plain text
// (its placeholders, {0} and {0:N2}, kept by span protection) and written back with XML's
// escapes, the spaces around it kept (xml:space="preserve"); its <comment>, the schema,
// the <resheader>s and every other byte come back as they were. Not translated: resources
// of another type (a type or mimetype attribute other than System.String's: icons,
// bitmaps, sizes, enums), the designer's own (names starting with ">>", as WinForms
// writes ">>button1.Name"), values without words ("42", "button1", "true") and the
// values of names whose last part names a code ("HelpLink.Url": text_kind.h's
// key_names_a_code). WinForms' localizable properties ("$this.Text", "button1.Text") are
// string resources and are translated.
//
// XML that is not well-formed, or a root element other than <root>, is an error.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/status.h"

namespace edgemt {

class ResxDocument {
 public:
  static Expected<ResxDocument> parse(std::string_view text);

  // The texts to translate, in order (entities decoded, trimmed of spaces).
  const std::vector<std::string>& units() const;
  // The file with units()[i] replaced by translations[i] (a missing or empty one keeps
  // the value as it was written).
  std::string render(const std::vector<std::string>& translations) const;

  struct State;

 private:
  std::shared_ptr<const State> state_;
};

}  // namespace edgemt
