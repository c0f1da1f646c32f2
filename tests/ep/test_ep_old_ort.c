/* test_ep_old_ort.c: the plugin (wherec_ep, loaded with dlopen as onnxruntime loads it)
   handed an OrtApiBase by an onnxruntime older than 1.23, whose GetApi(23) is NULL as 1.22's
   is: no factory, no error status (there is no API table to make one with), and a line on
   stderr naming the version found and the one needed. And by a 1.23 one: one factory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dlfcn.h>
#include <cmocka.h>

#include "ort_abi.h"

typedef OrtStatus *(*create_factories_fn)(const char *name, const OrtApiBase *base, const void *logger,
                                          void **factories, size_t max, size_t *count);

static void *module;
static create_factories_fn create_factories;

/* ---- onnxruntime 1.22: no API version 23 ---------------------------------------------------- */

static uint32_t asked_version;
static ort_fn   api_1_22[1]; /* never read: the plugin asks for 23 only */

static const ort_fn *get_api_1_22(uint32_t version) {
  asked_version = version;
  return version <= 22 ? api_1_22 : NULL;
}
static const char *version_1_22(void) { return "1.22.0"; }

/* Runs fn with stderr into a file; returns what it wrote (malloc'd). */
static char *stderr_of(OrtStatus **status, const OrtApiBase *base, void **factories, size_t max, size_t *count) {
  char  path[] = "/tmp/test_ep_old_ort_XXXXXX";
  int   fd = mkstemp(path);
  assert_true(fd >= 0);
  fflush(stderr);
  int saved = dup(2);
  assert_true(saved >= 0);
  assert_true(dup2(fd, 2) >= 0);
  *status = create_factories("wherec", base, NULL, factories, max, count);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  off_t n = lseek(fd, 0, SEEK_END);
  char *text = calloc((size_t)n + 1, 1);
  assert_non_null(text);
  assert_int_equal(pread(fd, text, (size_t)n, 0), n);
  close(fd);
  unlink(path);
  return text;
}

static void test_old_ort_1_22_gets_no_factory_and_a_message_naming_both_versions(void **state) {
  (void)state;
  OrtApiBase base = {get_api_1_22, version_1_22};
  void      *factories[4] = {NULL, NULL, NULL, NULL};
  size_t     count = 99;
  OrtStatus *status = (OrtStatus *)&count;
  char      *err = stderr_of(&status, &base, factories, 4, &count);
  assert_int_equal(asked_version, ORT_EP_API_VERSION);
  assert_null(status);
  assert_int_equal(count, 0);
  assert_null(factories[0]);
  if (!strstr(err, "1.22.0") || !strstr(err, "1.23")) fail_msg("stderr: '%s'", err);
  assert_non_null(strchr(err, '\n'));
  assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1); /* one line */
  free(err);
}

static void test_old_ort_without_a_version_string_is_still_refused_clearly(void **state) {
  (void)state;
  OrtApiBase base = {get_api_1_22, NULL};
  void      *factories[1] = {NULL};
  size_t     count = 99;
  OrtStatus *status = NULL;
  char      *err = stderr_of(&status, &base, factories, 1, &count);
  assert_null(status);
  assert_int_equal(count, 0);
  if (!strstr(err, "(unknown)") || !strstr(err, "1.23")) fail_msg("stderr: '%s'", err);
  free(err);
}

/* ---- onnxruntime 1.23: the tables the factory needs ------------------------------------------ */

static ort_fn api_1_23[400];
static ort_fn ep_api_1_23[8];
static const ort_fn *get_ep_api(void) { return ep_api_1_23; }
static const ort_fn *get_api_1_23(uint32_t version) { return version <= 23 ? api_1_23 : NULL; }
static const char *version_1_23(void) { return "1.23.0"; }

typedef struct fake_status { int code; char msg[256]; } fake_status;
static fake_status last_status;
static OrtStatus *create_status(int code, const char *msg) {
  last_status.code = code;
  snprintf(last_status.msg, sizeof last_status.msg, "%s", msg);
  return (OrtStatus *)&last_status;
}

static void test_ort_1_23_gets_one_factory_and_nothing_on_stderr(void **state) {
  (void)state;
  api_1_23[ORT_GetEpApi] = (ort_fn)get_ep_api;
  api_1_23[ORT_CreateStatus] = (ort_fn)create_status;
  OrtApiBase base = {get_api_1_23, version_1_23};
  void      *factories[2] = {NULL, NULL};
  size_t     count = 99;
  OrtStatus *status = NULL;
  char      *err = stderr_of(&status, &base, factories, 2, &count);
  assert_null(status);
  assert_int_equal(count, 1);
  assert_non_null(factories[0]);
  assert_null(factories[1]);
  const OrtEpFactory *f = factories[0];
  assert_int_equal(f->ort_version_supported, ORT_EP_API_VERSION);
  assert_string_equal(f->GetName(f), "WherecExecutionProvider");
  assert_string_equal(err, "");
  free(err);
  /* no room for a factory: an error status, made with the table's CreateStatus */
  count = 99;
  err = stderr_of(&status, &base, factories, 0, &count);
  assert_ptr_equal(status, &last_status);
  assert_int_equal(last_status.code, ORT_FAIL);
  assert_non_null(strstr(last_status.msg, "no room for a factory"));
  assert_int_equal(count, 0);
  free(err);
}

/* The module, as onnxruntime loads it. */
static bool load(void) {
  module = dlopen(WHEREC_EP_MODULE, RTLD_NOW | RTLD_LOCAL);
  if (!module) {
    fprintf(stderr, "dlopen %s: %s\n", WHEREC_EP_MODULE, dlerror());
    return false;
  }
  create_factories = (create_factories_fn)(uintptr_t)dlsym(module, "CreateEpFactories");
  if (!create_factories) fprintf(stderr, "%s exports no CreateEpFactories\n", WHEREC_EP_MODULE);
  return create_factories != NULL;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_old_ort_1_22_gets_no_factory_and_a_message_naming_both_versions),
      cmocka_unit_test(test_old_ort_without_a_version_string_is_still_refused_clearly),
      cmocka_unit_test(test_ort_1_23_gets_one_factory_and_nothing_on_stderr),
  };
  if (!load()) {
#ifdef WHEREC_EP_SANITIZED
    /* the sanitizers' runtimes must come from this executable; where the module cannot
       link against them, the test is skipped (77), under the sanitizer only */
    printf("skipped: the plugin does not load under the sanitizer\n");
    return 77;
#else
    return 1;
#endif
  }
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  dlclose(module);
  return failed;
}
