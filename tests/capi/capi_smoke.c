/* The C API from C (compiled as C11, linked against libedgemt.so): loads a model,
 * translates ids and text, checks error reporting and option struct versioning.
 *   capi_smoke MODEL.emt
 * Prints one line per failed check and exits 1 if any failed. Built by the test suite
 * and, by tests/capi/install_consumers.cmake, against an installed copy through
 * pkg-config. */
#include <edgemt.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                  \
  do {                                                               \
    if (!(cond)) {                                                   \
      fprintf(stderr, "capi_smoke: check failed: %s (line %d)\n", #cond, __LINE__); \
      ++failures;                                                    \
    }                                                                \
  } while (0)

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: capi_smoke MODEL.emt\n");
    return 2;
  }
  CHECK(strlen(edgemt_version()) > 0);
  CHECK(strlen(edgemt_active_isa()) > 0);
  CHECK(strcmp(edgemt_status_string(EDGEMT_OK), "ok") == 0);

  /* Errors: status and message, nothing returned. */
  edgemt_model* model = (edgemt_model*)1;
  CHECK(edgemt_model_load("/nonexistent/model.emt", &model) == EDGEMT_NOT_FOUND);
  CHECK(model == NULL);
  CHECK(strstr(edgemt_last_error(), "/nonexistent/model.emt") != NULL);
  CHECK(edgemt_model_load(NULL, &model) == EDGEMT_INVALID_ARGUMENT);

  if (edgemt_model_load(argv[1], &model) != EDGEMT_OK) {
    fprintf(stderr, "capi_smoke: cannot load %s: %s\n", argv[1], edgemt_last_error());
    return 1;
  }
  CHECK(edgemt_model_metadata(model, "converter") != NULL);
  CHECK(edgemt_model_metadata(model, "no such key") == NULL);

  edgemt_translator_options topt;
  edgemt_translator_options_init(&topt);
  CHECK(topt.struct_size == sizeof topt);
  topt.max_batch = 4;
  topt.num_threads = 2;
  edgemt_translator* tr = NULL;
  CHECK(edgemt_translator_create(model, &topt, &tr) == EDGEMT_OK);
  edgemt_model_free(model); /* the translator keeps the model alive */
  if (tr == NULL) return 1;

  /* Ids: three sequences, one empty-looking (just eos would be id 0 in the parity models). */
  const int32_t a[] = {5, 6, 7};
  const int32_t b[] = {9, 4, 11, 12, 13};
  const int32_t* ids[] = {a, b};
  const size_t lengths[] = {3, 5};
  const int32_t* const* out = NULL;
  const size_t* out_len = NULL;
  CHECK(edgemt_translate_ids(tr, ids, lengths, 2, NULL, &out, &out_len) == EDGEMT_OK);
  if (out != NULL) {
    CHECK(out_len[0] > 0 || out_len[1] > 0);
    /* The same call again gives the same ids. */
    int32_t first[256];
    const size_t n0 = out_len[0] < 256 ? out_len[0] : 256;
    memcpy(first, out[0], n0 * sizeof(int32_t));
    CHECK(edgemt_translate_ids(tr, ids, lengths, 2, NULL, &out, &out_len) == EDGEMT_OK);
    CHECK(out_len[0] == n0 && memcmp(first, out[0], n0 * sizeof(int32_t)) == 0);
  }

  /* Text. */
  const char* texts[] = {"Hello world.", "", "How are you?"};
  const char* const* res = NULL;
  edgemt_translate_options o;
  edgemt_translate_options_init(&o);
  o.beam = 2;
  CHECK(edgemt_translate(tr, texts, 3, &o, &res) == EDGEMT_OK);
  if (res != NULL) CHECK(strcmp(res[1], "") == 0);
  /* Scored, as JSON objects (version 8): a blank text's is {"translation": ""}. */
  CHECK(edgemt_translate_scored(tr, texts, 3, 2, &o, &res) == EDGEMT_OK);
  if (res != NULL) {
    CHECK(strncmp(res[0], "{\"translation\": ", 16) == 0 && strstr(res[0], "\"alignment\": ") != NULL);
    CHECK(strcmp(res[1], "{\"translation\": \"\"}") == 0);
  }
  CHECK(edgemt_translate_scored(tr, texts, 3, 0, &o, &res) == EDGEMT_INVALID_ARGUMENT);

  /* Bad options: a beam above the translator's limit, an uninitialised struct, an
   * unknown enum value, an id outside the vocabulary. */
  o.beam = 1000;
  CHECK(edgemt_translate(tr, texts, 3, &o, &res) == EDGEMT_INVALID_ARGUMENT);
  CHECK(strstr(edgemt_last_error(), "beam") != NULL);
  edgemt_translate_options zero;
  memset(&zero, 0, sizeof zero);
  CHECK(edgemt_translate(tr, texts, 3, &zero, &res) == EDGEMT_INVALID_ARGUMENT);
  edgemt_translate_options_init(&o);
  o.early_stopping = 42;
  CHECK(edgemt_translate(tr, texts, 3, &o, &res) == EDGEMT_INVALID_ARGUMENT);
  const int32_t bad[] = {5, 2000000000};
  const int32_t* bad_ids[] = {bad};
  const size_t bad_len[] = {2};
  CHECK(edgemt_translate_ids(tr, bad_ids, bad_len, 1, NULL, &out, &out_len) == EDGEMT_INVALID_ARGUMENT);
  CHECK(strstr(edgemt_last_error(), "vocabulary") != NULL);
  CHECK(edgemt_translate(NULL, texts, 3, NULL, &res) == EDGEMT_INVALID_ARGUMENT);

  /* An older caller: struct_size covers only beam; the rest are defaults. */
  edgemt_translate_options_init(&o);
  o.struct_size = (uint32_t)(offsetof(edgemt_translate_options, beam) + sizeof o.beam);
  o.beam = 1;
  o.max_length = -5; /* beyond struct_size: not read */
  CHECK(edgemt_translate(tr, texts, 3, &o, &res) == EDGEMT_OK);

  edgemt_translator_free(tr);
  edgemt_translator_free(NULL);
  edgemt_model_free(NULL);
  if (failures == 0) printf("capi_smoke: all checks passed (isa %s, edgemt %s)\n", edgemt_active_isa(), edgemt_version());
  return failures == 0 ? 0 : 1;
}
