/* lexer.re: the lexer of `.where` specs; re2c turns it into lexer.c at build time.
   Bounds-checked on any byte sequence: the buffer ends in a NUL sentinel checked against YYLIMIT. */
#include "front/lex.h"

#include <string.h>

/*!re2c
  re2c:define:YYCTYPE = "unsigned char";
  re2c:define:YYCURSOR = cur;
  re2c:define:YYMARKER = mar;
  re2c:define:YYLIMIT = lim;
  re2c:yyfill:enable = 0;
  re2c:eof = 0;
  re2c:indent:string = "  ";

  ident  = [a-zA-Z_][a-zA-Z_0-9]*;
  dec    = [0-9]+;
  hex    = "0" [xX] [0-9a-fA-F]+;
  exp    = [eE] [+-]? [0-9]+;
  float  = ([0-9]+ "." [0-9]* | "." [0-9]+) exp? | [0-9]+ exp;
  number = dec | hex | float;
  space  = [ \t\r\v\f];
  bad    = [^a-zA-Z0-9_ \t\r\v\f\n#"()[\]{},;:=|&!<>+*/%^~.\-];
*/

static const char *const kind_str[] = {
#define LEX_KIND_STR_(k, s) s,
  LEX_TOKEN_LIST(LEX_KIND_STR_)
#undef LEX_KIND_STR_
};

const char *lex_kind_str(lex_kind k) {
  return (unsigned)k < LEX_KIND_COUNT_ ? kind_str[k] : "token";
}

/* Start at src; a UTF-8 byte order mark is skipped (columns still count its bytes). */
void lex_init(lex_state *l, const char *src, size_t len, diag_ctx *diag) {
  l->src = src;
  l->cur = len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0 ? src + 3 : src;
  l->lim = src + len;
  l->line_start = src;
  l->line = 1;
  l->diag = diag;
}

/* The location of the bytes [tok, end) on the current line. */
static diag_loc loc_of(const lex_state *l, const char *tok, const char *end) {
  diag_loc loc;
  loc.line = l->line;
  loc.col = (int)(tok - l->line_start) + 1;
  loc.off = (size_t)(tok - l->src);
  loc.len = (size_t)(end - tok);
  return loc;
}

/* Report a run of bytes that cannot start a token, naming the first one. */
static void report_bad_byte(lex_state *l, const char *tok, const char *end) {
  unsigned char c = (unsigned char)*tok;
  diag_loc loc = loc_of(l, tok, end);
  if (c == 0)
    diag_error(l->diag, loc, "invalid NUL byte");
  else if (c > 0x20 && c < 0x7f)
    diag_error(l->diag, loc, "invalid character '%c'", c);
  else if (c >= 0x80)
    diag_error(l->diag, loc,
               "invalid byte 0x%02X (non-ASCII text may appear only in comments and strings)", c);
  else
    diag_error(l->diag, loc, "invalid byte 0x%02X", c);
}

/* Lex one token.  re2c matches the longest rule (the first one on a tie, so
   keywords win over identifiers); `$` fires only at the real end, so NUL
   bytes before it are ordinary (invalid) input. */
lex_token lex_next(lex_state *l) {
  const unsigned char *cur = (const unsigned char *)l->cur;
  const unsigned char *lim = (const unsigned char *)l->lim;
  const unsigned char *mar = cur;
  const char *tok;
  lex_kind kind;
  lex_token t;

  for (;;) {
    tok = (const char *)cur;
    /*!re2c
      $             { kind = LEX_EOF; break; }
      space+        { continue; }
      "\n"          { l->line++; l->line_start = (const char *)cur; continue; }
      "#" [^\n\x00]* { continue; }

      "kernel"      { kind = LEX_KERNEL; break; }
      "option"      { kind = LEX_OPTION; break; }
      "true"        { kind = LEX_TRUE; break; }
      "false"       { kind = LEX_FALSE; break; }
      "inf"         { kind = LEX_INF; break; }
      "nan"         { kind = LEX_NAN; break; }
      ident         {
        kind = LEX_IDENT;
        if ((const char *)cur - tok > LEX_MAX_IDENT)
          diag_error(l->diag, loc_of(l, tok, (const char *)cur),
                     "identifier is too long (%zu bytes; the limit is %d)",
                     (size_t)((const char *)cur - tok), LEX_MAX_IDENT);
        break;
      }

      dec | hex     { kind = LEX_INT; break; }
      float         { kind = LEX_FLOAT; break; }
      number [a-zA-Z_0-9.]+ {
        kind = LEX_ERROR;
        diag_error(l->diag, loc_of(l, tok, (const char *)cur), "invalid numeric literal '%.*s'",
                   (int)((const char *)cur - tok > 64 ? 64 : (const char *)cur - tok), tok);
        break;
      }

      ["] [^"\n]* ["] {
        const char *nul = memchr(tok, '\0', (size_t)((const char *)cur - tok));
        kind = LEX_STRING;
        if (nul) {
          kind = LEX_ERROR;
          diag_error(l->diag, loc_of(l, nul, nul + 1), "invalid NUL byte in string literal");
        }
        break;
      }
      ["] [^"\n]*   {
        kind = LEX_ERROR;
        diag_error(l->diag, loc_of(l, tok, (const char *)cur), "unterminated string literal");
        break;
      }

      "("  { kind = LEX_LPAREN; break; }
      ")"  { kind = LEX_RPAREN; break; }
      "["  { kind = LEX_LBRACK; break; }
      "]"  { kind = LEX_RBRACK; break; }
      "{"  { kind = LEX_LBRACE; break; }
      "}"  { kind = LEX_RBRACE; break; }
      ","  { kind = LEX_COMMA; break; }
      ";"  { kind = LEX_SEMI; break; }
      ":"  { kind = LEX_COLON; break; }
      "="  { kind = LEX_ASSIGN; break; }
      "||" { kind = LEX_OROR; break; }
      "&&" { kind = LEX_ANDAND; break; }
      "!"  { kind = LEX_NOT; break; }
      "==" { kind = LEX_EQ; break; }
      "!=" { kind = LEX_NE; break; }
      "<"  { kind = LEX_LT; break; }
      "<=" { kind = LEX_LE; break; }
      ">"  { kind = LEX_GT; break; }
      ">=" { kind = LEX_GE; break; }
      "+"  { kind = LEX_PLUS; break; }
      "-"  { kind = LEX_MINUS; break; }
      "*"  { kind = LEX_STAR; break; }
      "/"  { kind = LEX_SLASH; break; }
      "%"  { kind = LEX_PERCENT; break; }
      "&"  { kind = LEX_AMP; break; }
      "|"  { kind = LEX_PIPE; break; }
      "^"  { kind = LEX_CARET; break; }
      "~"  { kind = LEX_TILDE; break; }
      "<<" { kind = LEX_SHL; break; }
      ">>" { kind = LEX_SHR; break; }
      "->" { kind = LEX_ARROW; break; }

      bad+ {
        kind = LEX_ERROR;
        report_bad_byte(l, tok, (const char *)cur);
        break;
      }
      * {
        kind = LEX_ERROR;
        report_bad_byte(l, tok, (const char *)cur);
        break;
      }
    */
  }
  (void)mar;
  l->cur = (const char *)cur;
  t.kind = kind;
  t.loc = loc_of(l, tok, (const char *)cur);
  t.text = tok;
  t.len = (size_t)((const char *)cur - tok);
  return t;
}
