% -- rows.c.tpl: a kernel with row reductions (row_sum, row_max, row_min,
% -- row_mean): K_range over the rows whose first element is in [begin, end)
% -- (the runtime splits rows, never a row), K and K_invoke.
% -- Each row takes k.passes: a pass folds the reductions of one depth into
% -- WC_ROW_LANES lanes (rows.h: element j into lane j % 16), the last stores
% -- the outputs. Locals as elementwise.c.tpl's; lane, i, and <value>_lanes_.
% local k = ...
% local nl = #k.loops
% local function outs(...) return ops.out_params(k, {...}) end
% local function values(ids, load)
%   for _, id in ipairs(ids) do
%     local n = ops.node(k, id)
const $(ops.ctype(n.dtype)) $(n.ident) = $(ops.value(k, n, load));$(ops.value_note(n))
%   end
% end
% local function ends(ids)
%   for _, id in ipairs(ids) do
%     local n = ops.node(k, id)
const $(ops.ctype(n.dtype)) $(n.ident) = $(n.c_op)end_$(dtypes[ops.node(k, n.a).dtype].sfx)($(n.ident)_lanes_, n);
%   end
% end
% local function sfx(n) return dtypes[ops.node(k, n.a).dtype].sfx end
% -- the steps of element j into lane `lane` of each reduction of a pass
% local function steps(reduce)
%   for _, id in ipairs(reduce) do
%     local n = ops.node(k, id)
$(n.ident)_lanes_[lane] = $(n.c_op)step_$(sfx(n))($(n.ident)_lanes_[lane], $(ops.node(k, n.a).ident));
%   end
% end
/* ---- $(ops.summary(k)) ---- */
% if k.empty then
/* no elements: a fixed output extent is 0 */
void $(k.sym)_range($(ops.signature(k, outs("size_t begin", "size_t end"))))
{
  $(ops.baked_locals(k))
  (void)$(ops.idents(k.extents));
  (void)$(ops.idents(k.params));
  (void)$(ops.out_names(k));
  (void)begin;
  (void)end;
}
% else
%   local load = ops.load_elem(k, "")
/* loops: $(ops.comment(ops.loop_classes(k))); rows of the last $(k.rows) axes, $(#k.passes) passes each */
WC_INLINE void $(k.sym)_range_any($(ops.signature(k, outs("size_t begin", "size_t end"))))
{
  $(ops.baked_locals(k))
  const size_t $(ops.loop_extents(k));
  size_t $(ops.seq("i", nl, ", ")), rest;
  (void)$(ops.unused(k));
%   if nl > 1 then
  (void)e0;  /* the outermost extent bounds nothing: end does */
%   end
  (void)i$(nl - 1);  /* a row starts at its first element */
%   indent("  ", values, (function() local t = {} for _, n in ipairs(ops.at_level(k, "kernel")) do t[#t + 1] = n.id end return t end)(), ops.load_once(k))
  /* whole rows: those whose first element is in [begin, end) */
  if (begin >= end || e$(nl - 1) == 0) return;
  rest = (begin + e$(nl - 1) - 1) / e$(nl - 1);
  end = (end + e$(nl - 1) - 1) / e$(nl - 1) * e$(nl - 1);
  begin = rest * e$(nl - 1);
%   for l = nl - 1, 2, -1 do
  i$(l - 1) = rest % e$(l - 1);
  rest /= e$(l - 1);
%   end
  i0 = rest;
  i$(nl - 1) = 0;
  while (begin < end) {
    const size_t n = e$(nl - 1);
%   for i, p in ipairs(k.params) do
%     if not p.invariant and ops.is_used(k, i) then
    const $(ops.mtype(p.dtype)) *$(ops.row(k, i)) = $(ops.row_start(k, i));
%     end
%   end
    $(ops.out_rows(k))
%   indent("    ", values, k.row0, ops.load_row(k))
%   for p, pass in ipairs(k.passes) do
%     if #pass.reduce > 0 then
    /* pass $(p): $(#pass.reduce) reduction(s) */
%       for _, id in ipairs(pass.reduce) do
%         local n = ops.node(k, id)
    $(n.c_acc) $(n.ident)_lanes_[WC_ROW_LANES];
%       end
    {
      size_t i = 0, lane;
%       for _, id in ipairs(pass.reduce) do
%         local n = ops.node(k, id)
      $(n.c_op)init_$(sfx(n))($(n.ident)_lanes_);
%       end
      for (; i + WC_ROW_LANES <= n; i += WC_ROW_LANES) {
        for (lane = 0; lane < WC_ROW_LANES; lane++) {
          const size_t j = i + lane;
%       indent("          ", values, pass.elem, load)
%       indent("          ", steps, pass.reduce)
        }
      }
      for (lane = 0; i + lane < n; lane++) {
        const size_t j = i + lane;
%       indent("        ", values, pass.elem, load)
%       indent("        ", steps, pass.reduce)
      }
    }
%       indent("    ", ends, pass.reduce)
%       indent("    ", values, pass.row, ops.load_row(k))
%     else
    /* pass $(p): the outputs */
    {
      size_t j;
      WC_NO_OVERLAP
      for (j = 0; j < n; j++) {
%       indent("        ", values, pass.elem, load)
%       for _, o in ipairs(ops.outs(k)) do
        $(o.ident)_row[j] = $(ops.node(k, (k.multi and o.node or #k.nodes - 1)).ident);
%       end
      }
    }
%     end
%   end
    begin += n;
%   if nl > 1 then
%     for l = nl - 2, 1, -1 do
    if (++i$(l) == e$(l)) { i$(l) = 0;
%     end
    ++i0;$(string.rep(" }", nl - 2))
%   end
  }
}

%   local args = ops.arguments(k, ops.out_names(k, {"begin", "end"}))
#if WC_CLONES
/* the same loops for AVX2, run when the CPU has it (loop.h) */
static WC_TARGET_AVX2 void $(k.sym)_range_avx2($(ops.signature(k, outs("size_t begin", "size_t end"))))
{
  $(ops.baked_locals(k))
  $(k.sym)_range_any($(args));
}
#endif

void $(k.sym)_range($(ops.signature(k, outs("size_t begin", "size_t end"))))
{
  $(ops.baked_locals(k))
#if WC_CLONES
  if (wc_cpu_avx2()) {
    $(k.sym)_range_avx2($(args));
    return;
  }
#endif
  $(k.sym)_range_any($(args));
}
% end

void $(k.sym)($(ops.signature(k, outs())))
{
  $(ops.baked_locals(k))
  $(k.sym)_range($(ops.arguments(k, ops.out_names(k, {"0", ops.total(k)}))));
}

static void $(k.sym)_invoke(const size_t *ext, const void *const *in, void *$(k.multi and "const *" or "")out, size_t begin, size_t end)
{
% if #k.extents == 0 then
  (void)ext;
% end
% if ops.n_own(k) == 0 then
  (void)in;
% end
  $(k.sym)_range($(ops.unpacked(k, ops.out_casts(k, {"begin", "end"}))));
}
