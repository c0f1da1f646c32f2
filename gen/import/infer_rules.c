/* infer_rules.c: the type and shape rules of the rarer operators around element-wise
   regions (ops.h names them): indexing (TopK, GatherElements, GatherND, OneHot, Compress,
   Unique), layout (DepthToSpace, SpaceToDepth, Einsum, Det), detection (NonMaxSuppression,
   RoiAlign, MaxRoiPool, GridSample, AffineGrid, MaxUnpool, Col2Im, CenterCropPad), signal
   (DFT, STFT, the windows, MelWeightMatrix), quantized products, attention, losses,
   random tensors, strings, sequences and optionals. Each gives what ONNX's inference
   gives, with symbolic extents where a value decides an extent, and refuses inputs that
   make no sense with the reason (infer_ctx.h). */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>

#include "import/infer_ctx.h"

/* ---- small helpers -------------------------------------------------------------------- */

/* The one integer of input k (a scalar or one-element constant). */
static bool scalar_in(const ctx *c, int k, int64_t *v) {
  int64_t *vals;
  size_t   n;
  if (!ints_in(c, k, &vals, &n) || n != 1) return false;
  *v = vals[0];
  return true;
}

/* Are the fixed extents of a shape value (dims_in) all >= 0? Refused, with the value, if not. */
static bool extents_ok(const ctx *c, const int64_t *v, const bool *sym, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!sym[i] && v[i] < 0) {
      refuse(c, graph_fmt(c->gr, "the shape has the extent %lld", (long long)v[i]));
      return false;
    }
  return true;
}

/* The dtype attribute `name` (an ONNX elem type wherec has), else dflt. */
static wc_dtype attr_dtype(const ctx *c, const char *name, wc_dtype dflt) {
  int64_t t = attr_i(c->n, name, 0);
  return t >= 1 && t <= 16 ? (wc_dtype)t : dflt;
}

/* s with extent e inserted at axis a (0 <= a <= rank). */
static bool insert_dim(ast_shape *s, int a, int64_t e) {
  if (s->rank >= WC_MAX_RANK) return false;
  for (int d = s->rank; d > a; d--) s->dims[d] = s->dims[d - 1];
  s->dims[a] = e;
  s->rank++;
  return true;
}

/* ---- the rules -------------------------------------------------------------------------- */

/* Outputs whose shape (or whose being a tensor) only running tells: a sequence or an
   optional, a string's split, a decoded image. What is known is given: SequenceLength and
   OptionalHasElement are scalars. */
void infer_opaque(const ctx *c) {
  if (strcmp(c->n->op_type, "SequenceLength") == 0) {
    set_out(c, 0, WC_INT64, &(ast_shape){0, {0}});
  } else if (strcmp(c->n->op_type, "OptionalHasElement") == 0) {
    set_out(c, 0, WC_BOOL, &(ast_shape){0, {0}});
  } else if (strcmp(c->n->op_type, "StringSplit") == 0) {
    ast_shape x;
    if (!in_shape(c, 0, &x)) return;
    set_out(c, 1, WC_INT64, &x); /* the number of pieces of each string */
    if (insert_dim(&x, x.rank, fresh(c->gr))) set_out(c, 0, WC_STRING, &x);
  } else if (strcmp(c->n->op_type, "ImageDecoder") == 0) {
    char        buf[16];
    const char *f = attr_str(c->n, "pixel_format", buf, sizeof buf);
    ast_shape   o = {3, {fresh(c->gr), fresh(c->gr), f && strcmp(f, "Grayscale") == 0 ? 1 : 3}};
    set_out(c, 0, WC_UINT8, &o);
  } else if (c->t) {
    for (int k = 0; k < c->n->n_outputs; k++) set_out(c, k, c->t, NULL);
  }
}

/* TopK: X's shape with K (an attribute before opset 10, then an input) along axis; the
   values of X's dtype, the indices int64. */
void infer_topk(const ctx *c) {
  ast_shape x;
  bool      ok = in_shape(c, 0, &x) && x.rank >= 1;
  int       a = ok ? axis_in(c, attr_i(c->n, "axis", -1), x.rank, &ok) : 0;
  int64_t   k = -1;
  if (ok && c->gr->opset > 0 && c->gr->opset < 10) k = attr_i(c->n, "k", -1);
  else if (ok && !scalar_in(c, 1, &k)) k = -2;  /* known when it runs */
  if (ok && k == -1) refuse(c, "no K");
  if (ok && k < -1) k = fresh(c->gr);
  else if (ok && (k < 0 || (x.dims[a] >= 0 && k > x.dims[a]))) {
    refuse(c, graph_fmt(c->gr, "K %lld for an axis of extent %lld", (long long)k, (long long)x.dims[a]));
    ok = false;
  }
  if (ok) x.dims[a] = k;
  set_out(c, 0, in_dtype(c, 0), ok ? &x : NULL);
  set_out(c, 1, WC_INT64, ok ? &x : NULL);
}

/* GatherElements: the indices' shape, the data's dtype, ranks equal. */
void infer_gather_elements(const ctx *c) {
  ast_shape x, i;
  bool      ok = in_shape(c, 0, &x) && in_shape(c, 1, &i);
  if (ok && x.rank != i.rank) {
    refuse(c, graph_fmt(c->gr, "data %s and indices %s differ in rank", shape_text(c, &x),
                        shape_text(c, &i)));
    ok = false;
  }
  if (ok) axis_in(c, attr_i(c->n, "axis", 0), x.rank, &ok);
  set_out(c, 0, in_dtype(c, 0), ok ? &i : NULL);
}

/* GatherND: indices[:-1] + data[batch_dims + indices[-1]:], the last extent of indices fixed. */
void infer_gather_nd(const ctx *c) {
  ast_shape x, i, o = {0, {0}};
  bool      ok = in_shape(c, 0, &x) && in_shape(c, 1, &i) && i.rank >= 1 && i.dims[i.rank - 1] >= 0;
  int64_t   b = attr_i(c->n, "batch_dims", 0);
  if (ok && (b < 0 || b >= x.rank || b >= i.rank || i.dims[i.rank - 1] > x.rank - b)) {
    refuse(c, graph_fmt(c->gr, "indices %s with batch_dims %lld do not index data %s",
                        shape_text(c, &i), (long long)b, shape_text(c, &x)));
    ok = false;
  }
  if (ok) {
    for (int d = 0; d < i.rank - 1; d++) o.dims[o.rank++] = i.dims[d];
    for (int d = (int)(b + i.dims[i.rank - 1]); d < x.rank && o.rank < WC_MAX_RANK; d++)
      o.dims[o.rank++] = x.dims[d];
  }
  set_out(c, 0, in_dtype(c, 0), ok ? &o : NULL);
}

/* OneHot: the indices' shape with depth inserted at axis (-1: last), the values' dtype. */
void infer_onehot(const ctx *c) {
  ast_shape i;
  int64_t   depth;
  bool      ok = in_shape(c, 0, &i);
  int       a = ok ? axis_in(c, attr_i(c->n, "axis", -1), i.rank + 1, &ok) : 0;
  if (!scalar_in(c, 1, &depth)) depth = fresh(c->gr);
  else if (depth < 1) {
    refuse(c, graph_fmt(c->gr, "a depth of %lld", (long long)depth));
    ok = false;
  }
  ok = ok && insert_dim(&i, a, depth);
  set_out(c, 0, in_dtype(c, 2), ok ? &i : NULL);
}

/* DepthToSpace and SpaceToDepth: [N, C, H, W] with blocksize b moved between channels and
   space. */
static void rule_blocks(const ctx *c, bool to_space) {
  ast_shape x;
  int64_t   b = attr_i(c->n, "blocksize", 0);
  bool      ok = in_shape(c, 0, &x) && x.rank == 4;
  if (ok && (b < 1 || b > 4096)) {
    refuse(c, graph_fmt(c->gr, "a blocksize of %lld", (long long)b));
    ok = false;
  }
  int64_t *ch = &x.dims[1], bb = b * b;
  if (ok && to_space && *ch >= 0 && *ch % bb != 0) {
    refuse(c, graph_fmt(c->gr, "%lld channels are no multiple of blocksize^2 %lld", (long long)*ch,
                        (long long)bb));
    ok = false;
  }
  for (int d = 2; ok && d < 4 && !to_space; d++)
    if (x.dims[d] >= 0 && x.dims[d] % b != 0) {
      refuse(c, graph_fmt(c->gr, "extent %lld of axis %d is no multiple of blocksize %lld",
                          (long long)x.dims[d], d, (long long)b));
      ok = false;
    }
  if (ok) {
    *ch = *ch < 0 ? fresh(c->gr) : to_space ? *ch / bb : *ch * bb;
    for (int d = 2; d < 4; d++)
      x.dims[d] = x.dims[d] < 0 || x.dims[d] > INT32_MAX ? fresh(c->gr)
                  : to_space                             ? x.dims[d] * b
                                                         : x.dims[d] / b;
  }
  set_out(c, 0, in_dtype(c, 0), ok ? &x : NULL);
}
void infer_depth_to_space(const ctx *c) { rule_blocks(c, true); }
void infer_space_to_depth(const ctx *c) { rule_blocks(c, false); }

/* Einsum: the equation's output letters, each the extent its inputs give it (one per
   letter, unified), "..." the inputs' broadcast leading axes; the implicit output (no
   "->") is the letters seen once, in alphabetical order. */
void infer_einsum(const ctx *c) {
  char        buf[256];
  const char *eq = attr_str(c->n, "equation", buf, sizeof buf);
  int64_t     ext[128];
  int         seen[128] = {0};
  ast_shape   ell = {0, {0}}, o = {0, {0}};
  bool        ok = eq != NULL, has_ell = false;
  for (int k = 0; k < 128; k++) ext[k] = -1;
  const char *p = eq;
  for (int in = 0; ok && in < c->n->n_inputs; in++) { /* each input's term */
    ast_shape x;
    char      term[64];
    size_t    n = 0;
    while (*p == ' ') p++;
    while (*p && *p != ',' && *p != '-' && n < sizeof term - 1)
      if (*p != ' ') term[n++] = *p++;
      else p++;
    term[n] = '\0';
    if (*p == ',') p++;
    if (!in_shape(c, in, &x)) {
      ok = false;
      break;
    }
    const char *dots = strstr(term, "...");
    int         letters = (int)n - (dots ? 3 : 0), n_ell = x.rank - letters, d = 0;
    if (n_ell < 0 || (!dots && n_ell != 0)) {
      refuse(c, graph_fmt(c->gr, "term '%s' does not fit input %d %s", term, in, shape_text(c, &x)));
      ok = false;
      break;
    }
    for (const char *t = term; ok && *t; t++) {
      if (*t == '.' && strncmp(t, "...", 3) != 0) {
        refuse(c, "a '.' that is no \"...\"");
        ok = false;
        break;
      }
      if (*t == '.') { /* the broadcast axes, right-aligned with the others' */
        ast_shape part = {n_ell, {0}};
        for (int e = 0; e < n_ell; e++) part.dims[e] = x.dims[d + e];
        ast_shape longer = part.rank > ell.rank ? part : ell, shorter = part.rank > ell.rank ? ell : part;
        for (int e = 0; e < shorter.rank; e++) {
          int64_t *l = &longer.dims[longer.rank - shorter.rank + e], s = shorter.dims[e];
          if (*l == 1) *l = s;
          else if (s != 1 && !unify(c->gr, *l, s)) ok = false;
        }
        ell = longer;
        has_ell = true;
        d += n_ell;
        t += 2;
        continue;
      }
      unsigned char l = (unsigned char)*t;
      if (l >= 128 || !((l >= 'a' && l <= 'z') || (l >= 'A' && l <= 'Z'))) {
        refuse(c, graph_fmt(c->gr, "the equation has '%c'", *t));
        ok = false;
        break;
      }
      if (ext[l] < 0 && seen[l] == 0) ext[l] = x.dims[d];
      else if (!unify(c->gr, ext[l], x.dims[d]) && ext[l] != 1 && x.dims[d] != 1) {
        refuse(c, graph_fmt(c->gr, "'%c' stands for two extents", *t));
        ok = false;
      }
      seen[l]++;
      d++;
    }
  }
  if (ok && strncmp(p, "->", 2) == 0) {
    for (p += 2; *p && ok && o.rank < WC_MAX_RANK; p++) {
      if (*p == ' ') continue;
      if (*p == '.') {
        if (strncmp(p, "...", 3) != 0) {
          refuse(c, "a '.' that is no \"...\"");
          ok = false;
          break;
        }
        for (int e = 0; e < ell.rank && o.rank < WC_MAX_RANK; e++) o.dims[o.rank++] = ell.dims[e];
        p += 2;
        continue;
      }
      unsigned char l = (unsigned char)*p;
      if (l >= 128 || !seen[l]) {
        refuse(c, graph_fmt(c->gr, "the output names '%c', which no input has", *p));
        ok = false;
      } else {
        o.dims[o.rank++] = ext[l];
      }
    }
  } else if (ok) {
    for (int e = 0; has_ell && e < ell.rank; e++) o.dims[o.rank++] = ell.dims[e];
    for (int l = 'A'; l <= 'z' && o.rank < WC_MAX_RANK; l++)
      if (seen[l] == 1) o.dims[o.rank++] = ext[l];
  }
  set_out(c, 0, c->t, ok ? &o : NULL);
}

/* Compress: along axis, an extent the condition decides (a fresh symbol); without an axis,
   a vector of that many. */
void infer_compress(const ctx *c) {
  ast_shape x;
  bool      ok = in_shape(c, 0, &x);
  if (ok && graph_attr(c->n, "axis")) {
    int a = axis_in(c, attr_i(c->n, "axis", 0), x.rank, &ok);
    if (ok) x.dims[a] = fresh(c->gr);
  } else if (ok) {
    x = (ast_shape){1, {fresh(c->gr)}};
  }
  set_out(c, 0, in_dtype(c, 0), ok ? &x : NULL);
}

/* Unique: Y has the unique count along axis (or flat); indices and counts are vectors of
   that count; inverse_indices has X's extent along axis (or X's element count). */
void infer_unique(const ctx *c) {
  ast_shape x;
  if (!in_shape(c, 0, &x)) return;
  int64_t u = fresh(c->gr);
  bool    ok = true;
  if (graph_attr(c->n, "axis")) {
    int a = axis_in(c, attr_i(c->n, "axis", 0), x.rank, &ok);
    if (!ok) return;
    int64_t along = x.dims[a];
    x.dims[a] = u;
    set_out(c, 0, in_dtype(c, 0), &x);
    set_out(c, 2, WC_INT64, &(ast_shape){1, {along}});
  } else {
    set_out(c, 0, in_dtype(c, 0), &(ast_shape){1, {u}});
    set_out(c, 2, WC_INT64, &(ast_shape){1, {fresh(c->gr)}});
  }
  set_out(c, 1, WC_INT64, &(ast_shape){1, {u}});
  set_out(c, 3, WC_INT64, &(ast_shape){1, {u}});
}

/* NonMaxSuppression: [selected, 3] of int64. */
void infer_nms(const ctx *c) { set_out(c, 0, WC_INT64, &(ast_shape){2, {fresh(c->gr), 3}}); }

/* RoiAlign and MaxRoiPool: [num_rois, C, output height, output width]. */
void infer_roi(const ctx *c) {
  ast_shape x, r;
  bool      ok = in_shape(c, 0, &x) && in_shape(c, 1, &r) && x.rank == 4 && r.rank == 2;
  int64_t   h = 1, w = 1;
  if (strcmp(c->n->op_type, "MaxRoiPool") == 0) {
    const onnx_attr *ps = attr_ints(c->n, "pooled_shape");
    ok = ok && ps && ps->n_ints == 2;
    if (ok) h = ps->ints[0], w = ps->ints[1];
  } else {
    h = attr_i(c->n, "output_height", 1);
    w = attr_i(c->n, "output_width", 1);
  }
  if (ok && (h < 1 || w < 1)) {
    refuse(c, graph_fmt(c->gr, "an output of %lld x %lld", (long long)h, (long long)w));
    ok = false;
  }
  ast_shape o = {4, {ok ? r.dims[0] : 0, ok ? x.dims[1] : 0, h, w}};
  set_out(c, 0, in_dtype(c, 0), ok ? &o : NULL);
}

/* Det: the batch axes before the last two, which must be square. */
void infer_det(const ctx *c) {
  ast_shape x;
  bool      ok = in_shape(c, 0, &x) && x.rank >= 2;
  if (ok && !unify(c->gr, x.dims[x.rank - 1], x.dims[x.rank - 2])) {
    refuse(c, graph_fmt(c->gr, "%s is not square", shape_text(c, &x)));
    ok = false;
  }
  if (ok) x.rank -= 2;
  set_out(c, 0, in_dtype(c, 0), ok ? &x : NULL);
}

/* GridSample: [N, C] and the grid's spatial extents. */
void infer_grid_sample(const ctx *c) {
  ast_shape x, g;
  bool      ok = in_shape(c, 0, &x) && in_shape(c, 1, &g) && x.rank >= 3 && g.rank == x.rank;
  ast_shape o = {0, {0}};
  if (ok) {
    o.dims[o.rank++] = x.dims[0];
    o.dims[o.rank++] = x.dims[1];
    for (int d = 1; d < g.rank - 1; d++) o.dims[o.rank++] = g.dims[d];
    unify(c->gr, x.dims[0], g.dims[0]);
  }
  set_out(c, 0, in_dtype(c, 0), ok ? &o : NULL);
}

/* AffineGrid: size [N, C, H, W] (or [N, C, D, H, W]) gives [N, H, W, 2] (or [N, D, H, W, 3]). */
void infer_affine_grid(const ctx *c) {
  int64_t  *sz;
  bool     *sym;
  size_t    n;
  ast_shape o = {0, {0}};
  bool      ok = dims_in(c, 1, &sz, &sym, &n) && (n == 4 || n == 5) && extents_ok(c, sz, sym, n);
  if (ok) {
    o.dims[o.rank++] = sz[0];
    for (size_t d = 2; d < n; d++) o.dims[o.rank++] = sz[d];
    o.dims[o.rank++] = (int64_t)n - 2;
  }
  set_out(c, 0, in_dtype(c, 0), ok ? &o : NULL);
}

/* MaxUnpool: output_shape when given, else (in - 1) * stride + kernel - pads per axis. */
void infer_max_unpool(const ctx *c) {
  ast_shape x;
  int64_t  *os;
  bool     *sym;
  size_t    n;
  if (c->n->n_inputs > 2 && in_val(c, 2) && dims_in(c, 2, &os, &sym, &n) && n <= WC_MAX_RANK &&
      extents_ok(c, os, sym, n)) {
    ast_shape o = {(int)n, {0}};
    for (size_t d = 0; d < n; d++) o.dims[d] = os[d];
    set_out(c, 0, in_dtype(c, 0), &o);
    return;
  }
  const onnx_attr *ks = attr_ints(c->n, "kernel_shape"), *st = attr_ints(c->n, "strides"),
                  *pd = attr_ints(c->n, "pads");
  bool ok = in_shape(c, 0, &x) && x.rank >= 3 && ks && ks->n_ints == x.rank - 2;
  int  sp = x.rank - 2;
  for (int d = 0; ok && d < sp; d++) {
    int64_t in = x.dims[2 + d], k = ks->ints[d], s = st && st->n_ints == sp ? st->ints[d] : 1,
            p = pd && pd->n_ints == 2 * sp ? pd->ints[d] + pd->ints[sp + d] : 0;
    if (k < 1 || s < 1 || k > INT32_MAX || s > INT32_MAX || p < 0 || p > INT32_MAX) {
      refuse(c, graph_fmt(c->gr, "a kernel %lld, stride %lld, pads %lld along axis %d", (long long)k,
                          (long long)s, (long long)p, 2 + d));
      ok = false;
    } else {
      x.dims[2 + d] = in < 0 || in > INT32_MAX || (in - 1) * s + k - p < 0 ? fresh(c->gr)
                                                                        : (in - 1) * s + k - p;
    }
  }
  set_out(c, 0, in_dtype(c, 0), ok ? &x : NULL);
}

/* Col2Im: [N, C / prod(block_shape), image_shape...]. */
void infer_col2im(const ctx *c) {
  ast_shape x, o = {0, {0}};
  int64_t  *img, *blk;
  size_t    ni, nb;
  bool      ok = in_shape(c, 0, &x) && x.rank == 3 && ints_in(c, 1, &img, &ni) &&
            ints_in(c, 2, &blk, &nb) && ni == nb && ni + 2 <= WC_MAX_RANK;
  int64_t   prod = 1;
  for (size_t d = 0; ok && d < nb; d++) {
    if (blk[d] < 1 || blk[d] > INT32_MAX || img[d] < 0 || prod > INT32_MAX) ok = false;
    else prod *= blk[d];
  }
  if (ok && x.dims[1] >= 0 && x.dims[1] % prod != 0) {
    refuse(c, graph_fmt(c->gr, "%lld is no multiple of the block's %lld elements",
                        (long long)x.dims[1], (long long)prod));
    ok = false;
  }
  if (ok) {
    o.dims[o.rank++] = x.dims[0];
    o.dims[o.rank++] = x.dims[1] >= 0 ? x.dims[1] / prod : fresh(c->gr);
    for (size_t d = 0; d < ni; d++) o.dims[o.rank++] = img[d];
  }
  set_out(c, 0, in_dtype(c, 0), ok ? &o : NULL);
}

/* CenterCropPad: the input's shape with the given axes (all, or the attribute's) set to
   the shape input's extents. */
void infer_center_crop_pad(const ctx *c) {
  ast_shape        x;
  int64_t         *sh;
  bool            *sym;
  size_t           n;
  const onnx_attr *ax = attr_ints(c->n, "axes");
  bool             ok = in_shape(c, 0, &x) && dims_in(c, 1, &sh, &sym, &n) &&
            n == (ax ? (size_t)ax->n_ints : (size_t)x.rank) && extents_ok(c, sh, sym, n);
  for (size_t i = 0; ok && i < n; i++) {
    int a = ax ? axis_in(c, ax->ints[i], x.rank, &ok) : (int)i;
    if (ok) x.dims[a] = sh[i];
  }
  set_out(c, 0, in_dtype(c, 0), ok ? &x : NULL);
}

/* DFT: the input ([batch, ..., n, 1 or 2]) with 2 (complex) last, and along axis the
   dft_length, or its one-sided half plus one. */
void infer_dft(const ctx *c) {
  ast_shape x;
  int64_t   a = -2, len = -1;
  bool      ok = in_shape(c, 0, &x) && x.rank >= 2;
  if (c->gr->opset >= 20 && c->n->n_inputs > 2 && in_val(c, 2) && !scalar_in(c, 2, &a)) ok = false;
  if (c->gr->opset < 20) a = attr_i(c->n, "axis", 1);
  int ax = ok ? axis_in(c, a, x.rank, &ok) : 0;
  if (ok && ax == x.rank - 1) {
    refuse(c, "the axis is the complex one");
    ok = false;
  }
  if (ok && c->n->n_inputs > 1 && in_val(c, 1) && !scalar_in(c, 1, &len)) len = -2;
  if (ok) {
    int64_t n = len == -1 ? x.dims[ax] : len;
    if (n < 0) x.dims[ax] = fresh(c->gr);
    else x.dims[ax] = attr_i(c->n, "onesided", 0) && !attr_i(c->n, "inverse", 0) ? n / 2 + 1 : n;
    x.dims[x.rank - 1] = 2;
  }
  set_out(c, 0, in_dtype(c, 0), ok ? &x : NULL);
}

/* STFT: [batch, frames, bins, 2]: frames from the signal's length, the frame length and
   step; bins the frame length, or its one-sided half plus one. */
void infer_stft(const ctx *c) {
  ast_shape s, w;
  int64_t   step, len = -1;
  bool      ok = in_shape(c, 0, &s) && s.rank == 3;
  if (ok && c->n->n_inputs > 3 && in_val(c, 3) && !scalar_in(c, 3, &len)) len = -2;
  if (ok && len == -1 && c->n->n_inputs > 2 && in_val(c, 2) && in_shape(c, 2, &w) && w.rank == 1)
    len = w.dims[0];
  if (!ok) return;
  ast_shape o = {4, {s.dims[0], fresh(c->gr), fresh(c->gr), 2}};
  if (ok && len >= 1 && scalar_in(c, 1, &step) && step >= 1 && s.dims[1] >= len)
    o.dims[1] = (s.dims[1] - len) / step + 1;
  if (ok && len >= 1) o.dims[2] = attr_i(c->n, "onesided", 1) ? len / 2 + 1 : len;
  set_out(c, 0, in_dtype(c, 0), &o);
}

/* The windows (Hann, Hamming, Blackman): [size] of output_datatype (float by default). */
void infer_window_fn(const ctx *c) {
  int64_t n;
  ast_shape o = {1, {scalar_in(c, 0, &n) && n >= 0 ? n : fresh(c->gr)}};
  set_out(c, 0, attr_dtype(c, "output_datatype", WC_FLOAT), &o);
}

/* MelWeightMatrix: [dft_length / 2 + 1, num_mel_bins]. */
void infer_mel(const ctx *c) {
  int64_t   bins, len;
  ast_shape o = {2, {scalar_in(c, 1, &len) && len >= 0 ? len / 2 + 1 : fresh(c->gr),
                     scalar_in(c, 0, &bins) && bins >= 0 ? bins : fresh(c->gr)}};
  set_out(c, 0, attr_dtype(c, "output_datatype", WC_FLOAT), &o);
}

/* QLinearConv (W at input 3) and QLinearMatMul (B at input 3): the float operator's shape,
   the output zero point's dtype (input 7). */
void infer_qlinear_conv(const ctx *c) {
  rule_window(c, true, false, 3);
  set_out(c, 0, in_dtype(c, 7), NULL);
}
void infer_qlinear_matmul(const ctx *c) { rule_matmul(c, in_dtype(c, 7), 3); }

/* Attention (opset 23): Y is Q's shape with V's head size, for Q, K, V of rank 4
   [batch, heads, sequence, head size]; of rank 3 [batch, sequence, heads x head size] with
   the heads the attributes give. present_key and present_value: the past's sequence plus
   K's. */
void infer_attention(const ctx *c) {
  ast_shape q, k, v, pk;
  bool      ok = in_shape(c, 0, &q) && in_shape(c, 1, &k) && in_shape(c, 2, &v) &&
            q.rank == k.rank && k.rank == v.rank && (q.rank == 3 || q.rank == 4);
  if (!ok) return;
  ast_shape y = q;
  if (q.rank == 4) {
    y.dims[3] = v.dims[3];
  } else {
    int64_t qh = attr_i(c->n, "q_num_heads", 0), kvh = attr_i(c->n, "kv_num_heads", 0);
    y.dims[2] = qh > 0 && kvh > 0 && v.dims[2] >= 0 && v.dims[2] % kvh == 0 && qh <= INT32_MAX &&
                        v.dims[2] / kvh <= INT32_MAX
                    ? v.dims[2] / kvh * qh
                    : fresh(c->gr);
  }
  set_out(c, 0, in_dtype(c, 0), &y);
  if (q.rank != 4 || c->n->n_outputs < 3) return;
  int64_t seq = k.dims[2];
  if (c->n->n_inputs > 4 && in_val(c, 4)) { /* the past's sequence, then K's */
    seq = in_shape(c, 4, &pk) && pk.rank == 4 ? graph_dim_expr(c->gr, '+', pk.dims[2], k.dims[2])
                                                : fresh(c->gr);
  }
  ast_shape pkey = {4, {k.dims[0], k.dims[1], seq, k.dims[3]}}, pval = {4, {v.dims[0], v.dims[1], seq, v.dims[3]}};
  set_out(c, 1, in_dtype(c, 1), &pkey);
  set_out(c, 2, in_dtype(c, 2), &pval);
}

/* RandomNormal, RandomUniform: the shape attribute, dtype float unless said. */
void infer_random(const ctx *c) {
  const onnx_attr *s = attr_ints(c->n, "shape");
  ast_shape        o = {0, {0}};
  bool             ok = s && s->n_ints <= WC_MAX_RANK;
  for (int d = 0; ok && d < s->n_ints; d++) {
    if (s->ints[d] < 0) {
      refuse(c, graph_fmt(c->gr, "the shape has the extent %lld", (long long)s->ints[d]));
      ok = false;
    }
    o.dims[o.rank++] = s->ints[d];
  }
  set_out(c, 0, attr_dtype(c, "dtype", WC_FLOAT), ok ? &o : NULL);
}

/* The *Like operators, Bernoulli, EyeLike: the input's shape, dtype the attribute's or the
   input's. */
void infer_like(const ctx *c) {
  ast_shape x;
  bool      ok = in_shape(c, 0, &x);
  if (ok && strcmp(c->n->op_type, "EyeLike") == 0 && x.rank != 2) {
    refuse(c, graph_fmt(c->gr, "EyeLike of %s (a matrix wanted)", shape_text(c, &x)));
    ok = false;
  }
  set_out(c, 0, attr_dtype(c, "dtype", in_dtype(c, 0)), ok ? &x : NULL);
}

/* Multinomial: [batch, sample_size] of int32 unless said. */
void infer_multinomial(const ctx *c) {
  ast_shape x;
  bool      ok = in_shape(c, 0, &x) && x.rank == 2;
  ast_shape o = {2, {ok ? x.dims[0] : 0, attr_i(c->n, "sample_size", 1)}};
  if (ok && o.dims[1] < 1) {
    refuse(c, graph_fmt(c->gr, "a sample_size of %lld", (long long)o.dims[1]));
    ok = false;
  }
  set_out(c, 0, attr_dtype(c, "dtype", WC_INT32), ok ? &o : NULL);
}

/* BitCast: the input's shape when the dtypes are as wide; a narrower one adds an axis of
   the ratio, a wider one takes it off (the last extent must be that ratio). */
void infer_bitcast(const ctx *c) {
  ast_shape x;
  wc_dtype  to = attr_dtype(c, "to", 0);
  size_t    a = wc_dtype_size(in_dtype(c, 0)), b = to ? wc_dtype_size(to) : 0;
  bool      ok = in_shape(c, 0, &x) && a && b;
  if (ok && a > b) ok = insert_dim(&x, x.rank, (int64_t)(a / b));
  else if (ok && a < b) {
    ok = x.rank >= 1 && x.dims[x.rank - 1] == (int64_t)(b / a);
    if (!ok) refuse(c, graph_fmt(c->gr, "the last extent of %s is not %zu", shape_text(c, &x), b / a));
    x.rank--;
  }
  set_out(c, 0, to, ok ? &x : NULL);
}

/* NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss: a scalar (mean, sum) or the
   target's shape (none); SoftmaxCrossEntropyLoss's log_prob has the scores' shape. */
void infer_loss(const ctx *c) {
  char        buf[8];
  const char *r = attr_str(c->n, "reduction", buf, sizeof buf);
  ast_shape   t, x, none = {0, {0}};
  if (r && strcmp(r, "none") == 0) set_out(c, 0, in_dtype(c, 0), in_shape(c, 1, &t) ? &t : NULL);
  else set_out(c, 0, in_dtype(c, 0), &none);
  if (c->n->n_outputs > 1 && in_shape(c, 0, &x)) set_out(c, 1, in_dtype(c, 0), &x);
}

/* TfIdfVectorizer: the input's batch axis (for 2-D input) and max(ngram_indexes) + 1, float. */
void infer_tfidf(const ctx *c) {
  ast_shape        x;
  const onnx_attr *ix = attr_ints(c->n, "ngram_indexes");
  int64_t          m = -1;
  for (int i = 0; ix && i < ix->n_ints; i++) m = ix->ints[i] > m ? ix->ints[i] : m;
  bool      ok = in_shape(c, 0, &x) && (x.rank == 1 || x.rank == 2) && m >= 0 && m < INT32_MAX;
  ast_shape o = {0, {0}};
  if (ok) o = (ast_shape){x.rank, {x.rank == 2 ? x.dims[0] : m + 1, m + 1}};
  set_out(c, 0, WC_FLOAT, ok ? &o : NULL);
}

/* StringNormalizer: the input's shape, less the stopwords it drops (a fresh last extent). */
void infer_string_normalizer(const ctx *c) {
  ast_shape x;
  bool      ok = in_shape(c, 0, &x) && x.rank >= 1;
  const onnx_attr *sw = graph_attr(c->n, "stopwords");
  if (ok && sw) x.dims[x.rank - 1] = fresh(c->gr); /* the list itself is not read */
  set_out(c, 0, WC_STRING, ok ? &x : NULL);
}

/* ---- com.microsoft's operators (MS_OP_LIST) ----------------------------------------- */

/* FusedMatMul: MatMul of A and B, each transposed (its last two axes) when transA or
   transB says so. */
void infer_fused_matmul(const ctx *c) {
  ast_shape a, b;
  bool      ok = in_shape(c, 0, &a) && in_shape(c, 1, &b) && a.rank >= 2 && b.rank >= 2;
  if (!ok) {
    set_out(c, 0, c->t, NULL);
    return;
  }
  if (attr_i(c->n, "transA", 0)) {
    int64_t t = a.dims[a.rank - 1];
    a.dims[a.rank - 1] = a.dims[a.rank - 2];
    a.dims[a.rank - 2] = t;
  }
  if (attr_i(c->n, "transB", 0)) {
    int64_t t = b.dims[b.rank - 1];
    b.dims[b.rank - 1] = b.dims[b.rank - 2];
    b.dims[b.rank - 2] = t;
  }
  ast_shape o = a.rank >= b.rank ? a : b; /* the batch axes: the longer operand's */
  o.dims[o.rank - 2] = a.dims[a.rank - 2];
  o.dims[o.rank - 1] = b.dims[b.rank - 1];
  unify(c->gr, a.dims[a.rank - 1], b.dims[b.rank - 2]);
  set_out(c, 0, c->t, &o);
}

/* SkipLayerNormalization and SkipSimplifiedLayerNormalization: the output and the sum
   input + skip (+ bias) have the input's shape; the mean and inverse deviation one extent
   per row. */
void infer_skip_norm(const ctx *c) {
  ast_shape x;
  if (!in_shape(c, 0, &x)) return;
  set_out(c, 0, c->t, &x);
  int sum = c->n->n_outputs - 1; /* input_skip_bias_sum is the last output */
  if (sum >= 1) set_out(c, sum, c->t, &x);
  ast_shape stat = x;
  if (stat.rank >= 1) stat.dims[stat.rank - 1] = 1;
  for (int k = 1; k < sum; k++) set_out(c, k, WC_FLOAT, &stat);
}

/* Attention (weights [hidden in, 3 x hidden], or qkv_hidden_sizes) and MultiHeadAttention
   (query [batch, sequence, hidden], value's hidden when it is 3-D): [batch, sequence, v hidden]. */
void infer_ms_attention(const ctx *c) {
  ast_shape q, w;
  if (!in_shape(c, 0, &q) || q.rank != 3) return;
  ast_shape o = q;
  if (strcmp(c->n->op_type, "Attention") == 0) {
    const onnx_attr *qkv = attr_ints(c->n, "qkv_hidden_sizes");
    if (qkv && qkv->n_ints == 3 && qkv->ints[2] >= 0) o.dims[2] = qkv->ints[2];
    else if (in_shape(c, 1, &w) && w.rank == 2 && w.dims[1] >= 0 && w.dims[1] % 3 == 0)
      o.dims[2] = w.dims[1] / 3;
    else o.dims[2] = fresh(c->gr);
  } else if (c->n->n_inputs > 2 && in_shape(c, 2, &w) && w.rank == 3) {
    o.dims[2] = w.dims[2];
  }
  set_out(c, 0, c->t, &o);
}

/* MatMulIntegerToFloat: MatMul's shape, the scale's dtype. */
void infer_ms_matmul_to_float(const ctx *c) { rule_matmul(c, in_dtype(c, 2), 1); }

/* MatMulNBits: A's shape with N (the attribute) last. */
void infer_matmul_nbits(const ctx *c) {
  ast_shape a;
  int64_t   n = attr_i(c->n, "N", -1);
  bool      ok = in_shape(c, 0, &a) && a.rank >= 1 && n >= 0;
  if (ok) a.dims[a.rank - 1] = n;
  set_out(c, 0, c->t, ok ? &a : NULL);
}

/* QLinearAdd, QLinearMul: A (input 0) and B (input 3) broadcast, A's dtype. */
void infer_qlinear_binary(const ctx *c) {
  ast_shape a, b;
  bool      ok = in_shape(c, 0, &a) && in_shape(c, 3, &b);
  ast_shape o = {0, {0}};
  if (ok) { /* numpy broadcasting: right-aligned; a symbol against a fixed extent takes it */
    o.rank = a.rank > b.rank ? a.rank : b.rank;
    for (int d = 0; d < o.rank && ok; d++) {
      int     da = d - (o.rank - a.rank), db = d - (o.rank - b.rank);
      int64_t x = da >= 0 ? a.dims[da] : 1, y = db >= 0 ? b.dims[db] : 1;
      o.dims[d] = x == 1 ? y : y == 1 ? x : x;
      if (x != 1 && y != 1 && !unify(c->gr, x, y)) {
        refuse(c, graph_fmt(c->gr, "shapes %s and %s do not broadcast", shape_text(c, &a),
                            shape_text(c, &b)));
        ok = false;
      }
    }
  }
  set_out(c, 0, c->t, ok ? &o : NULL);
}
