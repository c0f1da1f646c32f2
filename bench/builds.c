/* builds.c: loads the builds of the timed code (set.c, one shared object per
   compiler and flag set, listed by CMake in BENCH_BUILDS as name=flags,...). */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

int builds_load(bench_build *b, int max, const char *dir) {
  const char *list = BENCH_BUILDS;
  int n = 0;
  while (*list && n < max) {
    const char *end = strchr(list, ','), *eq = strchr(list, '=');
    size_t len = end ? (size_t)(end - list) : strlen(list);
    bench_build *d = &b[n];
    char path[1024];
    if (eq == NULL || eq > list + len) return -1;
    snprintf(d->name, sizeof d->name, "%.*s", (int)(eq - list), list);
    snprintf(d->flags, sizeof d->flags, "%.*s", (int)(list + len - eq - 1), eq + 1);
    snprintf(path, sizeof path, "%s/set-%s.so", dir, d->name);
    /* RTLD_LOCAL: every build defines the same names */
    if ((d->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL ||
        (d->set = (const bench_set_entry *)dlsym(d->dl, "bench_set")) == NULL) {
      fprintf(stderr, "wherec_bench: %s\n", dlerror());
      return -1;
    }
    n++;
    list += len + (end != NULL);
  }
  return n;
}

const bench_set_entry *builds_find(const bench_build *b, const char *kernel) {
  for (const bench_set_entry *e = b->set; e->kernel; e++)
    if (strcmp(e->kernel, kernel) == 0) return e;
  return NULL;
}
