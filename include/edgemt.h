/* edgemt C API: offline machine translation from C and any language with a C FFI.
 *
 *   edgemt_model* model = NULL;
 *   if (edgemt_model_load("model.emt", &model) != EDGEMT_OK) {
 *     fprintf(stderr, "%s\n", edgemt_last_error());
 *     return 1;
 *   }
 *   edgemt_translator* tr = NULL;
 *   edgemt_translator_create(model, NULL, &tr);          // NULL: default options
 *   const char* in[] = {"The file could not be opened."};
 *   const char* const* out = NULL;
 *   if (edgemt_translate(tr, in, 1, NULL, &out) == EDGEMT_OK) puts(out[0]);
 *   edgemt_translator_free(tr);
 *   edgemt_model_free(model);
 *
 * Rules:
 * - Every function returns an edgemt_status; on failure edgemt_last_error() gives a
 *   message for this thread, valid until the thread's next edgemt call. No C++
 *   exception ever crosses this interface.
 * - A model is immutable once loaded and may be shared by any number of translators in
 *   any threads. A translator is used by one thread at a time; it owns the results it
 *   returns, valid until its next call or its destruction.
 * - Option structs start with struct_size. Fill them with the matching _init function
 *   (which sets struct_size to this header's sizeof) and change what you need: a
 *   library built from a newer header reads only the fields an older caller's
 *   struct_size covers and takes defaults for the rest.
 * - Strings are UTF-8, NUL-terminated.
 */
#ifndef EDGEMT_H_
#define EDGEMT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define EDGEMT_API __attribute__((visibility("default")))
#else
#define EDGEMT_API
#endif

#define EDGEMT_C_API_VERSION                                                   \
  19 /* 2: edgemt_translate_options.max_length_factor/offset;                  \
       3: beam_style, word_penalty; 4: no_sentence_split, no_repetition_guard, \
       no_span_protection, glossary; 5: format; 6: sampling_topk,              \
       sampling_temperature, seed, EDGEMT_FORMAT_PO, _MARKDOWN;                \
       7: edgemt_bundled_model_path, edgemt_model_source/target_language;      \
       8: edgemt_translate_scored; 9: edgemt_bundled_model_route;              \
       10: edgemt_score_ids, edgemt_score, edgemt_model_target_token_id;       \
       11: EDGEMT_FORMAT_SUBTITLES, _WRAPPED;                                  \
       12: edgemt_translate_document;                                          \
       13: edgemt_translator_set_reranker; 14: edgemt_translate_pdf;           \
       15: edgemt_translate_options.cancel, EDGEMT_CANCELLED;                  \
       16: EDGEMT_FORMAT_CSV, _JSON; 17: EDGEMT_FORMAT_XLIFF, _ANDROID;        \
       18: EDGEMT_FORMAT_PROPERTIES, _STRINGS, _RESX, _XCSTRINGS, _YAML;       \
       19: EDGEMT_FORMAT_STRINGSDICT */

/* edgemt_translate_options.format (since C API version 5; _PO and _MARKDOWN since 6,
 * _SUBTITLES and _WRAPPED since 11, _CSV and _JSON since 16, _XLIFF and _ANDROID since 17,
 * _PROPERTIES, _STRINGS, _RESX, _XCSTRINGS and _YAML since 18, _STRINGSDICT since 19). */
typedef enum edgemt_format {
  EDGEMT_FORMAT_TEXT = 0,
  EDGEMT_FORMAT_HTML = 1,
  EDGEMT_FORMAT_PO = 2,
  EDGEMT_FORMAT_MARKDOWN = 3,
  EDGEMT_FORMAT_SUBTITLES = 4,
  EDGEMT_FORMAT_WRAPPED = 5,
  EDGEMT_FORMAT_CSV = 6,
  EDGEMT_FORMAT_JSON = 7,
  EDGEMT_FORMAT_XLIFF = 8,
  EDGEMT_FORMAT_ANDROID = 9,
  EDGEMT_FORMAT_PROPERTIES = 10,
  EDGEMT_FORMAT_STRINGS = 11,
  EDGEMT_FORMAT_RESX = 12,
  EDGEMT_FORMAT_XCSTRINGS = 13,
  EDGEMT_FORMAT_YAML = 14,
  EDGEMT_FORMAT_STRINGSDICT = 15
} edgemt_format;

typedef enum edgemt_status {
  EDGEMT_OK = 0,
  EDGEMT_INVALID_ARGUMENT = 1, /* bad input from the caller (options, ids, NULL pointers) */
  EDGEMT_NOT_FOUND = 2,        /* a file that should exist does not */
  EDGEMT_IO_ERROR = 3,         /* reading failed */
  EDGEMT_INVALID_MODEL = 4,    /* the model file is corrupt or inconsistent */
  EDGEMT_UNSUPPORTED = 5,      /* valid, but not something edgemt implements */
  EDGEMT_OUT_OF_RANGE = 6,     /* a limit was exceeded */
  EDGEMT_OUT_OF_MEMORY = 7,    /* an allocation failed */
  EDGEMT_INTERNAL = 8,         /* a bug in edgemt */
  EDGEMT_CANCELLED = 9         /* the caller cancelled the call (edgemt_translate_options.cancel) */
} edgemt_status;

typedef enum edgemt_early_stopping {
  EDGEMT_EARLY_STOPPING_DEFAULT = 0, /* the model's */
  EDGEMT_EARLY_STOPPING_TRUE = 1,
  EDGEMT_EARLY_STOPPING_FALSE = 2,
  EDGEMT_EARLY_STOPPING_NEVER = 3
} edgemt_early_stopping;

/* How beam search ranks and ends hypotheses. */
typedef enum edgemt_beam_style {
  EDGEMT_BEAM_STYLE_DEFAULT = 0,      /* the model's (Marian's for models converted from Marian) */
  EDGEMT_BEAM_STYLE_TRANSFORMERS = 1, /* K live hypotheses, finished ones collected */
  EDGEMT_BEAM_STYLE_MARIAN = 2        /* the beam shrinks as hypotheses end (marian-decoder) */
} edgemt_beam_style;

typedef struct edgemt_model edgemt_model;
typedef struct edgemt_translator edgemt_translator;

/* Limits a translator's memory is planned for, fixed at creation. 0: from the model. */
typedef struct edgemt_translator_options {
  uint32_t struct_size;      /* sizeof(edgemt_translator_options), set by _init */
  int32_t max_batch;         /* sentences translated together (default 8) */
  int32_t max_beam;          /* 0: the model's num_beams */
  int32_t max_source_length; /* tokens incl. eos; 0: min(model positions, 512) */
  int32_t max_target_length; /* generated tokens incl. eos; 0: the model's */
  int32_t num_threads;       /* worker threads (default 1) */
} edgemt_translator_options;

/* Per call. 0 / DEFAULT: the model's generation settings. */
typedef struct edgemt_translate_options {
  uint32_t struct_size;       /* sizeof(edgemt_translate_options), set by _init */
  int32_t beam;               /* 0: the model's, capped at max_beam */
  int32_t max_length;         /* max generated tokens incl. eos; 0: max_target_length */
  int32_t has_length_penalty; /* nonzero: use length_penalty below */
  float length_penalty;
  int32_t early_stopping; /* an edgemt_early_stopping value (fixed size: ABI) */
  /* Since C API version 2: a length limit relative to each source (Marian's max-length-factor):
   * a sentence of n source tokens (eos included) generates at most
   * ceil(max_length_factor * n) + max_length_offset tokens. 0: the model's (off, but
   * Marian's max-length-factor for models converted from Marian). */
  float max_length_factor;
  int32_t max_length_offset;
  /* Since C API version 3. */
  int32_t beam_style;       /* an edgemt_beam_style value */
  int32_t has_word_penalty; /* nonzero: use word_penalty (Marian style: subtracted per token) */
  float word_penalty;
  /* Since C API version 4. Text calls split each text into sentences, translate them and
   * put them back in the text's whitespace and line breaks; nonzero: each text is one
   * sentence. */
  int32_t no_sentence_split;
  /* Since C API version 4. Text calls stop a hypothesis that repeats one n-gram back to
   * back (a token 8 times, up to 16 tokens 4 times) with eos; nonzero: they do not.
   * The ids calls never do. */
  int32_t no_repetition_guard;
  /* Since C API version 4. Text calls keep URLs, e-mail addresses, file paths, `code`,
   * placeholders (%s, {name}, $1), numbers with units and the characters the model's
   * vocabulary lacks (which a translation would drop) verbatim, and translate a sentence
   * written in capitals recased, giving capitals back; nonzero: they translate them as
   * any text. */
  int32_t no_span_protection;
  /* Since C API version 4. NULL, or a glossary as text: UTF-8 lines "source<TAB>target"
   * ('#' comments); text calls translate each source term (a whole word) as its target.
   * Read during the call only; a malformed one fails the call (EDGEMT_INVALID_ARGUMENT,
   * the message names the line). */
  const char* glossary;
  /* Since C API version 5. What text calls' texts are: EDGEMT_FORMAT_TEXT (0) or
   * EDGEMT_FORMAT_HTML (1): HTML documents whose text nodes are translated (tags,
   * attributes, comments and script/style/code/pre/textarea content kept byte for byte;
   * entities decoded, and &, <, > escaped again in the translations). Since version 6,
   * EDGEMT_FORMAT_PO (2): gettext catalogs whose untranslated messages are filled in
   * (plural forms too) and flagged fuzzy, the rest kept byte for byte; a malformed
   * catalog fails the call (EDGEMT_INVALID_ARGUMENT, the message names its line);
   * EDGEMT_FORMAT_MARKDOWN (3): Markdown documents whose prose is translated, code,
   * URLs, HTML and markup kept. Since version 11, EDGEMT_FORMAT_SUBTITLES (4): subtitle
   * files (SubRip .srt, or WebVTT .vtt with its WEBVTT header) whose cues' text is
   * translated, each cue broken into as many lines as it had; cue numbers, times,
   * formatting tags and the rest kept; EDGEMT_FORMAT_WRAPPED (5): plain text whose
   * paragraphs are wrapped at a width: a paragraph's wrapped lines translated together
   * and wrapped again, short lines (greetings, lists) kept as lines. Since version 16,
   * EDGEMT_FORMAT_CSV (6): comma-separated values (',', ';', tab or '|', read from the
   * file; RFC 4180 quoting) whose cells with words are translated, numbers, dates,
   * identifiers, quoting and delimiters kept (a translation table whose header names the
   * model's source language's column, "keys,en,de": that column's translations go in the
   * target language's, a new last one where there is none); EDGEMT_FORMAT_JSON (7): JSON documents
   * (apps' locale files) whose string values with words are translated, keys, numbers,
   * codes and the layout kept; invalid JSON fails the call (EDGEMT_INVALID_ARGUMENT, the
   * message names its line and column). Since version 17, EDGEMT_FORMAT_XLIFF (8): XLIFF
   * 1.2 or 2.x documents (translation tools' exchange files, Xcode's and Angular's
   * exports) whose segments without a translation get a target (inline codes kept where
   * their words went; 1.2's marked as a machine's draft), translated targets, notes and
   * the rest kept (Qt Linguist .ts files likewise: empty unfinished messages filled in);
   * XML that is not well-formed fails the call (EDGEMT_INVALID_ARGUMENT);
   * EDGEMT_FORMAT_ANDROID (9): Android string resources (res/values/strings.xml) whose
   * strings, string arrays and plurals are translated with their styling, placeholders
   * and Android's escapes, translatable="false" ones left out. Since version 18,
   * EDGEMT_FORMAT_PROPERTIES (10): Java .properties resource bundles whose values with
   * words are translated (Java's escapes read and written, \uXXXX in an all-ASCII file;
   * a MessageFormat pattern's apostrophes doubled; ICU plurals leaf by leaf), keys,
   * comments and the rest kept; EDGEMT_FORMAT_STRINGS (11): Apple .strings files
   * (Localizable.strings) whose values with words are translated, keys, comments and the
   * rest kept; one that is not the format fails the call (EDGEMT_INVALID_ARGUMENT, the
   * message names its line); EDGEMT_FORMAT_RESX (12): .NET .resx resource files whose
   * string resources with words are translated, comments, other resources (icons,
   * sizes), the designer's (">>") and the rest kept; XML that is not well-formed, or
   * not a .resx file, fails the call (EDGEMT_INVALID_ARGUMENT); EDGEMT_FORMAT_XCSTRINGS
   * (13): Xcode String Catalogs (Localizable.xcstrings) whose strings the model's target
   * language has not yet get its localization (plurals with its categories), marked
   * needs_review, the rest kept; invalid JSON or no catalog fails the call
   * (EDGEMT_INVALID_ARGUMENT); EDGEMT_FORMAT_YAML (14): YAML locale files (Rails'
   * config/locales/en.yml) whose scalar values with words are translated in their
   * quoting, keys, comments and the layout kept, a top-level language key ("en:") and
   * plural forms given the model's target language; EDGEMT_FORMAT_STRINGSDICT (15):
   * Apple .stringsdict plural rules whose category strings are translated, a rule given
   * the target language's categories it lacks; XML that is not well-formed, or not a
   * property list, fails the call (EDGEMT_INVALID_ARGUMENT). */
  int32_t format;
  /* Since C API version 6. Random sampling for variety: each next token is drawn among
   * the sampling_topk most likely (2 .. 1024; 0 or 1: no sampling, the most likely),
   * with probabilities softmax(logits / sampling_temperature) (0: 1). Needs beam 1 (a
   * beam of 0 becomes 1). Reproducible: a sentence's draws depend only on seed and the
   * sentence (not on the batch or threads). */
  int32_t sampling_topk;
  float sampling_temperature;
  uint64_t seed;
  /* Since C API version 15. NULL, or a flag another thread may set nonzero while the call
   * runs (with C11's atomic_store on an _Atomic int32_t, or __atomic_store_n): the call
   * stops within one decoder step and returns EDGEMT_CANCELLED, its outputs not written.
   * Set before the call, it cancels the call at once. The translator is ready for the
   * next call; clear the flag before giving it to one. */
  const int32_t* cancel;
} edgemt_translate_options;

EDGEMT_API void edgemt_translator_options_init(edgemt_translator_options* options);
EDGEMT_API void edgemt_translate_options_init(edgemt_translate_options* options);

/* "0.1.0"; the C API version is EDGEMT_C_API_VERSION. */
EDGEMT_API const char* edgemt_version(void);
/* The kernels in use in this process: "avx2", "avx512vnni", "neon64_dot", "ref", ... */
EDGEMT_API const char* edgemt_active_isa(void);
/* "ok", "invalid argument", ... */
EDGEMT_API const char* edgemt_status_string(edgemt_status status);
/* The message of this thread's last failed call ("" if none). */
EDGEMT_API const char* edgemt_last_error(void);

/* Maps and verifies a model file (.emt). */
EDGEMT_API edgemt_status edgemt_model_load(const char* path, edgemt_model** model);
/* The bundled default model's path ($EDGEMT_MODEL, the install prefix, the source
 * tree), or "" when there is none. */
EDGEMT_API const char* edgemt_default_model_path(void);
/* The bundled model for a language pair (codes such as "en", "de"; NULL or "" matches any,
 * and then exactly one bundled model must match): its path in *path, valid until the next
 * call on this thread. EDGEMT_NOT_FOUND when none translates the pair (the message lists
 * the bundled pairs), EDGEMT_INVALID_ARGUMENT when several match. */
EDGEMT_API edgemt_status edgemt_bundled_model_path(const char* source, const char* target, const char** path);
/* Since C API version 9. The bundled models that translate source -> target: the pair's
 * own (*first; *second NULL), else two through a pivot language (*first translates source
 * into the pivot, *second the pivot into target: translate with the first, then its output
 * with the second; English is preferred as the pivot, never a round trip; both languages
 * needed). Paths valid until the next call on this thread. Errors as
 * edgemt_bundled_model_path's. Bundled models are looked up in $EDGEMT_MODELS_DIR first. */
EDGEMT_API edgemt_status edgemt_bundled_model_route(const char* source, const char* target,
                                                    const char** first, const char** second);
/* The model's language pair ("en", "de"): its metadata's source_language/target_language,
 * else its file name's "-<src>-<tgt>.emt"; "" when neither names one. */
EDGEMT_API const char* edgemt_model_source_language(const edgemt_model* model);
EDGEMT_API const char* edgemt_model_target_language(const edgemt_model* model);
/* A metadata value of the model ("converter", "source_format", ...), NULL if absent. */
EDGEMT_API const char* edgemt_model_metadata(const edgemt_model* model, const char* key);
/* Token pieces (SentencePiece strings such as "\xe2\x96\x81Hello") and ids, for callers
 * that tokenize themselves: the source id of a piece (the unknown-token id when the
 * vocabulary has no such piece), and the piece of a target id (NULL when out of range). */
EDGEMT_API edgemt_status edgemt_model_source_token_id(const edgemt_model* model, const char* token,
                                                      int32_t* id);
EDGEMT_API const char* edgemt_model_target_token(const edgemt_model* model, int32_t id);
/* Since C API version 10. The target id of a piece (the unknown-token id when the target
 * vocabulary has no such piece). */
EDGEMT_API edgemt_status edgemt_model_target_token_id(const edgemt_model* model, const char* token,
                                                      int32_t* id);
/* Releases the caller's reference; translators made from it keep the model alive. */
EDGEMT_API void edgemt_model_free(edgemt_model* model);

/* options may be NULL (defaults). */
EDGEMT_API edgemt_status edgemt_translator_create(const edgemt_model* model,
                                                  const edgemt_translator_options* options,
                                                  edgemt_translator** translator);
EDGEMT_API void edgemt_translator_free(edgemt_translator* translator);

/* Since C API version 13. Reranking with a reverse model (noisy-channel reranking): the
 * text calls (edgemt_translate, _scored, _document) find each sentence's beam hypotheses,
 * score each backwards with `reverse`, a model of the opposite direction (the source
 * sentence's log-probability given the hypothesis, per source token), and take the best
 * search score + weight * that. Slower (about 2.5x at beam 4), a little better (see the
 * README). The translator makes its own translator of `reverse` (greedy limits, its own
 * batch and threads) and keeps the model alive. weight: finite, >= 0 (0.3 is the tested
 * default; 0: off). reverse NULL removes the reranker. A model whose languages are not
 * the translator's reversed is EDGEMT_INVALID_ARGUMENT. Greedy search is not reranked. */
EDGEMT_API edgemt_status edgemt_translator_set_reranker(edgemt_translator* translator,
                                                        const edgemt_model* reverse, float weight);

/* Translates n texts (in order; an empty text gives ""); each is split into sentences
 * unless options->no_sentence_split. *results points at n strings owned by the
 * translator. options may be NULL. */
EDGEMT_API edgemt_status edgemt_translate(edgemt_translator* translator, const char* const* texts, size_t n,
                                          const edgemt_translate_options* options,
                                          const char* const** results);

/* Since C API version 14. A PDF file's bytes (data, size) to the translation of its text:
 * its paragraphs (found by pdftotext, from poppler-utils, which must be installed), each
 * translated as plain text and written on a line of its own with a blank line between
 * paragraphs; the layout is not kept. *text: NUL-terminated UTF-8, owned by the
 * translator, valid until its next call. options may be NULL; their format is not used.
 * Not a PDF, a damaged or encrypted one, or one without text: EDGEMT_INVALID_ARGUMENT;
 * no pdftotext: EDGEMT_UNSUPPORTED (edgemt_last_error says why). */
EDGEMT_API edgemt_status edgemt_translate_pdf(edgemt_translator* translator, const void* data, size_t size,
                                              const edgemt_translate_options* options, const char** text);

/* Since C API version 12. An office document or e-book, the bytes of a .docx, .pptx,
 * .xlsx, .odt, .odp, .ods or .epub file (data, size), translated: each paragraph (or
 * text cell) whole with its formatting (bold, links, styles), everything else in the
 * file kept. *out / *out_size: the
 * translated file's bytes, owned by the translator, valid until its next call.
 * options may be NULL; their format is not used. A file that is not such a document is
 * EDGEMT_INVALID_ARGUMENT, saying why (edgemt_last_error). */
EDGEMT_API edgemt_status edgemt_translate_document(edgemt_translator* translator, const void* data,
                                                   size_t size, const edgemt_translate_options* options,
                                                   const void** out, size_t* out_size);

/* Token ids to token ids: n sequences (ids[i] has lengths[i] ids; eos is appended if
 * missing; long ones are split into chunks). *out_ids[i] / *out_lengths[i]: sequence
 * i's output ids (no decoder start, no final eos), owned by the translator. Once its
 * buffers have grown to the largest call's (sequences, lengths), calls allocate nothing,
 * whatever sequences come where, repeated or not, greedy or beam (unless options name a
 * glossary, which is parsed per call). options may be NULL. */
EDGEMT_API edgemt_status edgemt_translate_ids(edgemt_translator* translator, const int32_t* const* ids,
                                              const size_t* lengths, size_t n,
                                              const edgemt_translate_options* options,
                                              const int32_t* const** out_ids, const size_t** out_lengths);

/* Since C API version 3. N-best with scores: up to num_hypotheses (>= 1) translations of
 * each of the n sequences (as edgemt_translate_ids takes them), best first; beam search
 * gives at most its beam, greedy one. Sequence i has (*out_counts)[i] hypotheses (at
 * least 1): entries (*out_first)[i] .. (*out_first)[i] + (*out_counts)[i] - 1 of
 * *out_ids / *out_lengths (ids, no final eos) and *out_scores (the score the search ranks
 * by: log-probability / length^length_penalty, Marian style less word_penalty x length
 * first; a sequence split into chunks sums its chunks'). All owned by the translator,
 * valid until its next call. options may be NULL. */
EDGEMT_API edgemt_status edgemt_translate_ids_nbest(edgemt_translator* translator, const int32_t* const* ids,
                                                    const size_t* lengths, size_t n, size_t num_hypotheses,
                                                    const edgemt_translate_options* options,
                                                    const size_t** out_first, const size_t** out_counts,
                                                    const int32_t* const** out_ids,
                                                    const size_t** out_lengths, const float** out_scores);

/* Since C API version 8. Scored translations with word alignments, as `translate
 * --output jsonl` prints them: *results points at n JSON objects (one line each), text
 * i's {"translation", "score", "confidence" (0-1), "words": [{"word", "confidence",
 * "source"}], "source_words", "alignment" (Moses' "source-target" word index pairs),
 * "sentences": [each sentence's "source" and the same fields]} and, with num_hypotheses
 * > 1, "n_best" lists ({"translation", "score", "confidence"}, best first). Plain text
 * only (options->format TEXT). Owned by the translator. options may be NULL. */
EDGEMT_API edgemt_status edgemt_translate_scored(edgemt_translator* translator, const char* const* texts,
                                                 size_t n, size_t num_hypotheses,
                                                 const edgemt_translate_options* options,
                                                 const char* const** results);

/* Since C API version 10. Scoring (forced decoding, CTranslate2's score_batch): for each of
 * the n pairs, the log-probability of each token of target i given source i, the final
 * eos included (so they sum to the target's log-probability): the model's raw
 * log-softmax, without the search's processors or the lexical shortlist. sources as
 * edgemt_translate_ids takes them (eos appended if missing; at most the translator's
 * max_source_length ids, no chunking); targets[i] has target_lengths[i] target ids (no
 * decoder start, no final eos; at most max_target_length - 1). (*out_logprobs)[i] has
 * (*out_lengths)[i] = target_lengths[i] + 1 values, owned by the translator, valid until
 * its next call. */
EDGEMT_API edgemt_status edgemt_score_ids(edgemt_translator* translator, const int32_t* const* sources,
                                          const size_t* source_lengths, const int32_t* const* targets,
                                          const size_t* target_lengths, size_t n,
                                          const float* const** out_logprobs, const size_t** out_lengths);

/* Since C API version 10. edgemt_score_ids for n text pairs, each tokenized whole with the
 * model's tokenizers (no sentence splitting): (*out_logprobs)[i] has (*out_lengths)[i]
 * values, target i's tokens' and the final eos's. */
EDGEMT_API edgemt_status edgemt_score(edgemt_translator* translator, const char* const* sources,
                                      const char* const* targets, size_t n, const float* const** out_logprobs,
                                      const size_t** out_lengths);

#ifdef __cplusplus
}
#endif

#endif /* EDGEMT_H_ */
