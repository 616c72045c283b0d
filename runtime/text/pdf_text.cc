#include "runtime/text/pdf_text.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

extern char** environ;

namespace edgemt {
namespace {

void append_utf8(uint32_t c, std::string* out) {
  if (c == 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (c >> 6)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (c >> 12)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (c >> 18)));
    out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

// XML character data with its entities decoded (the five named ones and numeric ones).
std::string decode_xml(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out.push_back(s[i]);
      continue;
    }
    const size_t semi = s.find(';', i);
    if (semi == std::string_view::npos || semi - i > 10) {
      out.push_back('&');
      continue;
    }
    const std::string_view name = s.substr(i + 1, semi - i - 1);
    if (name == "amp") {
      out.push_back('&');
    } else if (name == "lt") {
      out.push_back('<');
    } else if (name == "gt") {
      out.push_back('>');
    } else if (name == "quot") {
      out.push_back('"');
    } else if (name == "apos") {
      out.push_back('\'');
    } else if (name.size() > 1 && name[0] == '#') {
      const bool hex = name[1] == 'x' || name[1] == 'X';
      const std::string digits(name.substr(hex ? 2 : 1));
      char* end = nullptr;
      const unsigned long c = std::strtoul(digits.c_str(), &end, hex ? 16 : 10);
      if (digits.empty() || *end != '\0') {
        out.push_back('&');
        continue;
      }
      append_utf8(static_cast<uint32_t>(std::min<unsigned long>(c, 0x110000)), &out);
    } else {
      out.push_back('&');
      continue;
    }
    i = semi;
  }
  return out;
}

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

}  // namespace

std::string pdf_layout_to_paragraphs(std::string_view x) {
  std::string out;
  std::vector<std::string> lines;
  std::string line;
  size_t i = 0;
  while ((i = x.find('<', i)) != std::string_view::npos) {
    const size_t gt = x.find('>', i);
    if (gt == std::string_view::npos) break;
    const std::string_view tag = x.substr(i + 1, gt - i - 1);
    i = gt + 1;
    if (tag.rfind("word", 0) == 0 && (tag.size() == 4 || tag[4] == ' ') && tag.back() != '/') {
      const size_t end = x.find("</word>", i);
      if (end == std::string_view::npos) break;
      const std::string w = decode_xml(x.substr(i, end - i));
      // A word holds no line break; any other control character is dropped.
      std::string clean;
      for (char c : w)
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t') clean.push_back(c == '\t' ? ' ' : c);
      if (!clean.empty()) {
        if (!line.empty()) line.push_back(' ');
        line += clean;
      }
      i = end + 7;
    } else if (tag == "/line") {
      lines.push_back(std::move(line));
      line.clear();
    } else if (tag == "/block") {
      if (!line.empty()) lines.push_back(std::move(line));
      line.clear();
      const std::string p = join_lines(lines);
      lines.clear();
      if (!p.empty()) {
        if (!out.empty()) out += '\n';
        out += p;
        out += '\n';
      }
    }
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
