% -- coords.c.tpl: an argwhere or nonzero kernel K of the plan: K_count (how
% -- many elements are true), K_fill (their coordinates), K_list (both in one
% -- pass, when k.one_pass), K, and the table's entries K_count_invoke and
% -- K_coords_invoke. k.bytewise: the value's rows are their own truth bytes.
% local k = ...
% local nl = #k.loops
% local last = ops.node(k, #k.nodes - 1)
% local truth = ops.truth(last.dtype, last.ident)
% local outer = nl > 1 and "outer" or "NULL"
% local function values(nodes, load)
%   for _, n in ipairs(nodes) do
const $(ops.ctype(n.dtype)) $(n.ident) = $(ops.value(k, n, load));$(ops.value_note(n))
%   end
% end
/* ---- $(k.name) = $(ops.describe(k, #k.nodes - 1)) ---- */
% if nl == 0 then
int64_t $(k.sym)_count($(ops.signature(k)))
{
  $(ops.baked_locals(k))
  int64_t n = 0;
  (void)$(ops.unused(k));
%   indent("  ", values, ops.at_level(k, "kernel"), ops.load_once(k))
  n = $(truth) ? 1 : 0;
  return n;
}

/* the coordinates of the count true elements (count from $(k.sym)_count) */
static void $(k.sym)_fill($(ops.signature(k, {"int64_t count", "int64_t *coords"})))
{
  $(ops.baked_locals(k))
  (void)$(ops.idents(k.params));
  (void)count;  /* a scalar has no coordinates */
  (void)coords;
}
% else
%   local row = k.bytewise and ops.byte_row(k, last.a + 1)
%   -- K_count, K_fill and K_list for one target: sfx "_any" (the build's own,
%   -- inline) or "_avx2" (WC_TRUTH_CLONES: AVX2 and BMI), each calling
%   -- truth.h's functions of its target so that the constant slot steps fold in.
%   local function functions_for(sfx, attr)
$(attr)int64_t $(k.sym)_count$(sfx)($(ops.signature(k)))
{
  $(ops.baked_locals(k))
  const size_t $(ops.loop_extents(k));
  int64_t n = 0;
  (void)$(ops.unused(k));
%     indent("  ", values, ops.at_level(k, "kernel"), ops.load_once(k))
%     for l = 0, k.count_loops - 1 do
  $(ops.pad(l))for (size_t i$(l) = 0; i$(l) < e$(l); i$(l)++) {
%     end
%     if k.bytewise then
  $(ops.pad(k.count_loops))n += wc_count_nonzero$(sfx)($(row), e$(nl - 1));
%     else
%       indent("  " .. ops.pad(k.count_loops), values, ops.at_level(k, "inner"), ops.load_at(k))
  $(ops.pad(k.count_loops))n += $(truth) ? 1 : 0;
%     end
%     for l = k.count_loops - 1, 0, -1 do
  $(ops.pad(l))}
%     end
  return n;
}

$(attr)void $(k.sym)_fill$(sfx)($(ops.signature(k, {"int64_t count", "int64_t *coords"})))
{
  $(ops.baked_locals(k))
  const size_t $(ops.loop_extents(k));
  int64_t n = 0;
  (void)$(ops.unused(k));
%     indent("  ", values, ops.at_level(k, "kernel"), ops.load_once(k))
  if (count == 0) return;
%     -- Row by row: the outer coordinates are the row's; wc_coords_row lists
%     -- the row's true columns from its truth bytes, the input's or computed.
%     for l = 0, nl - 2 do
  $(ops.pad(l))for (size_t i$(l) = 0; i$(l) < e$(l); i$(l)++) {
%     end
%     indent(ops.pad(nl - 1), function()
%       if nl > 1 then
  const int64_t outer[$(nl - 1)] = {$(ops.seq("(int64_t)i", nl - 1, ", "))};
%       end
%       if k.bytewise then
  wc_coords_row$(sfx)($(row), e$(nl - 1), 0, $(outer), $(nl - 1), coords, &n, count, $(ops.coord_steps(k)));
%       else
  for (size_t i$(nl - 1) = 0; i$(nl - 1) < e$(nl - 1); i$(nl - 1) += 64) {
    const size_t rest = e$(nl - 1) - i$(nl - 1) < 64 ? e$(nl - 1) - i$(nl - 1) : 64;
    uint8_t truth[64];
    size_t u;
    for (u = 0; u < rest; u++) {
%         indent("      ", values, ops.at_level(k, "inner"), ops.load_at(k, "(i" .. (nl - 1) .. " + u)"))
      truth[u] = $(truth) ? 1 : 0;
    }
    wc_coords_row$(sfx)(truth, rest, (int64_t)i$(nl - 1), $(outer), $(nl - 1), coords, &n, count, $(ops.coord_steps(k)));
  }
%       end
%       if nl > 1 then
  if (n == count) return;  /* the rest is false */
%       end
%     end)
%     for l = nl - 2, 0, -1 do
  $(ops.pad(l))}
%     end
}
%     if k.one_pass then

$(attr)int64_t $(k.sym)_list$(sfx)($(ops.signature(k, {"int64_t *coords"})))
{
  $(ops.baked_locals(k))
  const size_t $(ops.loop_extents(k));
  (void)$(ops.unused(k));
%       if k.kind == "nonzero" then
  const size_t ext[$(nl)] = {$(ops.seq("e", nl, ", "))};
  return wc_nonzero_bytes$(sfx)((const uint8_t *)$(k.params[last.a + 1].ident), ext, $(nl), coords);
%       else
  int64_t n = 0;
%         for l = 0, nl - 2 do
  $(ops.pad(l))for (size_t i$(l) = 0; i$(l) < e$(l); i$(l)++) {
%         end
%         if nl > 1 then
  $(ops.pad(nl - 1))const int64_t outer[$(nl - 1)] = {$(ops.seq("(int64_t)i", nl - 1, ", "))};
%         end
  $(ops.pad(nl - 1))wc_argwhere_row$(sfx)($(row), e$(nl - 1), 0, $(outer), $(nl - 1), coords, &n);
%         for l = nl - 2, 0, -1 do
  $(ops.pad(l))}
%         end
  return n;
%       end
}
%     end
%   end
%   functions_for("_any", "WC_INLINE ")

#if WC_TRUTH_CLONES
/* the same for AVX2, run when the CPU has it (truth.h) */
%   functions_for("_avx2", "static WC_TARGET_TRUTH_AVX2 ")
#endif

int64_t $(k.sym)_count($(ops.signature(k)))
{
  $(ops.baked_locals(k))
#if WC_TRUTH_CLONES
  if (wc_cpu_truth_avx2()) return $(k.sym)_count_avx2($(ops.arguments(k)));
#endif
  return $(k.sym)_count_any($(ops.arguments(k)));
}

/* the coordinates of the count true elements (count from $(k.sym)_count) */
static void $(k.sym)_fill($(ops.signature(k, {"int64_t count", "int64_t *coords"})))
{
  $(ops.baked_locals(k))
#if WC_TRUTH_CLONES
  if (wc_cpu_truth_avx2()) {
    $(k.sym)_fill_avx2($(ops.arguments(k, {"count", "coords"})));
    return;
  }
#endif
  $(k.sym)_fill_any($(ops.arguments(k, {"count", "coords"})));
}
% end

int64_t $(k.sym)($(ops.signature(k, {"int64_t *coords"})))
{
  $(ops.baked_locals(k))
% if k.one_pass then
#if WC_TRUTH_CLONES
  if (wc_cpu_truth_avx2()) return $(k.sym)_list_avx2($(ops.arguments(k, {"coords"})));
#endif
  return $(k.sym)_list_any($(ops.arguments(k, {"coords"})));
% else
  const int64_t count = $(k.sym)_count($(ops.arguments(k)));
  $(k.sym)_fill($(ops.arguments(k, {"count", "coords"})));
  return count;
% end
}

static int64_t $(k.sym)_count_invoke(const size_t *ext, const void *const *in)
{
% if #k.extents == 0 then
  (void)ext;
% end
% if ops.n_own(k) == 0 then
  (void)in;
% end
  return $(k.sym)_count($(ops.unpacked(k)));
}

static void $(k.sym)_coords_invoke(const size_t *ext, const void *const *in, int64_t count, int64_t *coords)
{
% if #k.extents == 0 then
  (void)ext;
% end
% if ops.n_own(k) == 0 then
  (void)in;
% end
  $(k.sym)_fill($(ops.unpacked(k, {"count", "coords"})));
}

