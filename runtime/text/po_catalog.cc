#include "runtime/text/po_catalog.h"

#include <cstdint>

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

std::string PoCatalog::render(const std::vector<std::string>& translations) const {
  std::string out;
  out.reserve(text_.size() + text_.size() / 2);
  size_t line = 0;
  auto copy_to = [&](size_t end) {
    for (; line < end; ++line) {
      out += this->line(line);
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
    for (const Keyword& k : e.keywords) {
      copy_to(k.first_line);
      if (!starts_with(k.name, "msgstr")) continue;
      const bool later_form = k.name.size() > 6 && k.name != "msgstr[0]";
      const size_t which = later_form && e.plural != SIZE_MAX ? e.plural : e.singular;
      std::string_view indent = this->line(k.first_line);
      indent = indent.substr(0, indent.size() - trim_left(indent).size());
      out += indent;
      append_keyword(k.name, which < translations.size() ? translations[which] : std::string(), eol,
                     line_end(k.end_line - 1), &out);
      line = k.end_line;
    }
  }
  copy_to(begin_.size());
  return out;
}

}  // namespace edgemt
