/* dtype.c: per-dtype tables (names, sizes) expanded from WC_DTYPE_LIST,
   and status strings. */
#include <wherec/wherec.h>

size_t wc_dtype_size(wc_dtype t) {
  switch (t) {
#define X(E, code, name, ctype, alias, sfx, kind) \
  case WC_##E: return sizeof(ctype);
    WC_DTYPE_LIST(X)
#undef X
  default: return 0;
  }
}

const char *wc_dtype_name(wc_dtype t) {
  switch (t) {
#define X(E, code, name, ctype, alias, sfx, kind) \
  case WC_##E: return name;
    WC_DTYPE_LIST(X)
#undef X
  default: return NULL;
  }
}

const char *wc_status_str(wc_status s) {
  switch (s) {
  case WC_OK: return "ok";
  case WC_E_ARG: return "invalid argument (NULL pointer or missing data)";
  case WC_E_DTYPE: return "unsupported or mismatched dtype";
  case WC_E_RANK: return "rank out of range 0..16";
  case WC_E_SHAPE: return "shapes do not match or do not broadcast";
  case WC_E_OVERFLOW: return "element count or byte size overflows";
  case WC_E_CAPACITY: return "output capacity too small";
  case WC_E_NOKERNEL: return "no such kernel";
  case WC_E_NOMEM: return "out of memory";
  }
  return "unknown status";
}
