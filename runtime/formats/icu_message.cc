#include "runtime/formats/icu_message.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "runtime/formats/plural_categories.h"

namespace edgemt {

struct IcuMessage::State {
  struct Part {
    enum Kind : uint8_t { kText, kArgument, kNumber, kChoice };
    Kind kind = kText;
    std::string text;   // kText: the literal text, decoded; kArgument: as written ("{n, number}")
    size_t choice = 0;  // kChoice: its index in `choices`
  };
  struct Message {
    std::vector<Part> parts;
    size_t leaf = SIZE_MAX;  // the unit it is (with the text moved in), where it has no choice
  };
  struct Branch {
    std::string space;     // before the selector
    std::string selector;  // "one", "=0", "male"
    std::string gap;       // between the selector and its '{'
    Message message;
  };
  struct Choice {
    std::string head;       // "{count, plural, offset:1"
    bool plural = false;    // plural or selectordinal: '#' is the number in its branches
    bool cardinal = false;  // plural: its keywords are the language's plural categories
                            // (else a selectordinal's, its ordinal categories)
    std::vector<Branch> branches;
    std::string tail;  // the spaces before its closing '}', and the '}'
  };
  struct Leaf {
    std::vector<std::string> placeholders;  // as the unit holds them ("{name}", "{#}")
    bool plural = false;                    // in a plural's branch: a literal '#' is quoted
  };
  std::string source;
  Message message;
  std::vector<Choice> choices;
  std::vector<Leaf> leaves;
  std::vector<std::string> units;
  size_t unit_bytes = 0;
};

namespace {

using State = IcuMessage::State;
using Part = State::Part;
constexpr int kMaxDepth = 8;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         static_cast<unsigned char>(c) >= 0x80;
}

class Parser {
 public:
  Parser(std::string_view s, State* st) : s_(s), st_(st) {}

  bool read() {
    st_->message = message(0, false, false);
    return ok_ && at_ == s_.size();
  }

 private:
  // Text and arguments up to the end, or (nested) up to the '}' that closes the branch.
  State::Message message(int depth, bool plural, bool nested) {
    State::Message m;
    std::string text;
    auto flush = [&]() {
      if (!text.empty()) m.parts.push_back({Part::kText, std::move(text), 0});
      text.clear();
    };
    while (ok_ && at_ < s_.size()) {
      const char c = s_[at_];
      if (c == '\'') {
        const char next = at_ + 1 < s_.size() ? s_[at_ + 1] : '\0';
        if (next == '\'') {  // '' is an apostrophe
          text += '\'';
          at_ += 2;
        } else if (next == '{' || next == '}' ||
                   (plural && next == '#')) {  // quoted text, to the next lone '
          for (++at_; at_ < s_.size(); ++at_) {
            if (s_[at_] != '\'') {
              text += s_[at_];
            } else if (at_ + 1 < s_.size() && s_[at_ + 1] == '\'') {
              text += '\'';
              ++at_;
            } else {
              ++at_;
              break;
            }
          }
        } else {
          text += '\'';
          ++at_;
        }
      } else if (c == '{') {
        flush();
        argument(&m, depth);
      } else if (c == '}' && nested) {
        flush();
        return m;
      } else if (c == '#' && plural) {
        flush();
        m.parts.push_back({Part::kNumber, "#", 0});
        ++at_;
      } else {
        text += c;
        ++at_;
      }
    }
    if (nested) ok_ = false;  // a branch not closed
    flush();
    return m;
  }

  void space() {
    while (at_ < s_.size() && is_space(s_[at_])) ++at_;
  }
  std::string_view word() {
    const size_t b = at_;
    while (at_ < s_.size() && is_name_char(s_[at_])) ++at_;
    return s_.substr(b, at_ - b);
  }
  bool fail() {
    ok_ = false;
    return false;
  }

  bool argument(State::Message* m, int depth) {
    const size_t start = at_++;
    space();
    if (word().empty()) return fail();
    space();
    if (at_ < s_.size() && s_[at_] == '}') {
      ++at_;
      m->parts.push_back({Part::kArgument, std::string(s_.substr(start, at_ - start)), 0});
      return true;
    }
    if (at_ >= s_.size() || s_[at_] != ',') return fail();
    ++at_;
    space();
    const std::string_view type = word();
    if (type != "plural" && type != "selectordinal" && type != "select") {
      // A simple argument ({n, number, ::percent}, {d, date, short}): as written, to its '}'.
      int open = 1;
      for (; at_ < s_.size() && open > 0; ++at_) {
        if (s_[at_] == '{') ++open;
        if (s_[at_] == '}') --open;
      }
      if (open > 0) return fail();
      m->parts.push_back({Part::kArgument, std::string(s_.substr(start, at_ - start)), 0});
      return true;
    }
    if (depth >= kMaxDepth) return fail();
    space();
    if (at_ >= s_.size() || s_[at_] != ',') return fail();
    ++at_;
    State::Choice ch;
    ch.plural = type != "select";
    ch.cardinal = type == "plural";
    if (ch.plural) {
      const size_t before = at_;
      space();
      if (s_.substr(at_, 7) == "offset:") {
        at_ += 7;
        space();
        if (word().empty()) return fail();
      } else {
        at_ = before;
      }
    }
    ch.head.assign(s_.substr(start, at_ - start));
    bool other = false;
    for (;;) {
      size_t b = at_;
      space();
      std::string sp(s_.substr(b, at_ - b));
      if (at_ >= s_.size()) return fail();
      if (s_[at_] == '}') {
        ch.tail = sp + "}";
        ++at_;
        break;
      }
      State::Branch br;
      br.space = std::move(sp);
      b = at_;
      if (s_[at_] == '=') ++at_;
      while (at_ < s_.size() && (is_name_char(s_[at_]) || s_[at_] == '.')) ++at_;
      br.selector.assign(s_.substr(b, at_ - b));
      if (br.selector.empty() || br.selector == "=") return fail();
      other = other || br.selector == "other";
      b = at_;
      space();
      br.gap.assign(s_.substr(b, at_ - b));
      if (at_ >= s_.size() || s_[at_] != '{') return fail();
      ++at_;
      br.message = message(depth + 1, ch.plural, true);
      if (!ok_) return false;
      ++at_;  // its '}'
      ch.branches.push_back(std::move(br));
    }
    if (!other) return fail();  // ICU requires an "other" branch
    m->parts.push_back({Part::kChoice, {}, st_->choices.size()});
    st_->choices.push_back(std::move(ch));
    return true;
  }

  std::string_view s_;
  State* st_;
  size_t at_ = 0;
  bool ok_ = true;
};

// A deep copy of `m`, its choices copied too (as new entries of st->choices).
State::Message copy_message(State* st, const State::Message& m) {
  State::Message out = m;
  for (Part& p : out.parts) {
    if (p.kind != Part::kChoice) continue;
    State::Choice ch = st->choices[p.choice];
    for (State::Branch& br : ch.branches) br.message = copy_message(st, br.message);
    p.choice = st->choices.size();
    st->choices.push_back(std::move(ch));
  }
  return out;
}

// The argument's name where its '#' can be written {name}: a plural's, without offset.
std::string number_name(const State::Choice& ch) {
  if (!ch.plural || ch.head.find("offset:") != std::string::npos) return {};
  size_t b = 1;
  while (b < ch.head.size() && is_space(ch.head[b])) ++b;
  size_t e = b;
  while (e < ch.head.size() && is_name_char(ch.head[e])) ++e;
  return ch.head.substr(b, e - b);
}

// Each leaf a unit, the text around the arguments on the way down moved in. Two choices
// side by side ("{n, plural, ...} in {m, plural, ...}") become one inside the other's
// every branch, as ICU's guidance writes them, so that each leaf is a whole sentence; a
// '#' that moves into another argument's branches is written {name} there (it would
// count the inner argument). False where that cannot be (a plural with an offset, whose
// '#' is not its number), or the copies grow past a bound.
bool flatten(State* st, State::Message* m, const std::vector<const Part*>& before,
             const std::vector<const Part*>& after, bool plural, const std::string& number) {
  size_t choice = SIZE_MAX, choices = 0;
  for (size_t i = 0; i < m->parts.size(); ++i)
    if (m->parts[i].kind == Part::kChoice) {
      if (choice == SIZE_MAX) choice = i;
      ++choices;
    }
  if (choices > 1) {
    // What follows the first choice goes into each of its branches, a copy in each.
    std::vector<Part> tail(m->parts.begin() + static_cast<std::ptrdiff_t>(choice) + 1, m->parts.end());
    m->parts.resize(choice + 1);
    const State::Message rest{tail, SIZE_MAX};
    const size_t c = m->parts[choice].choice;
    for (size_t b = 0; b < st->choices[c].branches.size(); ++b) {
      if (st->choices.size() > 1024) return false;
      State::Message copy = copy_message(st, rest);
      std::vector<Part>& parts = st->choices[c].branches[b].message.parts;
      parts.insert(parts.end(), std::make_move_iterator(copy.parts.begin()),
                   std::make_move_iterator(copy.parts.end()));
    }
    choices = 1;
  }
  if (choices == 1) {
    std::vector<const Part*> b = before, a;
    for (size_t i = 0; i < m->parts.size(); ++i) {
      if (i == choice) continue;
      if (m->parts[i].kind == Part::kNumber) {
        if (number.empty()) return false;
        m->parts[i] = {Part::kArgument, "{" + number + "}", 0};
      }
      (i < choice ? b : a).push_back(&m->parts[i]);
    }
    a.insert(a.end(), after.begin(), after.end());
    const size_t c = m->parts[choice].choice;
    const std::string inner = number_name(st->choices[c]);
    const bool inner_plural = st->choices[c].plural;
    for (size_t k = 0; k < st->choices[c].branches.size(); ++k)
      if (!flatten(st, &st->choices[c].branches[k].message, b, a, inner_plural, inner)) return false;
    return true;
  }
  State::Leaf leaf;
  leaf.plural = plural;
  std::string unit;
  std::vector<const Part*> all = before;
  for (const Part& p : m->parts) all.push_back(&p);
  all.insert(all.end(), after.begin(), after.end());
  for (const Part* p : all) {
    const std::string& text = p->kind == Part::kNumber ? std::string("{#}") : p->text;
    unit += text;
    if (p->kind != Part::kText &&
        std::find(leaf.placeholders.begin(), leaf.placeholders.end(), text) == leaf.placeholders.end())
      leaf.placeholders.push_back(text);
  }
  // Longest first, so that "{n, number}" is not read as a shorter placeholder.
  std::sort(leaf.placeholders.begin(), leaf.placeholders.end(),
            [](const std::string& x, const std::string& y) { return x.size() > y.size(); });
  // Text moved into many leaves could make far more than the message: past 8 times its
  // size it is not taken apart.
  st->unit_bytes += unit.size();
  if (st->unit_bytes > 8 * st->source.size() + 4096) return false;
  m->leaf = st->units.size();
  st->units.push_back(std::move(unit));
  st->leaves.push_back(std::move(leaf));
  return true;
}

bool has_choice(const State::Message& m) {
  return std::any_of(m.parts.begin(), m.parts.end(), [](const Part& p) { return p.kind == Part::kChoice; });
}

class Writer {
 public:
  Writer(const State& st, const std::vector<std::string>& translations, std::string_view language)
      : st_(st),
        translations_(translations),
        cardinal_(plural_categories(language)),
        ordinal_(ordinal_categories(language)) {
    // Nested plurals each given more categories multiply: where that would make more than
    // 4 times the leaves, the branches stay the source's.
    if (cardinal_ != 0 && leaves(st_.message) > 4 * st_.units.size() + 64) cardinal_ = ordinal_ = 0;
  }

  std::string message(const State::Message& m) const {
    if (m.leaf != SIZE_MAX) {
      const bool has = m.leaf < translations_.size() && !translations_[m.leaf].empty();
      return encode(has ? translations_[m.leaf] : st_.units[m.leaf], st_.leaves[m.leaf]);
    }
    for (const Part& p : m.parts)
      if (p.kind == Part::kChoice) return choice(st_.choices[p.choice]);
    return {};
  }

 private:
  // The branches the choice is written with: each (selector, source branch) in order.
  // A select's and, for a language the table does not know, a plural's are the source's;
  // a plural's are its explicit values (=0) and then the language's categories.
  std::vector<std::pair<std::string_view, const State::Branch*>> branches(const State::Choice& ch) const {
    std::vector<std::pair<std::string_view, const State::Branch*>> out;
    const uint8_t categories = !ch.plural ? 0 : ch.cardinal ? cardinal_ : ordinal_;
    std::vector<std::string_view> selectors;
    for (const State::Branch& br : ch.branches) {
      if (categories == 0 || br.selector[0] == '=') out.emplace_back(br.selector, &br);
      selectors.push_back(br.selector);
    }
    if (categories != 0)
      for (const PluralBranch& b : plural_branches(categories, selectors))
        out.emplace_back(plural_category_name(b.category), &ch.branches[b.source]);
    return out;
  }

  // How many leaves the message has once its plurals have the language's categories
  // (counting stops past 2^20).
  size_t leaves(const State::Message& m) const {
    if (m.leaf != SIZE_MAX) return 1;
    for (const Part& p : m.parts) {
      if (p.kind != Part::kChoice) continue;
      // (each source branch counted once, times the categories that take it)
      std::vector<std::pair<const State::Branch*, size_t>> taken;
      for (const auto& b : branches(st_.choices[p.choice])) {
        const State::Branch* br = b.second;
        auto it = std::find_if(taken.begin(), taken.end(), [&](const auto& t) { return t.first == br; });
        if (it == taken.end())
          taken.emplace_back(br, 1);
        else
          ++it->second;
      }
      size_t n = 0;
      for (const auto& [br, times] : taken) n += times * leaves(br->message);
      return std::min<size_t>(n, size_t{1} << 20);
    }
    return 0;
  }

  std::string choice(const State::Choice& ch) const {
    std::string out = ch.head;
    for (const auto& [selector, br] : branches(ch)) {
      out += br->space;
      out += selector;
      out += br->gap;
      out += '{';
      out += message(br->message);
      out += '}';
    }
    return out + ch.tail;
  }

  // A leaf's text in ICU's syntax: its placeholders as they were, the rest literal text
  // (braces, and a '#' in a plural, quoted; an apostrophe doubled where it would quote).
  static std::string encode(std::string_view t, const State::Leaf& leaf) {
    auto placeholder_at = [&](size_t i) -> const std::string* {
      for (const std::string& p : leaf.placeholders)
        if (t.substr(i, p.size()) == p) return &p;
      return nullptr;
    };
    auto special = [&](char c) { return c == '{' || c == '}' || (leaf.plural && c == '#'); };
    std::string out;
    bool quote_closed = false;  // the last thing written closed a quote
    for (size_t i = 0; i < t.size();) {
      if (const std::string* p = placeholder_at(i)) {
        out += *p == "{#}" ? std::string("#") : *p;
        i += p->size();
        quote_closed = false;
        continue;
      }
      const char c = t[i];
      if (special(c)) {  // a run of them, quoted
        out += '\'';
        for (; i < t.size() && special(t[i]) && placeholder_at(i) == nullptr; ++i) out += t[i];
        out += '\'';
        quote_closed = true;
        continue;
      }
      if (c == '\'') {
        const std::string* p = placeholder_at(i + 1);
        // (after the leaf comes its branch's closing '}')
        const char next = p != nullptr ? (*p == "{#}" ? '#' : '{') : i + 1 < t.size() ? t[i + 1] : '}';
        out += quote_closed || special(next) || next == '\'' ? "''" : "'";
      } else {
        out += c;
      }
      quote_closed = false;
      ++i;
    }
    return out;
  }

  const State& st_;
  const std::vector<std::string>& translations_;
  uint8_t cardinal_, ordinal_;  // the language's categories (0: the source's branches)
};

}  // namespace

std::optional<IcuMessage> IcuMessage::parse(std::string_view text) {
  if (text.find('{') == std::string_view::npos) return std::nullopt;
  auto st = std::make_shared<State>();
  st->source.assign(text);
  if (!Parser(text, st.get()).read() || !has_choice(st->message)) return std::nullopt;
  if (!flatten(st.get(), &st->message, {}, {}, false, {})) return std::nullopt;
  IcuMessage m;
  m.state_ = std::move(st);
  return m;
}

bool IcuMessage::has_choice_argument(std::string_view text) {
  for (size_t at = text.find('{'); at != std::string_view::npos; at = text.find('{', at + 1)) {
    size_t i = at + 1;
    auto space = [&]() {
      while (i < text.size() && is_space(text[i])) ++i;
    };
    auto word = [&]() {
      const size_t b = i;
      while (i < text.size() && is_name_char(text[i])) ++i;
      return text.substr(b, i - b);
    };
    space();
    if (word().empty()) continue;
    space();
    if (i >= text.size() || text[i] != ',') continue;
    ++i;
    space();
    const std::string_view type = word();
    space();
    if ((type == "plural" || type == "select" || type == "selectordinal") && i < text.size() &&
        text[i] == ',')
      return true;
  }
  return false;
}

const std::vector<std::string>& IcuMessage::units() const { return state_->units; }

std::string IcuMessage::render(const std::vector<std::string>& translations,
                               std::string_view language) const {
  if (std::none_of(translations.begin(), translations.end(), [](const std::string& t) { return !t.empty(); }))
    return state_->source;
  return Writer(*state_, translations, language).message(state_->message);
}

std::string IcuMessage::render_from(const std::vector<std::string>& translations, size_t first,
                                    std::string_view language) const {
  std::vector<std::string> leaves;
  for (size_t k = 0; k < units().size() && first + k < translations.size(); ++k)
    leaves.push_back(translations[first + k]);
  return render(leaves, language);
}

}  // namespace edgemt
