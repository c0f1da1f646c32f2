/* ops.c: the operator table of wherec import, expanded from ALL_OP_LIST (ops.h): the rows,
   the attribute readers, the look-ups and the table as JSON. */
#include "import/ops.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "import/forms.h"
#include "import/graph.h"

/* ---- attributes ---------------------------------------------------------------------- */

static op_attr_f read_f(const import_graph *gr, const onnx_node *n, const char *name, float dflt) {
  (void)gr;
  const onnx_attr *a = graph_attr(n, name);
  return a && a->has_f ? a->f : dflt;
}

static op_attr_i read_i(const import_graph *gr, const onnx_node *n, const char *name,
                        int64_t dflt) {
  (void)gr;
  const onnx_attr *a = graph_attr(n, name);
  return a && a->has_i ? a->i : dflt;
}

static op_attr_s read_s(const import_graph *gr, const onnx_node *n, const char *name,
                        const char *dflt) {
  const onnx_attr *a = graph_attr(n, name);
  if (!a || !a->has_s) return dflt;
  char *s = graph_alloc(gr, a->s.len + 1, 1);
  memcpy(s, a->s.data, a->s.len);
  s[a->s.len] = '\0';
  return s;
}

/* read_attrs_Relu, ...: every attribute of the row into its typed struct. */
#define A(type, name, dflt)               out->name = read_##type(gr, n, #name, dflt);
#define AV(type, name, dflt, from, until) out->name = read_##type(gr, n, #name, dflt);
#define READER_(Name, since, in, ty, o, sh, attrs, ...)                                      \
  static void read_attrs_##Name(const import_graph *gr, const onnx_node *n, op_attrs *all) { \
    op_attrs_##Name *out = &all->Name;                                                       \
    (void)gr, (void)n;                                                                       \
    attrs out->none_ = 0;                                                                    \
  }
ALL_OP_LIST(READER_)
#undef READER_
#undef A
#undef AV

/* attrs_Relu, ...: the attribute columns as data. */
#define ATTR_NUM_f(d)       (double)(d), NULL
#define ATTR_NUM_i(d)       (double)(d), NULL
#define ATTR_NUM_s(d)       0, d
#define ATTR_TYPE_f         'f'
#define ATTR_TYPE_i         'i'
#define ATTR_TYPE_s         's'
#define A(type, name, dflt) {#name, ATTR_TYPE_##type, ATTR_NUM_##type(dflt), 1, 0},
#define AV(type, name, dflt, from, until) \
  {#name, ATTR_TYPE_##type, ATTR_NUM_##type(dflt), from, until},
#define COLUMNS_(Name, since, in, ty, o, sh, attrs, ...) \
  static const op_attr attrs_##Name[] = {attrs{NULL, 0, 0, NULL, 0, 0}};
ALL_OP_LIST(COLUMNS_)
#undef COLUMNS_
#undef A
#undef AV

/* ---- the rows ------------------------------------------------------------------------- */

#define F(text)           true, text, NULL, NULL
#define B(name)           true, NULL, #name, form_##name
#define NONE              false, NULL, NULL, NULL
#define ORT(kind)         ORT_##kind, "", ""
#define ORTR(why, dtypes) ORT_REORDER, why, dtypes
/* A row (one of ONNX's; ROW_MS_: com.microsoft's, whose identifiers carry "Ms" before the
   op_type). Two bodies: the formula column expands to four fields, which no macro can pass on. */
#define ROW_(Name, since, in, ty, o, sh, attrs, form, check, ort)                                \
  {OP_##Name, #Name, since, 0, in, 0, {0}, {0}, {0}, 0, 0, 0, ty, o, #sh, infer_##sh,          \
   attrs_##Name, (int)(sizeof attrs_##Name / sizeof *attrs_##Name) - 1, read_attrs_##Name,     \
   form, check_##check, ort, ""},
#define ROW_MS_(Name, since, in, ty, o, sh, attrs, form, check, ort)                             \
  {OP_##Name, &#Name[2], since, 0, in, 0, {0}, {0}, {0}, 0, 0, 0, ty, o, #sh, infer_##sh,      \
   attrs_##Name, (int)(sizeof attrs_##Name / sizeof *attrs_##Name) - 1, read_attrs_##Name,     \
   form, check_##check, ort, "com.microsoft"},
static op_row op_table[] = {ONNX_OP_LIST(ROW_) MS_OP_LIST(ROW_MS_)};
#undef ROW_MS_
#undef ROW_
#undef F
#undef B
#undef NONE
#undef ORT
#undef ORTR

/* The inputs column ("condition:B X:T Y:T", "data_0:T...", "input:T min?:T max?:T") into
   the row's input fields. A malformed column is a defect of the table: test_import_ops
   checks every row (op_table_ok). */
static void parse_inputs(op_row *r) {
  const char *p = r->inputs;
  r->typed = -1;
  r->max_in = 0;
  while (*p) {
    while (*p == ' ') p++;
    if (!*p) break;
    const char *name = p;
    while (*p && *p != ':' && *p != '?') p++;
    size_t len = (size_t)(p - name);
    bool   optional = *p == '?';
    if (optional) p++;
    if (*p == ':') p++;
    char kind = *p ? *p++ : '*';
    bool variadic = strncmp(p, "...", 3) == 0;
    if (variadic) p += 3;
    int k = r->n_named;
    if (k < OP_MAX_INPUTS) {
      char *s = malloc(len + 1);
      if (s) {
        memcpy(s, name, len);
        s[len] = '\0';
      }
      r->in_name[k] = s ? s : "?";
      r->in_kind[k] = kind;
      r->in_optional[k] = optional;
      r->n_named++;
    }
    if (kind == 'T' && r->typed < 0) r->typed = k;
    if (!optional) r->min_in = k + 1;
    r->max_in = variadic ? -1 : k + 1;
    while (*p && *p != ' ') p++;
  }
  if (r->typed < 0) r->typed = 0;
  r->first = atoi(r->since);
}

static once_flag parsed = ONCE_FLAG_INIT;

static void parse_all(void) {
  for (size_t k = 0; k < sizeof op_table / sizeof *op_table; k++) parse_inputs(&op_table[k]);
}

const op_row *op_get(op_id id) {
  call_once(&parsed, parse_all);
  return id < OP_N ? &op_table[id] : NULL;
}

const op_row *op_lookup(const char *domain, const char *op_type) {
  if (strcmp(domain, "ai.onnx") == 0) domain = "";
  call_once(&parsed, parse_all);
  for (size_t k = 0; k < sizeof op_table / sizeof *op_table; k++)
    if (strcmp(op_table[k].domain, domain) == 0 && strcmp(op_table[k].name, op_type) == 0)
      return &op_table[k];
  return NULL;
}

int op_input_index(const op_row *op, const char *name, size_t len) {
  for (int k = 0; k < op->n_named; k++)
    if (strlen(op->in_name[k]) == len && memcmp(op->in_name[k], name, len) == 0) return k;
  return -1;
}

const op_attr *op_attr_find(const op_row *op, const char *name, size_t len) {
  for (int k = 0; k < op->n_attrs; k++)
    if (strlen(op->attrs[k].name) == len && memcmp(op->attrs[k].name, name, len) == 0)
      return &op->attrs[k];
  return NULL;
}

bool op_gives_bool(const op_row *op) { return op && op->out == OUT_BOOL; }

/* ---- the table as JSON ---------------------------------------------------------------- */

static void json_str(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fprintf(out, "\\%c", *s);
    else if ((unsigned char)*s < 0x20) fprintf(out, "\\u%04x", (unsigned)(unsigned char)*s);
    else fputc(*s, out);
  }
  fputc('"', out);
}

static const char *class_names(unsigned types, char *buf, size_t cap) {
  static const struct {
    unsigned    bit;
    const char *name;
  } classes[] = {{OPT_B, "bool"},  {OPT_S, "signed"},   {OPT_U, "unsigned"},
                 {OPT_F, "float"}, {OPT_STR, "string"}, {OPT_CX, "complex"}};
  size_t n = 0;
  buf[0] = '\0';
  for (size_t k = 0; k < sizeof classes / sizeof *classes; k++)
    if ((types & classes[k].bit) == classes[k].bit)
      n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s\"%s\"", n ? ", " : "",
                            classes[k].name);
  return buf;
}

void op_list_json(FILE *out) {
  static const char *const outs[] = {"T",         "bool",  "int64", "int32",
                                     "cast",      "quantized", "scale", "rule"};
  _Static_assert(sizeof outs / sizeof *outs == OUT_RULE + 1, "a name per op_out");
  static const char *const orts[] = {"exact", "approximates", "reorders"};
  call_once(&parsed, parse_all);
  fprintf(out, "{\"operators\": [\n");
  for (size_t k = 0; k < sizeof op_table / sizeof *op_table; k++) {
    const op_row *r = &op_table[k];
    char          buf[128];
    fprintf(out, "  {\"name\": \"%s\", \"domain\": \"%s\", \"since\": [", r->name,
            r->domain[0] ? r->domain : "ai.onnx");
    for (const char *p = r->since; *p;) {
      char *end;
      long  v = strtol(p, &end, 10);
      fprintf(out, "%s%ld", p == r->since ? "" : ", ", v);
      p = *end ? end + 1 : end;
    }
    fprintf(out, "],\n   \"inputs\": [");
    for (int i = 0; i < r->n_named; i++) {
      fprintf(out, "%s{\"name\": ", i ? ", " : "");
      json_str(out, r->in_name[i]);
      fprintf(out, ", \"kind\": \"%c\", \"optional\": %s}", r->in_kind[i],
              r->in_optional[i] ? "true" : "false");
    }
    fprintf(out, "], \"min_inputs\": %d, \"max_inputs\": %d, \"typed_input\": %d,\n", r->min_in,
            r->max_in, r->typed);
    fprintf(out, "   \"dtype_classes\": [%s], \"output_dtype\": \"%s\", \"shape\": \"%s\",\n",
            class_names(r->types, buf, sizeof buf), outs[r->out], r->rule);
    fprintf(out, "   \"attributes\": [");
    for (int a = 0; a < r->n_attrs; a++) {
      const op_attr *at = &r->attrs[a];
      fprintf(out, "%s{\"name\": \"%s\", \"type\": \"%s\", \"default\": ", a ? ", " : "", at->name,
              at->type == 'f'   ? "float"
              : at->type == 'i' ? "int"
                                : "string");
      if (at->type == 's') json_str(out, at->str);
      else fprintf(out, "%.9g", at->num);
      fprintf(out, ", \"from\": %d, \"until\": %d}", at->from, at->until);
    }
    fprintf(out, "],\n   \"elementwise\": %s, \"formula\": ", r->elementwise ? "true" : "false");
    if (r->formula) json_str(out, r->formula);
    else fprintf(out, "null");
    fprintf(out, ", \"builder\": ");
    if (r->builder) json_str(out, r->builder);
    else fprintf(out, "null");
    fprintf(out, ", \"checked\": %s,\n   \"onnxruntime\": \"%s\", \"onnxruntime_note\": ",
            r->check != check_none ? "true" : "false", orts[r->ort]);
    json_str(out, r->ort_why);
    fprintf(out, ", \"onnxruntime_dtypes\": [");
    if (r->ort_dtypes[0]) json_str(out, r->ort_dtypes);
    fprintf(out, "]}%s\n", k + 1 < sizeof op_table / sizeof *op_table ? "," : "");
  }
  fprintf(out, "]}\n");
}
