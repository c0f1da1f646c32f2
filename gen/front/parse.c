/* parse.c: recursive-descent parser of `.where` specs (README, The spec language).
   Two tokens of lookahead; on a syntax error it skips to the next statement. */
#include "front/parse.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "front/lex.h"

typedef struct parser {
  lex_state lex;      /* token source */
  lex_token tok;      /* current token */
  lex_token next;     /* the token after tok */
  lex_token prev;     /* last token consumed (prev.kind EOF before any) */
  diag_ctx *d;        /* where errors go */
  arena    *a;        /* owns the tree (the file's arena) */
  int       depth;    /* nesting of the expression being parsed */
  bool      panic;    /* a syntax error in this statement; skip to the next */
  int       n_nodes;  /* expression nodes made in the whole file */
  bool      too_many; /* PARSE_MAX_NODES was reached (reported once) */
  int64_t   n_values; /* values of const statements so far (PARSE_MAX_VALUES) */
  bool      in_body;  /* inside a kernel's `{ ... }`: an error skips past its '}' */
} parser;

/* The file's lists, growing in the arena (vec.h). */
typedef VEC(ast_option) option_vec;
typedef VEC(ast_kernel) kernel_vec;
typedef VEC(ast_const) const_vec;

static void advance(parser *p) {
  p->prev = p->tok;
  p->tok = p->next;
  p->next = lex_next(&p->lex);
}

static char *tok_str(parser *p, const lex_token *t) { return arena_strndup(p->a, t->text, t->len); }

/* The empty location just after the previous token: where a missing token belongs. */
static diag_loc after_prev(const parser *p) {
  diag_loc loc = p->prev.loc;
  if (p->prev.kind == LEX_EOF) return p->tok.loc;
  loc.off += loc.len;
  loc.col += (int)loc.len;
  loc.len = 0;
  return loc;
}

/* "'foo'", "')'" or "end of file", printable and short, for messages. */
static const char *tok_desc(const lex_token *t, char buf[64]) {
  size_t i, n = t->len, o = 0;
  if (t->kind == LEX_EOF) return "end of file";
  buf[o++] = '\'';
  for (i = 0; i < n && i < 40; i++) {
    unsigned char c = (unsigned char)t->text[i];
    buf[o++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
  }
  if (i < n) {
    memcpy(buf + o, "...", 3);
    o += 3;
  }
  buf[o++] = '\'';
  buf[o] = '\0';
  return buf;
}

/* Report "expected WHAT" once per statement (never about a token the lexer
   already reported) and enter panic mode. */
static void fail(parser *p, const char *what) {
  char buf[64];
  if (!p->panic && p->tok.kind != LEX_ERROR) {
    if (p->tok.kind == LEX_EOF) diag_error(p->d, after_prev(p), "expected %s at end of file", what);
    else diag_error(p->d, p->tok.loc, "expected %s, got %s", what, tok_desc(&p->tok, buf));
  }
  p->panic = true;
}

static bool expect(parser *p, lex_kind kind, const char *what) {
  if (p->tok.kind == kind) {
    advance(p);
    return true;
  }
  fail(p, what);
  return false;
}

/* An identifier, copied; NULL (after an error) when there is none. */
static const char *expect_ident(parser *p, diag_loc *loc, const char *what) {
  const char *s;
  if (p->tok.kind != LEX_IDENT) {
    fail(p, what);
    return NULL;
  }
  s = tok_str(p, &p->tok);
  *loc = p->tok.loc;
  advance(p);
  return s;
}

/* Skip to the start of the next statement after a syntax error: past the next
   ';' outside braces (past the '}' that ends a kernel's body), or up to a
   `kernel` / `option` keyword (which only start statements). */
static void sync(parser *p) {
  int depth = p->in_body; /* inside braces: a body's statements end in ';' too */
  while (p->tok.kind != LEX_EOF && p->tok.kind != LEX_KERNEL && p->tok.kind != LEX_OPTION) {
    lex_kind k = p->tok.kind;
    advance(p);
    if (k == LEX_LBRACE) depth++;
    if ((k == LEX_RBRACE && depth > 0 && --depth == 0) || (k == LEX_SEMI && depth == 0)) break;
  }
  p->panic = false;
  p->in_body = false;
}

/* ---- expressions ----------------------------------------------------------- */

static ast_expr *parse_expr(parser *p, diag_loc at);

static ast_expr *new_expr(parser *p, ast_expr_kind kind, diag_loc loc) {
  ast_expr *e = arena_alloc(p->a, sizeof *e);
  p->n_nodes++;
  e->kind = kind;
  e->loc = loc;
  e->height = 1;
  return e;
}

/* Give e its height from an operand; a tree taller than the limit is an error,
   so every later recursive walk of the tree is bounded. */
static bool grow(parser *p, ast_expr *e, const ast_expr *operand) {
  if (operand->height + 1 > e->height) e->height = operand->height + 1;
  if (e->height > PARSE_MAX_DEPTH) {
    if (!p->panic)
      diag_error(p->d, e->loc, "expression nested too deeply (the limit is %d)", PARSE_MAX_DEPTH);
    p->panic = true;
    return false;
  }
  return true;
}

/* Enter one level of nesting, opened by the token at `at` (the caller leaves
   it with p->depth--); false, after one error, when that is too deep. */
static bool enter(parser *p, diag_loc at) {
  if (p->depth >= PARSE_MAX_DEPTH) {
    if (!p->panic)
      diag_error(p->d, at, "expression nested too deeply (the limit is %d)", PARSE_MAX_DEPTH);
    p->panic = true;
    return false;
  }
  p->depth++;
  return true;
}

static ast_expr *literal(parser *p, ast_lit_kind kind) {
  ast_expr *e = new_expr(p, AST_LIT, p->tok.loc);
  e->u.lit.kind = kind;
  e->u.lit.text = tok_str(p, &p->tok);
  e->u.lit.boolval = p->tok.kind == LEX_TRUE;
  advance(p);
  return e;
}

/* name '(' [expr {',' expr}] ')' with the name already consumed. */
static ast_expr *call(parser *p, const char *name, diag_loc loc) {
  ast_expr *e = new_expr(p, AST_CALL, loc);
  VEC(ast_expr *) args = {0};
  e->u.call.name = name;
  e->u.call.cast_var = -1;
  advance(p); /* ( */
  if (p->tok.kind != LEX_RPAREN) {
    for (;;) {
      ast_expr *arg = parse_expr(p, loc);
      if (!arg) return NULL;
      *vec_push(p->a, &args) = arg;
      if (!grow(p, e, arg)) return NULL;
      if (p->tok.kind != LEX_COMMA) break;
      advance(p);
    }
  }
  if (!expect(p, LEX_RPAREN, "',' or ')' in the argument list")) return NULL;
  e->u.call.n_args = (int)args.n;
  e->u.call.args = args.data;
  return e;
}

/* False, after one error for the whole file, when the file has made its
   PARSE_MAX_NODES expression nodes: every operand starts here or in
   parse_unary, so no expression grows much past the limit. */
static bool room(parser *p) {
  if (p->n_nodes < PARSE_MAX_NODES) return true;
  if (!p->too_many)
    diag_error(p->d, p->tok.loc, "too many operations in one file (the limit is %d)",
               PARSE_MAX_NODES);
  p->too_many = true;
  p->panic = true;
  return false;
}

/* primary := literal | name | name '(' args ')' | '(' expr ')' */
static ast_expr *parse_primary(parser *p) {
  if (!room(p)) return NULL;
  switch (p->tok.kind) {
  case LEX_INT: return literal(p, AST_LIT_INT);
  case LEX_FLOAT: return literal(p, AST_LIT_FLOAT);
  case LEX_INF: return literal(p, AST_LIT_INF);
  case LEX_NAN: return literal(p, AST_LIT_NAN);
  case LEX_TRUE:
  case LEX_FALSE: return literal(p, AST_LIT_BOOL);
  case LEX_IDENT: {
    diag_loc    loc = p->tok.loc;
    const char *name = tok_str(p, &p->tok);
    ast_expr   *e;
    advance(p);
    if (p->tok.kind == LEX_LPAREN) return call(p, name, loc);
    e = new_expr(p, AST_PARAM, loc);
    e->u.param.name = name;
    e->u.param.index = -1;
    return e;
  }
  case LEX_LPAREN: {
    diag_loc  at = p->tok.loc;
    ast_expr *e;
    advance(p);
    e = parse_expr(p, at);
    if (!e || !expect(p, LEX_RPAREN, "')'")) return NULL;
    return e;
  }
  default: fail(p, "an expression"); return NULL;
  }
}

/* unary := ('!' | '-' | '~') unary | primary.  A minus in front of a numeric
   literal is folded into it, so `-1` is one literal (and `-1` as uint32 can
   be rejected as a value, not as a negation). */
static ast_expr *parse_unary(parser *p) {
  ast_expr *arg, *e;
  lex_token op = p->tok;
  if (op.kind != LEX_NOT && op.kind != LEX_MINUS && op.kind != LEX_TILDE) return parse_primary(p);
  if (!room(p) || !enter(p, op.loc)) return NULL;
  advance(p);
  arg = parse_unary(p);
  p->depth--;
  if (!arg) return NULL;
  if (op.kind == LEX_MINUS && arg->kind == AST_LIT && arg->u.lit.kind != AST_LIT_BOOL) {
    size_t end = arg->loc.off + arg->loc.len;
    arg->u.lit.neg = !arg->u.lit.neg;
    arg->loc.line = op.loc.line;
    arg->loc.col = op.loc.col;
    arg->loc.off = op.loc.off;
    arg->loc.len = end - op.loc.off;
    return arg;
  }
  e = new_expr(p, AST_UNARY, op.loc);
  e->u.unary.op = op.kind == LEX_NOT ? WC_OP_NOT : op.kind == LEX_TILDE ? WC_OP_BNOT : WC_OP_NEG;
  e->u.unary.arg = arg;
  return grow(p, e, arg) ? e : NULL;
}

/* The binary operator of a token and its C precedence (higher binds tighter):
   || && | ^ & (== !=) (< <= > >=) (<< >>) (+ -) (* / %). */
static int binary_op(lex_kind k, wc_opcode *op) {
  switch (k) {
  case LEX_OROR: *op = WC_OP_OR; return 1;
  case LEX_ANDAND: *op = WC_OP_AND; return 2;
  case LEX_PIPE: *op = WC_OP_BOR; return 3;
  case LEX_CARET: *op = WC_OP_BXOR; return 4;
  case LEX_AMP: *op = WC_OP_BAND; return 5;
  case LEX_EQ: *op = WC_OP_EQ; return 6;
  case LEX_NE: *op = WC_OP_NE; return 6;
  case LEX_LT: *op = WC_OP_LT; return 7;
  case LEX_LE: *op = WC_OP_LE; return 7;
  case LEX_GT: *op = WC_OP_GT; return 7;
  case LEX_GE: *op = WC_OP_GE; return 7;
  case LEX_SHL: *op = WC_OP_SHL; return 8;
  case LEX_SHR: *op = WC_OP_SHR; return 8;
  case LEX_PLUS: *op = WC_OP_ADD; return 9;
  case LEX_MINUS: *op = WC_OP_SUB; return 9;
  case LEX_STAR: *op = WC_OP_MUL; return 10;
  case LEX_SLASH: *op = WC_OP_DIV; return 10;
  case LEX_PERCENT: *op = WC_OP_MOD; return 10;
  default: return 0;
  }
}

/* Precedence climbing: operators of precedence >= min_prec, left-associative.
   The recursion is at most one frame per precedence level; long chains build
   left-deep trees whose height grow() bounds. */
static ast_expr *parse_binary(parser *p, int min_prec) {
  ast_expr *lhs = parse_unary(p);
  while (lhs) {
    wc_opcode op = WC_OP_OR;
    int       prec = binary_op(p->tok.kind, &op);
    diag_loc  loc = p->tok.loc;
    ast_expr *rhs, *e;
    if (!prec || prec < min_prec) break;
    advance(p);
    rhs = parse_binary(p, prec + 1);
    if (!rhs) return NULL;
    e = new_expr(p, AST_BINARY, loc);
    e->u.binary.op = op;
    e->u.binary.lhs = lhs;
    e->u.binary.rhs = rhs;
    if (!grow(p, e, lhs) || !grow(p, e, rhs)) return NULL;
    lhs = e;
  }
  return lhs;
}

/* expr := a binary expression; `at` is the token that opened this nesting level. */
static ast_expr *parse_expr(parser *p, diag_loc at) {
  ast_expr *e;
  if (!enter(p, at)) return NULL;
  e = parse_binary(p, 1);
  p->depth--;
  return e;
}

/* ---- statements ------------------------------------------------------------ */

/* option := 'option' name '=' (integer | string) ';' */
static void parse_option(parser *p, option_vec *options) {
  ast_option o;
  memset(&o, 0, sizeof o);
  advance(p); /* option */
  if (!(o.name = expect_ident(p, &o.loc, "an option name"))) return;
  if (!expect(p, LEX_ASSIGN, "'=' after the option name")) return;
  o.value_loc = p->tok.loc;
  if (p->tok.kind == LEX_INT) {
    o.kind = AST_OPTION_INT;
    o.text = tok_str(p, &p->tok);
    o.too_big = !ast_parse_uint(o.text, &o.ival);
  } else if (p->tok.kind == LEX_STRING) {
    o.kind = AST_OPTION_STRING;
    o.text = arena_strndup(p->a, p->tok.text + 1, p->tok.len - 2);
  } else {
    fail(p, "an integer or a string as the option's value");
    return;
  }
  advance(p);
  if (!expect(p, LEX_SEMI, "';' after the option")) return;
  *vec_push(p->a, options) = o;
}

/* tvars := '<' tvar {',' tvar} '>';  tvar := name ':' [dtype {',' dtype}].
   A ',' followed by `name :` starts the next variable. */
static bool parse_tvars(parser *p, ast_kernel *k) {
  VEC(ast_tvar) tvars = {0};
  advance(p); /* < */
  for (;;) {
    ast_tvar *tv = vec_push(p->a, &tvars);
    VEC(ast_name) types = {0};
    bool next_var = false;
    if (!(tv->name = expect_ident(p, &tv->loc, "a type variable name"))) return false;
    if (!expect(p, LEX_COLON, "':' after the type variable")) return false;
    while (p->tok.kind == LEX_IDENT && p->next.kind != LEX_COLON) {
      ast_name *t = vec_push(p->a, &types);
      t->name = expect_ident(p, &t->loc, "a dtype");
      if (p->tok.kind != LEX_COMMA) break;
      advance(p);
      if (p->tok.kind == LEX_IDENT && p->next.kind == LEX_COLON) {
        next_var = true;
        break;
      }
      if (p->tok.kind != LEX_IDENT) {
        fail(p, "a dtype after ','");
        return false;
      }
    }
    tv->n_types = (int)types.n;
    tv->types = types.data;
    if (next_var) continue;
    if (p->tok.kind == LEX_COMMA) {
      advance(p);
      continue;
    }
    if (!expect(p, LEX_GT, "',' or '>' in the specialization list")) return false;
    break;
  }
  k->n_tvars = (int)tvars.n;
  k->tvars = tvars.data;
  return true;
}

/* param := name ':' type ['[' [dim {',' dim}] ']'];  dim := integer | name */
static bool parse_param(parser *p, ast_param *prm) {
  VEC(ast_dim) dims = {0};
  if (!(prm->name = expect_ident(p, &prm->loc, "a parameter name"))) return false;
  if (!expect(p, LEX_COLON, "':' after the parameter name")) return false;
  if (!(prm->type = expect_ident(p, &prm->type_loc, "a dtype or type variable"))) return false;
  if (p->tok.kind == LEX_LBRACK) {
    advance(p);
    while (p->tok.kind != LEX_RBRACK) {
      ast_dim *dim = vec_push(p->a, &dims);
      dim->loc = p->tok.loc;
      if (p->tok.kind == LEX_INT) {
        dim->too_big = !ast_parse_uint(tok_str(p, &p->tok), &dim->value);
        advance(p);
      } else if (p->tok.kind == LEX_IDENT) {
        dim->name = tok_str(p, &p->tok);
        advance(p);
      } else {
        fail(p, "an extent (an integer or a name)");
        return false;
      }
      if (p->tok.kind == LEX_COMMA) {
        advance(p);
        if (p->tok.kind == LEX_RBRACK) {
          fail(p, "an extent after ','");
          return false;
        }
      } else if (p->tok.kind != LEX_RBRACK) {
        fail(p, "',' or ']' in the shape");
        return false;
      }
    }
    advance(p);
  }
  prm->rank = (int)dims.n;
  prm->dims = dims.data;
  return true;
}

/* outputs := '->' '(' name {',' name} ')' */
static bool parse_outputs(parser *p, ast_kernel *k) {
  VEC(ast_name) outs = {0};
  advance(p); /* -> */
  if (!expect(p, LEX_LPAREN, "'(' before the output names")) return false;
  for (;;) {
    ast_name *o = vec_push(p->a, &outs);
    if (!(o->name = expect_ident(p, &o->loc, "an output name"))) return false;
    if (p->tok.kind != LEX_COMMA) break;
    advance(p);
  }
  if (!expect(p, LEX_RPAREN, "',' or ')' after an output name")) return false;
  k->n_outputs = (int)outs.n;
  k->outputs = outs.data;
  return true;
}

/* body := '{' {stmt} '}';  stmt := ['let'] name '=' expr ';'  (`let` is a
   keyword here only, so specs naming a parameter `let` stay valid). */
static bool parse_body(parser *p, ast_kernel *k) {
  VEC(ast_stmt) stmts = {0};
  if (!expect(p, LEX_LBRACE, "'{' before the kernel's statements")) return false;
  p->in_body = true;
  while (p->tok.kind != LEX_RBRACE) {
    ast_stmt *st = vec_push(p->a, &stmts);
    memset(st, 0, sizeof *st);
    if (p->tok.kind == LEX_IDENT && p->next.kind == LEX_IDENT && p->tok.len == 3 &&
        memcmp(p->tok.text, "let", 3) == 0) {
      st->let = true;
      advance(p);
    }
    if (!(st->name = expect_ident(p, &st->loc, "'let', an output's name or '}'"))) return false;
    if (!expect(p, LEX_ASSIGN, "'=' after the name")) return false;
    if (!(st->expr = parse_expr(p, p->tok.loc))) return false;
    if (!expect(p, LEX_SEMI, "';' after the statement")) return false;
  }
  advance(p); /* } */
  p->in_body = false;
  k->n_stmts = (int)stmts.n;
  k->stmts = stmts.data;
  return true;
}

/* kernel := 'kernel' name [tvars] '(' [param {',' param}] ')' ('=' expr ';' | outputs body) */
static void parse_kernel(parser *p, kernel_vec *kernels) {
  ast_kernel k;
  VEC(ast_param) params = {0};
  memset(&k, 0, sizeof k);
  p->depth = 0;
  advance(p); /* kernel */
  if (!(k.name = expect_ident(p, &k.loc, "a kernel name"))) return;
  if (p->tok.kind == LEX_LT && !parse_tvars(p, &k)) return;
  if (!expect(p, LEX_LPAREN, "'(' before the parameters")) return;
  if (p->tok.kind != LEX_RPAREN) {
    for (;;) {
      if (!parse_param(p, vec_push(p->a, &params))) return;
      if (p->tok.kind != LEX_COMMA) break;
      advance(p);
    }
  }
  if (!expect(p, LEX_RPAREN, "',' or ')' after a parameter")) return;
  k.n_params = (int)params.n;
  k.params = params.data;
  if (p->tok.kind == LEX_ARROW) {
    if (!parse_outputs(p, &k) || !parse_body(p, &k)) return;
    *vec_push(p->a, kernels) = k;
    return;
  }
  if (!expect(p, LEX_ASSIGN, "'=' before the kernel expression")) return;
  if (!(k.expr = parse_expr(p, p->tok.loc))) return;
  if (p->tok.kind != LEX_SEMI) {
    fail(p, "';' after the kernel expression");
    return;
  }
  advance(p);
  *vec_push(p->a, kernels) = k;
}

/* value := ['-'] (integer | number | 'inf' | 'nan') | 'true' | 'false' */
static bool parse_value(parser *p, ast_value *v) {
  memset(v, 0, sizeof *v);
  v->loc = p->tok.loc;
  if (p->tok.kind == LEX_MINUS) {
    v->neg = true;
    advance(p);
  }
  switch (p->tok.kind) {
  case LEX_INT: v->kind = AST_LIT_INT; break;
  case LEX_FLOAT: v->kind = AST_LIT_FLOAT; break;
  case LEX_INF: v->kind = AST_LIT_INF; break;
  case LEX_NAN: v->kind = AST_LIT_NAN; break;
  case LEX_TRUE:
  case LEX_FALSE:
    v->kind = AST_LIT_BOOL;
    v->boolval = p->tok.kind == LEX_TRUE;
    if (!v->neg) break;
    fail(p, "a number after '-'"); /* -true is no value */
    return false;
  default: fail(p, "a literal value (a number, inf, nan, true or false)"); return false;
  }
  if (v->neg) v->loc.len = p->tok.loc.off + p->tok.loc.len - v->loc.off;
  v->text = tok_str(p, &p->tok);
  advance(p);
  return true;
}

/* const := 'const' param '=' '{' [value {',' value}] '}' ';'  (`const` is a
   keyword only at the start of a statement, before a name). */
static void parse_const(parser *p, const_vec *consts) {
  ast_const c;
  VEC(ast_value) values = {0};
  memset(&c, 0, sizeof c);
  advance(p); /* const */
  if (!parse_param(p, &c.decl)) return;
  if (!expect(p, LEX_ASSIGN, "'=' after the constant's type")) return;
  c.brace = p->tok.loc;
  if (!expect(p, LEX_LBRACE, "'{' before the constant's values")) return;
  while (p->tok.kind != LEX_RBRACE) {
    if (p->n_values >= PARSE_MAX_VALUES) {
      diag_error(p->d, p->tok.loc, "too many constant values in one file (the limit is %lld)",
                 (long long)PARSE_MAX_VALUES);
      p->panic = true;
      return;
    }
    if (!parse_value(p, vec_push(p->a, &values))) return;
    p->n_values++;
    if (p->tok.kind == LEX_COMMA) {
      advance(p);
      if (p->tok.kind == LEX_RBRACE) {
        fail(p, "a value after ','");
        return;
      }
    } else if (p->tok.kind != LEX_RBRACE) {
      fail(p, "',' or '}' in the constant's values");
      return;
    }
  }
  advance(p); /* } */
  if (!expect(p, LEX_SEMI, "';' after the constant")) return;
  c.n_values = (int64_t)values.n;
  c.values = values.data;
  *vec_push(p->a, consts) = c;
}

/* Parse the whole file into f (the work of parse_source, apart from its
   out-of-memory recovery point). */
static void parse_file(ast_file *f, const char *src, size_t len, diag_ctx *d) {
  parser     p;
  option_vec options = {0};
  kernel_vec kernels = {0};
  const_vec  consts = {0};
  /* The lexer needs a NUL sentinel at src[len]: lex a copy that has one. */
  char *copy = arena_alloc(&f->arena, len + 1);
  if (len) memcpy(copy, src, len);
  memset(&p, 0, sizeof p);
  p.d = d;
  p.a = &f->arena;
  lex_init(&p.lex, copy, len, d);
  p.prev.kind = LEX_EOF;
  p.tok = lex_next(&p.lex);
  p.next = lex_next(&p.lex);

  while (p.tok.kind != LEX_EOF) {
    switch (p.tok.kind) {
    case LEX_KERNEL: parse_kernel(&p, &kernels); break;
    case LEX_OPTION: parse_option(&p, &options); break;
    case LEX_SEMI: advance(&p); break;
    default:
      if (p.tok.kind == LEX_IDENT && p.next.kind == LEX_IDENT && p.tok.len == 5 &&
          memcmp(p.tok.text, "const", 5) == 0)
        parse_const(&p, &consts);
      else fail(&p, "'kernel', 'option' or 'const'");
      break;
    }
    if (p.panic) sync(&p);
  }
  f->n_options = (int)options.n;
  f->options = options.data;
  f->n_kernels = (int)kernels.n;
  f->kernels = kernels.data;
  f->n_consts = (int)consts.n;
  f->consts = consts.data;
}

/* Run parse_file with an out-of-memory recovery point; false if memory ran out.
   (A function of its own so that no caller variable lives across setjmp.) */
static bool parse_guarded(ast_file *f, const char *src, size_t len, diag_ctx *d) {
  jmp_buf oom;
  if (setjmp(oom)) return false;
  f->arena.oom = &oom;
  parse_file(f, src, len, d);
  f->arena.oom = NULL;
  return true;
}

ast_file *parse_source(const char *src, size_t len, diag_ctx *d) {
  static const diag_loc nowhere = {0, 0, 0, 0};
  ast_file             *f;

  if (len > PARSE_MAX_SOURCE) {
    diag_error(d, nowhere, "source is too large (%zu bytes; the limit is %zu)", len,
               PARSE_MAX_SOURCE);
    return NULL;
  }
  f = calloc(1, sizeof *f);
  if (!f) {
    diag_error(d, nowhere, "out of memory");
    return NULL;
  }
  arena_init(&f->arena);
  if (!parse_guarded(f, src, len, d)) {
    ast_file_free(f);
    diag_error(d, nowhere, "out of memory");
    return NULL;
  }
  return f;
}
