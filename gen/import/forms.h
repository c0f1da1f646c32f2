/* forms.h: what each ONNX operator computes as a spec expression (its row's formula, read
   by a small parser, or its builder) and the checks that refuse what a kernel cannot
   compute. The table (ops.h) names them; fusion.c and spec_write.c call them. */
#ifndef WHEREC_GEN_IMPORT_FORMS_H
#define WHEREC_GEN_IMPORT_FORMS_H

#include "import/expr.h"
#include "import/fusion.h"
#include "import/ops.h"

/* One node's expression being made. read makes one read of input k (with pad 1s after a
   per-channel parameter's shape); the writer builds the producer's expression or the leaf,
   the counter (fusion) a stand-in. */
typedef struct form {
  ex_ctx             *x;
  const import_graph *gr;
  const graph_node   *ni;
  const fusion_node  *fn;
  const op_attrs     *at; /* &fn->at */
  wc_dtype            t;  /* the dtype the operator is typed on */
  ex *(*read)(struct form *f, int k, int pad);
  void *reader; /* read's state */
  int   region;
  int  *reads; /* per input slot: the reads made so far */
} form;

/* One read of input k / of input k as a per-channel parameter with pad 1s appended. */
ex *form_in(form *f, int k);
ex *form_in_chan(form *f, int k, int pad);

/* The node's expression: its row's formula, or its builder. */
ex *form_node(form *f);

/* The expression of formula text (ops.h's F column) for f's node; NULL with *why set when
   the text does not parse (a defect of the table, which test_import_ops finds). */
ex *form_formula(form *f, const char *text, const char **why);

/* The builders (ops.h's B column). */
#define FORM_DECL_(Name, since, in, ty, o, sh, attrs, form, ...) FORM_DECL_##form
#define FORM_DECL_F(text)
#define FORM_DECL_B(name) ex *form_##name(form *f);
#define FORM_DECL_NONE
ALL_OP_LIST(FORM_DECL_)
#undef FORM_DECL_
#undef FORM_DECL_F
#undef FORM_DECL_B
#undef FORM_DECL_NONE

/* The checks (ops.h's check column): why a node cannot be a kernel's, or NULL; the facts a
   form needs (pad, cast_to) go into c->fn. check_none refuses nothing. */
#define CHECK_DECL_(Name, since, in, ty, o, sh, attrs, form, check, ...) \
  const char *check_##check(op_ctx *c);
ALL_OP_LIST(CHECK_DECL_)
#undef CHECK_DECL_

#endif
