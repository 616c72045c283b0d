// edgemt-server: a LibreTranslate-compatible HTTP server (cpp-httplib) over the models of a
// directory. See runtime/server/libretranslate.h for the API and docs/server.md.
#include <httplib.h>
#include <signal.h>
#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "runtime/api/translator.h"
#include "runtime/server/libretranslate.h"
#include "runtime/server/service.h"

namespace {

constexpr const char* kUsage = R"(usage: edgemt-server [options]

Serves the LibreTranslate HTTP API (POST /translate, GET /languages, GET /health,
GET /frontend/settings) with the models of a directory.

options:
  --host H            address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
  --port P            port (default 5000; 0 picks a free one, printed at start)
  --models DIR        serve every *.emt in DIR (default: the bundled models, or those of
                      $EDGEMT_MODELS_DIR); the language
                      pair comes from each model's metadata or a name ending in -SRC-TGT.emt;
                      a pair no model serves goes through a pivot language where two
                      models chain (fr->en and en->de serve fr->de; English preferred)
  --model FILE        serve this model file (repeatable; instead of --models)
  --workers N         translators per model (default 1)
  --threads N         threads per translator (default: cores / workers)
  --max-batch N       segments translated together (default 16)
  --batch-tokens N    source tokens per batch (default 4096)
  --no-batching       translate one request at a time per worker (no dynamic batching)
  --queue N           segments waiting per model before requests get 503 (default 1024)
  --char-limit N      characters of text per request (default 5000; more: 413)
  --file-char-limit N  characters of text per file of /translate_file (.txt, .html,
                      .md, .srt, .vtt, .po, .docx, .pptx, .xlsx, .odt, .odp, .ods,
                      .epub, .pdf (its text: a .txt comes back); default 50000; more: 413; 0: no file translation,
                      /translate_file answers 501); the translated file is kept 10
                      minutes for /download_file
  --max-body BYTES    request body size (default 16777216, for office documents
                      with images; more: 413)
  --timeout SEC       per request, queueing included (default 30; then 503)
  --beam N            beam size (default: the model's)
  --max-length-factor A  at most ceil(A x source tokens) + B tokens per segment (default
                      2; 0: only the model's limit), so that a model repeating itself
                      stops early
  --max-length-offset B  (default 10)
  --rerank            rerank each segment's beam hypotheses with the served model of the
                      opposite direction (de->en for en->de; noisy-channel reranking: a
                      little better, about 2.5 times the translation time); a model
                      whose reverse is not served is not reranked
  --rerank-weight W   the reverse model's weight (default 0.3)
  --cache-size N      translations of segments kept per model and reused when the same
                      segment is asked for again (default 4096; 0: off); a segment
                      repeated within a request is translated once
  --cache-memory MB   the most memory each model's cache takes (default 32); least
                      recently used segments go first past it
  --api-keys FILE     require api_key, one key per line of FILE
  --http-threads N    connections handled at once (default 256; a connection holds its
                      thread while kept alive, so set it above the number of clients)
  --config FILE       read options from FILE: one "name = value" per line (names as
                      above without --, e.g. "port = 5000"; "no-batching = true")
  --help              show this help

Stops on SIGTERM or SIGINT after the requests in flight are answered.
)";

struct Args {
  std::string host = "127.0.0.1";
  int port = 5000;
  std::string models_dir;
  std::vector<std::string> model_files;
  edgemt::server::ServiceOptions service;
  edgemt::server::ApiOptions api;
  size_t max_body = size_t{16} << 20;
  int http_threads = 256;
};

bool parse_int(const std::string& s, long lo, long hi, long* out) {
  if (s.empty() || s.size() > 12) return false;
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi) return false;
  *out = v;
  return true;
}

bool read_lines(const std::string& path, std::vector<std::string>* lines) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines->push_back(line);
  }
  return true;
}

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// One option; value is "" for flags. Returns an error message or "".
std::string apply(Args* a, const std::string& name, const std::string& value, bool* has_value) {
  *has_value = true;
  long v = 0;
  auto num = [&](long lo, long hi, auto* dst) -> std::string {
    if (!parse_int(value, lo, hi, &v))
      return "--" + name + " needs an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    *dst = static_cast<std::remove_pointer_t<decltype(dst)>>(v);
    return "";
  };
  if (name == "host") {
    a->host = value;
    return "";
  }
  if (name == "port") return num(0, 65535, &a->port);
  if (name == "models") {
    a->models_dir = value;
    return "";
  }
  if (name == "model") {
    a->model_files.push_back(value);
    return "";
  }
  if (name == "workers") return num(1, 64, &a->service.workers);
  if (name == "threads") return num(1, 256, &a->service.threads);
  if (name == "max-batch") return num(1, 256, &a->service.max_batch);
  if (name == "batch-tokens") return num(1, 1 << 20, &a->service.batch_tokens);
  if (name == "queue") return num(1, 1 << 20, &a->service.queue_capacity);
  if (name == "char-limit") return num(1, 1 << 26, &a->api.char_limit);
  if (name == "file-char-limit") return num(0, 1 << 26, &a->api.file_char_limit);
  if (name == "max-body") return num(64, 1 << 30, &a->max_body);
  if (name == "beam") return num(1, 32, &a->service.beam);
  if (name == "max-length-offset") return num(0, 4096, &a->service.max_length_offset);
  if (name == "max-length-factor") {
    char* end = nullptr;
    const float f = std::strtof(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !(f >= 0.0f && f <= 1000.0f))
      return "--max-length-factor needs a number in [0, 1000]";
    a->service.max_length_factor = f;
    return "";
  }
  if (name == "rerank-weight") {
    char* end = nullptr;
    const float f = std::strtof(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !(f >= 0.0f && f <= 100.0f))
      return "--rerank-weight needs a number in [0, 100]";
    a->service.rerank_weight = f;
    return "";
  }
  // A flag: on when given alone (or "= true/yes/1" in a config), off with "false/no/0".
  auto flag = [&](bool* dst) -> std::string {
    *has_value = !value.empty();
    if (value.empty() || value == "true" || value == "1" || value == "yes") {
      *dst = true;
    } else if (value == "false" || value == "0" || value == "no") {
      *dst = false;
    } else {
      return name + " must be true or false";
    }
    return "";
  };
  if (name == "rerank") return flag(&a->service.rerank);
  if (name == "cache-size") return num(0, 1 << 24, &a->service.cache_size);
  if (name == "cache-memory") {
    long mb = 0;
    if (!parse_int(value, 1, 1 << 20, &mb)) return "--cache-memory needs megabytes in [1, 1048576]";
    a->service.cache_bytes = static_cast<size_t>(mb) << 20;
    return "";
  }
  if (name == "http-threads") return num(1, 4096, &a->http_threads);
  if (name == "timeout") {
    long s = 0;
    if (!parse_int(value, 1, 86400, &s)) return "--timeout needs seconds in [1, 86400]";
    a->api.timeout = std::chrono::seconds(s);
    return "";
  }
  if (name == "api-keys") {
    std::vector<std::string> lines;
    if (!read_lines(value, &lines)) return "--api-keys: cannot read " + value;
    for (const std::string& l : lines)
      if (const std::string k = trim(l); !k.empty() && k[0] != '#') a->api.api_keys.insert(k);
    if (a->api.api_keys.empty()) return "--api-keys: " + value + " holds no key";
    return "";
  }
  if (name == "no-batching") {
    bool off = false;
    const std::string e = flag(&off);
    if (e.empty()) a->service.batching = !off;
    return e;
  }
  return "unknown option --" + name;
}

std::string parse_config(Args* a, const std::string& path) {
  std::vector<std::string> lines;
  if (!read_lines(path, &lines)) return "--config: cannot read " + path;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string l = trim(lines[i]);
    if (l.empty() || l[0] == '#') continue;
    const size_t eq = l.find('=');
    const std::string name = trim(eq == std::string::npos ? l : l.substr(0, eq));
    const std::string value = eq == std::string::npos ? "" : trim(l.substr(eq + 1));
    if (name == "config") return path + ":" + std::to_string(i + 1) + ": config cannot include another";
    bool has_value = false;
    if (std::string e = apply(a, name, value, &has_value); !e.empty())
      return path + ":" + std::to_string(i + 1) + ": " + e;
  }
  return "";
}

// Exit code: -1 to go on.
int parse_args(int argc, char** argv, Args* a) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (arg.rfind("--", 0) != 0) {
      std::cerr << "edgemt-server: unexpected argument '" << arg << "'\n" << kUsage;
      return 2;
    }
    std::string name = arg.substr(2), value;
    const size_t eq = name.find('=');
    bool inline_value = eq != std::string::npos;
    if (inline_value) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    if (name == "config") {
      if (!inline_value && i + 1 >= argc) {
        std::cerr << "edgemt-server: --config needs a file\n";
        return 2;
      }
      if (std::string e = parse_config(a, inline_value ? value : argv[++i]); !e.empty()) {
        std::cerr << "edgemt-server: " << e << "\n";
        return 2;
      }
      continue;
    }
    const bool flag = name == "no-batching" || name == "rerank";
    if (!flag && !inline_value) {
      if (i + 1 >= argc) {
        std::cerr << "edgemt-server: --" << name << " needs a value\n";
        return 2;
      }
      value = argv[++i];
    }
    bool has_value = false;
    if (std::string e = apply(a, name, value, &has_value); !e.empty()) {
      std::cerr << "edgemt-server: " << e << "\n";
      return 2;
    }
  }
  return -1;
}

// Query-string fields of a request target ("/translate?q=...").
std::vector<std::pair<std::string, std::string>> query_fields(const std::string& target) {
  const size_t q = target.find('?');
  if (q == std::string::npos) return {};
  return edgemt::server::parse_form(std::string_view(target).substr(q + 1));
}

}  // namespace

int main(int argc, char** argv) {
  using namespace edgemt;
  Args args;
  if (const int rc = parse_args(argc, argv, &args); rc >= 0) return rc;

  // Signals go to one thread (sigwait below), so block them before any thread starts.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  std::vector<server::ModelEntry> entries;
  if (!args.model_files.empty()) {
    for (const std::string& f : args.model_files) entries.push_back({f, "", ""});
  } else {
    std::string dir = args.models_dir;
    if (dir.empty()) {
      // The bundled models' folder ($EDGEMT_MODELS_DIR first), else the default model's.
      const std::vector<BundledModel> all = bundled_models();
      const std::string bundled = all.empty() ? default_model_path() : all[0].path;
      if (bundled.empty()) {
        std::cerr << "edgemt-server: no bundled model found; pass --models DIR or --model FILE\n";
        return 1;
      }
      dir = std::filesystem::path(bundled).parent_path().string();
    }
    auto found = server::TranslationService::scan(dir);
    if (!found) {
      std::cerr << "edgemt-server: " << found.status().to_string() << "\n";
      return 1;
    }
    entries = std::move(found.value());
  }
  auto service = server::TranslationService::create(entries, args.service);
  if (!service) {
    std::cerr << "edgemt-server: " << service.status().to_string() << "\n";
    return 1;
  }
  server::LibreTranslateApi api(*service.value(), args.api);

  httplib::Server http;
  const int http_threads = args.http_threads;
  http.new_task_queue = [http_threads] { return new httplib::ThreadPool(static_cast<size_t>(http_threads)); };
  http.set_payload_max_length(args.max_body);
  // Answers are small and written in a few pieces: without TCP_NODELAY, Nagle's algorithm
  // and the client's delayed ACK hold each answer ~40 ms (measured: 21 requests/s at
  // concurrency 1, p50 48 ms, whatever the translation took).
  http.set_tcp_nodelay(true);
  // Debian's cpp-httplib listens with a backlog of 5 (CPPHTTPLIB_LISTEN_BACKLOG, fixed when
  // the library was built): a burst of new connections overflows it while the cores are
  // busy translating, and the kernel drops the excess handshakes, which the clients retry
  // 1 s and 3 s later (measured: p99 1.4-3.4 s at 64 connections, p90 80 ms). The socket
  // options hook sees the listening socket before bind; after bind_to_port (which calls
  // listen with 5) a second listen() raises the backlog (Linux updates it in place).
  int listen_fd = -1;
  http.set_socket_options([&listen_fd](socket_t sock) {
    httplib::default_socket_options(sock);  // SO_REUSEADDR (and SO_REUSEPORT where set)
    listen_fd = static_cast<int>(sock);
  });
  http.set_keep_alive_max_count(1000);
  http.set_default_headers({{"Access-Control-Allow-Origin", "*"}});
  auto handler = [&api](const httplib::Request& req, httplib::Response& res) {
    server::HttpRequest r;
    r.method = req.method;
    r.path = req.path;
    r.content_type = req.get_header_value("Content-Type");
    r.host = req.get_header_value("Host");
    r.params = query_fields(req.target);
    for (const auto& [name, part] : req.files) {
      r.params.emplace_back(name, part.content);
      if (!part.filename.empty()) r.files.push_back({name, part.filename, part.content});
    }
    r.body = req.body;
    const server::HttpResponse out = api.handle(r);
    res.status = out.status;
    if (out.retry_after_s > 0) res.set_header("Retry-After", std::to_string(out.retry_after_s));
    if (!out.filename.empty())  // a safe name (letters, digits, . - _)
      res.set_header("Content-Disposition", "attachment; filename=\"" + out.filename + "\"");
    res.set_content(req.method == "HEAD" ? std::string() : out.body, out.content_type.c_str());
  };
  http.Get(".*", handler);
  http.Post(".*", handler);
  http.Put(".*", handler);
  http.Delete(".*", handler);
  http.Patch(".*", handler);
  http.Options(".*", [](const httplib::Request&, httplib::Response& res) {
    res.status = 204;
    res.set_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
    res.set_header("Access-Control-Allow-Headers", "Content-Type, Authorization");
  });
  // Errors httplib answers itself (413 body too large, 400 malformed request): JSON too.
  http.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    const char* why = res.status == 413   ? "Request body too large"
                      : res.status == 414 ? "Request URI too long"
                      : res.status == 400 ? "Malformed HTTP request"
                                          : "HTTP error";
    res.set_content(std::string("{\"error\":\"") + why + "\"}", "application/json");
  });

  auto raise_backlog = [&listen_fd] {
    if (listen_fd >= 0 && ::listen(listen_fd, SOMAXCONN) != 0)
      std::fprintf(stderr, "edgemt-server: warning: could not raise the listen backlog: %s\n",
                   std::strerror(errno));
  };
  int port = args.port;
  if (port == 0) {
    port = http.bind_to_any_port(args.host);
    if (port < 0) {
      std::cerr << "edgemt-server: cannot listen on " << args.host << "\n";
      return 1;
    }
  } else if (!http.bind_to_port(args.host, port)) {
    std::cerr << "edgemt-server: cannot listen on " << args.host << ":" << port
              << " (address in use or not allowed)\n";
    return 1;
  }
  raise_backlog();

  // SIGTERM/SIGINT: stop accepting; requests in flight finish (listen_after_bind returns
  // once they are answered), then the workers drain and stop.
  std::atomic<bool> listen_done{false};
  std::thread signal_thread([&http, &listen_done, signals] {
    int sig = 0;
    sigwait(&signals, &sig);
    if (listen_done.load()) return;  // woken by main after listen ended some other way
    std::fprintf(stderr, "edgemt-server: %s, finishing the requests in flight\n",
                 sig == SIGTERM ? "SIGTERM" : "SIGINT");
    // cpp-httplib's stop() does nothing until listen_after_bind has started running: a
    // signal that came right after the start-up line would be lost and the server would
    // never stop. Wait for it to run (or to end).
    while (!http.is_running() && !listen_done.load())
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    http.stop();
  });

  std::string pairs;
  for (const server::ModelEntry& e : service.value()->models())
    pairs += (pairs.empty() ? "" : ", ") + e.source + "->" + e.target;
  if (args.service.rerank) {
    const std::vector<server::ModelEntry>& ms = service.value()->models();
    for (size_t i = 0; i < ms.size(); ++i) {
      const int r = service.value()->reranker(static_cast<int>(i));
      if (r >= 0)
        std::fprintf(stderr, "edgemt-server: %s->%s reranked with %s\n", ms[i].source.c_str(),
                     ms[i].target.c_str(), ms[static_cast<size_t>(r)].path.c_str());
      else
        std::fprintf(stderr, "edgemt-server: warning: %s->%s is not reranked: no %s->%s model is served\n",
                     ms[i].source.c_str(), ms[i].target.c_str(), ms[i].target.c_str(), ms[i].source.c_str());
    }
  }
  std::printf(
      "edgemt-server listening on http://%s:%d (%s; isa %s; batching %s; cache %d segments, %zu MiB per "
      "model)\n",
      args.host.c_str(), port, pairs.c_str(), active_isa(), args.service.batching ? "on" : "off",
      args.service.cache_size, args.service.cache_bytes >> 20);
  std::fflush(stdout);

  const bool ok = http.listen_after_bind();
  listen_done = true;
  service.value()->shutdown();
  if (!ok && http.is_running()) {
    std::cerr << "edgemt-server: the listening socket failed\n";
  }
  // The signal thread is waiting only if listen ended some other way: wake it.
  pthread_kill(signal_thread.native_handle(), SIGTERM);
  signal_thread.join();
  std::fprintf(stderr, "edgemt-server: stopped\n");
  return 0;
}
