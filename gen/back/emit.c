/* emit.c: the Lua host. Hands the loop plan to the templates as Lua tables
   and compiles the templates (C text, `%` Lua lines, $(expr)) to Lua. */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "back/emit.h"
#include "base/file.h"

#ifndef WHEREC_VERSION
#define WHEREC_VERSION "0.0.0"
#endif

/* ---- the plan as Lua tables ---------------------------------------------- */

static void set_str(lua_State *L, const char *key, const char *v) {
  lua_pushstring(L, v);
  lua_setfield(L, -2, key);
}
static void set_int(lua_State *L, const char *key, lua_Integer v) {
  lua_pushinteger(L, v);
  lua_setfield(L, -2, key);
}
static void set_bool(lua_State *L, const char *key, bool v) {
  lua_pushboolean(L, v);
  lua_setfield(L, -2, key);
}

/* dtypes[name] = {enum, ctype, sfx, kind, size}, from the one dtype list. */
static void push_dtypes(lua_State *L) {
  lua_newtable(L);
#define X(E, code, name, ctype, alias, sfx, kind) \
  lua_newtable(L);                                \
  set_str(L, "name", name);                       \
  set_str(L, "enum", "WC_" #E);                   \
  set_str(L, "ctype", #ctype);                    \
  set_str(L, "sfx", #sfx);                        \
  set_str(L, "kind", #kind);                      \
  set_int(L, "size", (lua_Integer)sizeof(ctype)); \
  lua_setfield(L, -2, name);
  WC_DTYPE_LIST(X)
#undef X
}

/* optable[NAME] = {spelling, arity, form}: the operation table, for the
   templates' readable spelling of an expression (ops.describe). */
static void push_optable(lua_State *L) {
  lua_newtable(L);
#define X(NAME, spell, arity, dom, res, form, helper, on_bool) \
  lua_newtable(L);                                             \
  set_str(L, "spelling", spell);                               \
  set_int(L, "arity", arity);                                  \
  set_str(L, "form", #form);                                   \
  lua_setfield(L, -2, #NAME);
  WC_OP_LIST(X)
#undef X
}

static const char *render_name(lower_render r) {
  switch (r) {
  case LOWER_RENDER_INFIX: return "infix";
  case LOWER_RENDER_PREFIX: return "prefix";
  case LOWER_RENDER_CALL: return "call";
  case LOWER_RENDER_TERNARY: return "ternary";
  default: return "leaf";
  }
}

static const char *level_name(lower_level l) {
  return l == LOWER_KERNEL ? "kernel" : l == LOWER_ROW ? "row" : "elem";
}

static const char *kind_enum(wc_kernel_kind k) {
  switch (k) {
  case WC_KIND_WHERE_V1: return "WC_KIND_WHERE_V1";
  case WC_KIND_ARGWHERE: return "WC_KIND_ARGWHERE";
  case WC_KIND_NONZERO: return "WC_KIND_NONZERO";
  default: return "WC_KIND_ELEMENTWISE";
  }
}

static const char *kind_name(wc_kernel_kind k) {
  switch (k) {
  case WC_KIND_WHERE_V1: return "where_v1";
  case WC_KIND_ARGWHERE: return "argwhere";
  case WC_KIND_NONZERO: return "nonzero";
  default: return "elementwise";
  }
}


/* dims = {"N", "3"} as spelled in the spec; pattern = {"WC_SYM(0)", "3"} as C. */
static void push_shape(lua_State *L, const ast_shape *s, const char *const *names) {
  char buf[64];
  lua_createtable(L, s->rank, 0);
  for (int d = 0; d < s->rank; d++) {
    lua_pushstring(L, s->dims[d] < 0
                          ? names[-s->dims[d] - 1]
                          : (snprintf(buf, sizeof buf, "%lld", (long long)s->dims[d]), buf));
    lua_rawseti(L, -2, d + 1);
  }
  lua_setfield(L, -2, "dims");
  lua_createtable(L, s->rank, 0);
  for (int d = 0; d < s->rank; d++) {
    if (s->dims[d] < 0) snprintf(buf, sizeof buf, "WC_SYM(%lld)", (long long)(-s->dims[d] - 1));
    else snprintf(buf, sizeof buf, "%lld", (long long)s->dims[d]);
    lua_pushstring(L, buf);
    lua_rawseti(L, -2, d + 1);
  }
  lua_setfield(L, -2, "pattern");
  set_int(L, "rank", s->rank);
}

static void push_hex(lua_State *L, const char *key, uint64_t v) {
  char buf[32];
  snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  set_str(L, key, buf);
}

/* v as a whole number, or as the shortest %.Ng that reads back as the
   constant's bits in dtype t. */
static void real_text(char *buf, size_t cap, double v, wc_dtype t, uint64_t bits) {
  if (isnan(v)) {
    snprintf(buf, cap, "nan");
    return;
  }
  if (isinf(v)) {
    snprintf(buf, cap, v < 0 ? "-inf" : "inf");
    return;
  }
  if (v == floor(v) && fabs(v) < 1e15) snprintf(buf, cap, "%.0f", v); /* whole: every digit */
  else
    for (int digits = 1; digits <= 17; digits++) {
      snprintf(buf, cap, "%.*g", digits, v);
      double r = strtod(buf, NULL);
      float  f = (float)r;
      bool   same = t == WC_FLOAT      ? wc_f32_to_bits(f) == (uint32_t)bits
                    : t == WC_FLOAT16  ? wc_f32_to_f16(f) == (wc_float16)bits
                    : t == WC_BFLOAT16 ? wc_f32_to_bf16(f) == (wc_bfloat16)bits
                                       : memcmp(&r, &v, sizeof r) == 0;
      if (same) break;
    }
  if (strpbrk(buf, ".e") == NULL) snprintf(buf + strlen(buf), cap - strlen(buf), ".0");
  if (t == WC_FLOAT) snprintf(buf + strlen(buf), cap - strlen(buf), "f");
}

/* A constant's value as a reader would write it, for comments: 0.01f, -3, true. */
static void const_text(char *buf, size_t cap, wc_dtype t, const uint64_t bits[2]) {
  char re[40], im[40];
  switch (t) {
  case WC_BOOL: snprintf(buf, cap, bits[0] ? "true" : "false"); return;
  case WC_FLOAT:
  case WC_FLOAT16:
  case WC_BFLOAT16: {
    float f = t == WC_FLOAT     ? wc_bits_to_f32((uint32_t)bits[0])
              : t == WC_FLOAT16 ? wc_f16_to_f32((wc_float16)bits[0])
                                : wc_bf16_to_f32((wc_bfloat16)bits[0]);
    real_text(buf, cap, f, t, bits[0]);
    return;
  }
  case WC_DOUBLE: real_text(buf, cap, wc_bits_to_f64(bits[0]), t, bits[0]); return;
  case WC_COMPLEX64:
  case WC_COMPLEX128: {
    wc_dtype part = t == WC_COMPLEX64 ? WC_FLOAT : WC_DOUBLE;
    for (int i = 0; i < 2; i++)
      real_text(i ? im : re, sizeof re,
                part == WC_FLOAT ? wc_bits_to_f32((uint32_t)bits[i]) : wc_bits_to_f64(bits[i]),
                part, bits[i]);
    snprintf(buf, cap, "{%s, %s}", re, im);
    return;
  }
  case WC_INT8: snprintf(buf, cap, "%d", (int)(int8_t)bits[0]); return;
  case WC_INT16: snprintf(buf, cap, "%d", (int)(int16_t)bits[0]); return;
  case WC_INT32: snprintf(buf, cap, "%ld", (long)(int32_t)bits[0]); return;
  case WC_INT64: snprintf(buf, cap, "%lld", (long long)(int64_t)bits[0]); return;
  case WC_UINT8:
  case WC_UINT16:
  case WC_UINT32:
  case WC_UINT64: snprintf(buf, cap, "%llu", (unsigned long long)bits[0]); return;
  default: snprintf(buf, cap, "0x%llx", (unsigned long long)bits[0]); return;
  }
}

/* A list of node ids (0-based, as a node's `id`). */
static void push_ids(lua_State *L, const int *ids, int n) {
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_pushinteger(L, ids[i]);
    lua_rawseti(L, -2, i + 1);
  }
}

static void push_kernel(lua_State *L, const lower_kernel *k, const char *prefix) {
  const sema_kernel *sk = k->sk;
  char               buf[512];
  ast_shape          out;
  lua_newtable(L);
  set_str(L, "name", sk->name);
  snprintf(buf, sizeof buf, "%s_%s", prefix, sk->name);
  set_str(L, "sym", buf);
  set_str(L, "kind", kind_name(sk->kind));
  set_str(L, "kind_enum", kind_enum(sk->kind));
  set_str(L, "out_dtype", wc_dtype_name(sk->out_dtype));
  set_int(L, "unroll", k->unroll);
  set_bool(L, "straight", k->straight);
  set_bool(L, "nan_redo", k->nan_redo);
  set_bool(L, "compute_bound", k->compute_bound);
  set_bool(L, "empty", k->empty);
  set_bool(L, "streams", k->streams);
  if (k->stream_min) set_str(L, "stream_min", k->stream_min);
  set_bool(L, "bytewise", k->bytewise);
  set_bool(L, "one_pass", k->one_pass);
  set_int(L, "count_loops", k->count_loops);
  if (k->total_fixed >= 0) set_int(L, "total_fixed", k->total_fixed);
  lower_out_shape(sk, &out);
  lua_newtable(L);
  push_shape(L, &out, sk->extent_names);
  lua_setfield(L, -2, "out");
  set_bool(L, "multi", k->multi);
  lua_createtable(L, k->n_outputs, 0);
  for (int o = 0; o < k->n_outputs; o++) {
    lua_newtable(L);
    set_str(L, "name", sk->outputs[o].name);
    set_str(L, "ident", k->out_ident[o]);
    set_str(L, "dtype", wc_dtype_name((wc_dtype)k->nodes[k->out_node[o]].ins.dtype));
    set_int(L, "node", k->out_node[o]);
    lua_rawseti(L, -2, o + 1);
  }
  lua_setfield(L, -2, "outputs");

  lua_createtable(L, sk->n_extents, 0);
  for (int e = 0; e < sk->n_extents; e++) {
    lua_newtable(L);
    set_str(L, "name", sk->extent_names[e]);
    set_str(L, "ident", k->extent_ident[e]);
    lua_rawseti(L, -2, e + 1);
  }
  lua_setfield(L, -2, "extents");

  lua_createtable(L, sk->n_params, 0);
  for (int p = 0; p < sk->n_params; p++) {
    lua_newtable(L);
    set_str(L, "name", sk->params[p].name);
    set_str(L, "ident", k->param_ident[p]);
    set_str(L, "dtype", wc_dtype_name(sk->params[p].dtype));
    set_int(L, "index", p);
    set_bool(L, "baked", sk->params[p].cst != NULL);
    if (sk->params[p].cst) {
      diag_text t = {0};
      diag_text_printf(&t, "%s_const_%s", prefix, sk->params[p].cst->name);
      set_str(L, "const_sym", t.data);
      diag_text_free(&t);
    }
    set_bool(L, "contig", k->contig[p]);
    set_bool(L, "invariant", k->invariant[p]);
    push_shape(L, &sk->params[p].shape, sk->extent_names);
    lua_rawseti(L, -2, p + 1);
  }
  lua_setfield(L, -2, "params");

  lua_createtable(L, k->n_loops, 0);
  for (int l = 0; l < k->n_loops; l++) {
    lua_newtable(L);
    set_str(L, "extent", k->loops[l].extent);
    if (k->loops[l].fixed >= 0) set_int(L, "fixed", k->loops[l].fixed);
    lua_createtable(L, sk->n_params, 0);
    for (int p = 0; p < sk->n_params; p++) {
      lua_pushstring(L, k->loops[l].stride[p]);
      lua_rawseti(L, -2, p + 1);
    }
    lua_setfield(L, -2, "strides");
    lua_rawseti(L, -2, l + 1);
  }
  lua_setfield(L, -2, "loops");

  lua_createtable(L, k->n_nodes, 0);
  for (int i = 0; i < k->n_nodes; i++) {
    const lower_node *n = &k->nodes[i];
    lua_newtable(L);
    set_int(L, "id", i);
    set_str(L, "ident", k->node_ident[i]);
    set_str(L, "op", ast_op_name((wc_opcode)n->ins.op));
    set_str(L, "render", render_name(n->render));
    if (n->c_op) set_str(L, "c_op", n->c_op);
    if (n->c_load) set_str(L, "c_load", n->c_load);
    if (n->c_op_raw) set_str(L, "c_op_raw", n->c_op_raw);
    if (n->raw_checked) set_bool(L, "raw_checked", true);
    set_str(L, "dtype", wc_dtype_name((wc_dtype)n->ins.dtype));
    set_str(L, "level", level_name(n->level));
    set_int(L, "a", n->ins.a);
    set_int(L, "b", n->ins.b);
    set_int(L, "c", n->ins.c);
    push_hex(L, "bits0", n->ins.bits[0]);
    push_hex(L, "bits1", n->ins.bits[1]);
    if (n->ins.op == WC_OP_CONST) {
      const_text(buf, sizeof buf, (wc_dtype)n->ins.dtype, n->ins.bits);
      set_str(L, "value", buf);
    }
    if (n->c_acc) set_str(L, "c_acc", n->c_acc);
    if (k->rows) set_int(L, "phase", n->phase);
    if (k->rows && n->cache_pass >= 0) set_int(L, "cache_pass", n->cache_pass);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "nodes");

  set_int(L, "rows", k->rows);
  set_int(L, "n_caches", k->n_caches);
  if (k->rows) {
    push_ids(L, k->row0, k->n_row0);
    lua_setfield(L, -2, "row0");
    lua_createtable(L, k->n_passes, 0);
    for (int p = 0; p < k->n_passes; p++) {
      lua_newtable(L);
      push_ids(L, k->passes[p].reduce, k->passes[p].n_reduce);
      lua_setfield(L, -2, "reduce");
      push_ids(L, k->passes[p].elem, k->passes[p].n_elem);
      lua_setfield(L, -2, "elem");
      push_ids(L, k->passes[p].row, k->passes[p].n_row);
      lua_setfield(L, -2, "row");
      push_ids(L, k->passes[p].elem_c, k->passes[p].n_elem_c);
      lua_setfield(L, -2, "elem_cached");
      lua_rawseti(L, -2, p + 1);
    }
    lua_setfield(L, -2, "passes");
  }

  if (k->straight) {
    lua_createtable(L, (int)k->total_fixed, 0);
    for (int64_t e = 0; e < k->total_fixed; e++) {
      lua_createtable(L, sk->n_params, 0);
      for (int p = 0; p < sk->n_params; p++) {
        lua_pushinteger(L, k->straight_off[e][p]);
        lua_rawseti(L, -2, p + 1);
      }
      lua_rawseti(L, -2, (lua_Integer)e + 1);
    }
    lua_setfield(L, -2, "straight_off");
  }
  if (k->row_select.enabled) {
    lua_newtable(L);
    set_int(L, "cond", k->row_select.cond);
    set_int(L, "x", k->row_select.branch[0]);
    set_int(L, "y", k->row_select.branch[1]);
    set_bool(L, "copy_x", k->row_select.copy[0]);
    set_bool(L, "copy_y", k->row_select.copy[1]);
    lua_setfield(L, -2, "row_select");
  }
}

/* The command that makes these files again, as the header comments print it:
   the spec path as given, the prefix and unroll in force (from the spec or
   the command line alike); no output or templates directory, no date, so
   the bytes are the same on every machine (templates/README.md, "Banner"). */
static void push_command(lua_State *L, const emit_input *in) {
  diag_text   t = {0};
  const char *p = in->spec_path;
  bool        plain = *p != '\0';
  for (; *p; p++)
    plain &= (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
             strchr("_./+-", *p) != NULL;
  diag_text_printf(&t, "wherec gen ");
  if (plain) diag_text_printf(&t, "%s", in->spec_path);
  else { /* as the shell reads it back */ diag_text_putn(&t, "'", 1);
    for (p = in->spec_path; *p; p++)
      if (*p == '\'') diag_text_printf(&t, "'\\''");
      else diag_text_putn(&t, p, 1);
    diag_text_putn(&t, "'", 1);
  }
  diag_text_printf(&t, " --prefix %s --unroll %d", in->prefix, in->lp->unroll);
  lua_pushlstring(L, t.data ? t.data : "", t.len);
  lua_setfield(L, -2, "command");
  diag_text_free(&t);
}

/* spec.consts: each constant's C symbol, dtype, element count and its
   elements' bits as C integer constants of the element's width (the source
   defines them as a union of those bits and the values, so every bit
   pattern, NaN payloads and -0.0 included, is exact). */
static void push_consts(lua_State *L, const emit_input *in) {
  const sema_program *sp = in->lp->sp;
  lua_createtable(L, sp->n_consts, 0);
  for (int i = 0; i < sp->n_consts; i++) {
    const sema_const *c = &sp->consts[i];
    size_t            w = wc_dtype_size(c->dtype);
    diag_text         t = {0};
    char              buf[40];
    lua_newtable(L);
    set_str(L, "name", c->name);
    diag_text_printf(&t, "%s_const_%s", in->prefix, c->name);
    set_str(L, "sym", t.data);
    diag_text_free(&t);
    set_str(L, "dtype", wc_dtype_name(c->dtype));
    set_int(L, "n", c->n);
    set_int(L, "bits", (lua_Integer)(w * 8));
    ast_print_shape(&t, &c->shape, NULL);
    set_str(L, "shape", t.data ? t.data : "[]");
    diag_text_free(&t);
    lua_createtable(L, (int)c->n, 0);
    for (int64_t j = 0; j < c->n; j++) {
      if (w == 8) snprintf(buf, sizeof buf, "UINT64_C(0x%llx)", (unsigned long long)c->bits[j]);
      else snprintf(buf, sizeof buf, "0x%llxu", (unsigned long long)c->bits[j]);
      lua_pushstring(L, buf);
      lua_rawseti(L, -2, (lua_Integer)j + 1);
    }
    lua_setfield(L, -2, "values");
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "consts");
}

static void push_spec(lua_State *L, const emit_input *in) {
  lua_newtable(L);
  set_str(L, "path", in->spec_path);
  push_command(L, in);
  set_str(L, "prefix", in->prefix);
  set_str(L, "version", WHEREC_VERSION);
  set_int(L, "unroll", in->lp->unroll);
  lua_createtable(L, in->lp->n_kernels, 0);
  for (int i = 0; i < in->lp->n_kernels; i++) {
    push_kernel(L, &in->lp->kernels[i], in->prefix);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "kernels");
  push_consts(L, in);
}

/* ---- templates ------------------------------------------------------------ */

/* The template engine: a template is C text in which `%` lines (after any
   blanks) are Lua and $(expr) puts a value into a text line (a list: the line
   once per element, see _o in the prelude below); it compiles to a
   Lua chunk of one Lua line per template line, so Lua's own messages name the
   template file and line. It lives here rather than in a Lua module so that a
   template directory holds templates and helpers only, and the line mapping
   cannot be broken by a user's edit. */
static bool compile_template(const char *src, size_t len, diag_text *lua, diag_text *err,
                             const char *name) {
  size_t i = 0;
  int    line = 1;
  while (i < len) {
    size_t e = i, s = i;
    while (e < len && src[e] != '\n') e++;
    while (s < e && (src[s] == ' ' || src[s] == '\t')) s++;
    if (s < e && src[s] == '%') {
      diag_text_putn(lua, src + s + 1, e - s - 1);
    } else {
      diag_text_putn(lua, "_o(\"", 4);
      for (size_t j = i; j < e; j++) {
        char ch = src[j];
        if (ch == '$' && j + 1 < e && src[j + 1] == '(') {
          int    depth = 0;
          size_t k = j + 1;
          for (; k < e; k++) {
            if (src[k] == '(') depth++;
            else if (src[k] == ')' && --depth == 0) break;
          }
          if (k == e) {
            diag_text_printf(err, "%s:%d: unbalanced $( in template\n", name, line);
            return false;
          }
          diag_text_printf(lua, "\", (");
          diag_text_putn(lua, src + j + 2, k - j - 2);
          diag_text_printf(lua, "), \"");
          j = k;
        } else if (ch == '"' || ch == '\\') {
          diag_text_putn(lua, "\\", 1);
          diag_text_putn(lua, &ch, 1);
        } else if (ch == '\r') {
          continue;
        } else if ((unsigned char)ch < 0x20) {
          diag_text_printf(lua, "\\%03d", (unsigned char)ch);
        } else {
          diag_text_putn(lua, &ch, 1);
        }
      }
      diag_text_putn(lua, "\\n\")", 4);
    }
    diag_text_putn(lua, "\n", 1);
    i = e + 1;
    line++;
  }
  return true;
}

/* Pushes the compiled template `file` of the templates directory (upvalue 1),
   compiling it on first use into the cache table (upvalue 2). Raises a Lua
   error naming the file when it cannot be read or compiled. */
static void load_template(lua_State *L, const char *file) {
  const char *dir = lua_tostring(L, lua_upvalueindex(1));
  char        path[4096], chunk[4200];
  size_t      len;
  lua_getfield(L, lua_upvalueindex(2), file);
  if (!lua_isnil(L, -1)) return;
  lua_pop(L, 1);
  if (file[0] == '\0' || strchr(file, '/') != NULL) {
    lua_pushfstring(L, "template name '%s': a file of the templates directory, without '/'", file);
    lua_error(L);
  }
  if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, file) >= sizeof path) {
    lua_pushfstring(L, "%s/%s: template path too long", dir, file);
    lua_error(L);
  }
  char *src = file_read(path, &len, SIZE_MAX);
  if (src == NULL) {
    lua_pushfstring(L, "%s: cannot read template", path);
    lua_error(L);
  }
  diag_text lua = {0}, err = {0};
  bool      ok = compile_template(src, len, &lua, &err, path);
  free(src);
  snprintf(chunk, sizeof chunk, "@%s", path);
  int rc = ok ? luaL_loadbuffer(L, lua.data ? lua.data : "", lua.len, chunk) : LUA_ERRSYNTAX;
  diag_text_free(&lua);
  if (!ok) {
    lua_pushlstring(L, err.data, err.len - 1); /* without its newline */
    diag_text_free(&err);
    lua_error(L);
  }
  if (rc != LUA_OK) lua_error(L);
  lua_pushvalue(L, -1);
  lua_setfield(L, lua_upvalueindex(2), file);
}

/* include(file, indent, ...): renders template file with the arguments ...,
   every line it writes indented by indent more than the includer's. */
static int lua_include(lua_State *L) {
  const char *file = luaL_checkstring(L, 1);
  const char *indent = luaL_optstring(L, 2, "");
  if (lua_gettop(L) < 2) lua_settop(L, 2); /* include(file): no indent, no arguments */
  int nargs = lua_gettop(L) - 2;
  lua_getglobal(L, "_ind");
  const char *outer = lua_tostring(L, -1);
  lua_pushfstring(L, "%s%s", outer ? outer : "", indent);
  lua_setglobal(L, "_ind");
  load_template(L, file);
  for (int i = 0; i < nargs; i++) lua_pushvalue(L, 3 + i);
  lua_call(L, nargs, 0);
  lua_setglobal(L, "_ind"); /* the includer's again */
  return 0;
}

/* Message handler: the error, then every template or helper line that led
   to it (but the one the message starts with). */
static int on_error(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  luaL_Buffer b;
  lua_Debug   ar;
  bool        first = true;
  luaL_buffinit(L, &b);
  luaL_addstring(&b, msg ? msg : "error (not a string)");
  for (int level = 1; lua_getstack(L, level, &ar); level++) {
    char at[4200];
    lua_getinfo(L, "Sl", &ar);
    if (ar.source[0] != '@' || ar.currentline <= 0) continue;
    snprintf(at, sizeof at, "%s:%d:", ar.source + 1, ar.currentline);
    if (!(first && msg && strncmp(msg, at, strlen(at)) == 0)) {
      snprintf(at, sizeof at, "\n  from %s:%d", ar.source + 1, ar.currentline);
      luaL_addstring(&b, at);
    }
    first = false;
  }
  luaL_pushresult(&b);
  return 1;
}

/* The text rendered by one top-level template into out; errors into err. */
static bool render(lua_State *L, const char *file, diag_text *out, diag_text *err) {
  lua_newtable(L);
  lua_setglobal(L, "_buf");
  lua_pushcfunction(L, on_error);
  lua_getglobal(L, "include");
  lua_pushstring(L, file);
  if (lua_pcall(L, 1, 0, -3) != LUA_OK) {
    diag_text_printf(err, "%s\n", lua_tostring(L, -1));
    lua_pop(L, 2);
    return false;
  }
  lua_pop(L, 1);
  lua_getglobal(L, "table");
  lua_getfield(L, -1, "concat");
  lua_getglobal(L, "_buf");
  lua_call(L, 1, 1);
  size_t      n;
  const char *text = lua_tolstring(L, -1, &n);
  diag_text_putn(out, text, n);
  lua_pop(L, 2);
  return true;
}

/* _o(...): one text line, its pieces and $() values, indented by _ind unless
   it is empty; a value that is a table (one a line at most) makes the line
   once per element, none for an empty table. indent(by, fn, ...): fn(...)
   with its lines indented by `by` more. */
static const char *const prelude = "_ind = ''\n"
                                   "local function line(s)\n"
                                   "  local b = _buf\n"
                                   "  if s ~= '\\n' then b[#b + 1] = _ind end\n"
                                   "  b[#b + 1] = s\n"
                                   "end\n"
                                   "function _o(...)\n"
                                   "  local p, list = table.pack(...), nil\n"
                                   "  for i = 1, p.n do\n"
                                   "    if type(p[i]) ~= 'table' then p[i] = tostring(p[i])\n"
                                   "    elseif list then error('two lists $() in one text line', 2)\n"
                                   "    else list = i end\n"
                                   "  end\n"
                                   "  if not list then return line(table.concat(p, '', 1, p.n)) end\n"
                                   "  local items = p[list]\n"
                                   "  for _, v in ipairs(items) do\n"
                                   "    p[list] = tostring(v)\n"
                                   "    line(table.concat(p, '', 1, p.n))\n"
                                   "  end\n"
                                   "end\n"
                                   "function indent(by, fn, ...)\n"
                                   "  local outer = _ind\n"
                                   "  _ind = outer .. by\n"
                                   "  fn(...)\n"
                                   "  _ind = outer\n"
                                   "end\n";

bool emit_render(const emit_input *in, diag_text *header, diag_text *source, diag_text *err) {
  lua_State *L = luaL_newstate();
  char       path[4096];
  bool       ok = false;
  if (L == NULL) {
    diag_text_printf(err, "cannot create a Lua state\n");
    return false;
  }
  /* templates get base, string, table, math: no io or os */
  luaL_requiref(L, "_G", luaopen_base, 1);
  luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
  luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
  luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
  lua_pop(L, 4);
  if (luaL_dostring(L, prelude) != LUA_OK) goto lua_error;
  lua_pushstring(L, in->templates_dir);
  lua_newtable(L);
  lua_pushcclosure(L, lua_include, 2);
  lua_setglobal(L, "include");
  push_dtypes(L);
  lua_setglobal(L, "dtypes");
  push_optable(L);
  lua_setglobal(L, "optable");
  push_spec(L, in);
  lua_setglobal(L, "spec");
  if ((size_t)snprintf(path, sizeof path, "%s/ops.lua", in->templates_dir) >= sizeof path) {
    diag_text_printf(err, "wherec: error: templates directory path too long: %s\n",
                     in->templates_dir);
    lua_close(L);
    return false;
  }
  if (luaL_dofile(L, path) != LUA_OK) goto lua_error;
  lua_setglobal(L, "ops");
  ok = render(L, "header.h.tpl", header, err) && render(L, "source.c.tpl", source, err);
  lua_close(L);
  return ok;
lua_error:
  diag_text_printf(err, "%s\n", lua_tostring(L, -1));
  lua_close(L);
  return false;
}
