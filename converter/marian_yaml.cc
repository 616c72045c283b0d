#include "converter/marian_yaml.h"

#include <cstdint>
#include <cstdlib>
#include <set>
#include <sstream>

#include "converter/checkpoint.h"

namespace edgemt::convert {
namespace {

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

class Parser {
 public:
  Parser(const std::string& file) : file_(file) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw ConvertError(file_ + ":" + std::to_string(line_) + ": " + what);
  }

  // A scalar: plain (a trailing " #comment" removed), 'single' or "double" quoted.
  std::string scalar(std::string s) {
    s = trim(s);
    if (s.empty()) return s;
    if (s[0] == '\'') {
      std::string out;
      size_t i = 1;
      for (; i < s.size(); ++i) {
        if (s[i] == '\'') {
          if (i + 1 < s.size() && s[i + 1] == '\'') {
            out += '\'';
            ++i;
            continue;
          }
          break;
        }
        out += s[i];
      }
      if (i >= s.size()) fail("unterminated quoted string");
      rest_is_comment(s.substr(i + 1));
      return out;
    }
    if (s[0] == '"') {
      std::string out;
      size_t i = 1;
      for (; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] != '\\') {
          out += s[i];
          continue;
        }
        if (++i >= s.size()) fail("unterminated escape");
        switch (s[i]) {
          case 'n':
            out += '\n';
            break;
          case 't':
            out += '\t';
            break;
          case '0':
            out += '\0';
            break;
          case '\\':
            out += '\\';
            break;
          case '"':
            out += '"';
            break;
          case '/':
            out += '/';
            break;
          case ' ':
            out += ' ';
            break;
          case 'r':
            out += '\r';
            break;
          case 'b':
            out += '\b';
            break;
          case 'f':
            out += '\f';
            break;
          case 'v':
            out += '\v';
            break;
          case 'a':
            out += '\a';
            break;
          case 'e':
            out += '\x1b';
            break;
          case 'N':
            append_utf8(out, 0x85);
            break;
          case '_':
            append_utf8(out, 0xA0);
            break;
          case 'L':
            append_utf8(out, 0x2028);
            break;
          case 'P':
            append_utf8(out, 0x2029);
            break;
          case 'x':
          case 'u':
          case 'U': {  // YAML's \xXX, \uXXXX, \UXXXXXXXX (yaml-cpp writes them for control characters)
            const size_t n = s[i] == 'x' ? 2 : s[i] == 'u' ? 4 : 8;
            if (i + n >= s.size()) fail("a truncated \\" + std::string(1, s[i]) + " escape");
            uint32_t cp = 0;
            for (size_t k = 1; k <= n; ++k) {
              const char h = s[i + k];
              const int d = h >= '0' && h <= '9'   ? h - '0'
                            : h >= 'a' && h <= 'f' ? h - 'a' + 10
                            : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                   : -1;
              if (d < 0) fail("a bad hex digit in an escape: '" + s.substr(i - 1, n + 2) + "'");
              cp = cp * 16 + static_cast<uint32_t>(d);
            }
            if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) fail("an escape outside Unicode scalars");
            append_utf8(out, cp);
            i += n;
            break;
          }
          default:
            fail(std::string("unsupported escape \\") + s[i]);
        }
      }
      if (i >= s.size()) fail("unterminated quoted string");
      rest_is_comment(s.substr(i + 1));
      return out;
    }
    if (s[0] == '&' || s[0] == '*' || s[0] == '!' || s[0] == '|' || s[0] == '>' || s[0] == '{')
      fail("'" + s + "': anchors, tags, block scalars and flow mappings are not supported");
    if (const size_t c = s.find(" #"); c != std::string::npos) s = trim(s.substr(0, c));
    return s;
  }

  // Marian's word vocabulary: one "piece: id" line per piece.
  std::vector<std::string> vocab(const std::string& text) {
    std::vector<std::string> pieces;
    std::vector<bool> taken;
    std::set<std::string> keys;
    std::istringstream in(text);
    std::string raw;
    while (std::getline(in, raw)) {
      ++line_;
      if (!raw.empty() && raw.back() == '\r') raw.pop_back();
      const std::string t = trim(raw);
      if (t.empty() || t[0] == '#' || t == "---" || t == "...") continue;
      if (raw[0] == ' ' || raw[0] == '\t') fail("an indented line in a vocabulary: '" + t + "'");
      // The id is after the last ": " (a plain piece may itself hold ": ").
      const size_t colon = t.rfind(": ");
      if (colon == std::string::npos) fail("expected 'piece: id', got '" + t + "'");
      const std::string id_text = trim(t.substr(colon + 2));
      char* end = nullptr;
      const long long id = std::strtoll(id_text.c_str(), &end, 10);
      if (id_text.empty() || *end != '\0' || id < 0 || id >= (1 << 24))
        fail("the id '" + id_text + "' is not an integer in [0, 16777216)");
      const std::string key_text = t.substr(0, colon);
      const std::string key =
          key_text[0] == '"' || key_text[0] == '\'' ? scalar(key_text) : key_text;  // plain: as written
      if (key.empty()) fail("an empty piece");
      if (!keys.insert(key).second) fail("the piece '" + key + "' appears twice");
      const size_t u = static_cast<size_t>(id);
      if (u >= pieces.size()) {
        pieces.resize(u + 1);
        taken.resize(u + 1, false);
      }
      if (taken[u]) fail("the id " + id_text + " is given to '" + pieces[u] + "' and to '" + key + "'");
      taken[u] = true;
      pieces[u] = key;
    }
    if (pieces.empty()) fail("an empty vocabulary");
    for (size_t i = 0; i < pieces.size(); ++i)
      if (!taken[i]) {
        line_ = 0;
        fail("no piece has the id " + std::to_string(i) + " (of " + std::to_string(pieces.size()) + ")");
      }
    return pieces;
  }

  void rest_is_comment(const std::string& rest) {
    const std::string r = trim(rest);
    if (!r.empty() && r[0] != '#') fail("unexpected '" + r + "' after a quoted string");
  }

  // "[a, b, 'c']" (no nesting).
  std::vector<std::string> flow_list(const std::string& s) {
    if (s.back() != ']') fail("a flow list must end on its line: '" + s + "'");
    std::vector<std::string> out;
    const std::string body = s.substr(1, s.size() - 2);
    if (trim(body).empty()) return out;
    std::string cur;
    char quote = 0;
    for (char ch : body) {
      if (quote != 0) {
        if (ch == quote) quote = 0;
        cur += ch;
      } else if (ch == '\'' || ch == '"') {
        quote = ch;
        cur += ch;
      } else if (ch == '[' || ch == '{') {
        fail("nested flow collections are not supported");
      } else if (ch == ',') {
        out.push_back(scalar(cur));
        cur.clear();
      } else {
        cur += ch;
      }
    }
    if (quote != 0) fail("unterminated quoted string");
    if (!trim(cur).empty()) out.push_back(scalar(cur));
    return out;
  }

  YamlMap parse(const std::string& text) {
    YamlMap out;
    std::istringstream in(text);
    std::string raw;
    std::string open_key;  // a key whose value is a block list below it
    while (std::getline(in, raw)) {
      ++line_;
      const std::string t = trim(raw);
      if (t.empty() || t[0] == '#' || t == "---" || t == "...") continue;
      const bool indented = raw[0] == ' ' || raw[0] == '\t';
      if (t[0] == '-' && (t.size() == 1 || t[1] == ' ')) {
        if (open_key.empty()) fail("a list item without a key");
        YamlValue& v = out[open_key];
        const std::string item = trim(t.substr(1));
        if (!item.empty() && (item[0] == '-' || item[0] == '[')) fail("nested lists are not supported");
        if (item.find(": ") != std::string::npos && item[0] != '\'' && item[0] != '"')
          fail("lists of mappings are not supported");
        v.items.push_back(scalar(item));
        continue;
      }
      if (indented) {
        if (!open_key.empty() && t[0] == '[') {
          YamlValue& v = out[open_key];
          for (std::string& s : flow_list(t)) v.items.push_back(std::move(s));
          continue;
        }
        fail("nested mappings are not supported: '" + t + "'");
      }
      size_t colon = std::string::npos;
      if (t[0] == '"' || t[0] == '\'') {
        const size_t close = t.find(t[0], 1);
        if (close == std::string::npos) fail("unterminated quoted key");
        colon = t.find(':', close);
      } else {
        colon = t.find(": ");
        if (colon == std::string::npos && t.back() == ':') colon = t.size() - 1;
      }
      if (colon == std::string::npos) fail("expected 'key: value', got '" + t + "'");
      const std::string key = scalar(t.substr(0, colon));
      if (key.empty()) fail("an empty key");
      if (out.count(key) != 0) fail("the key '" + key + "' appears twice");
      const std::string value = trim(t.substr(colon + 1));
      YamlValue v;
      open_key.clear();
      if (value.empty()) {
        v.is_list = true;  // a block list follows (or nothing: an empty list)
        open_key = key;
      } else if (value[0] == '[') {
        v.is_list = true;
        v.items = flow_list(value);
      } else {
        v.scalar = scalar(value);
      }
      out.emplace(key, std::move(v));
    }
    return out;
  }

 private:
  std::string file_;
  int line_ = 0;
};

}  // namespace

std::vector<std::string> parse_marian_vocab(const std::string& text, const std::string& file) {
  return Parser(file).vocab(text);
}

YamlMap parse_marian_yaml(const std::string& text, const std::string& file) {
  return Parser(file).parse(text);
}

}  // namespace edgemt::convert
