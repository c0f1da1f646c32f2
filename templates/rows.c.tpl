% -- rows.c.tpl: a kernel with row reductions (row_sum, row_max, row_min,
% -- row_mean): K_range over the rows whose first element is in [begin, end)
% -- (the runtime splits rows, never a row), K and K_invoke.
% -- Each row takes k.passes: a pass folds the reductions of one depth into
% -- WC_ROW_LANES lanes (rows.h: element j into lane j % 16), the last stores
% -- the outputs. A pass runs in blocks of WC_ROW_BLOCK elements; in a nan_redo
% -- kernel a block is evaluated in plain IEEE arithmetic first and again,
% -- pinned, when a value it keeps is NaN (as elementwise.c.tpl's blocks).
% -- A value of k.n_caches (node.cache_pass) is stored by the pass computing it
% -- into <value>_cache_ and read back by the later ones when the row fits
% -- WC_ROW_CACHE. Locals as elementwise.c.tpl's; lane, i, at_, <value>_lanes_,
% -- <value>_block_, any_nan_.
% local k = ...
% local nl = #k.loops
% local function outs(...) return ops.out_params(k, {...}) end
% local function sfx(n) return dtypes[ops.node(k, n.a).dtype].sfx end
% local function is_real(n) return dtypes[n.dtype].kind == "REAL" end
% -- the values of ids at element j (raw: plain forms); with caches, a value an
% -- earlier pass cached is read from its cache
% local function values(ids, load, raw, pass)
%   for _, id in ipairs(ids) do
%     local n = ops.node(k, id)
%     if pass and n.cache_pass and n.cache_pass < pass then
const $(ops.ctype(n.dtype)) $(n.ident) = $(n.ident)_cache_[j];
%     else
const $(ops.ctype(n.dtype)) $(n.ident) = $(ops.value(k, n, load, raw));$(ops.value_note(n))
%     end
%   end
% end
% -- the values of this pass that later passes read from a cache
% local function cache_stores(ids, pass)
%   for _, id in ipairs(ids) do
%     local n = ops.node(k, id)
%     if n.cache_pass == pass then
$(n.ident)_cache_[j] = $(n.ident);
%     end
%   end
% end
% -- the values of ids a raw evaluation may change: computed in a plain form, or
% -- from such a value (keys: node ids)
% local function raw_taint(ids)
%   local taint = {}
%   for _, id in ipairs(ids) do
%     local n = ops.node(k, id)
%     local leaf = n.op == "INPUT" or n.op == "CONST"
%     taint[id] = not leaf and (n.c_op_raw ~= nil or taint[n.a] or taint[n.b] or taint[n.c]) or false
%   end
%   return taint
% end
% -- what a block's raw evaluation must check for NaN (each once): the values it
% -- keeps (the reductions' operands, the cached values, the outputs) when float
% -- and raw-computed, and the raw functions' values
% local function nan_checks(ids, keep)
%   local taint, seen, t = raw_taint(ids), {}, {}
%   local function add(n)
%     if n and not seen[n.id] then seen[n.id] = true; t[#t + 1] = n.ident end
%   end
%   for _, n in ipairs(keep) do
%     if taint[n.id] and is_real(n) then add(n) end
%   end
%   for _, id in ipairs(ids) do
%     if ops.node(k, id).raw_checked then add(ops.node(k, id)) end
%   end
%   return t
% end
% -- the values a pass keeps: its reductions' operands, its cached values
% local function kept(ids, reduce, pass, use_cache)
%   local t = {}
%   for _, id in ipairs(reduce) do t[#t + 1] = ops.node(k, ops.node(k, id).a) end
%   for _, id in ipairs(ids) do
%     if use_cache and ops.node(k, id).cache_pass == pass then t[#t + 1] = ops.node(k, id) end
%   end
%   return t
% end
% local function ends(ids)
%   for _, id in ipairs(ids) do
%     local n = ops.node(k, id)
const $(ops.ctype(n.dtype)) $(n.ident) = $(n.c_op)end_$(sfx(n))($(n.ident)_lanes_, n);
%   end
% end
% -- does reduction n sum floats (plain additions, redone pinned on a NaN lane)?
% local function raw_sum(n)
%   local kind = dtypes[ops.node(k, n.a).dtype].kind
%   return (n.op == "RSUM" or n.op == "RMEAN") and (kind == "REAL" or kind == "HALF")
% end
% -- the step of reduction n: plain when `raw` and it sums floats
% local function step(n, raw)
%   return n.c_op .. ((raw and raw_sum(n)) and "step_raw_" or "step_") .. sfx(n)
% end
% -- one loop over blocks of `size` elements of a reduction pass (fold_loops)
% local function fold_block(size, p, pass, ids, load, checks, use_cache, raw)
for (; i + $(size) <= n; i += $(size)) {
%   for _, id in ipairs(pass.reduce) do
%     local n = ops.node(k, id)
  $(ops.ctype(ops.node(k, n.a).dtype)) $(n.ident)_block_[$(size)];
%   end
%   if #checks > 0 then
  int any_nan_ = 0;
%   end
  for (lane = 0; lane < $(size); lane++) {
    const size_t j = i + lane;
%   indent("    ", values, ids, load, #checks > 0, use_cache and p)
%   for _, id in ipairs(pass.reduce) do
%     local n = ops.node(k, id)
    $(n.ident)_block_[lane] = $(ops.node(k, n.a).ident);
%   end
%   if use_cache then
%     indent("    ", cache_stores, ids, p)
%   end
%   for _, c in ipairs(checks) do
    any_nan_ |= $(c) != $(c);
%   end
  }
%   if #checks > 0 then
  if (any_nan_) {
    for (lane = 0; lane < $(size); lane++) {
      const size_t j = i + lane;
%     indent("      ", values, ids, load, false, use_cache and p)
%     for _, id in ipairs(pass.reduce) do
%       local n = ops.node(k, id)
      $(n.ident)_block_[lane] = $(ops.node(k, n.a).ident);
%     end
%     if use_cache then
%       indent("      ", cache_stores, ids, p)
%     end
    }
  }
%   end
  for (size_t at_ = 0; at_ < $(size); at_ += WC_ROW_LANES) /* element j into lane j % 16 */
    for (lane = 0; lane < WC_ROW_LANES; lane++) {
%   for _, id in ipairs(pass.reduce) do
%     local n = ops.node(k, id)
      $(n.ident)_lanes_[lane] = $(step(n, raw))($(n.ident)_lanes_[lane], $(n.ident)_block_[at_ + lane]);
%   end
    }
}
% end
% -- pass p (0-based) folding its reductions: raw, blocks evaluated plainly and
% -- float sums in plain additions (k.nan_redo or a float sum); else all pinned
% local function fold_loops(p, pass, use_cache, raw)
%   local ids = use_cache and pass.elem_cached or pass.elem
%   local load = ops.load_elem(k, "")
%   local checks = (raw and k.nan_redo) and nan_checks(ids, kept(ids, pass.reduce, p, use_cache)) or {}
{
  size_t i = 0, lane;
%   for _, id in ipairs(pass.reduce) do
%     local n = ops.node(k, id)
  $(n.c_op)init_$(sfx(n))($(n.ident)_lanes_);
%   end
%   indent("  ", fold_block, "WC_ROW_BLOCK", p, pass, ids, load, checks, use_cache, raw)
%   indent("  ", fold_block, "WC_ROW_LANES", p, pass, ids, load, checks, use_cache, raw)
  for (; i < n; i++) {
    const size_t j = i;
%   indent("    ", values, ids, load, false, use_cache and p)
%   if use_cache then
%     indent("    ", cache_stores, ids, p)
%   end
%   for _, id in ipairs(pass.reduce) do
%     local n = ops.node(k, id)
    $(n.ident)_lanes_[j % WC_ROW_LANES] = $(step(n, raw))($(n.ident)_lanes_[j % WC_ROW_LANES], $(ops.node(k, n.a).ident));
%   end
  }
}
% end
% local function reduce_pass(p, pass, use_cache)
%   local sums = {}
%   for _, id in ipairs(pass.reduce) do
%     local n = ops.node(k, id)
%     if raw_sum(n) then sums[#sums + 1] = n.ident .. "_lanes_" end
$(n.c_acc) $(n.ident)_lanes_[WC_ROW_LANES];
%   end
%   if k.nan_redo or #sums > 0 then
%     fold_loops(p, pass, use_cache, true)
%     local tests = {}
%     for _, id in ipairs(pass.reduce) do
%       local n = ops.node(k, id)
%       if raw_sum(n) then tests[#tests + 1] = "wc_racc_nan_" .. sfx(n) .. "(" .. n.ident .. "_lanes_)" end
%     end
%     if #tests > 0 then
if ($(table.concat(tests, " || "))) { /* a NaN lane: the row again, pinned */
%       indent("  ", fold_loops, p, pass, use_cache, false)
}
%     end
%   else
%     fold_loops(p, pass, use_cache, false)
%   end
%   ends(pass.reduce)
%   values(pass.row, ops.load_row(k))
% end
% -- one loop over blocks of `size` elements of the last pass (output_pass)
% local function output_block(size, p, ids, load, outputs, node_of, checks, use_cache)
for (; i + $(size) <= n; i += $(size)) {
%   for _, o in ipairs(outputs) do
  $(ops.mtype(o.dtype)) $(o.ident)_block_[$(size)];
%   end
  int any_nan_ = 0;
  for (lane = 0; lane < $(size); lane++) {
    const size_t j = i + lane;
%   indent("    ", values, ids, load, true, use_cache and p)
%   for _, o in ipairs(outputs) do
    $(o.ident)_block_[lane] = $(node_of(o).ident);
%   end
%   for _, c in ipairs(checks) do
    any_nan_ |= $(c) != $(c);
%   end
  }
  if (any_nan_) {
    for (lane = 0; lane < $(size); lane++) {
      const size_t j = i + lane;
%   indent("      ", values, ids, load, false, use_cache and p)
%   for _, o in ipairs(outputs) do
      $(o.ident)_block_[lane] = $(node_of(o).ident);
%   end
    }
  }
%   for _, o in ipairs(outputs) do
  memcpy($(o.ident)_row + i, $(o.ident)_block_, sizeof $(o.ident)_block_);
%   end
}
% end
% -- the last pass: the outputs of each element
% local function output_pass(p, pass, use_cache)
%   local ids = use_cache and pass.elem_cached or pass.elem
%   local load = ops.load_elem(k, "")
%   local outputs = ops.outs(k)
%   local function node_of(o) return ops.node(k, k.multi and o.node or #k.nodes - 1) end
%   local checks = {}
%   if k.nan_redo then
%     local keep = {}
%     for _, o in ipairs(outputs) do keep[#keep + 1] = node_of(o) end
%     checks = nan_checks(ids, keep)
%   end
{
  size_t i = 0, lane;
%   if #checks > 0 then
%     indent("  ", output_block, "WC_ROW_BLOCK", p, ids, load, outputs, node_of, checks, use_cache)
%     indent("  ", output_block, "WC_ROW_LANES", p, ids, load, outputs, node_of, checks, use_cache)
%   end
  WC_NO_OVERLAP
  for (lane = 0; i + lane < n; lane++) {
    const size_t j = i + lane;
%   indent("    ", values, ids, load, false, use_cache and p)
%   for _, o in ipairs(outputs) do
    $(o.ident)_row[j] = $(node_of(o).ident);
%   end
  }
}
% end
% -- one row: its row values, then the passes
% local function row_body(use_cache)
%   for p, pass in ipairs(k.passes) do
%     if p < #k.passes then
/* pass $(p): $(#pass.reduce) reduction(s) */
%       reduce_pass(p - 1, pass, use_cache)
%     else
/* pass $(p): the outputs */
%       output_pass(p - 1, pass, use_cache)
%     end
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
/* loops: $(ops.comment(ops.loop_classes(k))); rows of the last $(k.rows) axes, $(#k.passes) passes each */
WC_INLINE void $(k.sym)_range_any($(ops.signature(k, outs("size_t begin", "size_t end"))))
{
  $(ops.baked_locals(k))
  const size_t $(ops.loop_extents(k));
  size_t $(ops.seq("i", nl, ", ")), rest;
%   for _, n in ipairs(k.nodes) do
%     if n.cache_pass then
  $(ops.ctype(n.dtype)) $(n.ident)_cache_[WC_ROW_CACHE];
%     end
%   end
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
%   if k.n_caches > 0 then
    if (n <= WC_ROW_CACHE) { /* costly values computed once, kept in the row caches */
%     indent("      ", row_body, true)
    } else {
%     indent("      ", row_body, false)
    }
%   else
%     indent("    ", row_body, false)
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
