// The LibreTranslate HTTP API over a TranslationService, independent of the HTTP library
// (runtime/server/main.cc adapts cpp-httplib to it; the fuzz target calls it directly).
//
//   POST /translate   q (string or list), source (code or "auto"), target, format
//                     ("text" or "html"), alternatives (0..), api_key; JSON body or
//                     form fields. -> {"translatedText": ..., "alternatives": [...],
//                     "detectedLanguage": {...}} (lists when q is a list). A pair no
//                     model serves goes through a pivot language where two models
//                     chain (TranslationService::route; alternatives from the second)
//   POST /detect      q -> [{"language", "confidence"}]: the served source languages,
//                     those CLD2 identifies in q first (confidence: their share of q),
//                     then by how much of q their vocabulary knows (confidence 0; the
//                     coverage itself when CLD2 names none of them, or is not built in)
//   GET  /languages   [{"code", "name", "targets"}] (targets through a pivot too)
//   POST /translate_file   multipart form: file (.txt, .html/.htm, .md, .srt, .vtt, .po),
//                     source (code or "auto"), target, api_key -> {"translatedFileUrl":
//                     "http://HOST/download_file/ID.NAME"}: the file translated as
//                     `translate --format` does (wrapped, html, markdown, srt/vtt, po),
//                     kept for ApiOptions::file_ttl
//   GET  /download_file/ID.NAME   that file (404 once expired or unknown)
//   GET  /frontend/settings   charLimit, keyRequired, languages, filesTranslation,
//                     supportedFilesFormat (what clients probe)
//   GET  /health      {"status": "ok", ...} with queue and batch counters
// Errors: {"error": message} with 400 (bad request), 403 (API key), 404/405, 413 (too
// much text), 501 (/suggest; /translate_file when file_char_limit is 0), 503 + Retry-After (queue full, timed
// out, shutting down), 500 (translation failed).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "runtime/server/service.h"

namespace edgemt::server {

struct HttpRequest {
  std::string method;  // "GET", "POST", ...
  std::string path;
  std::string content_type;
  std::string host;  // the Host header (for /translate_file's download URL)
  std::string body;
  // Query string and multipart form fields (already decoded by the HTTP layer); a
  // form-urlencoded or JSON body is parsed here.
  std::vector<std::pair<std::string, std::string>> params;
  struct File {
    std::string field, filename, content;
  };
  std::vector<File> files;  // multipart file parts
};

struct HttpResponse {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
  int retry_after_s = 0;  // > 0: send Retry-After
  std::string filename;   // not empty: send it as an attachment of this name
};

struct ApiOptions {
  size_t char_limit = 5000;                  // characters (code points) of q per request
  std::chrono::milliseconds timeout{30000};  // per request, queueing included
  std::unordered_set<std::string> api_keys;  // empty: no key needed
  size_t file_char_limit = 50000;            // characters to translate per file; 0: no files
  std::chrono::seconds file_ttl{600};        // how long a translated file can be downloaded
  size_t file_store_bytes = 64u << 20;       // translated files kept at most (oldest go first)
  int retry_after_s = 2;
};

class LibreTranslateApi {
 public:
  LibreTranslateApi(TranslationService& service, ApiOptions options)
      : service_(service), options_(std::move(options)) {}
  // Never throws; any input gives a response.
  HttpResponse handle(const HttpRequest& request) const;

 private:
  HttpResponse translate(const HttpRequest& request) const;
  HttpResponse translate_file(const HttpRequest& request) const;
  HttpResponse download_file(const HttpRequest& request) const;
  Expected<std::vector<std::vector<std::string>>> translate_with(
      int model, const std::string& source, const std::vector<std::string>& qs, int alternatives, bool html,
      std::chrono::steady_clock::time_point deadline, std::optional<HttpResponse>& refused) const;
  HttpResponse detect(const HttpRequest& request) const;
  // Source languages ranked for `text` (as /detect): (code, confidence in [0, 100]), best first; only
  // sources that reach `target` (a model, or two through a pivot) when target is not empty.
  std::vector<std::pair<std::string, double>> guess_source(const std::string& text,
                                                           const std::string& target) const;
  HttpResponse languages() const;
  HttpResponse settings() const;
  HttpResponse health() const;

  TranslationService& service_;
  ApiOptions options_;
  struct StoredFile {
    std::string filename, content;
    std::chrono::steady_clock::time_point expires;
    uint64_t order = 0;     // stored n-th
    std::string charset{};  // of a text file's content: "utf-8", or the encoding it came in
  };
  mutable std::mutex files_mu_;
  mutable std::map<std::string, StoredFile> files_;  // by id
  mutable size_t files_bytes_ = 0;
  mutable uint64_t files_stored_ = 0;
};

// Language name of an ISO 639-1/-3 code ("en" -> "English"); the code itself if unknown.
std::string language_name(const std::string& code);

// Decodes an application/x-www-form-urlencoded body (later duplicates are kept too).
std::vector<std::pair<std::string, std::string>> parse_form(std::string_view body);

}  // namespace edgemt::server
