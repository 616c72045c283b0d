// translate: the edgemt command-line translator.
//
//   translate [options] [TEXT ...]
// With TEXT arguments, translates each one; otherwise reads standard input and writes
// exactly one line per input line, in order.
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <tuple>
#include <vector>

#include "runtime/api/scored_json.h"
#include "runtime/api/translator.h"
#include "runtime/core/utf8.h"
#include "runtime/formats/pdf_text.h"
#include "runtime/formats/subtitles.h"
#include "runtime/text/language_id.h"
#include "runtime/text/markup.h"
#include "runtime/text/text_encoding.h"

namespace {

constexpr const char* kUsage = R"(usage: translate [options] [TEXT ...]

Translates each TEXT argument, or else every line of standard input (one output line
per input line, in order, ending as it did: "\r\n" or "\n"; an empty line gives an
empty line). A line is split into sentences (ICU's sentence rules for the model's
source language, or rules where edgemt is built without ICU), each translated, and
they come back on one line with the line's spacing; --no-split translates each line
as one sentence.

options:
  --model FILE       model file (.emt); default: the bundled model (English->German,
                     or the one --from/--to name). Twice: a pivot, the first model's
                     translation is the second's input (--model fr-en.emt --model
                     en-de.emt translates French to German through English)
  --from L, --to L   the language pair (e.g. --from de --to en): picks the bundled
                     model for it, or checks that --model translates it; one of the
                     two is enough where only one bundled model matches. Where no
                     bundled model translates the pair but two chain (fr->en, en->de),
                     they translate it through that pivot language (English preferred).
                     Through a pivot: text and --format output only (not --output
                     jsonl, --ids or --glossary); the options apply to both models
  --beam N           beam size (default: the model's, 1 = greedy)
  --beam-style S     how beam search ranks and ends hypotheses: marian (Marian's: the
                     beam shrinks as hypotheses end) or transformers (default: the
                     model's; marian for models converted from Marian)
  --length-penalty A  a hypothesis' score is its log-probability / length^A
                     (Marian's --normalize; default: the model's)
  --word-penalty A   marian style: subtract A per output token (default: the model's)
  --batch N          sentences translated together (default 8)
  --threads N        worker threads (default: cores, at most 4)
  --max-length N     at most N target tokens, end-of-sentence included
                     (default: the model's max_length - 1)
  --max-length-factor A
                     also at most ceil(A x source tokens) + B target tokens per
                     sentence (Marian's max-length-factor; bounds a model that repeats
                     itself; default: the model's: Marian's for models converted from
                     Marian (3, or their decoder.yml's), else off; 0: off)
  --max-length-offset B  (default 0)
  --max-input N      source tokens per chunk, end-of-sentence included; longer inputs
                     are split into chunks translated separately (default: the model's
                     positions, at most 512)
  --output FORMAT    text (default) or jsonl: one JSON object per input line,
                     {"translation", "score" (as the search ranks: log-probability /
                     length^length-penalty; summed over the line's sentences),
                     "confidence" (0-1: the geometric mean of its tokens'
                     probabilities), "words" (each translated word with its
                     confidence), "sentences" (each sentence's "source" and the same
                     fields; split and protected as text output is), "source_words"
                     and "alignment" (Moses' "source-target" word index pairs, from
                     cross-attention; each word also names its "source")}, with --n-best
                     an "n_best" list ({"translation", "score", "confidence"}, best
                     first) on the line and on each sentence; a blank line gives
                     {"translation": ""}
  --format FORMAT    text (default), wrapped, html, markdown, po, srt (also vtt), csv, json
                     (also arb), xliff, ts, android, properties, strings, resx,
                     xcstrings, yaml or stringsdict:
                     each TEXT, or else all of standard input, is one document.
                     wrapped: plain text whose paragraphs are wrapped at a width
                     (e-mails, README.txt, books): a paragraph's wrapped lines are
                     translated together and wrapped again at its width; short lines
                     (greetings, signatures, lists) stay lines. html: the text between
                     tags is translated (tags, attributes, comments and script/style/
                     code/pre elements are kept byte for byte; entities decoded, and
                     &, <, > escaped again). markdown: prose (headings, paragraphs,
                     list items, quotes, table cells, link texts) is translated; code
                     blocks, code spans, URLs, HTML and the markup are kept; wrapped
                     paragraphs are wrapped again at their width.
                     po: a gettext catalog whose untranslated messages get the
                     translation of their msgid (plural forms too), flagged fuzzy;
                     everything else is kept byte for byte. srt or vtt: a subtitle
                     file (SubRip or WebVTT, told apart by its WEBVTT header): each
                     cue's lines are translated together and broken again into as
                     many lines (dialogue lines, "- ...", one by one); cue numbers,
                     times, formatting tags and the rest are kept. docx, pptx, xlsx,
                     odt, odp, ods or epub: an office document or e-book read from
                     standard input and written to standard output (the type is read
                     from the file): each paragraph (or cell) is translated whole, its
                     bold, italics, links and styles put on the words they came with;
                     images, tables, fields, numbers, formulas and the rest of the
                     file are kept. pdf: a PDF read from standard input (its text
                     found by pdftotext, from poppler-utils): each paragraph
                     translated, written as plain text, one paragraph a line with a
                     blank line between (the layout is not kept). csv (or tsv): a
                     table of comma-separated values (the delimiter ',', ';', tab or
                     '|' read from the file; RFC 4180 quotes): each cell with words
                     translated, numbers, dates, identifiers ("app.title", "btn_ok",
                     "SKU42"), quoting and delimiters kept; a translation that holds
                     the delimiter gets quotes. json: a JSON document (an app's
                     locale file): each string value with words translated (not
                     those of keys such as id, url, lang, type, code), keys, numbers
                     and the layout kept. xliff (or xlf): an XLIFF 1.2 or 2.x file
                     (CAT tools, Xcode, Angular): each segment without a translation
                     gets a target (1.2: marked needs-review-translation,
                     mt-suggestion), its inline codes kept where their words went;
                     translated targets, notes and the rest kept. ts: a Qt Linguist
                     file, its empty unfinished messages filled in (still unfinished).
                     android: an app's res/values/strings.xml, written as its
                     values-LANG/strings.xml: strings, arrays and plurals translated
                     with their styling, placeholders (xliff:g, %1$s) and Android's
                     escapes; translatable="false" ones left out. properties: a Java
                     resource bundle (messages.properties): each value with words
                     translated and written with Java's escapes (\uXXXX in an
                     all-ASCII file; a {0} pattern's apostrophes doubled), keys,
                     comments and values of keys such as app.url kept. strings: an
                     Apple Localizable.strings file: each "key" = "value"; entry's
                     value with words translated, keys and comments kept. resx: a .NET
                     Resources.resx file: each string resource's value with words
                     translated, comments, other resources (icons, sizes) and the
                     designer's (">>" names) kept. xcstrings: an Xcode String
                     Catalog (Localizable.xcstrings): each string the target language
                     has not yet gets its localization (plurals with its categories),
                     marked needs_review; the rest kept. yaml (or yml): a YAML locale
                     file (Rails' config/locales/en.yml, Symfony, Hugo): each scalar
                     value with words translated in its quoting; keys, comments and
                     the layout kept; a top-level "en:" becomes the target language,
                     plural forms get its categories. stringsdict: an Apple
                     Localizable.stringsdict: each plural rule's category strings
                     translated, and the target language's missing categories added
  --encoding NAME    standard input is read in this character encoding and the
                     translation written in it: utf-8 (the default), utf-16,
                     utf-16le, utf-16be, utf-32..., windows-1252 (latin1, iso-8859-1),
                     and where edgemt is built with ICU any encoding ICU knows
                     (iso-8859-15, koi8-r, shift_jis, ...). Characters the encoding
                     lacks are written as "?" (in HTML as &#N;), with a warning.
                     Without it, input that begins with a UTF-16 or UTF-32 byte order
                     mark (Windows' "Unicode" files) is read in that encoding and the
                     translation written in it, and a --format document (not html,
                     which says its own) that is not UTF-8 is read as windows-1252 and
                     written in it (in UTF-8 where the translation does not fit), with
                     a note. jsonl output is UTF-8 whatever the input; not for office
                     documents (their files say)
  --alignment-layer L
                     the decoder layer whose cross-attention aligns words (jsonl
                     alignments, HTML inline tags), heads averaged; default: the
                     last of two, the second to last of more, heads averaged; for a
                     model converted from Marian the first head of its guided-alignment
                     layer (as marian-decoder --alignment)
  --n-best N         with --output jsonl, up to N hypotheses per line (beam search's
                     finished ones; --beam defaults to N)
  --sampling-topk K  draw each next token at random among the K most likely (2-1024; 1:
                     the most likely, as without it), for variety; beam 1 only
  --sampling-temperature T
                     sample from softmax(logits / T) (default 1; below 1 safer, above
                     1 more varied)
  --seed N           sampling's seed (default 0): the same seed, model and sentence give
                     the same translation, whatever the batch or threads
  --no-split         translate each line (each TEXT) as one sentence, unsplit
  --no-repetition-guard
                     let a hypothesis repeat itself until the length limit (by default
                     one that ends in an n-gram repeated back to back, a token 8 times or
                     up to 16 tokens 4 times, ends there; never with --ids)
  --rerank           rerank each sentence's beam hypotheses with the bundled model of the
                     opposite direction (de->en for en->de): each is scored by how
                     likely the source sentence is given it, and the translation that
                     best says what the source says wins (noisy-channel reranking;
                     about 2.5 times the time at beam 4; not with --ids, --score or
                     beam 1)
  --rerank-with FILE  rerank with this model (it must translate the output back)
  --rerank-weight W  the backward score's weight (default 0.3; 0: no reranking)
  --glossary FILE    tab-separated lines "source term<TAB>target term" (# comments):
                     each source term found in a sentence (a whole word; a lower-case
                     term also capitalized) is translated as its target
  --no-protect       translate URLs, e-mail addresses, file paths, `code`, placeholders
                     (%s, {name}, $1), numbers with units, long tokens (base64, hex
                     digests: 64 or more ASCII letters, digits, +/=_-.) and the
                     characters the model's vocabulary lacks (which it drops) as any
                     text (by default they come through verbatim), and lines in
                     capitals as they are (by default recased for the model and given
                     back in capitals)
  --no-shortlist      score every target token even if the model has a lexical
                     shortlist (by default each sentence's output is chosen among its
                     shortlist's candidates, as Marian's --shortlist)
  --ids              input lines are source token ids (space-separated, with the final
                     end-of-sentence id); output lines are the generated ids without the
                     decoder start and final end-of-sentence ids
  --score            score translations instead of making them (forced decoding, as
                     marian-scorer and CTranslate2's score_batch): each input line is
                     "source<TAB>target"; each output line the target's log-probability
                     given the source (its tokens' and the end's, summed; higher is
                     likelier); with --output jsonl {"log_prob", "tokens", "log_probs"}.
                     Each line is tokenized whole (no sentence splitting); a line without
                     a tab, or too long to score, gives an empty line and a message
  --profile          print a per-op time table to standard error at the end
  --stats            print model bytes, arena bytes, peak RSS and speed to standard error
  --help             show this help

environment:
  EDGEMT_MODEL       model used when neither --model nor --from/--to is given
  EDGEMT_MODELS_DIR  a folder of models named edgemt-SRC-TGT.emt: --from/--to (and the
                     default, edgemt-en-de.emt) look there before the bundled models
  EDGEMT_ISA         force a lower instruction set (ref, sse4_2, avx2, avx512, neon, ...)
)";

struct Args {
  std::vector<std::string> models;  // --model, in order: two chain through a pivot language
  std::string from, to;             // --from/--to: language codes, empty when not given
  std::string glossary_path;
  bool rerank = false;          // --rerank, --rerank-with or --rerank-weight
  std::string rerank_with;      // --rerank-with: the reverse model; empty: the bundled one
  float rerank_weight = -1.0f;  // < 0: the default
  std::shared_ptr<const edgemt::Glossary> glossary;
  int beam = 0;
  int batch = 8;
  int threads = 0;
  int max_length = 0;
  float max_length_factor = -1.0f;  // < 0: the model's
  int max_length_offset = 0;
  std::string beam_style;
  std::optional<float> length_penalty;
  std::optional<float> word_penalty;
  bool no_shortlist = false;
  bool no_split = false;
  bool no_repetition_guard = false;
  bool no_protect = false;
  bool jsonl = false;
  // --format html, markdown, po or srt/vtt: each TEXT, or all of standard input, is one document.
  edgemt::TextFormat format = edgemt::TextFormat::kText;
  bool document() const { return format != edgemt::TextFormat::kText; }
  bool pdf = false;  // --format pdf: the PDF's paragraphs (pdf_paragraphs), then as text lines
  int n_best = 0;
  int max_input = 0;
  bool ids = false;
  bool score = false;                 // --score: "source<TAB>target" lines to log-probabilities
  int sampling_topk = 0;              // 0: unset
  float sampling_temperature = 0.0f;  // 0: unset
  int alignment_layer = -1;           // -1: unset
  std::optional<uint64_t> seed;
  bool profile = false;
  bool stats = false;
  std::optional<edgemt::TextEncoding> encoding;  // --encoding
  std::vector<std::string> texts;
};

bool parse_int(const char* s, int lo, int hi, int* out) {
  if (s == nullptr || *s == '\0') return false;
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(s, &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi) return false;
  *out = static_cast<int>(v);
  return true;
}

// Returns -1 to continue, else an exit code.
int parse_args(int argc, char** argv, Args* a) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto need_int = [&](int lo, int hi, int* out) -> bool {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "translate: %s needs a value\n", arg.c_str());
        return false;
      }
      if (!parse_int(argv[++i], lo, hi, out)) {
        std::fprintf(stderr, "translate: %s expects an integer in [%d, %d], got '%s'\n", arg.c_str(), lo, hi,
                     argv[i]);
        return false;
      }
      return true;
    };
    auto need_float = [&](float lo, float hi, float* out) -> bool {
      char* end = nullptr;
      const char* v = i + 1 < argc ? argv[++i] : nullptr;
      const float f = v != nullptr ? std::strtof(v, &end) : 0.0f;
      if (v == nullptr || *v == '\0' || *end != '\0' || !(f >= lo && f <= hi)) {
        std::fprintf(stderr, "translate: %s expects a number in [%g, %g], got '%s'\n", arg.c_str(),
                     static_cast<double>(lo), static_cast<double>(hi), v != nullptr ? v : "");
        return false;
      }
      *out = f;
      return true;
    };
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (arg == "--model") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "translate: --model needs a file\n");
        return 2;
      }
      if (a->models.size() == 2) {
        std::fprintf(stderr, "translate: --model at most twice (one pivot language)\n");
        return 2;
      }
      a->models.emplace_back(argv[++i]);
    } else if (arg == "--from" || arg == "--to") {
      if (i + 1 >= argc || argv[i + 1][0] == '\0') {
        std::fprintf(stderr, "translate: %s needs a language code (such as en or de)\n", arg.c_str());
        return 2;
      }
      (arg == "--from" ? a->from : a->to) = argv[++i];
    } else if (arg == "--rerank") {
      a->rerank = true;
    } else if (arg == "--rerank-with") {
      if (i + 1 >= argc || argv[i + 1][0] == '\0') {
        std::fprintf(stderr, "translate: --rerank-with needs a model file\n");
        return 2;
      }
      a->rerank = true;
      a->rerank_with = argv[++i];
    } else if (arg == "--rerank-weight") {
      if (!need_float(0.0f, 100.0f, &a->rerank_weight)) return 2;
      a->rerank = true;
    } else if (arg == "--glossary") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "translate: --glossary needs a file\n");
        return 2;
      }
      a->glossary_path = argv[++i];
    } else if (arg == "--beam") {
      if (!need_int(1, 32, &a->beam)) return 2;
    } else if (arg == "--batch") {
      if (!need_int(1, 1024, &a->batch)) return 2;
    } else if (arg == "--threads") {
      if (!need_int(1, 256, &a->threads)) return 2;
    } else if (arg == "--max-length") {
      if (!need_int(1, 1 << 20, &a->max_length)) return 2;
    } else if (arg == "--max-length-factor") {
      if (!need_float(0.0f, 1000.0f, &a->max_length_factor)) return 2;
    } else if (arg == "--length-penalty" || arg == "--word-penalty") {
      float f = 0.0f;
      if (!need_float(-100.0f, 100.0f, &f)) return 2;
      (arg == "--length-penalty" ? a->length_penalty : a->word_penalty) = f;
    } else if (arg == "--beam-style") {
      if (i + 1 >= argc ||
          (std::strcmp(argv[i + 1], "marian") != 0 && std::strcmp(argv[i + 1], "transformers") != 0)) {
        std::fprintf(stderr, "translate: --beam-style expects marian or transformers, got '%s'\n",
                     i + 1 < argc ? argv[i + 1] : "");
        return 2;
      }
      a->beam_style = argv[++i];
    } else if (arg == "--max-length-offset") {
      if (!need_int(-(1 << 20), 1 << 20, &a->max_length_offset)) return 2;
    } else if (arg == "--max-input") {
      if (!need_int(2, 1 << 20, &a->max_input)) return 2;
    } else if (arg == "--output") {
      if (i + 1 >= argc ||
          (std::strcmp(argv[i + 1], "text") != 0 && std::strcmp(argv[i + 1], "jsonl") != 0)) {
        std::fprintf(stderr, "translate: --output expects text or jsonl, got '%s'\n",
                     i + 1 < argc ? argv[i + 1] : "");
        return 2;
      }
      a->jsonl = std::strcmp(argv[++i], "jsonl") == 0;
    } else if (arg == "--format") {
      // The format table's names (runtime/formats/format_list.h), and pdf: a PDF's
      // paragraphs (pdftotext) translated as lines of text.
      const std::string_view name = i + 1 < argc ? argv[i + 1] : "";
      const edgemt::DocumentFormat* f = edgemt::document_format_named(name);
      if (f == nullptr && name != "pdf") {
        std::string names;
        for (const edgemt::DocumentFormat& d : edgemt::document_formats())
          for (std::string_view n : d.names) names += (names.empty() ? "" : ", ") + std::string(n);
        std::fprintf(stderr, "translate: --format expects %s or pdf, got '%s'\n", names.c_str(),
                     std::string(name).c_str());
        return 2;
      }
      if (f != nullptr && !f->built()) {
        std::fprintf(stderr, "translate: --format %s: %s\n", std::string(name).c_str(),
                     edgemt::left_out(*f).message().c_str());
        return 2;
      }
      ++i;
      a->pdf = f == nullptr;
      a->format = f == nullptr ? edgemt::TextFormat::kText : f->id;
    } else if (arg == "--encoding") {
      if (i + 1 >= argc) {
        std::fprintf(stderr,
                     "translate: --encoding needs an encoding's name (utf-8, utf-16, windows-1252, ...)\n");
        return 2;
      }
      auto e = edgemt::find_text_encoding(argv[++i]);
      if (!e) {
        std::fprintf(stderr, "translate: --encoding: %s\n", e.status().message().c_str());
        return 2;
      }
      a->encoding = e.value();
    } else if (arg == "--alignment-layer") {
      if (!need_int(0, 64, &a->alignment_layer)) return 2;
    } else if (arg == "--n-best") {
      if (!need_int(1, 32, &a->n_best)) return 2;
    } else if (arg == "--ids") {
      a->ids = true;
    } else if (arg == "--score") {
      a->score = true;
    } else if (arg == "--no-split") {
      a->no_split = true;
    } else if (arg == "--no-repetition-guard") {
      a->no_repetition_guard = true;
    } else if (arg == "--no-protect") {
      a->no_protect = true;
    } else if (arg == "--sampling-topk") {
      if (!need_int(1, 1024, &a->sampling_topk)) return 2;
    } else if (arg == "--sampling-temperature") {
      if (!need_float(1e-3f, 1000.0f, &a->sampling_temperature)) return 2;
    } else if (arg == "--seed") {
      const char* v = i + 1 < argc ? argv[++i] : nullptr;
      char* end = nullptr;
      errno = 0;
      const unsigned long long x = v != nullptr && *v >= '0' && *v <= '9' ? std::strtoull(v, &end, 10) : 0;
      if (v == nullptr || end == nullptr || *end != '\0' || errno != 0) {
        std::fprintf(stderr, "translate: --seed expects a non-negative integer below 2^64, got '%s'\n",
                     v != nullptr ? v : "");
        return 2;
      }
      a->seed = static_cast<uint64_t>(x);
    } else if (arg == "--no-shortlist") {
      a->no_shortlist = true;
    } else if (arg == "--profile") {
      a->profile = true;
    } else if (arg == "--stats") {
      a->stats = true;
    } else if (arg == "--") {
      for (++i; i < argc; ++i) a->texts.emplace_back(argv[i]);
    } else if (arg.size() > 1 && arg[0] == '-' && arg[1] == '-') {
      std::fprintf(stderr, "translate: unknown option %s (see --help)\n", arg.c_str());
      return 2;
    } else {
      a->texts.push_back(arg);
    }
  }
  if (a->n_best > 0 && !a->jsonl) {
    std::fprintf(stderr, "translate: --n-best needs --output jsonl\n");
    return 2;
  }
  if (a->jsonl && a->ids) {
    std::fprintf(stderr, "translate: --output jsonl takes text input (not --ids)\n");
    return 2;
  }
  if (a->document() && (a->jsonl || a->ids)) {
    std::fprintf(stderr, "translate: --format html/po gives documents (not with --ids or --output jsonl)\n");
    return 2;
  }
  // A PDF is read from standard input and becomes text.
  if (a->pdf && a->ids) {
    std::fprintf(stderr, "translate: --format pdf gives text (not with --ids)\n");
    return 2;
  }
  if (a->pdf && !a->texts.empty()) {
    std::fprintf(
        stderr,
        "translate: --format pdf reads the PDF from standard input (translate --format pdf < in.pdf > "
        "out.txt), not from TEXT arguments\n");
    return 2;
  }
  // An office document is a binary file: read from standard input, written to standard
  // output (not a terminal).
  if (a->format == edgemt::TextFormat::kOffice && !a->texts.empty()) {
    std::fprintf(stderr,
                 "translate: --format docx/pptx/xlsx/odt/odp/ods/epub reads the document from standard input "
                 "(translate --format docx < in.docx > out.docx), not from TEXT arguments\n");
    return 2;
  }
  if (a->format == edgemt::TextFormat::kOffice && isatty(STDOUT_FILENO)) {
    std::fprintf(
        stderr,
        "translate: --format docx/pptx/xlsx/odt/odp/ods/epub writes a binary file: redirect standard output "
        "(> out.docx)\n");
    return 2;
  }
  if (a->encoding && a->format == edgemt::TextFormat::kOffice) {
    std::fprintf(stderr,
                 "translate: --encoding is for text: an office document or e-book says its own encoding\n");
    return 2;
  }
  if (!a->glossary_path.empty() && a->ids) {
    std::fprintf(stderr, "translate: --glossary applies to text (not --ids)\n");
    return 2;
  }
  const bool sampling = a->sampling_topk > 1;
  if ((a->sampling_temperature > 0.0f || a->seed) && a->sampling_topk == 0) {
    std::fprintf(stderr, "translate: --sampling-temperature and --seed need --sampling-topk\n");
    return 2;
  }
  if (sampling && (a->beam > 1 || a->n_best > 1 || a->ids)) {
    std::fprintf(stderr,
                 "translate: --sampling-topk draws one translation (not with --beam, --n-best or --ids)\n");
    return 2;
  }
  if (a->score &&
      (a->ids || a->document() || a->n_best > 0 || !a->glossary_path.empty() || a->sampling_topk > 0)) {
    std::fprintf(stderr,
                 "translate: --score reads source<TAB>target lines (not with --ids, --format, --n-best, "
                 "--glossary or --sampling-topk)\n");
    return 2;
  }
  if (a->rerank && (a->ids || a->score || sampling || a->beam == 1)) {
    std::fprintf(stderr,
                 "translate: --rerank chooses among beam search's hypotheses (not with --ids, --score, "
                 "--sampling-topk or --beam 1)\n");
    return 2;
  }
  if (a->n_best > 0 && a->beam == 0) a->beam = a->n_best;
  return -1;
}

// Appends the ids of "12 7 0" to *ids; false (leaving *ids as it was) on anything else.
// std::from_chars: the line is a view into a buffer, not NUL-terminated.
bool parse_ids(std::string_view line, std::vector<int32_t>* ids) {
  const size_t size0 = ids->size();
  const char* p = line.data();
  const char* end = p + line.size();
  while (p < end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
    if (p >= end) break;
    if (*p == '+' && end - p > 1 && p[1] >= '0' && p[1] <= '9') ++p;  // as strtol reads "+7"
    int32_t v = 0;
    const auto [q, ec] = std::from_chars(p, end, v);
    if (ec != std::errc() || v < 0 || (q < end && *q != ' ' && *q != '\t' && *q != '\r')) {
      ids->resize(size0);
      return false;
    }
    ids->push_back(v);
    p = q;
  }
  return true;
}

long peak_rss_kib() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

struct Counters {
  size_t sentences = 0;
  size_t target_tokens = 0;
  double seconds = 0.0;
};

// A batch's lines (or documents) back to back in one buffer. Its capacity is kept from
// batch to batch, so reading lines allocates only while the buffer grows to the largest
// batch's bytes (doubling), whichever lines come where.
class Lines {
 public:
  size_t size() const { return ends_.size(); }
  std::string_view operator[](size_t i) const {
    const size_t begin = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(text_).substr(begin, ends_[i] - begin);
  }
  void reserve(size_t lines) { ends_.reserve(lines); }
  void clear() {
    text_.clear();
    ends_.clear();
  }
  void push_back(std::string_view line) {
    text_.append(line);
    ends_.push_back(text_.size());
  }
  void assign(const std::vector<std::string>& lines) {
    clear();
    for (const std::string& l : lines) push_back(l);
  }
  // One document, taken over without a copy.
  void take(std::string&& document) {
    text_ = std::move(document);
    ends_.assign(1, text_.size());
  }
  std::vector<std::string> strings(size_t count) const {
    std::vector<std::string> v;
    v.reserve(count);
    for (size_t i = 0; i < count; ++i) v.emplace_back((*this)[i]);
    return v;
  }

 private:
  std::string text_;
  std::vector<size_t> ends_;  // one past each line's last byte
};

// The first 60 bytes of a line, for messages ('%.*s').
int shown(std::string_view line) { return static_cast<int>(std::min<size_t>(line.size(), 60)); }

// Buffers owned by main and reused from batch to batch: input lines, parsed ids, results
// and the output text, each in one buffer. Once they have grown to the largest batch,
// the --ids path allocates nothing per line (tests/cli/ids_allocations.cmake).
struct Session {
  Lines lines;
  std::vector<int32_t> ids;                    // the well-formed lines' ids, back to back
  std::vector<size_t> ids_end;                 // one past each todo entry's ids
  std::vector<std::span<const int32_t>> todo;  // the non-empty, well-formed lines
  std::vector<size_t> which;                   // line of each todo entry
  edgemt::IdSequences results;
  edgemt::IdSequences one;  // one line's result (retried alone)
  std::vector<char> crlf;   // standard input's line i ended with "\r\n": so does its output line
  std::string line;         // the line being read
  std::string out;
  size_t done = 0;  // lines (or documents) of the batches before

  explicit Session(size_t batch) : todo(batch), which(batch), crlf(batch, 0) {
    lines.reserve(batch);
    ids_end.reserve(batch);
    results.reserve(batch, 0);
  }
};

edgemt::TranslateOptions translate_options(const Args& a) {
  edgemt::TranslateOptions o;
  if (a.beam > 0) o.beam = a.beam;
  if (a.max_length > 0) o.max_length = a.max_length;
  if (a.max_length_factor >= 0.0f) o.max_length_factor = a.max_length_factor;
  if (!a.beam_style.empty())
    o.beam_style = a.beam_style == "marian" ? edgemt::BeamStyle::kMarian : edgemt::BeamStyle::kTransformers;
  if (a.length_penalty) o.length_penalty = *a.length_penalty;
  if (a.word_penalty) o.word_penalty = *a.word_penalty;
  if (a.max_length_offset != 0) o.max_length_offset = a.max_length_offset;
  if (a.no_shortlist) o.use_shortlist = false;
  if (a.no_split) o.split_sentences = false;
  if (a.no_protect) o.protect_spans = false;
  o.format = a.format;
  o.glossary = a.glossary;
  if (a.sampling_topk > 0) o.sampling_topk = a.sampling_topk;
  if (a.sampling_temperature > 0.0f) o.sampling_temperature = a.sampling_temperature;
  if (a.alignment_layer >= 0) o.alignment_layer = a.alignment_layer;
  if (a.seed) o.seed = *a.seed;
  // Text and jsonl: the repetition guard unless turned off; --ids: the model's exact search.
  o.repetition_guard = !a.ids && !a.no_repetition_guard;
  return o;
}

// --ids: translates lines[0..count) of token ids into s.out. Returns false if a line
// could not be translated (it gets an empty line and a message).
bool process_ids(edgemt::Translator& tr, const Args& a, Session& s, size_t count, Counters* c) {
  bool ok = true;
  const edgemt::TranslateOptions o = translate_options(a);
  size_t n = 0;
  s.ids.clear();
  s.ids_end.clear();
  for (size_t i = 0; i < count; ++i) {
    const std::string_view line = s.lines[i];
    if (!parse_ids(line, &s.ids)) {
      std::fprintf(stderr, "translate: input line '%.*s': not a list of non-negative token ids\n",
                   shown(line), line.data());
      ok = false;
      continue;
    }
    if (s.ids.size() == (s.ids_end.empty() ? 0 : s.ids_end.back())) continue;  // an empty line: empty
    s.ids_end.push_back(s.ids.size());
    s.which[n++] = i;
  }
  for (size_t j = 0; j < n; ++j) {  // views once s.ids has stopped growing
    const size_t begin = j == 0 ? 0 : s.ids_end[j - 1];
    s.todo[j] = std::span<const int32_t>(s.ids.data() + begin, s.ids_end[j] - begin);
  }
  const std::span<const std::span<const int32_t>> todo(s.todo.data(), n);
  if (!tr.translate_ids(todo, &s.results, o).is_ok()) {
    // Retry one by one so that one bad line (e.g. an id outside the vocabulary) does
    // not lose the others; it gets an empty line and a message.
    s.results.clear();
    for (size_t j = 0; j < n; ++j) {
      const edgemt::Status st = tr.translate_ids(todo.subspan(j, 1), &s.one, o);
      if (!st.is_ok()) {
        const std::string_view line = s.lines[s.which[j]];
        std::fprintf(stderr, "translate: input line '%.*s': %s\n", shown(line), line.data(),
                     st.to_string().c_str());
        ok = false;
      }
      s.results.push_back(st.is_ok() ? s.one[0] : std::span<const int32_t>());
    }
  }
  char num[16];
  size_t j = 0;
  for (size_t i = 0; i < count; ++i) {
    if (j < n && s.which[j] == i) {
      const std::span<const int32_t> ids = s.results[j++];
      for (size_t t = 0; t < ids.size(); ++t) {
        const int len = std::snprintf(num, sizeof num, t == 0 ? "%d" : " %d", ids[t]);
        s.out.append(num, static_cast<size_t>(len));
      }
      c->target_tokens += ids.size();
    }
    s.out += '\n';
  }
  return ok;
}

// Text: translates lines[0..count) into s.out (the text layer allocates per batch).
bool process_text(edgemt::Translator& tr, const Args& a, Session& s, size_t count) {
  const std::vector<std::string> texts = s.lines.strings(count);
  auto r = tr.translate(texts, translate_options(a));
  if (!r) {
    std::fprintf(stderr, "translate: %s\n", r.status().to_string().c_str());
    for (size_t i = 0; i < count; ++i) s.out += '\n';
    return false;
  }
  for (const std::string& t : r.value()) {
    // One line per input line, always: a translation never contains a newline.
    for (char ch : t) s.out += (ch == '\n' || ch == '\r') ? ' ' : ch;
    s.out += '\n';
  }
  return true;
}

// --output jsonl: lines[0..count) into s.out, one JSON object per line.
bool process_jsonl(edgemt::Translator& tr, const Args& a, Session& s, size_t count) {
  const std::vector<std::string> texts = s.lines.strings(count);
  const size_t n = static_cast<size_t>(a.n_best > 0 ? a.n_best : 1);
  auto r = tr.translate_scored(texts, n, translate_options(a));
  if (!r) {
    std::fprintf(stderr, "translate: %s\n", r.status().to_string().c_str());
    for (size_t i = 0; i < count; ++i) s.out += "{\"error\": \"translation failed\"}\n";
    return false;
  }
  for (size_t i = 0; i < r.value().size(); ++i)
    s.out += edgemt::scored_json(r.value()[i], texts[i], a.n_best > 0) + "\n";
  return true;
}

// --format html or po: translates the documents s.lines[0..count) into s.out, each as it
// comes back (line breaks kept); `newline` ends each with one (TEXT arguments).
// Documents through the chain of translators (edgemt::translate_through: a catalog's or
// XLIFF file's texts through each model, filled in once).
bool process_document(std::span<const std::unique_ptr<edgemt::Translator>> chain, const Args& a, Session& s,
                      size_t count, bool newline) {
  const std::vector<std::string> docs = s.lines.strings(count);
  // A "subtitle file" without a single cue comes back as it was: say so, rather than
  // hand back the file untranslated without a word.
  if (a.format == edgemt::TextFormat::kSubtitles) {
    for (size_t i = 0; i < docs.size(); ++i) {
      if (edgemt::SubtitleDocument::parse(docs[i]).units().empty() &&
          docs[i].find_first_not_of(" \t\r\n") != std::string::npos)
        std::fprintf(stderr,
                     "translate: warning: %s%s has no subtitle cue (a timing line such as "
                     "\"00:00:01,000 --> 00:00:04,000\" and text under it): nothing in it was translated\n",
                     docs.size() > 1 ? "document " : "the input",
                     docs.size() > 1 ? std::to_string(i + 1).c_str() : "");
    }
  }
  std::vector<edgemt::Translator*> through;
  for (const std::unique_ptr<edgemt::Translator>& t : chain) through.push_back(t.get());
  auto r = edgemt::translate_through(through, docs, translate_options(a));
  if (!r) {
    std::fprintf(stderr, "translate: %s\n", r.status().to_string().c_str());
    return false;
  }
  for (const std::string& d : r.value()) {
    s.out += d;
    if (newline) s.out += '\n';
  }
  return true;
}

// --score: "source<TAB>target" lines[0..count) into s.out, one log-probability (or JSON
// object) each. A line that cannot be scored gets an empty line and a message.
bool process_score(edgemt::Translator& tr, const Args& a, Session& s, size_t count) {
  bool ok = true;
  std::vector<std::string> src, tgt;
  std::vector<size_t> which;
  for (size_t i = 0; i < count; ++i) {
    const std::string_view line = s.lines[i];
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) {
      if (!line.empty()) {
        std::fprintf(stderr, "translate: --score line '%.*s': no tab between source and target\n",
                     shown(line), line.data());
        ok = false;
      }
      continue;
    }
    src.emplace_back(line.substr(0, tab));
    tgt.emplace_back(line.substr(tab + 1));
    which.push_back(i);
  }
  std::vector<std::vector<float>> lps(src.size());
  std::vector<std::vector<int32_t>> ids(src.size()), one_ids;  // the targets' tokens
  auto scored = tr.score(src, tgt, &ids);
  if (scored) {
    lps = std::move(scored.value());
  } else {
    // One by one, so that one bad pair does not lose the others.
    for (size_t k = 0; k < src.size(); ++k) {
      auto one = tr.score({src[k]}, {tgt[k]}, &one_ids);
      if (one) {
        lps[k] = std::move(one.value()[0]);
        ids[k] = std::move(one_ids[0]);
      } else {
        const std::string_view line = s.lines[which[k]];
        std::fprintf(stderr, "translate: --score line '%.*s': %s\n", shown(line), line.data(),
                     one.status().to_string().c_str());
        ok = false;
      }
    }
  }
  const edgemt::Tokenizer& tok = tr.model().tokenizer();
  std::vector<std::string_view> pieces;
  size_t k = 0;
  char num[32];
  for (size_t i = 0; i < count; ++i) {
    if (k < which.size() && which[k] == i) {
      const std::vector<float>& lp = lps[k];
      if (!lp.empty() && a.jsonl) {
        pieces.clear();
        for (int32_t id : ids[k]) pieces.push_back(tok.target_piece(id));
        pieces.push_back("</s>");
        s.out += edgemt::score_json(pieces, lp);
      } else if (!lp.empty()) {
        double sum = 0.0;
        for (float x : lp) sum += x;
        std::snprintf(num, sizeof num, "%.6g", sum);
        s.out += num;
      }
      ++k;
    }
    s.out += '\n';
  }
  return ok;
}

// Through a pivot language: each model but the last turns s.lines[0..count) (text lines
// or documents) into its translations, the next model's input. False (with a message and
// the lines' output left empty) if a translation failed.
bool through_pivot(std::span<const std::unique_ptr<edgemt::Translator>> first, const Args& a, Session& s,
                   size_t count) {
  for (const std::unique_ptr<edgemt::Translator>& tr : first) {
    const std::vector<std::string> texts = s.lines.strings(count);
    auto r = tr->translate(texts, translate_options(a));
    if (!r) {
      std::fprintf(stderr, "translate: %s\n", r.status().to_string().c_str());
      for (size_t i = 0; i < count; ++i) s.out += a.document() ? "" : "\n";
      return false;
    }
    s.lines.assign(r.value());
  }
  return true;
}

// Once per run: when CLD2 clearly identifies a batch's text as another language than the
// model's source ("Wo ist der Bahnhof?" given to the English->German default), a warning
// on standard error names it. The output is not changed. The batch's lines are judged
// together, and only when they hold a few words: CLD2 calls a single technical word
// ("polyethylenimine", "Automount-Masterdatei") some language with confidence. Names are
// left out (edgemt::without_names): "Müller and Schröder met in Düsseldorf." is English.
void warn_if_other_language(const edgemt::Model& model, const Args& a, const Session& s, size_t count,
                            bool* warned) {
  const std::string source = edgemt::primary_language(model.source_language());
  if (*warned || a.ids || a.score || source.empty() || !edgemt::language_identification_available()) return;
  constexpr size_t kMaxBytes = 16 * 1024;  // plenty to tell a language; CLD2 costs per byte
  constexpr int kMinWords = 3;
  // HTML, and documents whose units are HTML fragments, are read as HTML.
  const edgemt::DocumentFormat& format = edgemt::document_format(a.format);
  const bool html = a.format == edgemt::TextFormat::kHtml || (format.document() && format.html_units);
  std::string text;
  std::optional<std::string_view> first;
  int words = 0;
  for (size_t i = 0; i < count && text.size() < kMaxBytes; ++i) {
    const std::string_view line = s.lines[i];
    if (line.empty()) continue;
    if (!first) first = line;
    std::string source_text(line);
    if (format.document() &&
        format.built()) {  // its units (a catalog's messages, not its keywords; values, not keys)
      auto doc = format.parse(line, {model.source_language(), model.target_language()});
      if (!doc) continue;
      source_text.clear();
      for (const std::string& u : doc.value()->units()) source_text += u + "\n";
    }
    const std::string judged = html ? source_text : edgemt::without_names(source_text);
    bool in_word = false, has_letter = false;
    for (char ch : judged) {
      const auto c = static_cast<unsigned char>(ch);
      if (std::isspace(c)) {
        words += in_word && has_letter;
        in_word = has_letter = false;
      } else {
        in_word = true;
        has_letter = has_letter || std::isalpha(c) || c >= 0x80;
      }
    }
    words += in_word && has_letter;
    if (!text.empty()) text += '\n';
    text.append(judged, 0, std::min(judged.size(), kMaxBytes));
  }
  if (!first || words < kMinWords) return;
  const std::vector<edgemt::LanguageGuess> g = edgemt::identify_languages(text, html);
  if (g.empty() || g[0].percent < 90 || g[0].code == source) return;
  std::fprintf(stderr,
               "translate: warning: the input looks like '%s' (%d%% of the text from '%.*s'), but the model "
               "translates %s->%s; --from %s picks a model for it\n",
               g[0].code.c_str(), g[0].percent, static_cast<int>(std::min<size_t>(first->size(), 40)),
               first->data(), model.source_language().c_str(), model.target_language().c_str(),
               g[0].code.c_str());
  *warned = true;
}

// Once per run: where an input line (or document) is not UTF-8 (a Latin-1 or Windows
// file: "K\xFCche"), a warning on standard error names the line and the byte and says how
// to convert it; its malformed bytes are translated as U+FFFD. Not for token ids, nor for
// office documents and PDFs (binary files read whole), nor for an HTML page that does not
// declare UTF-8 (translate_html reads it in the encoding it declares, or as windows-1252).
void warn_if_not_utf8(const Args& a, const Session& s, size_t count, size_t first_line, bool* warned) {
  if (*warned || a.ids || a.pdf || a.format == edgemt::TextFormat::kOffice) return;
  for (size_t i = 0; i < count; ++i) {
    const std::string_view line = s.lines[i];
    if (a.document() && line.starts_with("bplist")) continue;  // a binary plist: the reader refuses it
    if (a.format == edgemt::TextFormat::kHtml) {  // read in the encoding it declares, or as windows-1252
      const std::string cs = edgemt::declared_html_charset(line);
      if (cs != "utf-8" && cs != "utf8") continue;
    }
    for (size_t k = 0; k < line.size();) {
      const edgemt::Utf8Char ch = edgemt::decode_utf8(line, k);
      if (!ch.well_formed) {
        std::fprintf(stderr,
                     "translate: warning: %s %zu is not UTF-8 (byte 0x%02X at byte %zu): its malformed bytes "
                     "are translated as U+FFFD; give its encoding, e.g. --encoding windows-1252 (or convert "
                     "it: iconv -f WINDOWS-1252 -t UTF-8)\n",
                     a.texts.empty() ? (a.document() ? "document" : "input line") : "argument",
                     first_line + i + 1, static_cast<unsigned>(static_cast<unsigned char>(line[k])), k + 1);
        *warned = true;
        return;
      }
      k += ch.length;
    }
  }
}

// Standard output in another encoding than UTF-8 (--encoding, or the byte order mark
// standard input began with); not jsonl (JSON is UTF-8), nor token ids.
struct OutputEncoding {
  std::optional<edgemt::TextEncoding> encoding;
  edgemt::Unencodable unencodable = edgemt::Unencodable::kQuestionMark;
  bool started = false;  // the byte order mark is written
  bool warned = false;
  bool guessed = false;  // the encoding was guessed (a document): UTF-8 where it does not fit
};
OutputEncoding g_output;

void put(std::string_view bytes) {
  if (!g_output.encoding) {
    std::fwrite(bytes.data(), 1, bytes.size(), stdout);
    return;
  }
  auto e = edgemt::encode_text(bytes, *g_output.encoding, g_output.unencodable, !g_output.started);
  g_output.started = true;
  if (!e) {  // not reached: --encoding opened it
    std::fwrite(bytes.data(), 1, bytes.size(), stdout);
    return;
  }
  if (e.value().unencodable > 0 && g_output.guessed && !g_output.warned) {
    // A document in one piece: written in UTF-8 (with a byte order mark, for editors)
    // rather than with characters lost.
    g_output.warned = true;
    g_output.encoding.reset();
    std::fprintf(
        stderr,
        "translate: note: the translation has characters windows-1252 cannot hold: written in UTF-8\n");
    std::fwrite("\xEF\xBB\xBF", 1, 3, stdout);
    std::fwrite(bytes.data(), 1, bytes.size(), stdout);
    return;
  }
  std::fwrite(e.value().bytes.data(), 1, e.value().bytes.size(), stdout);
  if (e.value().unencodable > 0 && !g_output.warned) {
    g_output.warned = true;
    std::fprintf(stderr, "translate: warning: the translation has characters %s cannot hold: written as %s\n",
                 g_output.encoding->name.c_str(),
                 g_output.unencodable == edgemt::Unencodable::kReference ? "&#N;" : "\"?\"");
  }
}

// Writes s.out. Line by line (not --format documents, which keep their bytes), output
// line i ends with "\r\n" where input line i did (a Windows text file comes back as one).
void write_out(const Session& s, size_t count, bool document) {
  const bool any_crlf =
      !document && std::find(s.crlf.begin(), s.crlf.begin() + static_cast<std::ptrdiff_t>(count), 1) !=
                       s.crlf.begin() + static_cast<std::ptrdiff_t>(count);
  if (!any_crlf) {
    put(s.out);
    return;
  }
  size_t begin = 0;
  for (size_t i = 0; begin < s.out.size(); ++i) {
    size_t nl = s.out.find('\n', begin);
    if (nl == std::string::npos) nl = s.out.size();
    put(std::string_view(s.out).substr(begin, nl - begin));
    if (nl < s.out.size()) put(i < count && s.crlf[i] ? "\r\n" : "\n");
    begin = nl + 1;
  }
}

// Translates s.lines[0..count) with the chain of translators (one, or two through a
// pivot language), writes one output line (or document) each.
bool process(std::span<const std::unique_ptr<edgemt::Translator>> chain, const Args& a, Session& s,
             size_t count, Counters* c) {
  const auto t0 = std::chrono::steady_clock::now();
  s.out.clear();
  static bool warned = false, warned_utf8 = false;
  warn_if_not_utf8(a, s, count, s.done, &warned_utf8);
  s.done += count;
  warn_if_other_language(chain.front()->model(), a, s, count, &warned);
  edgemt::Translator& tr = *chain.back();
  const bool documents = a.document() && !a.score && !a.ids && !a.jsonl;  // the whole chain at once
  const bool ok = !through_pivot(chain.first(documents ? 0 : chain.size() - 1), a, s, count) ? false
                  : a.score      ? process_score(tr, a, s, count)
                  : a.ids        ? process_ids(tr, a, s, count, c)
                  : a.jsonl      ? process_jsonl(tr, a, s, count)
                  : a.document() ? process_document(chain, a, s, count, !a.texts.empty())
                                 : process_text(tr, a, s, count);
  c->seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  c->sentences += count;
  write_out(s, count, a.document());
  std::fflush(stdout);
  return ok;
}

// Translates the lines of `in`, `batch` at a time (a line's "\r\n" ending is kept for its
// output line).
bool process_lines(std::span<const std::unique_ptr<edgemt::Translator>> chain, const Args& a,
                   std::istream& in, size_t batch, Counters* c) {
  bool ok = true;
  Session s(batch);
  size_t n = 0;
  while (std::getline(in, s.line)) {
    std::string_view line = s.line;
    s.crlf[n] = !line.empty() && line.back() == '\r';
    if (s.crlf[n]) line.remove_suffix(1);
    s.lines.push_back(line);
    if (++n == batch) {
      ok = process(chain, a, s, n, c) && ok;
      s.lines.clear();
      n = 0;
    }
  }
  if (n > 0) ok = process(chain, a, s, n, c) && ok;
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (const int rc = parse_args(argc, argv, &a); rc >= 0) return rc;
  if (a.models.empty() && !(a.from.empty() && a.to.empty())) {
    auto paths = edgemt::bundled_model_route(a.from, a.to);
    if (!paths) {
      std::fprintf(stderr, "translate: %s\n", paths.status().message().c_str());
      return 1;
    }
    a.models = paths.value();
  }
  // Two models (--model twice, or a bundled pivot): only text and documents go through both.
  if (a.models.size() > 1 && (a.jsonl || a.ids || a.score || !a.glossary_path.empty())) {
    std::fprintf(stderr,
                 "translate: through a pivot language (%s, then %s) the output is text or --format "
                 "documents (not --output jsonl, --ids, --score or --glossary)\n",
                 a.models[0].c_str(), a.models[1].c_str());
    return 2;
  }
  if (!a.rerank_with.empty() && a.models.size() > 1) {
    std::fprintf(stderr,
                 "translate: --rerank-with takes one model's reverse; through a pivot, --rerank uses the "
                 "bundled reverse of each\n");
    return 2;
  }
  if (a.models.empty()) {
    a.models.push_back(edgemt::default_model_path());
    if (a.models[0].empty()) {
      std::fprintf(stderr,
                   "translate: no --model given and the bundled model was not found "
                   "(set EDGEMT_MODEL or pass --model FILE)\n");
      return 1;
    }
  }
  if (a.threads == 0) {
    const unsigned hw = std::thread::hardware_concurrency();
    a.threads = hw == 0 ? 1 : static_cast<int>(hw < 4 ? hw : 4);
  }
  const auto load0 = std::chrono::steady_clock::now();
  std::vector<std::shared_ptr<const edgemt::Model>> models;
  for (const std::string& path : a.models) {
    auto model = edgemt::Model::load(path);
    if (!model) {
      std::fprintf(stderr, "translate: %s\n", model.status().message().c_str());
      return 1;
    }
    models.push_back(std::move(model.value()));
  }
  // The languages asked for, and through a pivot each model's target the next one's source
  // (where the models name them).
  auto pair_of = [&](size_t k) { return models[k]->source_language() + "->" + models[k]->target_language(); };
  for (const auto& [asked, has, which, k] :
       {std::tuple{&a.from, &models.front()->source_language(), "source", size_t{0}},
        std::tuple{&a.to, &models.back()->target_language(), "target", models.size() - 1}}) {
    if (!asked->empty() && !has->empty() && *asked != *has) {
      std::fprintf(stderr, "translate: %s translates %s; its %s language is not %s\n", a.models[k].c_str(),
                   pair_of(k).c_str(), which, asked->c_str());
      return 1;
    }
  }
  for (size_t k = 0; k + 1 < models.size(); ++k) {
    const std::string& mid = models[k]->target_language();
    const std::string& next = models[k + 1]->source_language();
    if (!mid.empty() && !next.empty() && mid != next) {
      std::fprintf(stderr,
                   "translate: %s translates %s but %s translates %s: the first's target must be the "
                   "second's source\n",
                   a.models[k].c_str(), pair_of(k).c_str(), a.models[k + 1].c_str(), pair_of(k + 1).c_str());
      return 1;
    }
  }
  const double load_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - load0).count();
  if (!a.glossary_path.empty()) {
    auto g = edgemt::Glossary::load(a.glossary_path);
    if (!g) {
      std::fprintf(stderr, "translate: %s\n", g.status().message().c_str());
      return 2;
    }
    a.glossary = std::move(g.value());
  }
  edgemt::TranslatorOptions topt;
  topt.max_batch = a.batch;
  topt.num_threads = a.threads;
  topt.max_beam = a.beam;
  topt.max_target_length = a.max_length;
  topt.max_source_length = a.max_input;
  std::vector<std::unique_ptr<edgemt::Translator>> chain;
  for (const std::shared_ptr<const edgemt::Model>& m : models) {
    auto tr = edgemt::Translator::create(m, topt);
    if (!tr) {
      std::fprintf(stderr, "translate: %s\n", tr.status().to_string().c_str());
      return 1;
    }
    tr.value()->profiler().set_enabled(a.profile);
    chain.push_back(std::move(tr.value()));
  }
  // --rerank: each model's reverse (--rerank-with, else the bundled model of the opposite pair).
  std::vector<std::string> reverse_paths;
  for (size_t k = 0; a.rerank && k < chain.size(); ++k) {
    const edgemt::Model& m = chain[k]->model();
    std::string path = a.rerank_with;
    if (path.empty()) {
      if (m.source_language().empty() || m.target_language().empty()) {
        std::fprintf(stderr,
                     "translate: %s does not name its languages, so --rerank cannot pick the reverse model: "
                     "use --rerank-with FILE\n",
                     a.models[k].c_str());
        return 1;
      }
      auto p = edgemt::bundled_model_path(m.target_language(), m.source_language());
      if (!p) {
        std::fprintf(stderr, "translate: --rerank needs a %s->%s model to score %s's translations: %s\n",
                     m.target_language().c_str(), m.source_language().c_str(), a.models[k].c_str(),
                     p.status().message().c_str());
        return 1;
      }
      path = p.value();
    }
    edgemt::TranslatorOptions ropt;
    ropt.max_batch = a.batch;
    ropt.num_threads = a.threads;
    ropt.max_beam = 1;
    auto rev = edgemt::Translator::create(path, ropt);
    if (!rev) {
      std::fprintf(stderr, "translate: --rerank: %s\n", rev.status().to_string().c_str());
      return 1;
    }
    if (auto st = chain[k]->set_reranker(
            std::move(rev.value()),
            a.rerank_weight >= 0.0f ? a.rerank_weight : edgemt::Translator::kDefaultRerankWeight);
        !st.is_ok()) {
      std::fprintf(stderr, "translate: --rerank: %s: %s\n", path.c_str(), st.message().c_str());
      return 1;
    }
    auto p = chain[k]->resolve(translate_options(a));
    if (p && p.value().beam < 2) {
      std::fprintf(stderr, "translate: --rerank needs beam search: %s's default beam is 1 (add --beam 4)\n",
                   a.models[k].c_str());
      return 2;
    }
    reverse_paths.push_back(path);
  }

  // Standard input in another encoding (--encoding, or a UTF-16/UTF-32 byte order mark;
  // a text document, read whole, that is not UTF-8: windows-1252, as the server reads a
  // file): decoded whole, and the translation written back in it.
  std::istream* in = &std::cin;
  std::istringstream decoded_in;
  if (a.texts.empty() && !a.pdf && a.format != edgemt::TextFormat::kOffice) {
    const int first = std::cin.peek();
    const bool other = a.encoding && !a.encoding->is_utf8();
    const bool text_document = a.document() && a.format != edgemt::TextFormat::kHtml && !a.encoding;
    if (other || text_document || first == 0xFF || first == 0xFE || first == 0x00 || first == 0xEF) {
      const std::string bytes((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
      std::optional<edgemt::TextEncoding> e = a.encoding;
      // A byte order mark names the encoding (a UTF-8 one, as Windows' editors and Excel
      // write it, is left out and written back first).
      if (!other) e = edgemt::encoding_from_bom(bytes);
      // A binary property list (a compiled .strings or .stringsdict) is no text in any
      // encoding: left as it is, for the reader to refuse with its own message.
      if (!e && text_document && !edgemt::is_valid_utf8(bytes) &&
          !std::string_view(bytes).starts_with("bplist")) {
        e = edgemt::guess_text_encoding(bytes);
        g_output.guessed = true;
        std::fprintf(stderr,
                     "translate: note: standard input is not UTF-8: read as %s, and the translation written "
                     "in it (--encoding NAME reads another)\n",
                     e->name.c_str());
      }
      if (e) {
        auto d = edgemt::decode_text(bytes, *e);
        if (!d) {
          std::fprintf(stderr, "translate: %s\n", d.status().message().c_str());
          return 1;
        }
        if (d.value().malformed > 0 && !e->is_utf8())  // UTF-8: warn_if_not_utf8 says where
          std::fprintf(
              stderr,
              "translate: warning: standard input is not all %s: %zu byte sequence%s (the first at byte "
              "%zu) %s translated as U+FFFD\n",
              e->name.c_str(), d.value().malformed, d.value().malformed == 1 ? "" : "s",
              d.value().first_malformed + 1, d.value().malformed == 1 ? "is" : "are");
        e->bom = e->bom || d.value().bom;
        a.encoding = e;
        decoded_in.str(std::move(d.value().utf8));
      } else {
        decoded_in.str(bytes);
      }
      in = &decoded_in;
    }
  }
  if (a.encoding && (!a.encoding->is_utf8() || a.encoding->bom) && !a.jsonl && !a.ids && !a.score) {
    g_output.encoding = a.encoding;
    if (a.format == edgemt::TextFormat::kHtml) g_output.unencodable = edgemt::Unencodable::kReference;
  }

  bool ok = true;
  Counters c;
  if (!a.texts.empty()) {
    // "translate report.docx" translates the words "report.docx": where an argument names
    // a file, say how to translate the file.
    for (const std::string& t : a.texts) {
      struct stat st {};
      if (t.find_first_of(" \t\n") == std::string::npos && stat(t.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
        const size_t dot = t.rfind('.');
        std::string ext =
            dot == std::string::npos || t.find('/', dot) != std::string::npos ? "" : t.substr(dot + 1);
        for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        // The format whose files have the extension (none where several do, as .xml, and
        // none for a text file: translate < FILE): its name that is the extension ("tsv",
        // "docx"), or its own.
        const std::vector<const edgemt::DocumentFormat*> formats =
            edgemt::document_formats_with_extension("." + ext);
        if (ext == "pdf") {
        } else if (formats.size() == 1 && formats[0]->id == edgemt::TextFormat::kWrapped) {
          ext.clear();
        } else if (formats.size() == 1 && std::find(formats[0]->names.begin(), formats[0]->names.end(),
                                                    ext) != formats[0]->names.end()) {
        } else if (formats.size() == 1) {
          ext = formats[0]->name;
        } else {
          ext.clear();
        }
        std::fprintf(
            stderr,
            "translate: note: '%s' is a file, but arguments are translated as text; to translate the "
            "file: translate%s%s < '%s'\n",
            t.c_str(), ext.empty() ? "" : " --format ", ext.empty() ? "" : ext.c_str(), t.c_str());
        break;
      }
    }
    Session s(a.texts.size());
    s.lines.assign(a.texts);
    ok = process(chain, a, s, a.texts.size(), &c);
  } else if (a.pdf) {
    // A PDF: its paragraphs, translated as lines of text (a blank line between them).
    const std::string bytes((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    auto text = edgemt::pdf_paragraphs(bytes);
    if (!text) {
      std::fprintf(stderr, "translate: %s\n", text.status().message().c_str());
      return 1;
    }
    std::istringstream in(text.value());
    ok = process_lines(chain, a, in, static_cast<size_t>(a.batch) * 4, &c);
  } else if (a.document()) {
    // One document: all of standard input.
    Session s(1);
    s.lines.take(std::string(std::istreambuf_iterator<char>(*in), std::istreambuf_iterator<char>()));
    ok = process(chain, a, s, 1, &c);
  } else {
    // Interactive input is translated line by line; piped input in batches.
    ok = process_lines(chain, a, *in,
                       isatty(STDIN_FILENO) && in == &std::cin ? 1 : static_cast<size_t>(a.batch) * 4, &c);
  }
  for (size_t k = 0; a.profile && k < chain.size(); ++k) {
    std::fprintf(stderr, "\nper-op profile%s%s (isa %s, %d thread%s):\n%s", chain.size() > 1 ? " of " : "",
                 chain.size() > 1 ? a.models[k].c_str() : "", edgemt::active_isa(), a.threads,
                 a.threads == 1 ? "" : "s", chain[k]->profiler().report().c_str());
  }
  if (a.stats) {
    for (size_t k = 0; k < chain.size(); ++k) {
      const edgemt::Translator& t = *chain[k];
      std::fprintf(stderr,
                   "model file:   %s\n"
                   "mapped model: %zu bytes (%.1f MiB), %s\n"
                   "arena:        %zu bytes (%.1f MiB), batch %d, beam %d, source %d, target %d tokens\n",
                   a.models[k].c_str(), t.model().file_bytes(), t.model().file_bytes() / 1048576.0,
                   t.model().precision(), t.arena_bytes(), t.arena_bytes() / 1048576.0, t.limits().max_batch,
                   t.limits().max_beam, t.limits().max_source_length, t.limits().max_target_length);
      if (const edgemt::Translator* r = t.reranker(); r != nullptr)
        std::fprintf(stderr, "reranker:     %s (%.1f MiB mapped, arena %.1f MiB, weight %g)\n",
                     reverse_paths[k].c_str(), r->model().file_bytes() / 1048576.0,
                     r->arena_bytes() / 1048576.0, static_cast<double>(t.rerank_weight()));
    }
    std::fprintf(stderr,
                 "model load:   %.2f ms\n"
                 "peak RSS:     %ld KiB (%.1f MiB)\n"
                 "isa:          %s, %d thread%s\n"
                 "translated:   %zu lines in %.3f s (%.1f lines/s)\n",
                 load_ms, peak_rss_kib(), peak_rss_kib() / 1024.0, edgemt::active_isa(), a.threads,
                 a.threads == 1 ? "" : "s", c.sentences, c.seconds,
                 c.seconds > 0 ? c.sentences / c.seconds : 0.0);
    if (a.ids && c.seconds > 0)
      std::fprintf(stderr, "target tokens: %zu (%.1f tokens/s)\n", c.target_tokens,
                   c.target_tokens / c.seconds);
  }
  return ok ? 0 : 1;
}
