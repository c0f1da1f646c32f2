/* run.c: `wherec run`: spec -> cache/<hash>/<prefix>.{h,c} -> lib<prefix>.so (compiler run
   by spawn_run, temp name + rename) -> dlopen -> .npy inputs -> wc_run -> OUT.npy (atomic). */
#define _POSIX_C_SOURCE 200809L

#include "base/paths.h"
#include "run/run.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <wherec/wherec.h>

#include "back/driver.h"
#include "base/file.h"
#include "run/npy.h"
#include "run/pool.h"
#include "front/parse.h"
#include "base/spawn.h"
#include "base/vec.h"

/* Set by the build for the build tree; an installed wherec is pointed at its
   headers and templates through the environment. */
#ifndef WHEREC_VERSION
#define WHEREC_VERSION "unknown"
#endif
#ifndef WHEREC_INCLUDE_DIR
#define WHEREC_INCLUDE_DIR NULL
#endif
#ifndef WHEREC_TEMPLATES_DIR
#define WHEREC_TEMPLATES_DIR NULL
#endif

#define RUN_MAX_PATH     4096
#define RUN_MAX_FILE     (RUN_MAX_PATH + 512) /* a cache directory plus a file name */
#define RUN_MAX_LOG      16384                /* compiler output shown on failure, at most */
#define RUN_CACHE_FORMAT "wherec-run-cache/4" /* bump when the cache or the table ABI changes */

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static void
say(const char *fmt, ...) {
  va_list ap;
  fputs("wherec: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

/* ---- the cache key ------------------------------------------------------------- */

/* FNV-1a, 64 bits: h is the running hash, from FNV_OFFSET. A cache key, not a
   defence: whoever can write the cache can run code anyway. */
#define FNV_OFFSET 0xcbf29ce484222325ull

static uint64_t fnv1a(uint64_t h, const void *data, size_t len) {
  const unsigned char *p = data;
  for (size_t i = 0; i < len; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

/* A length-prefixed field, so that no two sequences of fields hash alike by
   moving bytes from one field to the next. */
static uint64_t hash_field(uint64_t h, const void *data, size_t len) {
  unsigned char n[8];
  for (int i = 0; i < 8; i++) n[i] = (unsigned char)((uint64_t)len >> (8 * i));
  return fnv1a(fnv1a(h, n, 8), data, len);
}

static uint64_t hash_str(uint64_t h, const char *s) {
  return hash_field(h, s ? s : "", s ? strlen(s) : 0);
}

static uint64_t hash_file(uint64_t h, const char *path) {
  size_t len;
  char  *text = file_read(path, &len, SIZE_MAX);
  h = text ? hash_field(h, text, len) : hash_str(h, "<missing>");
  free(text);
  return h;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir (names and contents, sorted by name): the templates. */
static uint64_t hash_dir(uint64_t h, const char *dir) {
  DIR *d = dir ? opendir(dir) : NULL;
  VEC(char *) names = {0};
  char           path[RUN_MAX_PATH];
  struct dirent *e;
  struct stat    st;
  if (d == NULL) return hash_str(h, "<no directory>");
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
    char **slot = vec_push(NULL, &names);
    if (slot == NULL) break;
    if ((*slot = strdup(e->d_name)) == NULL) names.n--;
  }
  closedir(d);
  if (names.n) qsort(names.data, names.n, sizeof *names.data, cmp_names);
  for (size_t i = 0; i < names.n; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names.data[i]);
    h = hash_file(hash_str(h, names.data[i]), path);
    free(names.data[i]);
  }
  vec_free(&names);
  return h;
}

static bool cache_root(char *out, size_t cap) {
  const char *d = getenv("WHEREC_CACHE_DIR");
  if (d && *d) return (size_t)snprintf(out, cap, "%s", d) < cap;
  d = getenv("XDG_CACHE_HOME");
  if (d && d[0] == '/') return (size_t)snprintf(out, cap, "%s/wherec", d) < cap;
  d = getenv("HOME");
  if (d && *d) return (size_t)snprintf(out, cap, "%s/.cache/wherec", d) < cap;
  return false;
}

/* mkdir -p with mode 0700: the cache holds code that gets loaded. */
static bool mkdir_p(const char *path) {
  char        buf[RUN_MAX_PATH];
  struct stat st;
  if ((size_t)snprintf(buf, sizeof buf, "%s", path) >= sizeof buf) return false;
  for (char *p = buf + 1;; p++) {
    if (*p == '/' || *p == '\0') {
      char c = *p;
      *p = '\0';
      if (mkdir(buf, 0700) != 0 && errno != EEXIST) return false;
      *p = c;
      if (c == '\0') break;
    }
  }
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ---- compiling and loading --------------------------------------------------- */

/* Loads so and finds <prefix>_table; false (nothing left loaded) if either fails. */
static bool load(const char *so, const char *prefix, void **handle, const wc_kernel_table **table) {
  char  sym[300];
  void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) return false;
  snprintf(sym, sizeof sym, "%s_table", prefix);
  const wc_kernel_table *t = dlsym(h, sym);
  if (t == NULL || t->kernels == NULL || t->n_kernels < 0) {
    dlclose(h);
    return false;
  }
  *handle = h;
  *table = t;
  return true;
}

/* Compiles dir/<prefix>.c into dir/lib<prefix>.so through a temporary name. */
static int build(const char *cc, const char *inc, const char *dir, const char *prefix,
                 const char *so) {
  char src[RUN_MAX_FILE], tmp[RUN_MAX_FILE + 16], log[RUN_MAX_FILE], incflag[RUN_MAX_PATH + 2];
  snprintf(src, sizeof src, "%s/%s.c", dir, prefix);
  snprintf(tmp, sizeof tmp, "%s.tmpXXXXXX", so);
  snprintf(log, sizeof log, "%s/build.log", dir);
  snprintf(incflag, sizeof incflag, "-I%s", inc);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    say("error: cannot create %s: %s", tmp, strerror(errno));
    return GEN_EXIT_TOOLCHAIN;
  }
  close(fd);
  /* spawn_run takes execvp's char *const[]; the strings are not written. */
  char *argv[] = {(char *)cc, "-std=c99", "-O2", "-fPIC", "-shared", incflag, "-o", tmp, src, NULL};
  int   rc = spawn_run(argv, log);
  if (rc != 0) {
    int err = errno;
    unlink(tmp);
    if (rc == SPAWN_NOT_STARTED) {
      say("error: cannot run the compiler '%s': %s (install clang or pass --cc CC)", cc,
          strerror(err));
      return GEN_EXIT_TOOLCHAIN;
    }
    size_t len;
    char  *text = file_read(log, &len, SIZE_MAX);
    say("error: '%s' failed (status %d) compiling %s:", cc, rc, src);
    if (text) fprintf(stderr, "%.*s", (int)(len < RUN_MAX_LOG ? len : RUN_MAX_LOG), text);
    free(text);
    return GEN_EXIT_TOOLCHAIN;
  }
  if (rename(tmp, so) != 0) {
    say("error: cannot rename %s to %s: %s", tmp, so, strerror(errno));
    unlink(tmp);
    return GEN_EXIT_TOOLCHAIN;
  }
  unlink(log);
  return GEN_EXIT_OK;
}

/* ---- checking the inputs ------------------------------------------------------- */

static void print_pattern(char *out, size_t cap, const wc_kernel *k, const wc_param *p) {
  size_t n = (size_t)snprintf(out, cap, "%s[", wc_dtype_name(p->dtype));
  for (int d = 0; d < p->rank && n < cap; d++) {
    int64_t e = p->dims[d];
    if (e >= 0) n += (size_t)snprintf(out + n, cap - n, "%s%lld", d ? "," : "", (long long)e);
    else
      n += (size_t)snprintf(out + n, cap - n, "%s%s", d ? "," : "",
                            k->extent_names ? k->extent_names[-e - 1] : "?");
  }
  if (n < cap) snprintf(out + n, cap - n, "]");
}

static void print_shape(char *out, size_t cap, const wc_tensor *t) {
  size_t n = (size_t)snprintf(out, cap, "(");
  for (int d = 0; d < t->rank && n < cap; d++)
    n += (size_t)snprintf(out + n, cap - n, "%s%lld", d ? ", " : "", (long long)t->shape[d]);
  if (n < cap) snprintf(out + n, cap - n, "%s)", t->rank == 1 ? "," : "");
}

/* The shape of input i must be the parameter's pattern exactly: same rank,
   fixed extents equal, a symbolic extent the same wherever it appears. */
static bool check_shape(const wc_kernel *k, const run_options *a, int i, const wc_tensor *t,
                        int64_t *ext, int *bound_by) {
  const wc_param *p = &k->inputs[i];
  char            pat[512], shp[512], why[512] = "";
  if (p->rank != t->rank) {
    snprintf(why, sizeof why, "rank %d, expected %d", t->rank, p->rank);
  } else {
    for (int d = 0; d < p->rank && !why[0]; d++) {
      int64_t e = p->dims[d];
      if (e >= 0) {
        if (t->shape[d] != e)
          snprintf(why, sizeof why, "extent %d is %lld, expected %lld", d, (long long)t->shape[d],
                   (long long)e);
        continue;
      }
      int s = (int)(-e - 1);
      if (bound_by[s] < 0) {
        bound_by[s] = i;
        ext[s] = t->shape[d];
      } else if (ext[s] != t->shape[d]) {
        snprintf(why, sizeof why, "%s is %lld here but %lld in %s",
                 k->extent_names ? k->extent_names[s] : "a symbolic extent", (long long)t->shape[d],
                 (long long)ext[s], a->inputs[bound_by[s]]);
      }
    }
  }
  if (!why[0]) return true;
  print_pattern(pat, sizeof pat, k, p);
  print_shape(shp, sizeof shp, t);
  say("error: %s: parameter '%s' of kernel '%s' is %s; the file's shape is %s (%s)", a->inputs[i],
      p->name, k->name, pat, shp, why);
  return false;
}

/* Product of a shape's extents times size; false on overflow. */
static bool byte_size(int rank, const int64_t *shape, size_t size, size_t *count, size_t *bytes) {
  uint64_t n = 1;
  for (int d = 0; d < rank; d++) {
    if (shape[d] < 0) return false;
    if (shape[d] && n > (uint64_t)INT64_MAX / (uint64_t)shape[d]) return false;
    n *= (uint64_t)shape[d];
  }
  if (size && n > SIZE_MAX / size) return false;
  *count = (size_t)n;
  *bytes = (size_t)n * size;
  return true;
}

/* Reads every input, checks dtypes and shapes, binds the symbolic extents. */
static int read_inputs(const wc_kernel *k, const run_options *a, npy_array *arr, wc_tensor *in,
                       int64_t *ext) {
  char err[512];
  int *bound_by = malloc(sizeof *bound_by * (size_t)(k->n_extents + 1));
  int  rc = GEN_EXIT_OK;
  if (bound_by == NULL) {
    say("error: out of memory");
    return GEN_EXIT_BAD_INPUT;
  }
  for (int e = 0; e < k->n_extents; e++) bound_by[e] = -1;
  for (int i = 0; i < k->n_inputs && rc == GEN_EXIT_OK; i++) {
    const wc_param *p = &k->inputs[i];
    if (p->data != NULL) { /* baked: a constant of the spec, no file */
      memset(&in[i], 0, sizeof in[i]);
      in[i].dtype = p->dtype;
      in[i].rank = p->rank;
      for (int d = 0; d < p->rank; d++) in[i].shape[d] = p->dims[d];
      in[i].data = (void *)p->data;
      continue;
    }
    if (!npy_read(a->inputs[i], p->dtype, &arr[i], err, sizeof err)) {
      say("error: %s: %s", a->inputs[i], err);
      rc = GEN_EXIT_BAD_INPUT;
    } else if (arr[i].t.dtype != p->dtype) {
      say("error: %s: parameter '%s' of kernel '%s' is %s; the file holds %s ('%s')", a->inputs[i],
          p->name, k->name, wc_dtype_name(p->dtype), wc_dtype_name(arr[i].t.dtype), arr[i].descr);
      rc = GEN_EXIT_BAD_INPUT;
    } else if (!check_shape(k, a, i, &arr[i].t, ext, bound_by)) {
      rc = GEN_EXIT_BAD_INPUT;
    }
    in[i] = arr[i].t;
  }
  free(bound_by);
  return rc;
}

/* The output tensor: the kernel's output pattern with the bound extents for
   elementwise kinds; for coordinates, int64 room for rank * elements. */
static int alloc_output(const wc_kernel *k, const wc_tensor *in, const int64_t *ext, int o,
                        wc_tensor *out) {
  size_t count, bytes;
  memset(out, 0, sizeof *out);
  if (k->kind == WC_KIND_ARGWHERE || k->kind == WC_KIND_NONZERO) {
    const wc_tensor **ptr = malloc(sizeof *ptr * (size_t)(k->n_inputs + 1));
    int               rank;
    int64_t           shape[WC_MAX_RANK];
    if (ptr == NULL) {
      say("error: out of memory");
      return GEN_EXIT_BAD_INPUT;
    }
    for (int i = 0; i < k->n_inputs; i++) ptr[i] = &in[i];
    wc_status s = wc_broadcast_shape(ptr, k->n_inputs, &rank, shape);
    free(ptr);
    if (s != WC_OK || !byte_size(rank, shape, 1, &count, &bytes) ||
        (rank && count > (size_t)INT64_MAX / (size_t)rank / 8)) {
      say("error: the inputs of '%s' are too large", k->name);
      return GEN_EXIT_BAD_INPUT;
    }
    out->dtype = WC_INT64;
    out->rank = 1;
    out->shape[0] = (int64_t)(count * (size_t)rank);
    bytes = count * (size_t)rank * sizeof(int64_t);
  } else {
    out->dtype = k->n_outputs > 1 ? k->outputs[o].dtype : k->out_dtype;
    out->rank = k->out_rank;
    for (int d = 0; d < k->out_rank; d++)
      out->shape[d] = k->out_dims[d] >= 0 ? k->out_dims[d] : ext[-k->out_dims[d] - 1];
    if (!byte_size(out->rank, out->shape, wc_dtype_size(out->dtype), &count, &bytes)) {
      say("error: the output of '%s' is too large", k->name);
      return GEN_EXIT_BAD_INPUT;
    }
  }
  out->data = malloc(bytes ? bytes : 1);
  if (out->data == NULL) {
    say("error: out of memory for the output of '%s' (%zu bytes)", k->name, bytes);
    return GEN_EXIT_BAD_INPUT;
  }
  return GEN_EXIT_OK;
}

/* One OUT.npy per output of k. */
static bool outs_given(const wc_kernel *k, const run_options *a) {
  int n = k->n_outputs > 1 ? k->n_outputs : 1;
  if (a->n_outs == n) return true;
  say("error: kernel '%s' has %d output%s; %d -o given", k->name, n, n == 1 ? "" : "s", a->n_outs);
  if (n > 1) {
    fprintf(stderr, "wherec: outputs, in order:");
    for (int o = 0; o < n; o++) fprintf(stderr, " %s", k->outputs[o].name);
    fputc('\n', stderr);
  }
  return false;
}

/* Writes every output to its OUT.npy. */
static bool write_outputs(const run_options *a, const wc_tensor *out) {
  char err[512];
  for (int o = 0; o < a->n_outs; o++)
    if (!npy_write(a->outs[o], &out[o], err, sizeof err)) {
      say("error: %s: %s", a->outs[o], err);
      return false;
    }
  return true;
}

static void list_kernels(const wc_kernel_table *t, const char *spec) {
  fprintf(stderr, "wherec: kernels in %s:", spec);
  for (int i = 0; i < t->n_kernels; i++) fprintf(stderr, " %s", t->kernels[i].name);
  fputc('\n', stderr);
}

/* ---- the command ----------------------------------------------------------------- */

/* Generates and compiles (or finds in the cache) the spec; loads its table. */
static int prepare(const run_options *a, void **handle, const wc_kernel_table **table) {
  char        root[RUN_MAX_PATH], dir[RUN_MAX_PATH], so[RUN_MAX_FILE];
  const char *inc = gen_env_or("WHEREC_INCLUDE_DIR", gen_include_dir(WHEREC_INCLUDE_DIR));
  const char *tdir = gen_env_or("WHEREC_TEMPLATES", gen_default_templates_dir());
  size_t      len;
  struct stat st;
  char       *spec = file_read(a->spec, &len, PARSE_MAX_SOURCE);
  if (spec == NULL) {
    say("error: %s: cannot read spec: %s", a->spec, strerror(errno));
    return GEN_EXIT_BAD_INPUT;
  }
  if (inc == NULL) {
    free(spec);
    say("error: the wherec include directory is unknown (set WHEREC_INCLUDE_DIR)");
    return GEN_EXIT_TOOLCHAIN;
  }
  /* Everything the shared object depends on: spec (and its file name, which
     may set the prefix), generator, templates, headers, compiler and flags. */
  const char *base = strrchr(a->spec, '/');
  uint64_t    h = hash_str(FNV_OFFSET, RUN_CACHE_FORMAT);
  h = hash_str(h, WHEREC_VERSION);
  h = hash_str(h, base ? base + 1 : a->spec);
  h = hash_field(h, spec, len);
  h = hash_dir(h, tdir);
  snprintf(so, sizeof so, "%s/wherec", inc); /* kernel.h and every part it includes */
  h = hash_dir(h, so);
  h = hash_str(hash_str(h, a->cc), "-std=c99 -O2 -fPIC -shared");
  free(spec);

  if (!cache_root(root, sizeof root)) {
    say("error: no cache directory: set WHEREC_CACHE_DIR (or HOME)");
    return GEN_EXIT_TOOLCHAIN;
  }
  if ((size_t)snprintf(dir, sizeof dir, "%s/%016llx", root, (unsigned long long)h) >= sizeof dir ||
      !mkdir_p(dir)) {
    say("error: cannot create the cache directory %s: %s", dir, strerror(errno));
    return GEN_EXIT_TOOLCHAIN;
  }
  gen_options g = {NULL, tdir, 0};
  gen_result  made;
  int         rc = gen_generate(a->spec, dir, &g, stderr, &made);
  if (rc != 0) {
    rmdir(dir); /* only if empty: a spec with errors leaves no trace */
    return rc == GEN_EXIT_BAD_INPUT ? GEN_EXIT_BAD_INPUT : GEN_EXIT_TOOLCHAIN;
  }
  const char *prefix = made.prefix;
  snprintf(so, sizeof so, "%s/lib%s.so", dir, prefix);
  if (stat(so, &st) == 0 && load(so, prefix, handle, table)) return GEN_EXIT_OK;
  if ((rc = build(a->cc, inc, dir, prefix, so)) != GEN_EXIT_OK) return rc;
  if (!load(so, prefix, handle, table)) {
    say("error: cannot load %s: %s", so, dlerror());
    return GEN_EXIT_TOOLCHAIN;
  }
  say("compiled %s", so);
  return GEN_EXIT_OK;
}

int run_command(const run_options *o) {
  run_options            a = *o;
  void                  *handle = NULL;
  const wc_kernel_table *table = NULL;
  npy_array             *arr = NULL;
  const char           **files = NULL;
  wc_tensor             *in = NULL, out[WC_MAX_OPERANDS];
  int64_t               *ext = NULL;
  pool                  *workers = NULL;
  int                    rc;
  memset(out, 0, sizeof out);
  if (a.cc == NULL) a.cc = "clang";
  if ((rc = prepare(&a, &handle, &table)) != GEN_EXIT_OK) goto done;
  rc = GEN_EXIT_BAD_INPUT;
  const wc_kernel *k = wc_find_kernel(table, a.kernel);
  if (k == NULL) {
    say("error: %s has no kernel '%s'", a.spec, a.kernel);
    list_kernels(table, a.spec);
    goto done;
  }
  int n_own = 0; /* the parameters that are no constant of the spec: one file each */
  for (int i = 0; i < k->n_inputs; i++) n_own += k->inputs[i].data == NULL;
  if (a.n_inputs != n_own) {
    say("error: kernel '%s' takes %d input%s; %d given", k->name, n_own, n_own == 1 ? "" : "s",
        a.n_inputs);
    fprintf(stderr, "wherec: parameters:");
    for (int i = 0; i < k->n_inputs; i++) {
      char pat[512];
      if (k->inputs[i].data != NULL) continue;
      print_pattern(pat, sizeof pat, k, &k->inputs[i]);
      fprintf(stderr, " %s: %s", k->inputs[i].name, pat);
    }
    fputc('\n', stderr);
    goto done;
  }
  if (!outs_given(k, &a)) goto done;
  files = calloc((size_t)k->n_inputs + 1, sizeof *files);
  if (files == NULL) {
    say("error: out of memory");
    goto done;
  }
  for (int i = 0, j = 0; i < k->n_inputs; i++)
    files[i] = k->inputs[i].data != NULL ? NULL : a.inputs[j++];
  a.inputs = files; /* by parameter, NULL for a baked one */
  a.n_inputs = k->n_inputs;
  arr = calloc((size_t)k->n_inputs + 1, sizeof *arr);
  in = calloc((size_t)k->n_inputs + 1, sizeof *in);
  ext = calloc((size_t)k->n_extents + 1, sizeof *ext);
  if (arr == NULL || in == NULL || ext == NULL) {
    say("error: out of memory");
    goto done;
  }
  if ((rc = read_inputs(k, &a, arr, in, ext)) != GEN_EXIT_OK) goto done;
  for (int o = 0; o < a.n_outs; o++)
    if ((rc = alloc_output(k, in, ext, o, &out[o])) != GEN_EXIT_OK) goto done;
  rc = GEN_EXIT_BAD_INPUT;
  if (a.threads > 1) {
    if ((workers = pool_create(a.threads)) == NULL) {
      say("error: cannot start %d threads", a.threads);
      goto done;
    }
    wc_set_parallel(pool_parallel, workers);
  }
  wc_path   path = WC_PATH_INTERPRETED;
  wc_status s = a.interp ? wc_interpret_multi(k, in, k->n_inputs, out, a.n_outs)
                         : wc_run_multi(table, k->name, in, k->n_inputs, out, a.n_outs, &path);
  wc_set_parallel(NULL, NULL);
  if (s != WC_OK) {
    say("error: running '%s' failed: %s", k->name, wc_status_str(s));
    goto done;
  }
  if (!write_outputs(&a, out)) goto done;
  say("ran %s (%s)%s", k->name, path == WC_PATH_SPECIALIZED ? "specialized" : "interpreted",
      a.threads > 1 ? ", split over the threads when large" : "");
  rc = GEN_EXIT_OK;
done:
  if (arr)
    for (int i = 0; i < a.n_inputs; i++) npy_free(&arr[i]);
  free(arr);
  free(in);
  free(ext);
  free(files);
  for (int o = 0; o < WC_MAX_OPERANDS; o++) free(out[o].data);
  pool_destroy(workers);
  if (handle) dlclose(handle);
  return rc;
}
