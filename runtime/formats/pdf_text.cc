#include "runtime/formats/pdf_text.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "runtime/text/markup.h"

extern char** environ;

namespace edgemt {
namespace {

bool lowercase_start(std::string_view s) {
  if (s.empty()) return false;
  const auto c = static_cast<unsigned char>(s[0]);
  if (c >= 'a' && c <= 'z') return true;
  // Latin-1 lowercase letters (U+00DF-U+00FF: ß, à-ÿ): 0xC3 0x9F-0xBF.
  return c == 0xC3 && s.size() > 1 && static_cast<unsigned char>(s[1]) >= 0x9F;
}

bool letter_before_hyphen(std::string_view s) {
  if (s.size() < 2) return false;
  const auto c = static_cast<unsigned char>(s[s.size() - 2]);
  return std::isalpha(c) || c >= 0x80;
}

// A block's lines as one paragraph: joined with spaces, a word hyphenated at a line end
// ("pro-" + "gram", or a soft hyphen) joined again.
std::string join_lines(const std::vector<std::string>& lines) {
  std::string p;
  for (const std::string& l : lines) {
    if (l.empty()) continue;
    if (p.empty()) {
      p = l;
    } else if (p.size() >= 2 && p.compare(p.size() - 2, 2, "\xC2\xAD") == 0) {
      p.resize(p.size() - 2);  // soft hyphen: always a break inside a word
      p += l;
    } else if (p.back() == '-' && letter_before_hyphen(p) && lowercase_start(l)) {
      p.pop_back();
      p += l;
    } else {
      p += ' ';
      p += l;
    }
  }
  return p;
}

// One block of a page: its vertical extent (points from the page's top) and its text.
struct Block {
  double top = 0, bottom = 0;
  std::string text;
};
struct Page {
  double height = 0;  // 0: unknown (no furniture is looked for on it)
  std::vector<Block> blocks;
};

// The number in an attribute `name="..."` of a tag, or `fallback`.
double attribute(std::string_view tag, std::string_view name, double fallback) {
  for (size_t at = 0; (at = tag.find(name, at)) != std::string_view::npos; at += name.size()) {
    if (at > 0 && tag[at - 1] != ' ' && tag[at - 1] != '\n' && tag[at - 1] != '\t') continue;
    size_t v = at + name.size();
    if (tag.substr(v, 2) != "=\"") continue;
    v += 2;
    const size_t close = tag.find('"', v);
    if (close == std::string_view::npos) return fallback;
    const std::string digits(tag.substr(v, close - v));
    char* end = nullptr;
    const double d = std::strtod(digits.c_str(), &end);
    return end != digits.c_str() && *end == '\0' && std::isfinite(d) ? d : fallback;
  }
  return fallback;
}

// The page number a folio shows: "17", "- 17 -", "Page 17", "Seite 17 von 40", "17 / 40",
// "xiv"; -1 for any other text.
long folio_number(std::string_view t) {
  auto skip = [&](std::string_view chars) {
    while (!t.empty() && chars.find(t.front()) != std::string_view::npos) t.remove_prefix(1);
    while (!t.empty() && chars.find(t.back()) != std::string_view::npos) t.remove_suffix(1);
  };
  skip(" -\xE2\x80\x93\x94[]()|");  // spaces, hyphens, the dashes' bytes, brackets, bars
  for (std::string_view word : {"Page ", "page ", "Seite ", "S. ", "p. ", "P. "})
    if (t.substr(0, word.size()) == word) {
      t.remove_prefix(word.size());
      break;
    }
  // "17 of 40", "17 / 40", "17 von 40": the number before.
  for (std::string_view sep : {" of ", " von ", " / ", "/"})
    if (const size_t at = t.find(sep); at != std::string_view::npos) {
      const std::string_view total = t.substr(at + sep.size());
      if (total.empty() ||
          !std::all_of(total.begin(), total.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return -1;
      t = t.substr(0, at);
      break;
    }
  if (t.empty() || t.size() > 9) return -1;
  if (std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::stol(std::string(t));
  // Lowercase roman numerals (a book's front matter), i to xxxix.
  long value = 0, last = 0;
  for (auto it = t.rbegin(); it != t.rend(); ++it) {
    const long v = *it == 'i' ? 1 : *it == 'v' ? 5 : *it == 'x' ? 10 : 0;
    if (v == 0) return -1;
    value += v < last ? -v : v;
    last = std::max(last, v);
  }
  return value > 0 ? value : -1;
}

// A running header or footer's text with its numbers as '#' ("Chapter 3 · 17" and
// "Chapter 3 · 18" are one), spaces collapsed.
std::string furniture_key(std::string_view t) {
  std::string k;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c >= '0' && c <= '9') {
      if (k.empty() || k.back() != '#') k.push_back('#');
    } else if (c == ' ') {
      if (!k.empty() && k.back() != ' ') k.push_back(' ');
    } else {
      k.push_back(c);
    }
  }
  return k;
}

// Page furniture: the running headers and footers and the page numbers a document repeats
// at the top or bottom of its pages, which in the text would interrupt the paragraphs
// that run on from page to page. Only blocks wholly in a page's top or bottom tenth count,
// and only with two pages or more:
// * a folio (a page number alone, folio_number) when the numbers of at least two pages on
//   that edge go up with the pages (number - page index the same), so that a lone number
//   in a table at a page's top stays;
// * any other block whose text, numbers aside, repeats at about the same height (within 1-2% of
//   the page) on the same edge of at least two pages (three for five pages or more,
//   unless the block stands beside a page number: a chapter's title beside the folios of
//   its pages), so that a heading at the top of one page stays.
// Linear in the number of blocks (hash maps, not pairs of blocks): pdftotext's output of
// a hostile file may hold very many.
std::vector<std::vector<bool>> find_furniture(const std::vector<Page>& pages) {
  std::vector<std::vector<bool>> drop(pages.size());
  for (size_t p = 0; p < pages.size(); ++p) drop[p].assign(pages[p].blocks.size(), false);
  if (pages.size() < 2) return drop;
  struct Candidate {
    size_t page, block;
    int edge;           // 0 top, 1 bottom
    long bucket;        // height in hundredths of the page
    std::string text;   // with numbers as '#' (furniture_key); empty for a folio
    std::string folio;  // edge:number - page index; empty if not a folio
  };
  std::vector<Candidate> c;
  // Pages (in increasing order, each once) per key and per folio offset.
  std::unordered_map<std::string, std::vector<size_t>> by_key, by_folio;
  auto add = [](std::vector<size_t>& v, size_t page) {
    if (v.empty() || v.back() != page) v.push_back(page);
  };
  auto key_of = [](int edge, long bucket, std::string_view text) {
    return std::to_string(edge) + ':' + std::to_string(bucket) + ':' + std::string(text);
  };
  for (size_t p = 0; p < pages.size(); ++p) {
    const double h = pages[p].height;
    if (!(h > 0)) continue;
    for (size_t b = 0; b < pages[p].blocks.size(); ++b) {
      const Block& blk = pages[p].blocks[b];
      const int edge = blk.bottom <= 0.1 * h ? 0 : blk.top >= 0.9 * h ? 1 : -1;
      if (edge < 0) continue;
      // A folio is judged by its number alone: numbers in the same place on every page
      // that do not follow the pages are not page numbers.
      Candidate x{p, b, edge, std::lround(std::clamp(blk.top / h, 0.0, 1.0) * 100), "", ""};
      if (const long n = folio_number(blk.text); n >= 0) {
        x.folio = std::to_string(edge) + ':' + std::to_string(n - static_cast<long>(p));
        add(by_folio[x.folio], p);
      } else {
        x.text = furniture_key(blk.text);
        add(by_key[key_of(edge, x.bucket, x.text)], p);
      }
      c.push_back(std::move(x));
    }
  }
  // Folios first; where each page has one (edge, height bucket).
  std::unordered_set<std::string> folio_at;
  auto place = [](size_t page, int edge, long bucket) {
    return std::to_string(page) + ':' + std::to_string(edge) + ':' + std::to_string(bucket);
  };
  for (const Candidate& x : c)
    if (!x.folio.empty() && by_folio[x.folio].size() >= 2) {
      drop[x.page][x.block] = true;
      folio_at.insert(place(x.page, x.edge, x.bucket));
    }
  // The pages of a key with the neighbouring height buckets, counted once per key.
  std::unordered_map<std::string, size_t> repeated;
  for (const Candidate& x : c) {
    if (!x.folio.empty()) continue;
    bool beside_folio = false;
    for (long d = -1; d <= 1; ++d)
      beside_folio = beside_folio || folio_at.count(place(x.page, x.edge, x.bucket + d)) > 0;
    const size_t need = pages.size() >= 5 && !beside_folio ? 3 : 2;
    auto [it, fresh] = repeated.try_emplace(key_of(x.edge, x.bucket, x.text), 0);
    if (fresh) {
      std::vector<size_t> all;
      for (long d = -1; d <= 1; ++d)
        if (auto f = by_key.find(key_of(x.edge, x.bucket + d, x.text)); f != by_key.end())
          all.insert(all.end(), f->second.begin(), f->second.end());
      std::sort(all.begin(), all.end());
      it->second = static_cast<size_t>(std::unique(all.begin(), all.end()) - all.begin());
    }
    if (it->second >= need) drop[x.page][x.block] = true;
  }
  return drop;
}

}  // namespace

std::string pdf_layout_to_paragraphs(std::string_view x) {
  std::vector<Page> pages;
  std::vector<std::string> lines;
  std::string line;
  Block block;
  size_t i = 0;
  while ((i = x.find('<', i)) != std::string_view::npos) {
    const size_t gt = x.find('>', i);
    if (gt == std::string_view::npos) break;
    const std::string_view tag = x.substr(i + 1, gt - i - 1);
    i = gt + 1;
    auto named = [&](std::string_view name) {
      return tag.substr(0, name.size()) == name && (tag.size() == name.size() || tag[name.size()] == ' ');
    };
    if (named("word") && tag.back() != '/') {
      const size_t end = x.find("</word>", i);
      if (end == std::string_view::npos) break;
      const std::string w = decode_entities(x.substr(i, end - i));
      // A word holds no line break; any other control character is dropped.
      std::string clean;
      for (char c : w)
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t') clean.push_back(c == '\t' ? ' ' : c);
      if (!clean.empty()) {
        if (!line.empty()) line.push_back(' ');
        line += clean;
      }
      i = end + 7;
    } else if (named("page")) {
      pages.push_back({attribute(tag, "height", 0), {}});
    } else if (named("block")) {
      block.top = attribute(tag, "yMin", 0);
      block.bottom = attribute(tag, "yMax", block.top);
    } else if (tag == "/line") {
      lines.push_back(std::move(line));
      line.clear();
    } else if (tag == "/block") {
      if (!line.empty()) lines.push_back(std::move(line));
      line.clear();
      block.text = join_lines(lines);
      lines.clear();
      if (!block.text.empty()) {
        if (pages.empty()) pages.emplace_back();
        pages.back().blocks.push_back(std::move(block));
      }
      block = Block{};
    }
  }
  const std::vector<std::vector<bool>> furniture = find_furniture(pages);
  std::string out;
  for (size_t p = 0; p < pages.size(); ++p)
    for (size_t b = 0; b < pages[p].blocks.size(); ++b) {
      if (furniture[p][b]) continue;
      if (!out.empty()) out += '\n';
      out += pages[p].blocks[b].text;
      out += '\n';
    }
  return out;
}

Expected<std::string> pdf_paragraphs(std::string_view pdf) {
  if (pdf.substr(0, 1024).find("%PDF-") == std::string_view::npos)
    return invalid_argument("not a PDF file (no %PDF- header)");
  const char* tmpdir = std::getenv("TMPDIR");
  std::string path =
      std::string(tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp") + "/edgemt-pdf-XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) return io_error("cannot create a temporary file in " + path + ": " + std::strerror(errno));
  struct Unlink {
    std::string p;
    ~Unlink() { unlink(p.c_str()); }
  } remove_later{path};
  for (size_t at = 0; at < pdf.size();) {
    const ssize_t n = write(fd, pdf.data() + at, pdf.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string e = std::strerror(errno);
      close(fd);
      return io_error("cannot write the temporary file " + path + ": " + e);
    }
    at += static_cast<size_t>(n);
  }
  close(fd);

  const char* program = std::getenv("EDGEMT_PDFTOTEXT");
  if (program == nullptr || *program == '\0') program = "pdftotext";
  // Close-on-exec, so that a program another thread starts meanwhile does not inherit the
  // write end (this read would then wait for that program too); dup2 gives the child's
  // standard output without the flag.
  int out_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return io_error(std::string("pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addclose(&actions, out_pipe[0]);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, out_pipe[1]);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<std::string> args = {program, "-q", "-bbox-layout", "-enc", "UTF-8", path, "-"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, program, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  if (spawned != 0) {
    close(out_pipe[0]);
    if (spawned == ENOENT)
      return unsupported(std::string("reading PDF needs ") + program +
                         ", which is not installed: install poppler-utils (apt-get install poppler-utils)");
    return io_error(std::string("cannot run ") + program + ": " + std::strerror(spawned));
  }
  std::string layout;
  char buf[65536];
  for (;;) {
    const ssize_t n = read(out_pipe[0], buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    layout.append(buf, static_cast<size_t>(n));
  }
  close(out_pipe[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // posix_spawnp may report a missing program only through the child's exit status 127.
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && layout.empty())
    return unsupported(std::string("reading PDF needs ") + program +
                       ", which could not be run: install poppler-utils (apt-get install poppler-utils)");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return invalid_argument(std::string(program) + " could not read the PDF (" +
                            (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                               : std::string("killed by a signal")) +
                            "): a damaged file, or one encrypted with a password");
  std::string text = pdf_layout_to_paragraphs(layout);
  if (text.empty())
    return invalid_argument(
        "the PDF holds no text (a scanned document is images only; edgemt does not read text "
        "in images)");
  return text;
}

}  // namespace edgemt
