/* ast.c: helpers over the syntax tree: copying, the spec's dtype spellings and classes
   (names and sizes are the runtime's), operator and function names, printing. */
#include "front/ast.h"

#include <stdlib.h>
#include <string.h>

void ast_file_free(ast_file *f) {
  if (!f) return;
  arena_free(&f->arena);
  free(f);
}

ast_expr *ast_clone(arena *a, const ast_expr *e) {
  ast_expr *c;
  int       i;
  if (!e) return NULL;
  c = arena_alloc(a, sizeof *c);
  *c = *e;
  switch (e->kind) {
  case AST_LIT: c->u.lit.text = arena_strdup(a, e->u.lit.text); break;
  case AST_PARAM: c->u.param.name = arena_strdup(a, e->u.param.name); break;
  case AST_UNARY: c->u.unary.arg = ast_clone(a, e->u.unary.arg); break;
  case AST_BINARY:
    c->u.binary.lhs = ast_clone(a, e->u.binary.lhs);
    c->u.binary.rhs = ast_clone(a, e->u.binary.rhs);
    break;
  case AST_CALL:
    c->u.call.name = arena_strdup(a, e->u.call.name);
    c->u.call.args = arena_array(a, (size_t)e->u.call.n_args, sizeof *c->u.call.args);
    for (i = 0; i < e->u.call.n_args; i++) c->u.call.args[i] = ast_clone(a, e->u.call.args[i]);
    break;
  }
  return c;
}

bool ast_dtype_lookup(const char *name, wc_dtype *out) {
#define AST_DTYPE_LOOKUP_(E, code, dname, ctype, alias, sfx, kind)          \
  if (strcmp(name, dname) == 0 || (alias[0] && strcmp(name, alias) == 0)) { \
    *out = WC_##E;                                                          \
    return true;                                                            \
  }
  WC_DTYPE_LIST(AST_DTYPE_LOOKUP_)
#undef AST_DTYPE_LOOKUP_
  return false;
}

/* The kind column of WC_DTYPE_LIST, spelled as an ast_dtype_class. */
#define AST_CLASS_OF_SINT    AST_CLASS_SINT
#define AST_CLASS_OF_UINT    AST_CLASS_UINT
#define AST_CLASS_OF_REAL    AST_CLASS_REAL
#define AST_CLASS_OF_HALF    AST_CLASS_HALF
#define AST_CLASS_OF_BOOL    AST_CLASS_BOOL
#define AST_CLASS_OF_COMPLEX AST_CLASS_COMPLEX
#define AST_CLASS_OF_STRING  AST_CLASS_STRING

ast_dtype_class ast_dtype_class_of(wc_dtype t) {
  switch (t) {
#define AST_DTYPE_CLASS_(E, code, name, ctype, alias, sfx, kind) \
  case WC_##E: return AST_CLASS_OF_##kind;
    WC_DTYPE_LIST(AST_DTYPE_CLASS_)
#undef AST_DTYPE_CLASS_
  default: return AST_CLASS_NONE;
  }
}

const char *ast_dtype_suffix(wc_dtype t) {
  switch (t) {
#define AST_DTYPE_SUFFIX_(E, code, name, T, alias, sfx, kind) \
  case WC_##E: return #sfx;
    WC_DTYPE_LIST(AST_DTYPE_SUFFIX_)
#undef AST_DTYPE_SUFFIX_
  default: return "?";
  }
}

/* Derived from the runtime's size table (wc_dtype_size), the one home of sizes. */
unsigned ast_dtype_bits(wc_dtype t) { return (unsigned)wc_dtype_size(t) * 8u; }

const char *ast_op_spelling(wc_opcode op) {
  switch (op) {
#define AST_OP_SPELLING_(NAME, spell, arity, dom, res, form, helper, on_bool) \
  case WC_OP_##NAME: return spell;
    WC_OP_LIST(AST_OP_SPELLING_)
#undef AST_OP_SPELLING_
  default: return "?";
  }
}

ast_domain ast_op_domain(wc_opcode op) {
  switch (op) {
#define AST_OP_DOMAIN_(NAME, spell, arity, dom, res, form, helper, on_bool) \
  case WC_OP_##NAME: return AST_DOM_##dom;
    WC_OP_LIST(AST_OP_DOMAIN_)
#undef AST_OP_DOMAIN_
  default: return AST_DOM_ANY;
  }
}

const char *ast_op_name(wc_opcode op) {
  switch (op) {
#define AST_OP_NAME_(NAME, spell, arity, dom, res, form, helper, on_bool) \
  case WC_OP_##NAME: return #NAME;
    WC_OP_LIST(AST_OP_NAME_)
#undef AST_OP_NAME_
  default: return "?";
  }
}

const char *ast_op_helper(wc_opcode op) {
  switch (op) {
#define AST_OP_HELPER_(NAME, spell, arity, dom, res, form, helper, on_bool) \
  case WC_OP_##NAME: return #helper;
    WC_OP_LIST(AST_OP_HELPER_)
#undef AST_OP_HELPER_
  default: return "?";
  }
}

wc_opcode ast_op_on_bool(wc_opcode op) {
  switch (op) {
#define AST_OP_ON_BOOL_(NAME, spell, arity, dom, res, form, helper, on_bool) \
  case WC_OP_##NAME: return WC_OP_##on_bool;
    WC_OP_LIST(AST_OP_ON_BOOL_)
#undef AST_OP_ON_BOOL_
  default: return WC_OP_NONE;
  }
}

/* Operations the spec calls by name: CALL (min, exp, ...) and SELECT (where). */
#define AST_CALLED_CALL   true
#define AST_CALLED_SELECT true
#define AST_CALLED_INFIX  false
#define AST_CALLED_PREFIX false
#define AST_CALLED_LEAF   false
#define AST_CALLED_CAST   false
#define AST_CALLED_REDUCE true

wc_opcode ast_op_called(const char *name) {
#define AST_OP_CALLED_(NAME, spell, arity, dom, res, form, helper, on_bool) \
  if (AST_CALLED_##form && strcmp(name, spell) == 0) return WC_OP_##NAME;
  WC_OP_LIST(AST_OP_CALLED_)
#undef AST_OP_CALLED_
  return WC_OP_NONE;
}

const char *ast_fn_str(ast_fn fn) {
  switch (fn) {
#define AST_FN_STR_(name, s, arity) \
  case AST_FN_##name: return s;
    AST_FN_LIST(AST_FN_STR_)
#undef AST_FN_STR_
  case AST_FN_CAST: return "cast";
  case AST_FN_OP: return "operation";
  default: return "?";
  }
}

int ast_fn_arity(ast_fn fn) {
  switch (fn) {
#define AST_FN_ARITY_(name, s, arity) \
  case AST_FN_##name: return arity;
    AST_FN_LIST(AST_FN_ARITY_)
#undef AST_FN_ARITY_
  case AST_FN_CAST: return 1;
  default: return -1;
  }
}

bool ast_parse_uint(const char *text, uint64_t *out) {
  uint64_t    v = 0;
  unsigned    base = 10;
  const char *s = text;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s += 2;
  }
  if (!*s) return false;
  for (; *s; s++) {
    unsigned d;
    if (*s >= '0' && *s <= '9') d = (unsigned)(*s - '0');
    else if (base == 16 && *s >= 'a' && *s <= 'f') d = (unsigned)(*s - 'a' + 10);
    else if (base == 16 && *s >= 'A' && *s <= 'F') d = (unsigned)(*s - 'A' + 10);
    else return false;
    if (v > (UINT64_MAX - d) / base) return false;
    v = v * base + d;
  }
  *out = v;
  return true;
}

void ast_print_shape(diag_text *t, const ast_shape *s, const char *const *extent_names) {
  int i;
  diag_text_putn(t, "[", 1);
  for (i = 0; i < s->rank; i++) {
    int64_t d = s->dims[i];
    if (i) diag_text_putn(t, ",", 1);
    if (d >= 0) diag_text_printf(t, "%lld", (long long)d);
    else if (extent_names) diag_text_printf(t, "%s", extent_names[-(d + 1)]);
    else diag_text_printf(t, "?%lld", (long long)-(d + 1));
  }
  diag_text_putn(t, "]", 1);
}

/* The suffix ":dtype[shape]" of a typed node. */
static void print_type(diag_text *t, const ast_expr *e, const char *const *extent_names) {
  const char *name = wc_dtype_name(e->dtype);
  if (!name) return;
  diag_text_printf(t, ":%s", name);
  ast_print_shape(t, &e->shape, extent_names);
}

void ast_print_expr(diag_text *t, const ast_expr *e, const char *const *extent_names) {
  int i;
  switch (e->kind) {
  case AST_LIT:
    if (e->u.lit.kind == AST_LIT_BOOL)
      diag_text_printf(t, "%s", e->u.lit.boolval ? "true" : "false");
    else diag_text_printf(t, "%s%s", e->u.lit.neg ? "-" : "", e->u.lit.text);
    print_type(t, e, extent_names);
    return;
  case AST_PARAM:
    diag_text_printf(t, "%s", e->u.param.name);
    print_type(t, e, extent_names);
    return;
  case AST_UNARY:
    diag_text_printf(t, "(%s", e->u.unary.op == WC_OP_NEG ? "neg" : ast_op_spelling(e->u.unary.op));
    print_type(t, e, extent_names);
    diag_text_putn(t, " ", 1);
    ast_print_expr(t, e->u.unary.arg, extent_names);
    diag_text_putn(t, ")", 1);
    return;
  case AST_BINARY:
    diag_text_printf(t, "(%s", ast_op_spelling(e->u.binary.op));
    print_type(t, e, extent_names);
    diag_text_putn(t, " ", 1);
    ast_print_expr(t, e->u.binary.lhs, extent_names);
    diag_text_putn(t, " ", 1);
    ast_print_expr(t, e->u.binary.rhs, extent_names);
    diag_text_putn(t, ")", 1);
    return;
  case AST_CALL:
    diag_text_printf(t, "(%s", e->u.call.name);
    print_type(t, e, extent_names);
    for (i = 0; i < e->u.call.n_args; i++) {
      diag_text_putn(t, " ", 1);
      ast_print_expr(t, e->u.call.args[i], extent_names);
    }
    diag_text_putn(t, ")", 1);
    return;
  }
}
