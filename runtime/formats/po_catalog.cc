#include "runtime/formats/po_catalog.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <tuple>
#include <utility>

#include "runtime/formats/plural_categories.h"
#include "runtime/text/lines.h"

namespace edgemt {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view trim_left(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return s.substr(i);
}

// Decodes one quoted C string "..." (s starts at the quote) and appends it to *out;
// false if it is malformed. Trailing whitespace after the closing quote is allowed.
bool decode_quoted(std::string_view s, std::string* out) {
  if (s.empty() || s[0] != '"') return false;
  size_t i = 1;
  for (;;) {
    if (i >= s.size()) return false;  // unterminated
    const char c = s[i++];
    if (c == '"') break;
    if (c != '\\') {
      out->push_back(c);
      continue;
    }
    if (i >= s.size()) return false;
    const char e = s[i++];
    switch (e) {
      case 'n':
        out->push_back('\n');
        break;
      case 't':
        out->push_back('\t');
        break;
      case 'r':
        out->push_back('\r');
        break;
      case 'a':
        out->push_back('\a');
        break;
      case 'b':
        out->push_back('\b');
        break;
      case 'f':
        out->push_back('\f');
        break;
      case 'v':
        out->push_back('\v');
        break;
      case '"':
      case '\\':
      case '\'':
      case '?':
        out->push_back(e);
        break;
      default:
        if (e >= '0' && e <= '7') {
          int v = e - '0';
          for (int k = 0; k < 2 && i < s.size() && s[i] >= '0' && s[i] <= '7'; ++k)
            v = v * 8 + (s[i++] - '0');
          out->push_back(static_cast<char>(v));
        } else {
          return false;
        }
    }
  }
  for (; i < s.size(); ++i)
    if (s[i] != ' ' && s[i] != '\t') return false;
  return true;
}

void append_escaped(std::string_view s, std::string* out) {
  for (char c : s) {
    switch (c) {
      case '\\':
        *out += "\\\\";
        break;
      case '"':
        *out += "\\\"";
        break;
      case '\n':
        *out += "\\n";
        break;
      case '\t':
        *out += "\\t";
        break;
      case '\r':
        *out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          const char oct[] = {'\\', static_cast<char>('0' + ((c >> 6) & 3)),
                              static_cast<char>('0' + ((c >> 3) & 7)), static_cast<char>('0' + (c & 7)),
                              '\0'};
          *out += oct;
        } else {
          out->push_back(c);
        }
    }
  }
}

// `name "value"` as gettext writes it: one line, or with line breaks inside, "" and then
// one string per line (each ending with its \n). Lines end with eol, the last with `last`.
void append_keyword(std::string_view name, std::string_view value, std::string_view eol,
                    std::string_view last, std::string* out) {
  const size_t nl = value.find('\n');
  *out += name;
  if (nl == std::string_view::npos || nl + 1 == value.size()) {
    *out += " \"";
    append_escaped(value, out);
    *out += "\"";
    *out += last;
    return;
  }
  *out += " \"\"";
  for (size_t b = 0; b < value.size();) {
    size_t e = value.find('\n', b);
    e = e == std::string_view::npos ? value.size() : e + 1;
    *out += eol;
    *out += '"';
    append_escaped(value.substr(b, e - b), out);
    *out += '"';
    b = e;
  }
  *out += last;
}

// A Plural-Forms expression (C's operators on n: ?: || && == != < > <= >= + - * / % !
// and parentheses, as gettext reads them), evaluated for one n; nullopt where it does not
// parse, divides by zero or nests deeper than 64.
class PluralExpression {
 public:
  PluralExpression(std::string_view e, uint64_t n) : e_(e), n_(n) {}

  std::optional<uint64_t> value() {
    const uint64_t v = conditional();
    space();
    if (!ok_ || at_ != e_.size()) return std::nullopt;
    return v;
  }

 private:
  void space() {
    while (at_ < e_.size() && (e_[at_] == ' ' || e_[at_] == '\t' || e_[at_] == '\n' || e_[at_] == '\r'))
      ++at_;
  }
  bool take(std::string_view op) {
    space();
    if (e_.substr(at_, op.size()) != op) return false;
    // "<" is not the start of "<=", nor "!" of "!=", nor "=" anything alone.
    if (op.size() == 1 && (op == "<" || op == ">" || op == "!") && e_.substr(at_ + 1, 1) == "=") return false;
    at_ += op.size();
    return true;
  }
  uint64_t fail() {
    ok_ = false;
    return 0;
  }
  uint64_t conditional() {
    if (++depth_ > 64) return fail();
    const uint64_t c = logical_or();
    uint64_t v = c;
    if (ok_ && take("?")) {
      const uint64_t a = conditional();
      if (!take(":")) return fail();
      const uint64_t b = conditional();
      v = c != 0 ? a : b;
    }
    --depth_;
    return v;
  }
  uint64_t logical_or() {
    uint64_t v = logical_and();
    while (ok_ && take("||")) v = (logical_and() != 0) || v != 0;
    return v;
  }
  uint64_t logical_and() {
    uint64_t v = equality();
    while (ok_ && take("&&")) v = (equality() != 0) && v != 0;
    return v;
  }
  uint64_t equality() {
    uint64_t v = relation();
    for (;;) {
      if (take("==")) {
        v = v == relation();
      } else if (take("!=")) {
        v = v != relation();
      } else {
        return v;
      }
    }
  }
  uint64_t relation() {
    uint64_t v = additive();
    for (;;) {
      if (take("<=")) {
        v = v <= additive();
      } else if (take(">=")) {
        v = v >= additive();
      } else if (take("<")) {
        v = v < additive();
      } else if (take(">")) {
        v = v > additive();
      } else {
        return v;
      }
    }
  }
  uint64_t additive() {
    uint64_t v = multiplicative();
    for (;;) {
      if (take("+")) {
        v += multiplicative();
      } else if (take("-")) {
        v -= multiplicative();
      } else {
        return v;
      }
    }
  }
  uint64_t multiplicative() {
    uint64_t v = unary();
    for (;;) {
      const bool mul = take("*"), div = !mul && take("/"), mod = !mul && !div && take("%");
      if (!mul && !div && !mod) return v;
      const uint64_t r = unary();
      if (!mul && r == 0) return fail();
      v = mul ? v * r : div ? v / r : v % r;
    }
  }
  uint64_t unary() {
    if (take("!")) {
      if (++depth_ > 64) return fail();
      const uint64_t v = unary() == 0;
      --depth_;
      return v;
    }
    space();
    if (at_ < e_.size() && e_[at_] == 'n') {
      ++at_;
      return n_;
    }
    if (at_ < e_.size() && e_[at_] >= '0' && e_[at_] <= '9') {
      uint64_t v = 0;
      while (at_ < e_.size() && e_[at_] >= '0' && e_[at_] <= '9') {
        v = std::min<uint64_t>(v * 10 + static_cast<uint64_t>(e_[at_] - '0'), uint64_t{1} << 32);
        ++at_;
      }
      return v;
    }
    if (take("(")) {
      const uint64_t v = conditional();
      if (!take(")")) return fail();
      return v;
    }
    return fail();
  }

  std::string_view e_;
  uint64_t n_;
  size_t at_ = 0;
  int depth_ = 0;
  bool ok_ = true;
};

Status line_error(size_t line, const std::string& what) {
  return invalid_argument("po line " + std::to_string(line + 1) + ": " + what);
}

}  // namespace

Expected<PoCatalog> PoCatalog::parse(std::string_view text) {
  PoCatalog c;
  c.text_ = std::string(text);
  const std::string_view all = c.text_;
  for (const LineSpan& l : split_lines(all)) {
    c.begin_.push_back(l.begin);
    c.end_.push_back(l.body_end);
  }
  // Entries: comment lines, then keywords with their continuation strings; a blank
  // line, or a comment or msgctxt/msgid after a msgstr, starts the next entry.
  Entry cur;
  bool open = false, seen_msgstr = false;
  auto close = [&]() {
    if (open && !cur.keywords.empty()) c.entries_.push_back(std::move(cur));
    cur = Entry();
    open = false;
    seen_msgstr = false;
  };
  for (size_t i = 0; i < c.begin_.size(); ++i) {
    const std::string_view line = trim_left(c.line(i));
    if (line.empty()) {
      close();
      continue;
    }
    if (line[0] == '#') {
      if (seen_msgstr) close();
      if (!open) {
        open = true;
        cur.first_line = i;
      }
      if (starts_with(line, "#,")) cur.flags_line = i;
      continue;  // comments, flags, references, obsolete entries (#~): kept as they are
    }
    if (line[0] == '"') {
      if (cur.keywords.empty()) return line_error(i, "a string outside an entry");
      Keyword& k = cur.keywords.back();
      if (!decode_quoted(line, &k.value)) return line_error(i, "malformed string");
      k.end_line = i + 1;
      continue;
    }
    const size_t sp = line.find_first_of(" \t");
    if (sp == std::string_view::npos) return line_error(i, "a keyword without a string");
    const std::string_view name = line.substr(0, sp);
    const bool is_msgstr = starts_with(name, "msgstr");
    if (!(name == "msgctxt" || name == "msgid" || name == "msgid_plural" || is_msgstr))
      return line_error(i, "unknown keyword '" + std::string(name) + "'");
    if (!is_msgstr && seen_msgstr && name != "msgid_plural") close();
    if (!open) {
      open = true;
      cur.first_line = i;
    }
    seen_msgstr |= is_msgstr;
    Keyword k;
    k.name = std::string(name);
    k.first_line = i;
    k.end_line = i + 1;
    if (!decode_quoted(trim_left(line.substr(sp)), &k.value)) return line_error(i, "malformed string");
    cur.keywords.push_back(std::move(k));
  }
  close();
  c.read_plural_forms();
  for (Entry& e : c.entries_) {
    const Keyword* id = nullptr;
    const Keyword* plural = nullptr;
    bool any_str = false, all_empty = true;
    for (const Keyword& k : e.keywords) {
      if (k.name == "msgid") id = &k;
      if (k.name == "msgid_plural") plural = &k;
      if (starts_with(k.name, "msgstr")) {
        any_str = true;
        all_empty = all_empty && k.value.empty();
      }
    }
    if (id == nullptr || id->value.empty() || !any_str || !all_empty) continue;
    e.singular = c.texts_.size();
    c.texts_.push_back(id->value);
    if (plural != nullptr) {
      e.plural = c.texts_.size();
      c.texts_.push_back(plural->value);
    }
  }
  return c;
}

namespace {

// A Plural-Forms value ("nplurals=3; plural=(...);") read: its number of forms and the form
// for n = 1 (SIZE_MAX where one form serves all); {0, 0} where it does not evaluate.
std::pair<size_t, size_t> read_plural_field(std::string_view field) {
  const size_t np = field.find("nplurals="),
               pl = field.find("plural=", np == std::string_view::npos ? 0 : np + 9);
  if (np == std::string_view::npos || pl == std::string_view::npos) return {0, 0};
  size_t count = 0;
  for (size_t at = np + 9; at < field.size() && field[at] >= '0' && field[at] <= '9' && count <= 100; ++at)
    count = count * 10 + static_cast<size_t>(field[at] - '0');
  if (count == 0 || count > 100) return {0, 0};  // "nplurals=INTEGER" of a template, or nonsense
  std::string_view expr = field.substr(pl + 7);
  if (const size_t semi = expr.rfind(';'); semi != std::string_view::npos) expr = expr.substr(0, semi);
  if (expr.size() > 2000) return {0, 0};
  // The expression must give a form below nplurals for every n (as msgfmt checks).
  for (uint64_t n = 0; n < 1000; ++n) {
    const auto form = PluralExpression(expr, n).value();
    if (!form || form.value() >= count) return {0, 0};
  }
  // The form for n = 1 is the singular's; with one form for all, the plural's fits it.
  return {count, count == 1 ? SIZE_MAX : static_cast<size_t>(PluralExpression(expr, 1).value().value())};
}

constexpr std::string_view kTemplatePluralForms = "nplurals=INTEGER; plural=EXPRESSION;";

}  // namespace

void PoCatalog::read_plural_forms() {
  for (size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    const Keyword* id = nullptr;
    const Keyword* str = nullptr;
    for (const Keyword& k : e.keywords) {
      if (k.name == "msgctxt") break;
      if (k.name == "msgid") id = &k;
      if (k.name == "msgstr") str = &k;
    }
    if (id == nullptr || !id->value.empty() || str == nullptr) continue;
    header_begin_ = str->first_line;
    header_end_ = str->end_line;
    // "Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : ...);"
    const std::string& h = str->value;
    const size_t at = h.find("Plural-Forms:");
    if (at == std::string::npos) return;
    const size_t eol = std::min(h.find('\n', at), h.size());
    const std::string_view field = std::string_view(h).substr(at, eol - at);
    template_plural_forms_ = field.find(kTemplatePluralForms) != std::string_view::npos;
    std::tie(nplurals_, singular_form_) = read_plural_field(field);
    return;
  }
}

std::string PoCatalog::render(const std::vector<std::string>& translations, std::string_view language) const {
  std::string out;
  out.reserve(text_.size() + text_.size() / 2);
  // A template's header (a .pot's, as xgettext writes it) gets what msginit would fill
  // in: the language, UTF-8, and the language's Plural-Forms, which its plural entries
  // then follow.
  const std::string_view plural_forms = template_plural_forms_ ? gettext_plural_forms(language) : "";
  size_t nplurals = nplurals_, singular_form = singular_form_;
  if (!plural_forms.empty()) std::tie(nplurals, singular_form) = read_plural_field(plural_forms);
  auto header_line = [&](std::string_view l) {
    std::string s(l);
    auto fill = [&](std::string_view from, std::string_view to) {
      const size_t at = s.find(from);
      if (at != std::string::npos && !to.empty()) s.replace(at, from.size(), to);
    };
    if (!language.empty() && language.size() < 36 &&
        std::all_of(language.begin(), language.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
        }))
      fill("\"Language: \\n\"", "\"Language: " + std::string(language) + "\\n\"");
    fill("charset=CHARSET", "charset=UTF-8");
    fill(kTemplatePluralForms, plural_forms);
    return s;
  };
  size_t line = 0;
  auto copy_to = [&](size_t end) {
    for (; line < end; ++line) {
      out += line >= header_begin_ && line < header_end_ ? header_line(this->line(line))
                                                         : std::string(this->line(line));
      out += line_end(line);
    }
  };
  for (const Entry& e : entries_) {
    if (e.singular == SIZE_MAX) continue;
    const std::string_view eol =
        line_end(e.first_line).empty() ? std::string_view("\n") : line_end(e.first_line);
    // The fuzzy flag: added to its "#," line, or a new one before its first keyword.
    if (e.flags_line != SIZE_MAX) {
      copy_to(e.flags_line);
      out += this->line(line);
      if (this->line(line).find("fuzzy") == std::string_view::npos) out += ", fuzzy";
      out += line_end(line);
      ++line;
    } else {
      copy_to(e.keywords.front().first_line);
      out += "#, fuzzy";
      out += eol;
    }
    const Keyword* last_str = nullptr;
    for (const Keyword& k : e.keywords)
      if (starts_with(k.name, "msgstr")) last_str = &k;
    for (const Keyword& k : e.keywords) {
      copy_to(k.first_line);
      if (!starts_with(k.name, "msgstr")) continue;
      std::string_view indent = this->line(k.first_line);
      indent = indent.substr(0, indent.size() - trim_left(indent).size());
      const std::string_view last_eol = line_end(k.end_line - 1);
      line = k.end_line;
      if (e.plural == SIZE_MAX || k.name == "msgstr") {
        out += indent;
        append_keyword(k.name, e.singular < translations.size() ? translations[e.singular] : std::string(),
                       eol, last_eol, &out);
        continue;
      }
      // A plural entry: msgstr[i] gets the singular's translation where the header's
      // Plural-Forms gives form i for n = 1 (else where i is 0), the plural's otherwise;
      // with a Plural-Forms, the entry gets as many forms as it says (msgfmt -c asks it).
      const size_t form = std::strtoul(k.name.c_str() + 7, nullptr, 10);
      const size_t singular = nplurals != 0 ? singular_form : 0;
      auto put = [&](size_t i, std::string_view end) {
        size_t which = i == singular ? e.singular : e.plural;
        if (which >= translations.size() || translations[which].empty()) which = e.singular;  // msgid_plural
        out += indent;
        append_keyword("msgstr[" + std::to_string(i) + "]",
                       which < translations.size() ? translations[which] : std::string(), eol, end, &out);
      };
      if (&k != last_str || nplurals == 0) {
        if (nplurals == 0 || form < nplurals) put(form, last_eol);
        continue;
      }
      // The entry's last form: it and those still missing after it, the last ending as it did.
      std::vector<size_t> forms;
      for (size_t i = form; i < nplurals; ++i) forms.push_back(i);
      for (size_t j = 0; j < forms.size(); ++j) put(forms[j], j + 1 == forms.size() ? last_eol : eol);
      if (forms.empty() && out.size() >= eol.size() &&
          std::string_view(out).substr(out.size() - eol.size()) == eol) {
        out.resize(out.size() - eol.size());
        out += last_eol;
      }
    }
  }
  copy_to(begin_.size());
  return out;
}

}  // namespace edgemt
