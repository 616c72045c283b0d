// Arbitrary bytes as an HTTP request to edgemt-server's LibreTranslate API (the layer
// below cpp-httplib: method, path, content type, query fields and body), on a service
// over the fixed tiny model serving "en" -> "de" and "de" -> "fr" (so "en" -> "fr" goes
// through a pivot). The input is
//   byte 0: method (GET/POST/HEAD/PUT/OPTIONS) and path (/translate, /translate_file,
//           /detect, /languages, /frontend/settings, /health, anything else)
//   byte 1: content type (JSON, form, multipart-ish query fields, text/plain, none);
//           for /translate_file the file's type (.txt, .html, .md, .srt, .vtt, .po, .pdf)
//   rest:   the body (with query-field mode: a form string decoded into params; for
//           /translate_file the file).
// Invariants: handle() never throws or crashes; every answer is a status in [200, 599]
// with a JSON body; a 200 from /translate holds translatedText of the shape q asked for
// (a string or a list); an error carries "error"; a 200 from /translate_file gives a
// translatedFileUrl whose download answers 200. The markup layer: plain text
// reassembled from its own pieces is the input again, byte for byte.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runtime/server/libretranslate.h"
#include "runtime/server/service.h"
#include "runtime/text/markup.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

using json = nlohmann::json;

edgemt::server::LibreTranslateApi& api() {
  static std::unique_ptr<edgemt::server::TranslationService> service = [] {
    const char* env = std::getenv("EDGEMT_FUZZ_MODEL");
    const std::string model = env != nullptr && *env != '\0' ? env : EDGEMT_FUZZ_MODEL;
    // The same model also as "de" -> "fr": "en" -> "fr" goes through a pivot (two jobs).
    const std::vector<edgemt::server::ModelEntry> entries = {{model, "en", "de"}, {model, "de", "fr"}};
    edgemt::server::ServiceOptions o;
    o.threads = 1;
    o.max_batch = 4;
    o.max_source_length = 24;
    o.queue_capacity = 64;
    auto s = edgemt::server::TranslationService::create(entries, o);
    if (!s) {
      std::fprintf(stderr, "fuzz: cannot start the service: %s\n", s.status().to_string().c_str());
      std::exit(1);
    }
    return std::move(s.value());
  }();
  static edgemt::server::LibreTranslateApi a(*service, [] {
    edgemt::server::ApiOptions o;
    o.char_limit = 2000;
    o.timeout = std::chrono::seconds(20);
    return o;
  }());
  return a;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace edgemt;
  using namespace edgemt::server;
  if (size < 2) return 0;
  static const char* kMethods[] = {"POST", "GET", "HEAD", "PUT", "OPTIONS", "POST", "POST", "POST"};
  static const char* kPaths[] = {"/translate", "/translate",         "/translate_file", "/detect",
                                 "/languages", "/frontend/settings", "/health",         "/x"};
  static const char* kFiles[] = {"a.txt", "a.html", "a.md", "a.srt", "a.vtt", "a.po", "a.pdf"};
  static const char* kTypes[] = {"application/json", "application/json; charset=utf-8",
                                 "application/x-www-form-urlencoded", "", "text/plain"};
  HttpRequest req;
  req.method = kMethods[data[0] & 7];
  req.path = kPaths[(data[0] >> 3) & 7];
  const unsigned type = data[1] % 6;
  const std::string body(reinterpret_cast<const char*>(data) + 2, size - 2);
  if (req.path == "/translate_file") {
    req.content_type = "multipart/form-data; boundary=x";
    req.params = {{"source", (data[1] & 0x80) != 0 ? "auto" : "en"}, {"target", "de"}};
    req.files = {{"file", kFiles[data[1] % 7], body}};
  } else if (type == 5) {
    req.params = parse_form(body);  // query string / multipart fields
  } else {
    req.content_type = kTypes[type];
    req.body = body;
  }

  const HttpResponse r = api().handle(req);
  EDGEMT_FUZZ_CHECK(r.status >= 200 && r.status <= 599, "status %d", r.status);
  const json j = json::parse(r.body, nullptr, /*allow_exceptions=*/false);
  EDGEMT_FUZZ_CHECK(!j.is_discarded(), "the answer is not JSON: %s", r.body.substr(0, 200).c_str());
  if (r.status != 200) {
    EDGEMT_FUZZ_CHECK(j.is_object() && j.contains("error") && j["error"].is_string(),
                      "error without message: %s", r.body.substr(0, 200).c_str());
  } else if (req.path == "/translate") {
    EDGEMT_FUZZ_CHECK(j.is_object() && j.contains("translatedText"), "no translatedText: %s",
                      r.body.substr(0, 200).c_str());
    const json& t = j["translatedText"];
    EDGEMT_FUZZ_CHECK(
        t.is_string() ||
            (t.is_array() && std::all_of(t.begin(), t.end(), [](const json& x) { return x.is_string(); })),
        "translatedText of a wrong type: %s", r.body.substr(0, 200).c_str());
  } else if (req.path == "/translate_file" && req.method == "POST") {
    EDGEMT_FUZZ_CHECK(j.is_object() && j.contains("translatedFileUrl") && j["translatedFileUrl"].is_string(),
                      "no translatedFileUrl: %s", r.body.substr(0, 200).c_str());
    HttpRequest get;
    get.method = "GET";
    get.path = j["translatedFileUrl"].get<std::string>();
    const HttpResponse d = api().handle(get);
    EDGEMT_FUZZ_CHECK(d.status == 200 && !d.filename.empty(), "download of %s: %d", get.path.c_str(),
                      d.status);
  }

  // Plain-text segmentation is lossless.
  const Segmented doc = segment_text(body);
  std::vector<std::string> same;
  for (size_t i : doc.text) same.push_back(doc.pieces[i]);
  EDGEMT_FUZZ_CHECK(reassemble(doc, same) == body, "text segmentation lost bytes");
  // HTML: any input segments and reassembles without crashing.
  const Segmented html = segment_html(body);
  same.clear();
  for (size_t i : html.text) same.push_back(html.pieces[i]);
  (void)reassemble(html, same);
  // Inline runs: the identity "translation" puts every run's tags back (they pair up by
  // construction), and the document reassembles.
  const std::vector<InlineRun> runs = inline_runs(html, [](std::string_view t) { return std::string(t); });
  std::vector<std::string> run_html;
  for (const InlineRun& r : runs) {
    std::string out;
    EDGEMT_FUZZ_CHECK(place_inline_tags(r, r.source, &out), "an inline run's own source was refused: %s",
                      r.source.substr(0, 200).c_str());
    run_html.push_back(std::move(out));
    // The identity with every word aligned to itself: if placed, the text comes back
    // escaped with every tag once (and a <br> in place of its line break).
    AlignedText self;
    self.text = r.plain;
    for (size_t i = 0; i < r.plain.size();) {
      size_t e = i;
      while (e < r.plain.size() && !std::isspace(static_cast<unsigned char>(r.plain[e]))) ++e;
      if (e > i) self.words.push_back({{i, e}, {i, e}});
      i = e + 1;
    }
    std::string placed;
    if (place_aligned_tags(r, self, &placed)) {
      size_t want = escape_html(r.plain).size();
      for (const InlineRun::Tag& t : r.tags) want += t.raw.size();
      for (size_t c = 0; c < r.cluster_at.size(); ++c)  // one line break per cluster with a <br>
        want -= r.cluster_at[c] < r.plain.size() && r.plain[r.cluster_at[c]] == '\n';
      EDGEMT_FUZZ_CHECK(placed.size() == want, "aligned identity placement lost or added bytes: %s",
                        r.plain.substr(0, 200).c_str());
    }
  }
  // The identity placed in every run gives the document its nodes alone give (elements
  // kept as written, translate="no", included: they travel inside one placeholder), less
  // the <wbr> tags inside words the runs go without; each of those is a <wbr> tag.
  Segmented without_breaks = html;
  for (const InlineRun& r : runs)
    for (size_t k : r.word_breaks) {
      std::string head = html.pieces[k].substr(0, 4);
      for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      EDGEMT_FUZZ_CHECK(k > r.first && k < r.last && head == "<wbr", "a dropped word break is no <wbr>: %s",
                        html.pieces[k].substr(0, 100).c_str());
      without_breaks.pieces[k].clear();
    }
  EDGEMT_FUZZ_CHECK(reassemble_runs(html, runs, run_html, same) == reassemble(without_breaks, same),
                    "inline runs placed as themselves changed the document");
  // Marking the languages touches tags alone: the text to translate stays.
  Segmented marked = html;
  set_html_language(&marked, "en", "de");
  EDGEMT_FUZZ_CHECK(marked.text == html.text && marked.kept == html.kept, "language marking moved pieces");
  for (size_t i : html.text)
    EDGEMT_FUZZ_CHECK(marked.pieces[i] == html.pieces[i], "language marking changed text");
  for (size_t i : html.kept)
    EDGEMT_FUZZ_CHECK(marked.pieces[i] == html.pieces[i], "language marking changed kept content");
  return 0;
}
