/* sema.c: semantic checks of a parsed spec: names, specialization, dtypes, shapes.
   Produces one typed kernel instance per dtype binding; reports every error it finds. */
#include "front/sema.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <wherec/kernel.h>

#include "base/vec.h"
#include "front/lex.h"

/* The dtype of an expression made of literals only, until its context gives it one. */
#define UNTYPED ((wc_dtype)0)

static const diag_loc nowhere = {0, 0, 0, 0};

/* ---- small containers -------------------------------------------------------- */

/* A string -> int hash map (open addressing), so name checks stay linear
   even for files with very many kernels or parameters. */
typedef struct nmap {
  arena       *a;    /* where the slots live */
  const char **keys; /* NULL = empty slot */
  int         *vals;
  size_t       cap; /* slots, a power of two */
  size_t       n;   /* keys stored */
} nmap;

static uint64_t hash(const char *s) {
  uint64_t h = 1469598103934665603u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

static void nmap_init(nmap *m, arena *a) {
  m->a = a;
  m->cap = 16;
  m->n = 0;
  m->keys = arena_array(a, m->cap, sizeof *m->keys);
  m->vals = arena_array(a, m->cap, sizeof *m->vals);
}

/* The slot holding key, or the empty slot where it would go (linear probing). */
static size_t nmap_slot(const nmap *m, const char *key) {
  size_t i = (size_t)hash(key) & (m->cap - 1);
  while (m->keys[i] && strcmp(m->keys[i], key) != 0) i = (i + 1) & (m->cap - 1);
  return i;
}

/* The value stored under key, or -1. */
static int nmap_get(const nmap *m, const char *key) {
  size_t i = nmap_slot(m, key);
  return m->keys[i] ? m->vals[i] : -1;
}

/* Store key -> val unless key is present; returns the value already there, or -1. */
static int nmap_add(nmap *m, const char *key, int val) {
  size_t i = nmap_slot(m, key);
  if (m->keys[i]) return m->vals[i];
  if (2 * (m->n + 1) > m->cap) {
    nmap   old = *m;
    size_t j;
    m->cap *= 2;
    m->n = 0;
    m->keys = arena_array(m->a, m->cap, sizeof *m->keys);
    m->vals = arena_array(m->a, m->cap, sizeof *m->vals);
    for (j = 0; j < old.cap; j++)
      if (old.keys[j]) nmap_add(m, old.keys[j], old.vals[j]);
    i = nmap_slot(m, key);
  }
  m->keys[i] = key;
  m->vals[i] = val;
  m->n++;
  return -1;
}

/* ---- state -------------------------------------------------------------------- */

/* A parameter before specialization. */
typedef struct gparam {
  const char *name; /* copy in the program's arena */
  diag_loc    loc;
  wc_dtype    dtype; /* when tvar < 0 */
  int         tvar;  /* type variable index, or -1 */
  ast_shape   shape; /* symbolic extents as WC_SYM(index) */
} gparam;

typedef struct sema {
  diag_ctx     *d;          /* where errors go */
  sema_program *prog;       /* the result being built */
  arena        *pa;         /* prog->arena */
  arena         glob;       /* tables that live for the whole run */
  arena         tmp;        /* tables of the current kernel, freed after it */
  nmap          names;      /* instance name -> index into first_locs */
  VEC(diag_loc) first_locs; /* each instance name's declaration */
  VEC(sema_kernel) kernels; /* the instances */
  long    n_instances;      /* instances so far (checked or not) */
  bool    too_many;         /* the instance limit was reported */
  int64_t n_nodes;          /* expression nodes of those instances */
  bool    too_big;          /* the node limit was reported */

  const ast_kernel *k;            /* kernel being checked */
  int              *tv_count;     /* per type variable: dtypes listed */
  wc_dtype        **tv_types;     /* per type variable: the dtypes */
  gparam           *params;       /* k->n_params entries */
  int               n_extents;    /* symbolic extents of the kernel */
  const char      **extent_names; /* their names, in the program's arena */

  const nmap *declared;  /* body: every statement's name -> its first statement */
  const nmap *defined;   /* body: statements before the one being resolved */
  bool       *stmt_read; /* body: per statement, read by a later one */
  int        *out_stmt;  /* body: per output, the statement that assigns it */
  ast_expr  **resolved;  /* body: per statement, its resolved value */

  nmap        const_names; /* constant name -> index into consts */
  int         n_consts;    /* `const` statements */
  sema_const *consts;      /* their values (in the program's arena) */
  bool       *const_ok;    /* per constant: no error */
  bool       *const_read;  /* per constant: some kernel reads it */
  int        *param_const; /* current kernel: per parameter, its constant or -1 */
  const ast_file *file;    /* the file being checked */

  const sema_binding *bind;      /* current instance: binding per type variable */
  ast_expr *const    *istmts;    /* current instance: typed statement values so far */
  const sema_param   *iparams;   /* current instance: parameters */
  const char         *inst_name; /* current instance's name */
  diag_text           bind_desc; /* "T = float, U = int8"; empty when not specialized */
} sema;

/* Report an error; in a specialized instance, add a note naming it, since the
   same line can be right for one binding and wrong for another. */
static void err(sema *s, diag_loc loc, const char *fmt, ...) DIAG_PRINTF(3, 4);
static void err(sema *s, diag_loc loc, const char *fmt, ...) {
  diag_text t = {0};
  va_list   ap;
  va_start(ap, fmt);
  diag_text_vprintf(&t, fmt, ap);
  va_end(ap);
  diag_error(s->d, loc, "%s", t.data ? t.data : "");
  diag_text_free(&t);
  if (s->bind && s->bind_desc.len)
    diag_note(s->d, s->k->loc, "in kernel '%s' (%s)", s->inst_name, s->bind_desc.data);
}

/* A dtype's name in messages; an untyped (literal-only) operand is "a literal". */
static const char *dname(wc_dtype t) {
  const char *n = wc_dtype_name(t);
  return n ? n : "a literal";
}

/* s cut to 64 bytes with unprintable bytes as '?', for messages. */
static const char *printable(const char *s, char buf[80]) {
  size_t i;
  for (i = 0; s[i] && i < 64; i++)
    buf[i] = (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f ? s[i] : '?';
  strcpy(buf + i, s[i] ? "..." : "");
  return buf;
}

/* The literal as written, minus sign included, for messages. */
static const char *lit_text(const ast_expr *e, char buf[80]) {
  snprintf(buf, 80, "%s%.70s%s", e->u.lit.neg ? "-" : "", e->u.lit.text,
           strlen(e->u.lit.text) > 70 ? "..." : "");
  return buf;
}

/* The one identifier rule (sema.h): option prefix, --prefix and extent names. */
bool sema_is_c_ident(const char *s) {
  static const char *const keywords[] = {"auto",         "break",
                                         "case",         "char",
                                         "const",        "continue",
                                         "default",      "do",
                                         "double",       "else",
                                         "enum",         "extern",
                                         "float",        "for",
                                         "goto",         "if",
                                         "inline",       "int",
                                         "long",         "register",
                                         "restrict",     "return",
                                         "short",        "signed",
                                         "sizeof",       "static",
                                         "struct",       "switch",
                                         "typedef",      "union",
                                         "unsigned",     "void",
                                         "volatile",     "while",
                                         "bool",         "true",
                                         "false",        "_Alignas",
                                         "_Alignof",     "_Atomic",
                                         "_Bool",        "_Complex",
                                         "_Generic",     "_Imaginary",
                                         "_Noreturn",    "_Static_assert",
                                         "_Thread_local"};
  size_t                   i, n = strlen(s);
  if (n == 0 || n > LEX_MAX_IDENT) return false;
  if (!(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'))) return false;
  for (i = 1; i < n; i++) {
    char c = s[i];
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
      return false;
  }
  if (s[0] == '_' && (s[1] == '_' || (s[1] >= 'A' && s[1] <= 'Z'))) return false; /* reserved */
  for (i = 0; i < sizeof keywords / sizeof *keywords; i++)
    if (strcmp(s, keywords[i]) == 0) return false;
  return true;
}

/* The built-in function named name: an operation of the table called by name
   (AST_FN_OP, *op set), a function of AST_FN_LIST, or AST_FN_UNRESOLVED. */
static ast_fn builtin(const char *name, wc_opcode *op) {
  *op = ast_op_called(name);
  if (*op != WC_OP_NONE) return AST_FN_OP;
#define SEMA_FN_LOOKUP_(NAME, str, arity) \
  if (strcmp(name, str) == 0) return AST_FN_##NAME;
  AST_FN_LIST(SEMA_FN_LOOKUP_)
#undef SEMA_FN_LOOKUP_
  return AST_FN_UNRESOLVED;
}

/* ---- options ------------------------------------------------------------------ */

/* Options: known names, each set once, with a value of the right kind and range. */
static void check_options(sema *s, const ast_file *f) {
  const ast_option *prefix = NULL, *unroll = NULL;
  char              buf[80];
  int               i;
  for (i = 0; i < f->n_options; i++) {
    const ast_option  *o = &f->options[i];
    const ast_option **seen;
    if (strcmp(o->name, "prefix") == 0) seen = &prefix;
    else if (strcmp(o->name, "unroll") == 0) seen = &unroll;
    else {
      err(s, o->loc, "unknown option '%s' (the options are 'prefix' and 'unroll')", o->name);
      continue;
    }
    if (*seen) {
      err(s, o->loc, "option '%s' is set twice", o->name);
      diag_note(s->d, (*seen)->loc, "'%s' first set here", o->name);
      continue;
    }
    *seen = o;
    if (seen == &prefix) {
      if (o->kind != AST_OPTION_STRING)
        err(s, o->value_loc, "option 'prefix' takes a string, as in prefix = \"model\"");
      else if (strlen(o->text) > SEMA_MAX_PREFIX) /* first: sema_is_c_ident refuses 256 and more */
        err(s, o->value_loc,
            "prefix is too long (%zu bytes; the limit is %d, so that the output files' names fit)",
            strlen(o->text), SEMA_MAX_PREFIX);
      else if (!sema_is_c_ident(o->text))
        err(s, o->value_loc, "prefix \"%s\" is not a valid C identifier", printable(o->text, buf));
      else {
        s->prog->prefix = arena_strdup(s->pa, o->text);
        s->prog->prefix_loc = o->value_loc;
      }
    } else {
      if (o->kind != AST_OPTION_INT)
        err(s, o->value_loc, "option 'unroll' takes an integer, as in unroll = 8");
      else if (o->too_big || o->ival < 1 || o->ival > SEMA_MAX_UNROLL)
        err(s, o->value_loc, "unroll must be between 1 and %d, got %s", SEMA_MAX_UNROLL, o->text);
      else {
        s->prog->unroll = (int)o->ival;
        s->prog->unroll_loc = o->value_loc;
      }
    }
  }
}

/* ---- kernel declarations ------------------------------------------------------ */

/* Type variables: unique names that shadow no dtype or function, non-empty
   lists of known dtypes without repeats. */
static bool check_tvars(sema *s) {
  const ast_kernel *k = s->k;
  nmap              vars;
  bool              ok = true;
  int               i, j;
  nmap_init(&vars, &s->tmp);
  s->tv_count = arena_array(&s->tmp, (size_t)k->n_tvars, sizeof *s->tv_count);
  s->tv_types = arena_array(&s->tmp, (size_t)k->n_tvars, sizeof *s->tv_types);
  for (i = 0; i < k->n_tvars; i++) {
    const ast_tvar *tv = &k->tvars[i];
    wc_dtype        dummy;
    wc_opcode       op;
    int             first = nmap_add(&vars, tv->name, i);
    if (first >= 0) {
      err(s, tv->loc, "duplicate type variable '%s'", tv->name);
      diag_note(s->d, k->tvars[first].loc, "'%s' first declared here", tv->name);
      ok = false;
    } else if (ast_dtype_lookup(tv->name, &dummy)) {
      err(s, tv->loc, "type variable '%s' has the name of a dtype", tv->name);
      ok = false;
    } else if (builtin(tv->name, &op) != AST_FN_UNRESOLVED) {
      err(s, tv->loc, "type variable '%s' has the name of a built-in function", tv->name);
      ok = false;
    }
    if (tv->n_types == 0) {
      err(s, tv->loc, "empty specialization list for '%s'", tv->name);
      ok = false;
    }
    s->tv_types[i] = arena_array(&s->tmp, (size_t)tv->n_types, sizeof **s->tv_types);
    for (j = 0; j < tv->n_types; j++) {
      const ast_name *t = &tv->types[j];
      wc_dtype        dt;
      int             m;
      if (!ast_dtype_lookup(t->name, &dt)) {
        err(s, t->loc, "unknown dtype '%s'", t->name);
        ok = false;
        continue;
      }
      for (m = 0; m < s->tv_count[i]; m++)
        if (s->tv_types[i][m] == dt) break;
      if (m < s->tv_count[i]) {
        int w;
        for (w = 0; w < j; w++) {
          wc_dtype other;
          if (ast_dtype_lookup(tv->types[w].name, &other) && other == dt) break;
        }
        err(s, t->loc, "dtype '%s' is listed twice for '%s'", wc_dtype_name(dt), tv->name);
        diag_note(s->d, tv->types[w].loc, "first listed here");
        ok = false;
        continue;
      }
      s->tv_types[i][s->tv_count[i]++] = dt;
    }
  }
  return ok;
}

/* The product of the non-zero fixed extents of sh (symbols aside), or -1
   when it exceeds SEMA_MAX_ELEMENTS: lowering and the generated code multiply
   them in 64 bits (a zero makes a shape empty, but the others still multiply). */
static int64_t fixed_elements(const ast_shape *sh) {
  int64_t n = 1;
  int     i;
  for (i = 0; i < sh->rank; i++) {
    if (sh->dims[i] <= 0) continue;
    if (n > SEMA_MAX_ELEMENTS / sh->dims[i]) return -1;
    n *= sh->dims[i];
  }
  return n;
}

/* Parameters: at most WC_MAX_INPUTS (wc_run refuses more); unique names; a
   dtype or a type variable; rank within WC_MAX_RANK; extents numbered in order
   of first appearance; fixed extents within SEMA_MAX_ELEMENTS together. */
static bool check_params(sema *s) {
  const ast_kernel *k = s->k;
  nmap              names, extents, tvars;
  VEC(const char *) ext = {0};
  bool ok = true;
  int  i, j;
  nmap_init(&names, &s->tmp);
  nmap_init(&extents, &s->tmp);
  nmap_init(&tvars, &s->tmp);
  for (i = 0; i < k->n_tvars; i++) nmap_add(&tvars, k->tvars[i].name, i);
  if (k->n_params > WC_MAX_INPUTS) { /* at the first one past the limit */
    err(s, k->params[WC_MAX_INPUTS].loc, "kernel '%s' has %d parameters; the limit is %d", k->name,
        k->n_params, WC_MAX_INPUTS);
    ok = false;
  }
  s->params = arena_array(&s->tmp, (size_t)k->n_params, sizeof *s->params);
  for (i = 0; i < k->n_params; i++) {
    const ast_param *ap = &k->params[i];
    gparam          *gp = &s->params[i];
    int              first = nmap_add(&names, ap->name, i);
    bool             dims_ok = true;
    gp->name = arena_strdup(s->pa, ap->name);
    gp->loc = ap->loc;
    gp->tvar = nmap_get(&tvars, ap->type);
    if (first >= 0) {
      err(s, ap->loc, "duplicate parameter '%s'", ap->name);
      diag_note(s->d, k->params[first].loc, "'%s' first declared here", ap->name);
      ok = false;
    }
    if (gp->tvar < 0 && !ast_dtype_lookup(ap->type, &gp->dtype)) {
      if (k->n_tvars) err(s, ap->type_loc, "unknown dtype or type variable '%s'", ap->type);
      else err(s, ap->type_loc, "unknown dtype '%s'", ap->type);
      ok = false;
    }
    if (ap->rank > WC_MAX_RANK) {
      err(s, ap->dims[WC_MAX_RANK].loc, "parameter '%s' has %d dimensions; the maximum rank is %d",
          ap->name, ap->rank, WC_MAX_RANK);
      ok = false;
      continue;
    }
    gp->shape.rank = ap->rank;
    for (j = 0; j < ap->rank; j++) {
      const ast_dim *dim = &ap->dims[j];
      if (!dim->name) {
        if (dim->too_big || dim->value > (uint64_t)INT64_MAX) {
          err(s, dim->loc, "extent is too large (the limit is %lld)", (long long)INT64_MAX);
          ok = dims_ok = false;
        }
        gp->shape.dims[j] = (int64_t)dim->value;
        continue;
      }
      if (nmap_get(&extents, dim->name) < 0) {
        if (!sema_is_c_ident(dim->name)) {
          err(s, dim->loc, "extent name '%s' is reserved in C", dim->name);
          ok = false;
        }
        nmap_add(&extents, dim->name, (int)ext.n);
        *vec_push(s->pa, &ext) = arena_strdup(s->pa, dim->name);
      }
      gp->shape.dims[j] = WC_SYM(nmap_get(&extents, dim->name));
    }
    if (dims_ok && fixed_elements(&gp->shape) < 0) {
      err(s, ap->loc,
          "parameter '%s' is too large: its fixed extents multiply to more than "
          "%lld elements",
          ap->name, (long long)SEMA_MAX_ELEMENTS);
      ok = false;
    }
  }
  s->n_extents = (int)ext.n;
  s->extent_names = ext.data;
  return ok;
}

/* A name in an expression: a parameter, or in a body a statement before this one. */
static bool resolve_name(sema *s, ast_expr *e, const nmap *params) {
  const char *name = e->u.param.name;
  e->u.param.stmt = -1;
  e->u.param.index = nmap_get(params, name);
  if (e->u.param.index >= 0) return true;
  if (s->defined && (e->u.param.stmt = nmap_get(s->defined, name)) >= 0) {
    s->stmt_read[e->u.param.stmt] = true;
    return true;
  }
  int later = s->declared ? nmap_get(s->declared, name) : -1;
  if (later >= 0) {
    err(s, e->loc, "'%s' is read before the statement that defines it", name);
    s->stmt_read[later] = true; /* read, if too early: said once */
  } else err(s, e->loc, "unknown name '%s'", name);
  return false;
}

/* Resolve names and calls of the kernel's expression (before any dtype is
   known): parameter references, functions and casts, arities, and where
   argwhere / nonzero / where_v1 may appear.  where_v1 is allowed only as the
   whole expression, on the kernel's first three parameters in order (no fused
   operands), because its kind (WC_KIND_WHERE_V1) applies the tf.compat.v1
   shape rules to inputs 0, 1, 2 (cond, x, y), not to computed values. */
/* A row reduction's arguments: the value, then optionally R, the rows' rank
   (the kernel's last R axes), an integer literal from 1 to the maximum rank;
   R goes to u.call.rows and the call keeps its one operand. */
static bool resolve_rows(sema *s, ast_expr *e) {
  const char *name = e->u.call.name;
  uint64_t    r = 1;
  if (e->u.call.n_args < 1 || e->u.call.n_args > 2) {
    err(s, e->loc, "'%s' takes 1 or 2 arguments (a value, and how many of the last axes form a row), got %d",
        name, e->u.call.n_args);
    return false;
  }
  if (e->u.call.n_args == 2) {
    const ast_expr *a = e->u.call.args[1];
    if (a->kind != AST_LIT || a->u.lit.kind != AST_LIT_INT || a->u.lit.neg ||
        !ast_parse_uint(a->u.lit.text, &r) || r < 1 || r > WC_MAX_RANK) {
      err(s, a->loc,
          "the second argument of '%s' is how many of the kernel's last axes form a row: an "
          "integer from 1 to %d",
          name, WC_MAX_RANK);
      return false;
    }
  }
  e->u.call.rows = (int)r;
  e->u.call.n_args = 1;
  return true;
}

static bool resolve(sema *s, ast_expr *e, const nmap *params, const nmap *tvars, bool top) {
  bool ok = true;
  int  i;
  switch (e->kind) {
  case AST_LIT: return true;
  case AST_PARAM: return resolve_name(s, e, params);
  case AST_UNARY: return resolve(s, e->u.unary.arg, params, tvars, false);
  case AST_BINARY:
    ok = resolve(s, e->u.binary.lhs, params, tvars, false);
    return resolve(s, e->u.binary.rhs, params, tvars, false) && ok;
  case AST_CALL: break;
  }
  for (i = 0; i < e->u.call.n_args; i++)
    ok = resolve(s, e->u.call.args[i], params, tvars, false) && ok;
  e->u.call.fn = builtin(e->u.call.name, &e->u.call.op);
  e->u.call.cast_var = -1;
  if (e->u.call.fn == AST_FN_UNRESOLVED) {
    e->u.call.cast_var = nmap_get(tvars, e->u.call.name);
    if (e->u.call.cast_var >= 0 || ast_dtype_lookup(e->u.call.name, &e->u.call.cast_dtype)) {
      e->u.call.fn = AST_FN_CAST;
    } else {
      err(s, e->loc, "unknown function '%s'", e->u.call.name);
      return false;
    }
  }
  int want = e->u.call.fn == AST_FN_OP ? wc_op_arity(e->u.call.op) : ast_fn_arity(e->u.call.fn);
  if (e->u.call.fn == AST_FN_OP && wc_op_reduces(e->u.call.op)) {
    if (!resolve_rows(s, e)) return false;
    return ok;
  }
  if (e->u.call.n_args != want) {
    if (e->u.call.fn == AST_FN_CAST)
      err(s, e->loc, "a cast to '%s' takes 1 argument, got %d", e->u.call.name, e->u.call.n_args);
    else
      err(s, e->loc, "'%s' takes %d argument%s, got %d", e->u.call.name, want, want == 1 ? "" : "s",
          e->u.call.n_args);
    return false;
  }
  switch (e->u.call.fn) {
  case AST_FN_ARGWHERE:
  case AST_FN_NONZERO:
  case AST_FN_WHERE_V1:
    if (!top && s->defined) {
      err(s, e->loc,
          "'%s' must be the whole expression of a kernel written '= expr;', not in a body",
          e->u.call.name);
      return false;
    }
    if (!top) {
      err(s, e->loc, "'%s' must be the whole kernel expression", e->u.call.name);
      return false;
    }
    break;
  default: break;
  }
  if (ok && e->u.call.fn == AST_FN_WHERE_V1) {
    for (i = 0; i < 3; i++) {
      const ast_expr *a = e->u.call.args[i];
      if (a->kind != AST_PARAM || a->u.param.index != i) {
        err(s, a->loc,
            "the arguments of 'where_v1' must be the kernel's first three "
            "parameters, in order");
        return false;
      }
    }
  }
  return ok;
}

/* ---- dtypes ------------------------------------------------------------------- */

/* Give an untyped literal the dtype t: check that its value is representable
   in t and store its bits the way wc_instr.bits holds a constant (integers
   zero-extended from their width, floats as IEEE bits, complex as re, im). */
static bool type_literal(sema *s, ast_expr *e, wc_dtype t) {
  ast_dtype_class c = ast_dtype_class_of(t);
  char            buf[80];
  uint64_t       *bits = e->u.lit.bits;
  bool            neg = e->u.lit.neg;
  const char     *text = e->u.lit.text;
  ast_lit_kind    kind = e->u.lit.kind;

  bits[0] = bits[1] = 0;
  if (c == AST_CLASS_BOOL) {
    err(s, e->loc, "numeric literal %s cannot be used as bool (write true or false)",
        lit_text(e, buf));
    return false;
  }
  if (c == AST_CLASS_STRING) {
    err(s, e->loc, "numeric literal %s cannot be used as string", lit_text(e, buf));
    return false;
  }
  if ((kind == AST_LIT_INF || kind == AST_LIT_NAN) && c != AST_CLASS_REAL && c != AST_CLASS_HALF) {
    err(s, e->loc,
        "'%s' is valid only for floating-point dtypes (float16, bfloat16, float, double), not %s",
        kind == AST_LIT_INF ? "inf" : "nan", wc_dtype_name(t));
    return false;
  }
  if (c == AST_CLASS_SINT || c == AST_CLASS_UINT) {
    unsigned n = ast_dtype_bits(t);
    uint64_t mag, max = c == AST_CLASS_UINT ? UINT64_MAX >> (64 - n) : UINT64_MAX >> (65 - n);
    uint64_t lim = neg ? (c == AST_CLASS_UINT ? 0 : max + 1) : max;
    if (kind == AST_LIT_FLOAT) {
      err(s, e->loc, "literal %s is not an integer; it cannot be used as %s", lit_text(e, buf),
          wc_dtype_name(t));
      return false;
    }
    if (!ast_parse_uint(text, &mag) || mag > lim) {
      if (c == AST_CLASS_UINT)
        err(s, e->loc, "literal %s is out of range for %s (0 to %llu)", lit_text(e, buf),
            wc_dtype_name(t), (unsigned long long)max);
      else
        err(s, e->loc, "literal %s is out of range for %s (-%llu to %llu)", lit_text(e, buf),
            wc_dtype_name(t), (unsigned long long)max + 1, (unsigned long long)max);
      return false;
    }
    bits[0] = (neg ? 0 - mag : mag) & (UINT64_MAX >> (64 - n));
    return true;
  }
  /* Floating point and complex (the real part). */
  if (t == WC_DOUBLE || t == WC_COMPLEX128) {
    double v = kind == AST_LIT_INF ? HUGE_VAL : kind == AST_LIT_NAN ? NAN : strtod(text, NULL);
    if (kind != AST_LIT_INF && kind != AST_LIT_NAN && isinf(v)) {
      err(s, e->loc, "literal %s overflows %s", lit_text(e, buf), wc_dtype_name(t));
      return false;
    }
    if (neg) v = -v;
    memcpy(&bits[0], &v, sizeof v);
    return true;
  } else {
    float    v = kind == AST_LIT_INF ? HUGE_VALF : kind == AST_LIT_NAN ? NAN : strtof(text, NULL);
    uint32_t fb;
    bool     special = kind == AST_LIT_INF || kind == AST_LIT_NAN;
    if (neg) v = -v;
    fb = wc_f32_to_bits(v);
    if (kind == AST_LIT_NAN) fb = (fb & 0x80000000u) | 0x7fc00000u; /* canonical quiet NaN */
    if (t == WC_FLOAT16) bits[0] = wc_f32_to_f16(wc_bits_to_f32(fb));
    else if (t == WC_BFLOAT16) bits[0] = wc_f32_to_bf16(wc_bits_to_f32(fb));
    else bits[0] = fb;
    if (!special && ((t == WC_FLOAT16 && (bits[0] & 0x7c00u) == 0x7c00u) ||
                     (t == WC_BFLOAT16 && (bits[0] & 0x7f80u) == 0x7f80u) ||
                     ((t == WC_FLOAT || t == WC_COMPLEX64) && isinf(v)))) {
      err(s, e->loc, "literal %s overflows %s", lit_text(e, buf), wc_dtype_name(t));
      bits[0] = 0;
      return false;
    }
    return true;
  }
}

/* Is operation op defined on operands of dtype t (the operation table's
   answer)?  One message per misuse, naming what the operation takes (and for
   % on floats, fmod; for ~ on bool, !; for exp on double, why not). */
static bool check_op(sema *s, diag_loc loc, wc_opcode op, wc_dtype t) {
  ast_dtype_class c = ast_dtype_class_of(t);
  const char     *sym = ast_op_spelling(op);
  const char     *name = wc_dtype_name(t);
  bool            is_int = c == AST_CLASS_SINT || c == AST_CLASS_UINT;
  bool            is_float = c == AST_CLASS_REAL || c == AST_CLASS_HALF;
  if (wc_op_defined(op, t) || (t == WC_BOOL && ast_op_on_bool(op) != WC_OP_NONE)) return true;
  switch (ast_op_domain(op)) {
  case AST_DOM_BOOL: err(s, loc, "'%s' is not defined on %s (it takes bool)", sym, name); break;
  case AST_DOM_INT:
    if (ast_op_on_bool(op) != WC_OP_NONE)
      err(s, loc, "'%s' is not defined on %s (it takes integers and bool)", sym, name);
    else if (is_float && op == WC_OP_MOD)
      err(s, loc,
          "'%%' is not defined on %s; use fmod(a, b) for the remainder of floating-point values",
          name);
    else if (t == WC_BOOL && op == WC_OP_BNOT) err(s, loc, "'~' is not defined on bool; use '!'");
    else err(s, loc, "'%s' is not defined on %s (it takes integers)", sym, name);
    break;
  case AST_DOM_FLOAT:
    err(s, loc, "'%s' is not defined on %s (it takes float16, bfloat16, float and double%s)", sym,
        name, is_int || c == AST_CLASS_BOOL ? "; cast first, as in float(x)" : "");
    break;
  case AST_DOM_CRF:
    if (t == WC_DOUBLE)
      err(s, loc,
          "%s on double is not supported: wherec's %s is not correctly rounded in "
          "double; cast to float, as in %s(float(x)%s)",
          sym, sym, sym, wc_op_arity(op) == 2 ? ", float(y)" : "");
    else err(s, loc, "'%s' is defined on float, float16 and bfloat16, not on %s", sym, name);
    break;
  default: err(s, loc, "'%s' is not defined on %s", sym, name); break;
  }
  return false;
}

/* Push the dtype t into the untyped parts of e (which hold literals only). */
static bool coerce(sema *s, ast_expr *e, wc_dtype t) {
  bool ok = true;
  int  i;
  if (e->dtype != UNTYPED) return true;
  switch (e->kind) {
  case AST_LIT: ok = type_literal(s, e, t); break;
  case AST_UNARY: ok = check_op(s, e->loc, e->u.unary.op, t) && coerce(s, e->u.unary.arg, t); break;
  case AST_BINARY:
    ok = check_op(s, e->loc, e->u.binary.op, t);
    ok = ok && coerce(s, e->u.binary.lhs, t);
    ok = ok && coerce(s, e->u.binary.rhs, t);
    break;
  case AST_CALL: /* an operation's call: where (its branches) or a function */
    if (e->u.call.op != WC_OP_WHERE) ok = check_op(s, e->loc, e->u.call.op, t);
    for (i = e->u.call.op == WC_OP_WHERE ? 1 : 0; ok && i < e->u.call.n_args; i++)
      ok = coerce(s, e->u.call.args[i], t);
    break;
  case AST_PARAM: break;
  }
  if (ok) e->dtype = t;
  return ok;
}

/* ---- shapes ------------------------------------------------------------------- */

bool sema_broadcast(const ast_shape *a, const ast_shape *b, ast_shape *out) {
  ast_shape r;
  int       i;
  r.rank = a->rank > b->rank ? a->rank : b->rank;
  for (i = 0; i < r.rank; i++) {
    int     ia = a->rank - r.rank + i, ib = b->rank - r.rank + i;
    int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
    if (da == db || db == 1) r.dims[i] = da;
    else if (da == 1) r.dims[i] = db;
    else return false;
  }
  *out = r;
  return true;
}

static bool same_shape(const ast_shape *a, const ast_shape *b) {
  int i;
  if (a->rank != b->rank) return false;
  for (i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

/* "[N,3]" of the current kernel, into a caller's buffer. */
static const char *shape_str(const sema *s, const ast_shape *sh, diag_text *t) {
  t->len = 0;
  ast_print_shape(t, sh, s->extent_names);
  return t->data ? t->data : "[]";
}

/* acc = broadcast(acc, b), or an error naming both shapes and the operation. */
static bool broadcast_into(sema *s, ast_shape *acc, const ast_shape *b, diag_loc loc,
                           const char *op) {
  diag_text ta = {0}, tb = {0};
  if (sema_broadcast(acc, b, acc)) return true;
  err(s, loc, "cannot broadcast %s and %s in '%s'", shape_str(s, acc, &ta), shape_str(s, b, &tb),
      op);
  diag_text_free(&ta);
  diag_text_free(&tb);
  return false;
}

/* tf.compat.v1.where shapes: x and y alike; cond like x, or a vector over x's
   first dimension (then it picks rows), or a scalar when x is one. */
static bool check_where_v1(sema *s, ast_expr *e) {
  const ast_expr *c = e->u.call.args[0], *x = e->u.call.args[1], *y = e->u.call.args[2];
  diag_text       t1 = {0}, t2 = {0};
  bool            ok = true;
  if (c->dtype != WC_BOOL) {
    err(s, c->loc, "condition of 'where_v1' must be bool, got %s", dname(c->dtype));
    ok = false;
  }
  if (x->dtype != y->dtype) {
    err(s, e->loc, "branches of 'where_v1' have different dtypes: %s and %s", dname(x->dtype),
        dname(y->dtype));
    ok = false;
  }
  if (!same_shape(&x->shape, &y->shape)) {
    err(s, e->loc, "'where_v1' needs x and y of the same shape, got %s and %s",
        shape_str(s, &x->shape, &t1), shape_str(s, &y->shape, &t2));
    ok = false;
  } else if (!same_shape(&c->shape, &x->shape) &&
             !(x->shape.rank >= 1 && c->shape.rank == 1 && c->shape.dims[0] == x->shape.dims[0])) {
    if (x->shape.rank == 0)
      err(s, c->loc, "condition of 'where_v1' must be a scalar when x is one, got %s",
          shape_str(s, &c->shape, &t1));
    else {
      ast_shape first = x->shape;
      diag_text t3 = {0};
      first.rank = 1;
      err(s, c->loc,
          "condition of 'where_v1' must have x's shape %s or be a vector over its first "
          "dimension %s, got %s",
          shape_str(s, &x->shape, &t1), shape_str(s, &first, &t2), shape_str(s, &c->shape, &t3));
      diag_text_free(&t3);
    }
    ok = false;
  }
  diag_text_free(&t1);
  diag_text_free(&t2);
  e->dtype = x->dtype;
  e->shape = x->shape;
  return ok;
}

/* ---- typing ------------------------------------------------------------------- */

static bool infer(sema *s, ast_expr *e);

/* Unify the dtypes of two operands that must agree: a typed side gives its
   dtype to an untyped one.  *t is UNTYPED when both are literals only. */
static bool unify(sema *s, ast_expr *a, ast_expr *b, diag_loc loc, const char *what, wc_dtype *t) {
  if (a->dtype != UNTYPED && b->dtype != UNTYPED && a->dtype != b->dtype) {
    err(s, loc, "%s have different dtypes: %s and %s", what, wc_dtype_name(a->dtype),
        wc_dtype_name(b->dtype));
    return false;
  }
  *t = a->dtype != UNTYPED ? a->dtype : b->dtype;
  return true;
}

/* `!a` needs bool; `-a` a number, `~a` an integer (or stays untyped with a literal operand). */
static bool infer_unary(sema *s, ast_expr *e) {
  ast_expr *a = e->u.unary.arg;
  if (!infer(s, a)) return false;
  e->shape = a->shape;
  if (ast_op_domain(e->u.unary.op) == AST_DOM_BOOL) {
    if (a->dtype != WC_BOOL) {
      err(s, e->loc, "operand of '!' must be bool, got %s", dname(a->dtype));
      return false;
    }
    e->dtype = WC_BOOL;
    return true;
  }
  e->dtype = a->dtype;
  return a->dtype == UNTYPED || check_op(s, e->loc, e->u.unary.op, a->dtype);
}

/* Operands broadcast and agree on a dtype; || && take bool, == != any dtype,
   the others their operator's domain (ast.h); comparisons give bool. */
static bool infer_binary(sema *s, ast_expr *e) {
  ast_expr   *l = e->u.binary.lhs, *r = e->u.binary.rhs;
  wc_opcode   op = e->u.binary.op;
  const char *sym = ast_op_spelling(op);
  char        what[32];
  wc_dtype    t;
  bool        cmp, ok = infer(s, l);
  ok = infer(s, r) && ok;
  if (!ok) return false;
  e->shape = l->shape;
  if (!broadcast_into(s, &e->shape, &r->shape, e->loc, sym)) return false;
  if (ast_op_domain(op) == AST_DOM_BOOL) {
    if (l->dtype != WC_BOOL || r->dtype != WC_BOOL) {
      err(s, e->loc, "operands of '%s' must be bool, got %s", sym,
          dname(l->dtype != WC_BOOL ? l->dtype : r->dtype));
      return false;
    }
    e->dtype = WC_BOOL;
    return true;
  }
  cmp = wc_op_gives_bool(op);
  snprintf(what, sizeof what, "operands of '%s'", sym);
  if (!unify(s, l, r, e->loc, what, &t)) return false;
  if (t == UNTYPED) {
    if (!cmp) return true; /* literal arithmetic: typed by context */
    err(s, e->loc, "cannot infer the dtype of literals compared by '%s'; cast one, as in float(1)",
        sym);
    return false;
  }
  if (!check_op(s, e->loc, op, t)) return false;
  if (!coerce(s, l, t) || !coerce(s, r, t)) return false;
  e->dtype = cmp ? WC_BOOL : t;
  return true;
}

/* The rules of where, of the functions of the operation table (operands of
   one dtype that broadcast; the result in that dtype), of the kernel-shaped
   functions and of casts. */
static bool infer_call(sema *s, ast_expr *e) {
  ast_expr  **a = e->u.call.args;
  const char *name = e->u.call.name;
  bool        ok = true;
  int         i;
  wc_dtype    t;
  for (i = 0; i < e->u.call.n_args; i++) ok = infer(s, a[i]) && ok;
  if (!ok) return false;
  switch (e->u.call.fn) {
  case AST_FN_OP:
    if (e->u.call.op == WC_OP_WHERE) {
      if (a[0]->dtype != WC_BOOL) {
        err(s, a[0]->loc, "condition of 'where' must be bool, got %s", dname(a[0]->dtype));
        return false;
      }
      if (!unify(s, a[1], a[2], e->loc, "branches of 'where'", &t)) return false;
      e->shape = a[0]->shape;
      if (!broadcast_into(s, &e->shape, &a[1]->shape, e->loc, name) ||
          !broadcast_into(s, &e->shape, &a[2]->shape, e->loc, name))
        return false;
      if (t != UNTYPED && (!coerce(s, a[1], t) || !coerce(s, a[2], t))) return false;
      e->dtype = t;
      return true;
    }
    e->shape = a[0]->shape;
    t = a[0]->dtype;
    if (wc_op_reduces(e->u.call.op) && t == UNTYPED) {
      err(s, a[0]->loc, "cannot infer the dtype of the argument of '%s'; cast it, as in float(1)",
          name);
      return false;
    }
    if (e->u.call.n_args == 2) {
      char what[32];
      snprintf(what, sizeof what, "operands of '%s'", name);
      if (!unify(s, a[0], a[1], e->loc, what, &t)) return false;
      if (!broadcast_into(s, &e->shape, &a[1]->shape, e->loc, name)) return false;
    }
    if (t == UNTYPED) return true; /* literals only: typed by context */
    if (!check_op(s, e->loc, e->u.call.op, t)) return false;
    for (i = 0; i < e->u.call.n_args; i++)
      if (!coerce(s, a[i], t)) return false;
    e->dtype = wc_op_gives_bool(e->u.call.op) ? WC_BOOL : t;
    return true;
  case AST_FN_WHERE_V1: return check_where_v1(s, e);
  case AST_FN_ARGWHERE:
  case AST_FN_NONZERO:
    if (a[0]->dtype == UNTYPED) {
      err(s, a[0]->loc, "cannot infer the dtype of the argument of '%s'; cast it, as in float(1)",
          name);
      return false;
    }
    e->dtype = WC_INT64;
    e->shape = a[0]->shape;
    return true;
  case AST_FN_CAST:
    t = e->u.call.cast_var >= 0 ? s->bind[e->u.call.cast_var].dtype : e->u.call.cast_dtype;
    e->u.call.cast_dtype = t;
    e->shape = a[0]->shape;
    e->dtype = t;
    if (a[0]->dtype == UNTYPED) return coerce(s, a[0], t);
    if (!wc_cast_defined(a[0]->dtype, t)) {
      err(s, e->loc, "cannot cast %s to %s", wc_dtype_name(a[0]->dtype), wc_dtype_name(t));
      return false;
    }
    return true;
  default: return false;
  }
}

/* Type e bottom-up and give it its shape pattern.  Literal-only subtrees stay
   UNTYPED until an operand with a dtype (or a cast) gives them one.  Returns
   false after reporting an error in e (operands' errors are all reported;
   nodes above an error stay quiet). */
static bool infer(sema *s, ast_expr *e) {
  e->dtype = UNTYPED;
  e->shape.rank = 0;
  switch (e->kind) {
  case AST_LIT:
    if (e->u.lit.kind == AST_LIT_BOOL) {
      e->dtype = WC_BOOL;
      e->u.lit.bits[0] = e->u.lit.boolval;
    }
    return true;
  case AST_PARAM:
    if (e->u.param.stmt >= 0) { /* typed already: statements are typed in order */
      e->dtype = s->istmts[e->u.param.stmt]->dtype;
      e->shape = s->istmts[e->u.param.stmt]->shape;
      return true;
    }
    e->dtype = s->iparams[e->u.param.index].dtype;
    e->shape = s->iparams[e->u.param.index].shape;
    return true;
  case AST_UNARY: return infer_unary(s, e);
  case AST_BINARY: return infer_binary(s, e);
  case AST_CALL: return infer_call(s, e);
  }
  return false;
}

/* ---- instances ---------------------------------------------------------------- */

/* Register an instance name; a second kernel of the same name is an error. */
static bool claim_name(sema *s, const char *name) {
  int first = nmap_add(&s->names, name, (int)s->first_locs.n);
  if (first >= 0) {
    diag_error(s->d, s->k->loc, "duplicate kernel '%s'", name);
    diag_note(s->d, s->first_locs.data[first], "'%s' first declared here", name);
    return false;
  }
  *vec_push(&s->glob, &s->first_locs) = s->k->loc;
  return true;
}

/* e has a dtype; an expression of literals only has none to take. */
static bool has_dtype(sema *s, const ast_expr *e) {
  if (e->dtype != UNTYPED) return true;
  err(s, e->loc,
      "cannot infer the dtype of an expression of literals only; "
      "cast it, as in float(...)");
  return false;
}

/* Types the statements of the current kernel's body in order (a statement
   reads the dtypes of those before it) into kern: statements and outputs. */
static bool type_body(sema *s, sema_kernel *kern) {
  const ast_kernel *k = s->k;
  ast_expr        **stmts = arena_array(s->pa, (size_t)k->n_stmts, sizeof *stmts);
  sema_output      *outs = arena_array(s->pa, (size_t)k->n_outputs, sizeof *outs);
  s->istmts = stmts;
  for (int i = 0; i < k->n_stmts; i++) {
    stmts[i] = ast_clone(s->pa, s->resolved[i]);
    if (!infer(s, stmts[i]) || !has_dtype(s, stmts[i])) return false;
  }
  for (int o = 0; o < k->n_outputs; o++) {
    outs[o].name = arena_strdup(s->pa, k->outputs[o].name);
    outs[o].loc = k->outputs[o].loc;
    outs[o].value = stmts[s->out_stmt[o]];
  }
  kern->n_stmts = k->n_stmts;
  kern->stmts = stmts;
  kern->n_outputs = k->n_outputs;
  kern->outputs = outs;
  kern->body = true;
  kern->expr = stmts[s->out_stmt[0]];
  return true;
}

/* The one output of a one-expression kernel: its value, named "out" (the
   generated function's parameter). */
static void one_output(sema *s, sema_kernel *kern) {
  sema_output *o = arena_alloc(s->pa, sizeof *o);
  o->name = "out";
  o->loc = kern->loc;
  o->value = kern->value;
  kern->n_outputs = 1;
  kern->outputs = o;
}

/* ---- row reductions ------------------------------------------------------------ */

/* The first row reduction in e (NULL if none); *bad when another one there
   reduces rows of another rank than *first's (reported). */
static const ast_expr *first_reduction(sema *s, const ast_expr *e, const ast_expr *first,
                                       bool *bad) {
  switch (e->kind) {
  case AST_LIT:
  case AST_PARAM: return first;
  case AST_UNARY: return first_reduction(s, e->u.unary.arg, first, bad);
  case AST_BINARY:
    first = first_reduction(s, e->u.binary.lhs, first, bad);
    return first_reduction(s, e->u.binary.rhs, first, bad);
  case AST_CALL: break;
  }
  for (int i = 0; i < e->u.call.n_args; i++)
    first = first_reduction(s, e->u.call.args[i], first, bad);
  if (e->u.call.fn != AST_FN_OP || !wc_op_reduces(e->u.call.op)) return first;
  if (first == NULL) return e;
  if (first->u.call.rows != e->u.call.rows && !*bad) {
    err(s, e->loc,
        "'%s' reduces the last %d axes, but a reduction before it in the kernel the last %d; "
        "the reductions of one kernel share its rows",
        e->u.call.name, e->u.call.rows, first->u.call.rows);
    *bad = true;
  }
  return first;
}

/* A kernel with row reductions: an elementwise kernel whose output has the
   rows' axes, and whose parameters are each whole along its rows or broadcast
   along all of them (what its generated loops read: a row of a parameter
   steps by one element, or stays on one). Returns false after an error. */
static bool check_rows(sema *s, sema_kernel *kern) {
  const ast_expr *first = NULL;
  bool            bad = false;
  if (kern->body)
    for (int i = 0; i < kern->n_stmts; i++)
      first = first_reduction(s, kern->stmts[i], first, &bad);
  else first = first_reduction(s, kern->expr, first, &bad);
  if (bad) return false;
  kern->rows = first ? first->u.call.rows : 0;
  if (first == NULL) return true;
  if (kern->kind != WC_KIND_ELEMENTWISE) {
    err(s, first->loc, "'%s' cannot be part of '%s': a row reduction is an elementwise kernel's",
        first->u.call.name, ast_fn_str(kern->expr->u.call.fn));
    return false;
  }
  int n = kern->out_shape.rank, r = kern->rows;
  if (r > n) {
    diag_text t = {0};
    err(s, first->loc, "'%s' reduces the last %d axes, but the kernel's output %s has rank %d",
        first->u.call.name, r, shape_str(s, &kern->out_shape, &t), n);
    diag_text_free(&t);
    return false;
  }
  for (int i = 0; i < kern->n_params; i++) {
    const ast_shape *p = &kern->params[i].shape;
    bool             whole = true, along = true;
    for (int d = n - r; d < n; d++) {
      int     pd = d - (n - p->rank);
      int64_t dim = pd >= 0 ? p->dims[pd] : 1;
      whole = whole && dim == kern->out_shape.dims[d];
      along = along && dim == 1;
    }
    if (whole || along) continue;
    diag_text t1 = {0}, t2 = {0};
    err(s, kern->params[i].loc,
        "parameter '%s' of shape %s is broadcast along some of the rows' axes but not all "
        "(the kernel's output is %s, its rows the last %d axes); a kernel with row reductions "
        "reads each parameter whole along its rows or broadcast along all of them",
        kern->params[i].name, shape_str(s, p, &t1), shape_str(s, &kern->out_shape, &t2), r);
    diag_text_free(&t1);
    diag_text_free(&t2);
    return false;
  }
  return true;
}

/* Type one instance of the current kernel under the binding bind and add it
   (resolved: the one expression; NULL for a body, s->resolved). */
static void instantiate(sema *s, const ast_expr *resolved, sema_binding *bind, const char *name) {
  const ast_kernel *k = s->k;
  sema_param       *params = arena_array(s->pa, (size_t)k->n_params, sizeof *params);
  sema_kernel       kern;
  ast_expr         *e;
  int               i;

  for (i = 0; i < k->n_params; i++) {
    params[i].name = s->params[i].name;
    params[i].loc = s->params[i].loc;
    params[i].dtype = s->params[i].tvar >= 0 ? bind[s->params[i].tvar].dtype : s->params[i].dtype;
    params[i].shape = s->params[i].shape;
    params[i].cst = s->param_const && s->param_const[i] >= 0 ? &s->consts[s->param_const[i]] : NULL;
  }
  s->bind = bind;
  s->iparams = params;
  s->inst_name = name;
  memset(&kern, 0, sizeof kern);
  if (resolved) {
    e = ast_clone(s->pa, resolved);
    if (!infer(s, e) || !has_dtype(s, e)) return;
  } else {
    if (!type_body(s, &kern)) return;
    e = (ast_expr *)kern.expr;
  }
  kern.name = name;
  kern.base = arena_strdup(s->pa, k->name);
  kern.loc = k->loc;
  kern.n_bindings = k->n_tvars;
  kern.bindings = bind;
  kern.n_params = k->n_params;
  kern.params = params;
  kern.n_extents = s->n_extents;
  kern.extent_names = s->extent_names;
  kern.expr = e;
  kern.value = e;
  kern.kind = WC_KIND_ELEMENTWISE;
  if (e->kind == AST_CALL) {
    if (e->u.call.fn == AST_FN_WHERE_V1) kern.kind = WC_KIND_WHERE_V1;
    if (e->u.call.fn == AST_FN_ARGWHERE) kern.kind = WC_KIND_ARGWHERE;
    if (e->u.call.fn == AST_FN_NONZERO) kern.kind = WC_KIND_NONZERO;
    if (kern.kind == WC_KIND_ARGWHERE || kern.kind == WC_KIND_NONZERO)
      kern.value = e->u.call.args[0];
  }
  if (resolved) one_output(s, &kern);
  kern.out_dtype = e->dtype;
  kern.out_shape = kern.value->shape;
  /* Every input takes part in the output's broadcast (as in wc_run), an
     unused parameter too; the used ones are in value's shape already. */
  for (i = 0; kern.kind != WC_KIND_WHERE_V1 && i < k->n_params; i++) {
    diag_text t1 = {0}, t2 = {0};
    if (sema_broadcast(&kern.out_shape, &params[i].shape, &kern.out_shape)) continue;
    err(s, params[i].loc,
        "parameter '%s' of shape %s does not broadcast with the kernel's "
        "output %s",
        params[i].name, shape_str(s, &params[i].shape, &t1), shape_str(s, &kern.out_shape, &t2));
    diag_text_free(&t1);
    diag_text_free(&t2);
    return;
  }
  if (!check_rows(s, &kern)) return;
  *vec_push(s->pa, &s->kernels) = kern;
}

/* A name a body defines (an output, or a let that is none) is new in the
   kernel: no parameter's and no extent's (outputs are C parameters beside them). */
static bool check_new_name(sema *s, const nmap *params, const char *name, diag_loc loc) {
  if (nmap_get(params, name) >= 0) {
    err(s, loc, "'%s' is a parameter of kernel '%s'; a statement cannot redefine it", name,
        s->k->name);
    return false;
  }
  for (int i = 0; i < s->n_extents; i++)
    if (strcmp(s->extent_names[i], name) == 0) {
      err(s, loc, "'%s' is an extent of kernel '%s'; a statement cannot redefine it", name,
          s->k->name);
      return false;
    }
  return true;
}

/* The output list: within WC_MAX_OPERANDS with the parameters, no name twice. */
static bool check_output_list(sema *s, const nmap *params, nmap *outs) {
  const ast_kernel *k = s->k;
  bool              ok = true;
  if (k->n_params + k->n_outputs > WC_MAX_OPERANDS) {
    err(s, k->outputs[0].loc,
        "kernel '%s' has %d parameters and %d outputs; the limit is %d together", k->name,
        k->n_params, k->n_outputs, WC_MAX_OPERANDS);
    ok = false;
  }
  for (int o = 0; o < k->n_outputs; o++) {
    int first = nmap_add(outs, k->outputs[o].name, o);
    if (first >= 0) {
      err(s, k->outputs[o].loc, "output '%s' is listed twice", k->outputs[o].name);
      ok = false;
    }
    ok = check_new_name(s, params, k->outputs[o].name, k->outputs[o].loc) && ok;
  }
  return ok;
}

/* One statement of a body: its name defined once, `let` or an output. */
static bool check_stmt_name(sema *s, const nmap *params, const nmap *outs, nmap *defined, int i) {
  const ast_stmt *st = &s->k->stmts[i];
  int             first = nmap_add(defined, st->name, i);
  if (first >= 0) {
    err(s, st->loc, "'%s' is defined twice", st->name);
    diag_note(s->d, s->k->stmts[first].loc, "'%s' first defined here", st->name);
    return false;
  }
  if (nmap_get(outs, st->name) >= 0) return true;
  if (!st->let) {
    err(s, st->loc,
        "'%s' is not an output of kernel '%s'; write 'let %s = ...' for a value of its own, "
        "or list it in '-> (...)'",
        st->name, s->k->name, st->name);
    return false;
  }
  return check_new_name(s, params, st->name, st->loc);
}

/* Resolves a kernel's body into s->resolved: its output list, then each
   statement (reading parameters and the statements before it), then that
   every output is assigned and every let that is no output is read. */
static bool resolve_body(sema *s, const nmap *params, const nmap *tvars) {
  const ast_kernel *k = s->k;
  nmap              outs, declared, defined;
  bool              ok;
  nmap_init(&outs, &s->tmp);
  nmap_init(&declared, &s->tmp);
  nmap_init(&defined, &s->tmp);
  ok = check_output_list(s, params, &outs);
  for (int i = 0; i < k->n_stmts; i++) nmap_add(&declared, k->stmts[i].name, i);
  s->stmt_read = arena_array(&s->tmp, (size_t)k->n_stmts + 1, sizeof *s->stmt_read);
  s->resolved = arena_array(&s->tmp, (size_t)k->n_stmts + 1, sizeof *s->resolved);
  s->out_stmt = arena_array(&s->tmp, (size_t)k->n_outputs, sizeof *s->out_stmt);
  s->declared = &declared;
  s->defined = &defined;
  for (int i = 0; i < k->n_stmts; i++) {
    s->resolved[i] = ast_clone(&s->tmp, k->stmts[i].expr);
    ok = resolve(s, s->resolved[i], params, tvars, false) && ok;
    ok = check_stmt_name(s, params, &outs, &defined, i) && ok;
  }
  s->declared = s->defined = NULL;
  for (int o = 0; o < k->n_outputs; o++)
    if ((s->out_stmt[o] = nmap_get(&defined, k->outputs[o].name)) < 0) {
      err(s, k->outputs[o].loc, "output '%s' is never assigned", k->outputs[o].name);
      ok = false;
    }
  for (int i = 0; i < k->n_stmts; i++)
    if (k->stmts[i].let && !s->stmt_read[i] && nmap_get(&outs, k->stmts[i].name) < 0 &&
        nmap_get(&defined, k->stmts[i].name) == i && nmap_get(params, k->stmts[i].name) < 0) {
      err(s, k->stmts[i].loc, "'%s' is never read; remove it, or list it as an output",
          k->stmts[i].name);
      ok = false;
    }
  return ok;
}

/* Nodes of the expression tree e (its height is at most PARSE_MAX_DEPTH). */
static long count_nodes(const ast_expr *e) {
  long n = 1;
  int  i;
  switch (e->kind) {
  case AST_LIT:
  case AST_PARAM: break;
  case AST_UNARY: n += count_nodes(e->u.unary.arg); break;
  case AST_BINARY: n += count_nodes(e->u.binary.lhs) + count_nodes(e->u.binary.rhs); break;
  case AST_CALL:
    for (i = 0; i < e->u.call.n_args; i++) n += count_nodes(e->u.call.args[i]);
    break;
  }
  return n;
}

/* Nodes of a kernel's expressions: the one expression or every statement's. */
static long kernel_nodes(const ast_kernel *k) {
  long n = k->expr ? count_nodes(k->expr) : 0;
  for (int i = 0; i < k->n_stmts; i++) n += count_nodes(k->stmts[i].expr);
  return n;
}

/* The kernel's output (the broadcast of all its parameters) within
   SEMA_MAX_ELEMENTS; parameters that do not broadcast are reported later. */
static bool check_out_size(sema *s) {
  ast_shape out;
  int       i;
  out.rank = 0;
  for (i = 0; i < s->k->n_params; i++)
    if (!sema_broadcast(&out, &s->params[i].shape, &out)) return true;
  if (fixed_elements(&out) >= 0) return true;
  err(s, s->k->loc,
      "the output of kernel '%s' is too large: its fixed extents multiply to more "
      "than %lld elements",
      s->k->name, (long long)SEMA_MAX_ELEMENTS);
  return false;
}

/* ---- constants ---------------------------------------------------------------- */

typedef VEC(int) int_vec;

/* One value of constant c as element j: its bits in c's dtype, range-checked
   as a literal of an expression is. */
static bool type_value(sema *s, sema_const *c, const ast_value *v, uint64_t *bits) {
  ast_expr e;
  if (c->dtype == WC_BOOL || v->kind == AST_LIT_BOOL) {
    if (c->dtype == WC_BOOL && v->kind == AST_LIT_BOOL) {
      *bits = v->boolval;
      return true;
    }
    if (c->dtype == WC_BOOL)
      err(s, v->loc, "constant '%s' is bool: write its values as true or false", c->name);
    else
      err(s, v->loc, "'%s' cannot be a value of constant '%s' of dtype %s",
          v->boolval ? "true" : "false", c->name, wc_dtype_name(c->dtype));
    return false;
  }
  memset(&e, 0, sizeof e);
  e.kind = AST_LIT;
  e.loc = v->loc;
  e.height = 1;
  e.u.lit.kind = v->kind;
  e.u.lit.text = v->text;
  e.u.lit.neg = v->neg;
  if (!type_literal(s, &e, c->dtype)) return false;
  *bits = e.u.lit.bits[0];
  return true;
}

/* The `const` statements: unique names, a dtype that is bool, an integer or a
   float, a fixed shape, as many values as the shape holds, each representable. */
static void check_consts(sema *s, const ast_file *f) {
  char buf[80];
  nmap_init(&s->const_names, &s->glob);
  s->n_consts = f->n_consts;
  s->consts = arena_array(s->pa, (size_t)f->n_consts + 1, sizeof *s->consts);
  s->const_ok = arena_array(&s->glob, (size_t)f->n_consts + 1, sizeof *s->const_ok);
  s->const_read = arena_array(&s->glob, (size_t)f->n_consts + 1, sizeof *s->const_read);
  for (int i = 0; i < f->n_consts; i++) {
    const ast_const *ac = &f->consts[i];
    const ast_param *ap = &ac->decl;
    sema_const      *c = &s->consts[i];
    ast_dtype_class  cls;
    bool             ok = true;
    int              first = nmap_add(&s->const_names, ap->name, i);
    c->name = arena_strdup(s->pa, ap->name);
    c->loc = ap->loc;
    if (first >= 0) {
      err(s, ap->loc, "duplicate constant '%s'", ap->name);
      diag_note(s->d, f->consts[first].decl.loc, "'%s' first declared here", ap->name);
      ok = false;
    }
    if (!ast_dtype_lookup(ap->type, &c->dtype)) {
      err(s, ap->type_loc, "unknown dtype '%s'", printable(ap->type, buf));
      ok = false;
    } else if ((cls = ast_dtype_class_of(c->dtype)) == AST_CLASS_COMPLEX ||
               cls == AST_CLASS_STRING) {
      err(s, ap->type_loc, "constant '%s' is %s; constants are bool, integers or floats",
          ap->name, wc_dtype_name(c->dtype));
      ok = false;
    }
    if (ap->rank > WC_MAX_RANK) {
      err(s, ap->dims[WC_MAX_RANK].loc, "constant '%s' has %d dimensions; the maximum rank is %d",
          ap->name, ap->rank, WC_MAX_RANK);
      s->const_ok[i] = false;
      continue;
    }
    c->shape.rank = ap->rank;
    c->n = 1;
    for (int d = 0; d < ap->rank; d++) {
      const ast_dim *dim = &ap->dims[d];
      if (dim->name) {
        err(s, dim->loc,
            "constant '%s' has the symbolic extent '%s'; a constant's shape is fixed "
            "(write each extent as an integer)",
            ap->name, dim->name);
        ok = false;
      } else if (dim->too_big || dim->value > (uint64_t)SEMA_MAX_ELEMENTS ||
                 (c->n > 0 && dim->value > (uint64_t)(SEMA_MAX_ELEMENTS / c->n))) {
        err(s, dim->loc, "constant '%s' is too large (the limit is %lld elements)", ap->name,
            (long long)SEMA_MAX_ELEMENTS);
        ok = false;
      } else {
        c->shape.dims[d] = (int64_t)dim->value;
        c->n *= (int64_t)dim->value;
      }
    }
    if (ok && ac->n_values != c->n) {
      diag_text t = {0};
      ast_print_shape(&t, &c->shape, NULL);
      err(s, ac->brace, "constant '%s' of shape %s holds %lld value%s; %lld %s written", ap->name,
          t.data ? t.data : "[]", (long long)c->n, c->n == 1 ? "" : "s",
          (long long)ac->n_values, ac->n_values == 1 ? "is" : "are");
      diag_text_free(&t);
      ok = false;
    }
    if (ok) {
      uint64_t *bits = arena_array(s->pa, (size_t)c->n + 1, sizeof *bits);
      for (int64_t j = 0; j < c->n; j++) ok = type_value(s, c, &ac->values[j], &bits[j]) && ok;
      c->bits = bits;
    }
    s->const_ok[i] = ok;
  }
}

/* The names an expression reads that are constants, not yet in *seen, in
   order of first reading (names the kernel declares are its own). */
static void collect_consts(sema *s, const ast_expr *e, const nmap *own, int_vec *found,
                           bool *seen) {
  switch (e->kind) {
  case AST_LIT: return;
  case AST_PARAM: {
    int c = nmap_get(own, e->u.param.name) >= 0 ? -1 : nmap_get(&s->const_names, e->u.param.name);
    if (c >= 0 && !seen[c]) {
      seen[c] = true;
      *vec_push(&s->tmp, found) = c;
    }
    return;
  }
  case AST_UNARY: collect_consts(s, e->u.unary.arg, own, found, seen); return;
  case AST_BINARY:
    collect_consts(s, e->u.binary.lhs, own, found, seen);
    collect_consts(s, e->u.binary.rhs, own, found, seen);
    return;
  case AST_CALL:
    for (int i = 0; i < e->u.call.n_args; i++) collect_consts(s, e->u.call.args[i], own, found, seen);
    return;
  }
}

/* k with the constants it reads appended to its parameters (k itself when it
   reads none), s->param_const saying which; *bad when one of them has an
   error (reported at its declaration). A parameter named as a constant is an error. */
static const ast_kernel *with_consts(sema *s, const ast_kernel *k, const ast_file *f, bool *bad) {
  nmap        own;
  int_vec     found = {0};
  bool       *seen = arena_array(&s->tmp, (size_t)s->n_consts + 1, sizeof *seen);
  ast_kernel *aug;
  s->param_const = NULL;
  *bad = false;
  if (s->n_consts == 0) return k;
  nmap_init(&own, &s->tmp);
  for (int i = 0; i < k->n_params; i++) {
    int c = nmap_get(&s->const_names, k->params[i].name);
    nmap_add(&own, k->params[i].name, i);
    if (c >= 0) {
      err(s, k->params[i].loc, "parameter '%s' has the name of a constant; rename one of them",
          k->params[i].name);
      diag_note(s->d, s->consts[c].loc, "constant '%s' declared here", s->consts[c].name);
      *bad = true;
    }
  }
  for (int i = 0; i < k->n_stmts; i++) nmap_add(&own, k->stmts[i].name, k->n_params + i);
  if (k->expr) collect_consts(s, k->expr, &own, &found, seen);
  for (int i = 0; i < k->n_stmts; i++) collect_consts(s, k->stmts[i].expr, &own, &found, seen);
  if (found.n == 0) return k;
  aug = arena_alloc(&s->tmp, sizeof *aug);
  *aug = *k;
  aug->n_params = k->n_params + (int)found.n;
  aug->params = arena_array(&s->tmp, (size_t)aug->n_params, sizeof *aug->params);
  s->param_const = arena_array(&s->tmp, (size_t)aug->n_params, sizeof *s->param_const);
  for (int i = 0; i < k->n_params; i++) {
    aug->params[i] = k->params[i];
    s->param_const[i] = -1;
  }
  for (size_t j = 0; j < found.n; j++) {
    int        c = found.data[j];
    ast_param *ap = &aug->params[k->n_params + (int)j];
    *ap = f->consts[c].decl;
    s->param_const[k->n_params + (int)j] = c;
    s->const_read[c] = true;
    if (!s->const_ok[c]) *bad = true;
    else ap->type = wc_dtype_name(s->consts[c].dtype);
  }
  return aug;
}

/* Check one kernel declaration and add its instances (one per binding of its
   type variables, the last variable varying fastest). */
static void check_kernel(sema *s, const ast_kernel *k) {
  nmap      params, tvars;
  ast_expr *resolved;
  long      count = 1;
  int      *idx, i;
  bool      tvars_ok, ok, long_name = false;

  s->k = k;
  s->bind = NULL;
  tvars_ok = check_tvars(s);
  if (s->n_consts > 0) {
    bool bad;
    k = s->k = with_consts(s, k, s->file, &bad);
    if (bad) return; /* reported at the constant or the parameter */
  }
  ok = check_params(s);
  nmap_init(&params, &s->tmp);
  nmap_init(&tvars, &s->tmp);
  for (i = 0; i < k->n_params; i++) nmap_add(&params, k->params[i].name, i);
  for (i = 0; i < k->n_tvars; i++) nmap_add(&tvars, k->tvars[i].name, i);
  resolved = NULL;
  if (k->n_outputs) ok = resolve_body(s, &params, &tvars) && ok && tvars_ok;
  else {
    resolved = ast_clone(&s->tmp, k->expr);
    ok = resolve(s, resolved, &params, &tvars, true) && ok && tvars_ok;
  }
  if (ok && !(resolved && resolved->kind == AST_CALL && resolved->u.call.fn == AST_FN_WHERE_V1))
    ok = check_out_size(s);
  if (!tvars_ok) return; /* the instance names are unknown */

  for (i = 0; i < k->n_tvars; i++) {
    count *= s->tv_count[i];
    if (count > SEMA_MAX_KERNELS) break;
  }
  if (s->n_instances + count > SEMA_MAX_KERNELS) {
    if (!s->too_many)
      err(s, k->loc, "too many kernels (more than %d after specialization)", SEMA_MAX_KERNELS);
    s->too_many = true;
    return;
  }
  s->n_instances += count;
  /* every instance is a typed copy of the expression: bound the copies */
  if (s->n_nodes + (int64_t)count * kernel_nodes(k) > SEMA_MAX_NODES) {
    if (!s->too_big)
      err(s, k->loc, "too many operations (more than %d in all kernels after specialization)",
          SEMA_MAX_NODES);
    s->too_big = true;
    return;
  }
  s->n_nodes += (int64_t)count * kernel_nodes(k);

  idx = arena_array(&s->tmp, (size_t)k->n_tvars + 1, sizeof *idx);
  for (;;) {
    sema_binding *bind = arena_array(s->pa, (size_t)k->n_tvars, sizeof *bind);
    diag_text     name = {0};
    diag_text_printf(&name, "%s", k->name);
    s->bind_desc.len = 0;
    for (i = 0; i < k->n_tvars; i++) {
      bind[i].var = arena_strdup(s->pa, k->tvars[i].name);
      bind[i].dtype = s->tv_types[i][idx[i]];
      diag_text_printf(&name, "_%s", wc_dtype_name(bind[i].dtype));
      diag_text_printf(&s->bind_desc, "%s%s = %s", i ? ", " : "", bind[i].var,
                       wc_dtype_name(bind[i].dtype));
    }
    if (name.len > LEX_MAX_IDENT && k->n_tvars > 0 && !long_name) { /* else the lexer said so */
      char buf[80];
      diag_error(s->d, k->loc,
                 "kernel name '%s' is too long after specialization (%zu bytes; "
                 "the limit is %d)",
                 printable(name.data, buf), name.len, LEX_MAX_IDENT);
      long_name = true;
    }
    /* Names are claimed even when the kernel has errors, so that a duplicate
       is reported at once, not after the first error is fixed. */
    if (!name.truncated && name.len <= LEX_MAX_IDENT) {
      const char *inst = arena_strdup(s->pa, name.data);
      if (claim_name(s, inst) && ok) instantiate(s, resolved, bind, inst);
    }
    diag_text_free(&name);
    for (i = k->n_tvars - 1; i >= 0; i--) {
      if (++idx[i] < s->tv_count[i]) break;
      idx[i] = 0;
    }
    if (i < 0) break;
  }
  s->bind = NULL;
}

/* The body of sema_check, below its out-of-memory recovery point. */
static void check_file(sema *s, const ast_file *f) {
  int i;
  nmap_init(&s->names, &s->glob);
  check_options(s, f);
  s->file = f;
  check_consts(s, f);
  for (i = 0; i < f->n_kernels; i++) {
    arena_init(&s->tmp);
    s->tmp.oom = s->glob.oom;
    check_kernel(s, &f->kernels[i]);
    arena_free(&s->tmp);
  }
  s->param_const = NULL;
  for (i = 0; i < s->n_consts; i++)
    if (s->const_ok[i] && !s->const_read[i])
      err(s, s->consts[i].loc, "constant '%s' is never read; remove it", s->consts[i].name);
  /* <prefix>_const_NAME are the constants' arrays: no kernel's symbols there */
  for (i = 0; s->n_consts > 0 && i < (int)s->kernels.n; i++)
    if (strncmp(s->kernels.data[i].name, "const_", 6) == 0)
      err(s, s->kernels.data[i].loc,
          "kernel name '%s' begins with 'const_', which names the arrays of the spec's "
          "constants (<prefix>_const_...)",
          s->kernels.data[i].name);
  s->prog->n_kernels = (int)s->kernels.n;
  s->prog->kernels = s->kernels.data;
  s->prog->n_consts = s->n_consts;
  s->prog->consts = s->consts;
}

/* Run check_file with an out-of-memory recovery point; false if memory ran out.
   (A function of its own so that no caller variable lives across setjmp.) */
static bool check_guarded(sema *s, const ast_file *f) {
  jmp_buf oom;
  if (setjmp(oom)) return false;
  s->prog->arena.oom = s->glob.oom = s->tmp.oom = &oom;
  if (f) check_file(s, f);
  s->prog->arena.oom = s->glob.oom = s->tmp.oom = NULL;
  return true;
}

sema_program *sema_check(const ast_file *f, diag_ctx *d) {
  sema         *s = calloc(1, sizeof *s);
  sema_program *prog = calloc(1, sizeof *prog);
  bool          ok;
  if (!s || !prog) {
    free(s);
    free(prog);
    diag_error(d, nowhere, "out of memory");
    return NULL;
  }
  s->d = d;
  s->prog = prog;
  s->pa = &prog->arena;
  arena_init(&prog->arena);
  arena_init(&s->glob);
  arena_init(&s->tmp);
  ok = check_guarded(s, f);
  if (!ok) diag_error(d, nowhere, "out of memory");
  arena_free(&s->tmp);
  arena_free(&s->glob);
  diag_text_free(&s->bind_desc);
  free(s);
  if (d->n_errors > 0) {
    sema_free(prog);
    return NULL;
  }
  return prog;
}

void sema_free(sema_program *p) {
  if (!p) return;
  arena_free(&p->arena);
  free(p);
}

void sema_dump(diag_text *t, const sema_program *p) {
  static const char *const kinds[] = {"elementwise", "where_v1", "argwhere", "nonzero"};
  int                      i, j;
  if (p->prefix) diag_text_printf(t, "option prefix = \"%s\"\n", p->prefix);
  if (p->unroll) diag_text_printf(t, "option unroll = %d\n", p->unroll);
  for (i = 0; i < p->n_kernels; i++) {
    const sema_kernel *k = &p->kernels[i];
    diag_text_printf(t, "kernel %s: %s", k->name, kinds[k->kind]);
    for (j = 0; j < k->n_bindings; j++)
      diag_text_printf(t, "%s%s = %s", j ? ", " : " (", k->bindings[j].var,
                       wc_dtype_name(k->bindings[j].dtype));
    diag_text_printf(t, "%s\n  extents:", k->n_bindings ? ")" : "");
    for (j = 0; j < k->n_extents; j++) diag_text_printf(t, " %s", k->extent_names[j]);
    diag_text_printf(t, "\n");
    for (j = 0; j < k->n_params; j++) {
      diag_text_printf(t, "  param %s: %s", k->params[j].name, wc_dtype_name(k->params[j].dtype));
      ast_print_shape(t, &k->params[j].shape, k->extent_names);
      diag_text_printf(t, "\n");
    }
    diag_text_printf(t, "  out: %s", wc_dtype_name(k->out_dtype));
    if (k->kind == WC_KIND_ARGWHERE || k->kind == WC_KIND_NONZERO)
      diag_text_printf(t, " coordinates of ");
    ast_print_shape(t, &k->out_shape, k->extent_names);
    if (!k->body) {
      diag_text_printf(t, "\n  expr: ");
      ast_print_expr(t, k->expr, k->extent_names);
      diag_text_printf(t, "\n");
      continue;
    }
    for (j = 0; j < k->n_stmts; j++) {
      diag_text_printf(t, "\n  stmt %d: ", j);
      ast_print_expr(t, k->stmts[j], k->extent_names);
    }
    for (j = 0; j < k->n_outputs; j++) {
      diag_text_printf(t, "\n  output %s: ", k->outputs[j].name);
      ast_print_expr(t, k->outputs[j].value, k->extent_names);
    }
    diag_text_printf(t, "\n");
  }
}
