/* emit.c: the Lua host. Hands the loop plan to the templates as Lua tables
   and compiles the templates (text with `%` code lines and $(expr)) to Lua. */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdint.h>
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
#define X(E, code, name, ctype, alias, sfx, kind)  \
  lua_newtable(L);                                  \
  set_str(L, "name", name);                         \
  set_str(L, "enum", "WC_" #E);                     \
  set_str(L, "ctype", #ctype);                      \
  set_str(L, "sfx", #sfx);                          \
  set_str(L, "kind", #kind);                        \
  set_int(L, "size", (lua_Integer)sizeof(ctype));   \
  lua_setfield(L, -2, name);
  WC_DTYPE_LIST(X)
#undef X
}

static const char *level_name(lower_level l) {
  return l == LOWER_KERNEL ? "kernel" : l == LOWER_ROW ? "row" : "elem";
}

static const char *kind_name(wc_kernel_kind k) {
  switch (k) {
    case WC_KIND_WHERE_V1: return "where_v1";
    case WC_KIND_ARGWHERE: return "argwhere";
    case WC_KIND_NONZERO: return "nonzero";
    default: return "elementwise";
  }
}

static const char *opcode_name(int op) {
  switch (op) {
#define X(name, arity) case WC_OP_##name: return #name;
    WC_OPCODE_LIST(X)
#undef X
  }
  return "?";
}

/* dims = {"N", "3"} as spelled in the spec; pattern = {"WC_SYM(0)", "3"} as C. */
static void push_shape(lua_State *L, const ast_shape *s, const char *const *names) {
  char buf[64];
  lua_createtable(L, s->rank, 0);
  for (int d = 0; d < s->rank; d++) {
    lua_pushstring(L, s->dims[d] < 0 ? names[-s->dims[d] - 1] : (snprintf(buf, sizeof buf, "%lld", (long long)s->dims[d]), buf));
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

static void push_kernel(lua_State *L, const lower_kernel *k, const char *prefix) {
  const sema_kernel *sk = k->sk;
  char buf[512];
  ast_shape out;
  lua_newtable(L);
  set_str(L, "name", sk->name);
  snprintf(buf, sizeof buf, "%s_%s", prefix, sk->name);
  set_str(L, "sym", buf);
  set_str(L, "kind", kind_name(sk->kind));
  set_str(L, "out_dtype", wc_dtype_name(sk->out_dtype));
  set_int(L, "unroll", k->unroll);
  set_bool(L, "straight", k->straight);
  set_bool(L, "empty", k->empty);
  set_bool(L, "streams", k->streams);
  if (k->total_fixed >= 0) set_int(L, "total_fixed", k->total_fixed);
  lower_out_shape(sk, &out);
  lua_newtable(L);
  push_shape(L, &out, sk->extent_names);
  lua_setfield(L, -2, "out");

  lua_createtable(L, sk->n_extents, 0);
  for (int e = 0; e < sk->n_extents; e++) {
    lua_pushstring(L, sk->extent_names[e]);
    lua_rawseti(L, -2, e + 1);
  }
  lua_setfield(L, -2, "extents");

  lua_createtable(L, sk->n_params, 0);
  for (int p = 0; p < sk->n_params; p++) {
    lua_newtable(L);
    set_str(L, "name", sk->params[p].name);
    set_str(L, "dtype", wc_dtype_name(sk->params[p].dtype));
    set_int(L, "index", p);
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
    set_str(L, "op", opcode_name(n->ins.op));
    set_str(L, "dtype", wc_dtype_name((wc_dtype)n->ins.dtype));
    set_str(L, "level", level_name(n->level));
    set_int(L, "a", n->ins.a);
    set_int(L, "b", n->ins.b);
    set_int(L, "c", n->ins.c);
    push_hex(L, "bits0", n->ins.bits[0]);
    push_hex(L, "bits1", n->ins.bits[1]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "nodes");

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

static void push_spec(lua_State *L, const emit_input *in) {
  lua_newtable(L);
  set_str(L, "path", in->spec_path);
  set_str(L, "prefix", in->prefix);
  set_str(L, "version", WHEREC_VERSION);
  set_int(L, "unroll", in->lp->unroll);
  lua_createtable(L, in->lp->n_kernels, 0);
  for (int i = 0; i < in->lp->n_kernels; i++) {
    push_kernel(L, &in->lp->kernels[i], in->prefix);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "kernels");
}

/* ---- templates ------------------------------------------------------------ */

/* Lua source of a template: one Lua line per template line, so errors point
   at the template's own line numbers. `%` lines are code; other lines are
   text with $(expr) interpolations, appended to the output with a newline. */
static bool compile_template(const char *src, size_t len, diag_text *lua, diag_text *err,
                             const char *name) {
  size_t i = 0;
  int line = 1;
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
          int depth = 0;
          size_t k = j + 1;
          for (; k < e; k++) {
            if (src[k] == '(') depth++;
            else if (src[k] == ')' && --depth == 0) break;
          }
          if (k == e) {
            diag_text_printf(err, "%s:%d: unbalanced $( in template\n", name, line);
            return false;
          }
          diag_text_printf(lua, "\", tostring(");
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

/* The text rendered by one template into out; errors (file:line) into err. */
static bool render(lua_State *L, const char *dir, const char *file, diag_text *out, diag_text *err) {
  char path[4096], chunk[4200];
  size_t len;
  diag_text lua = {0};
  bool ok = false;
  snprintf(path, sizeof path, "%s/%s", dir, file);
  char *src = file_read(path, &len, SIZE_MAX);
  if (src == NULL) {
    diag_text_printf(err, "%s: cannot read template\n", path);
    return false;
  }
  if (!compile_template(src, len, &lua, err, path)) goto done;
  snprintf(chunk, sizeof chunk, "@%s", path);
  if (luaL_loadbuffer(L, lua.data ? lua.data : "", lua.len, chunk) != LUA_OK) {
    diag_text_printf(err, "%s\n", lua_tostring(L, -1));
    lua_pop(L, 1);
    goto done;
  }
  /* the template runs with _o collecting output into a fresh buffer table */
  lua_newtable(L);
  lua_setglobal(L, "_buf");
  if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
    diag_text_printf(err, "%s\n", lua_tostring(L, -1));
    lua_pop(L, 1);
    goto done;
  }
  lua_getglobal(L, "table");
  lua_getfield(L, -1, "concat");
  lua_getglobal(L, "_buf");
  lua_call(L, 1, 1);
  size_t n;
  const char *text = lua_tolstring(L, -1, &n);
  diag_text_putn(out, text, n);
  lua_pop(L, 2);
  ok = true;
done:
  free(src);
  diag_text_free(&lua);
  return ok;
}

static const char *const prelude =
  "function _o(...) local b = _buf; for i = 1, select('#', ...) do b[#b + 1] = select(i, ...) end end\n";

bool emit_render(const emit_input *in, diag_text *header, diag_text *source, diag_text *err) {
  lua_State *L = luaL_newstate();
  char path[4096];
  bool ok = false;
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
  push_dtypes(L);
  lua_setglobal(L, "dtypes");
  push_spec(L, in);
  lua_setglobal(L, "spec");
  snprintf(path, sizeof path, "%s/ops.lua", in->templates_dir);
  if (luaL_dofile(L, path) != LUA_OK) goto lua_error;
  lua_setglobal(L, "ops");
  ok = render(L, in->templates_dir, "header.h.tpl", header, err) &&
       render(L, in->templates_dir, "source.c.tpl", source, err);
  lua_close(L);
  return ok;
lua_error:
  diag_text_printf(err, "%s\n", lua_tostring(L, -1));
  lua_close(L);
  return false;
}
