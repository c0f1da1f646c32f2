% -- elementwise.c.tpl: an elementwise or where_v1 kernel K of the plan:
% -- K_range (the loops over elements [begin, end) of the output, in rows of
% -- the innermost loop), K (the whole output) and K_invoke (the table's entry).
% -- Locals: e<l>, i<l> loop extents and indices, rest the flat index split
% -- into them, n the row's length, x_row and out_row where rows start.
% local k = ...
% local nl = #k.loops
% local last = ops.node(k, #k.nodes - 1)
% local ot = ops.ctype(k.out_dtype)
% local mt = ops.mtype(k.out_dtype)
% local function outs(...) return ops.out_params(k, {...}) end
% local function values(nodes, load, raw)
%   for _, n in ipairs(nodes) do
const $(ops.ctype(n.dtype)) $(n.ident) = $(ops.value(k, n, load, raw));$(ops.value_note(n))
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
%   local store = last.level ~= "elem" and last.ident or nil
%   -- Blocks of `size` (a macro of loop.h) elements while they fit: a constant
%   -- trip count, which every build vectorizes. A nan_redo kernel evaluates a
%   -- block in plain IEEE arithmetic first and, when a result is NaN, again with
%   -- NaNs pinned (ops.h), before anything is stored.
%   local function block_loop(count, size, dst, load, elem, stores)
%     if k.nan_redo then
%       local blocks = ops.block_outputs(k, dst, ops.value(k, last, load, true))
      for (; i + $(size) <= $(count); i += $(size)) {
        size_t lane;
        int any_nan_ = 0;
%       for _, b in ipairs(blocks) do
        $(b.type) $(b.name)[$(size)];
%       end
        for (lane = 0; lane < $(size); lane++) {
          const size_t j = i + lane;
%       indent("          ", values, elem, load, true)
%       for _, b in ipairs(blocks) do
          $(b.name)[lane] = $(b.value);
%       end
%       for _, b in ipairs(blocks) do
%         if b.nan then
          any_nan_ |= $(b.name)[lane] != $(b.name)[lane];
%         end
%       end
%       for _, n in ipairs(elem) do
%         if n.raw_checked then
          any_nan_ |= $(n.ident) != $(n.ident);
%         end
%       end
        }
        if (any_nan_) {
          WC_NO_OVERLAP
          for (lane = 0; lane < $(size); lane++) {
            const size_t j = i + lane;
%       indent("            ", values, elem, load)
            $(stores)
          }
        } else {
%       for _, b in ipairs(blocks) do
          memcpy($(b.to), $(b.name), sizeof $(b.name));
%       end
        }
      }
%     else
      for (; i + $(size) <= $(count); i += $(size)) {
        size_t lane;
        WC_NO_OVERLAP
        for (lane = 0; lane < $(size); lane++) {
          const size_t j = i + lane;
%       indent("          ", values, elem, load)
          $(stores)
        }
      }
%     end
%   end
%   -- The innermost loop over count elements: inputs at x_row[first j],
%   -- results into dst[j]; blocks, then unrolled k.unroll times, then the rest.
%   local function element_loop(count, first, dst)
%     local load = ops.load_elem(k, first)
%     local elem = ops.at_level(k, "elem", not k.multi)
%     local stores = ops.stores(k, dst, store or ops.value(k, last, load))
      size_t i = 0;
      /* blocks of WC_LOOP_BLOCK, then of WC_LOOP_TAIL: constant trip counts (loop.h) */
%     block_loop(count, "WC_LOOP_BLOCK", dst, load, elem, stores)
%     block_loop(count, "WC_LOOP_TAIL", dst, load, elem, stores)
%     if k.unroll > 1 then
      for (; i + $(k.unroll) <= $(count); i += $(k.unroll)) {
%       for u = 0, k.unroll - 1 do
        {
          const size_t j = i + $(u);
%         indent("          ", values, elem, load)
          $(stores)
        }
%       end
      }
%     end
      for (; i < $(count); i++) {
        const size_t j = i;
%     indent("        ", values, elem, load)
        $(stores)
      }
%   end
%   -- One branch of a row select: the row copied from a contiguous input,
%   -- or filled with one value.
%   local function row_branch(id, copy)
%     local value = ops.node(k, id)
%     if copy then
%       local src = ops.row(k, value.a + 1)
%       if k.streams then
      if (stream) wc_stream_copy(out_row, $(src), n * sizeof *out_row);
      else if ((const void *)$(src) != (void *)out_row) memcpy(out_row, $(src), n * sizeof *out_row);
%       else
      if ((const void *)$(src) != (void *)out_row) memcpy(out_row, $(src), n * sizeof *out_row);
%       end
%     else
      for (size_t j = 0; j < n; j++) out_row[j] = $(value.ident);
%     end
%   end
/* loops: $(ops.comment(ops.loop_classes(k))); unroll $(k.unroll) */
WC_INLINE void $(k.sym)_range_any($(ops.signature(k, outs("size_t begin", "size_t end"))))
{
  $(ops.baked_locals(k))
  const size_t $(ops.loop_extents(k));
  size_t $(ops.seq("i", nl, ", ")), rest = begin;
  (void)$(ops.unused(k));
%   if k.streams then
  /* an output past the last-level cache is written with non-temporal stores */
  const int stream = $(ops.seq("e", nl, " * ")) * sizeof *out >= $(k.stream_min);
%   elseif nl > 1 then
  (void)e0;  /* the outermost extent bounds nothing: end does */
%   end
%   indent("  ", values, ops.at_level(k, "kernel"), ops.load_once(k))
  if (begin >= end) return;
%   for l = nl, 2, -1 do
  i$(l - 1) = rest % e$(l - 1);
  rest /= e$(l - 1);
%   end
  i0 = rest;
  while (begin < end) {
    size_t n = e$(nl - 1) - i$(nl - 1);
%   for i, p in ipairs(k.params) do
%     if not p.invariant and ops.is_used(k, i) then
    const $(ops.mtype(p.dtype)) *$(ops.row(k, i)) = $(ops.row_start(k, i));
%     end
%   end
    $(ops.out_rows(k))
    if (n > end - begin) n = end - begin;
%   indent("    ", values, ops.at_level(k, "row"), ops.load_row(k))
%   local rs = k.row_select
%   if rs then
    if ($(ops.node(k, rs.cond).ident)) {
%     row_branch(rs.x, rs.copy_x)
    } else {
%     row_branch(rs.y, rs.copy_y)
    }
%   elseif k.streams then
    /* the row in one piece into out_row or, when streaming, in chunks of
       WC_STREAM_CHUNK bytes into the L1 buffer `chunk`, each streamed out */
    $(mt) chunk[WC_STREAM_CHUNK / sizeof(*out_row)];
    for (size_t chunk_at = 0; chunk_at < n;) {
      const size_t chunk_len = stream && n - chunk_at > sizeof chunk / sizeof *chunk ? sizeof chunk / sizeof *chunk : n - chunk_at;
      $(mt) *const dst = stream ? chunk : out_row + chunk_at;
%     element_loop("chunk_len", "chunk_at + ", "dst")
      if (stream) wc_stream_copy(out_row + chunk_at, chunk, chunk_len * sizeof *chunk);
      chunk_at += chunk_len;
    }
%   else
    {
%     element_loop("n", "", "out_row")
    }
%   end
    begin += n;
%   if nl > 1 then
    i$(nl - 1) = 0;
%     for l = nl - 2, 1, -1 do
    if (++i$(l) == e$(l)) { i$(l) = 0;
%     end
    ++i0;$(string.rep(" }", nl - 2))
%   end
  }
%   if k.streams then
  if (stream) wc_stream_fence();
%   end
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

% if k.straight then
/* all $(k.total_fixed) elements, straight-line, into result first: out may be an
   input (in place), and with every load ahead of every store compilers vectorize */
void $(k.sym)($(ops.signature(k, outs())))
{
  $(ops.baked_locals(k))
  (void)$(ops.unused(k));
  $(ot) result[$(k.total_fixed)];
%   indent("  ", values, ops.at_level(k, "kernel"), ops.load_once(k))
%   for e, offsets in ipairs(k.straight_off) do
%     local load = ops.load_fixed(k, offsets)
  {
%     indent("    ", values, ops.at_level(k, "inner", true), load)
    result[$(e - 1)] = $(last.level == "kernel" and last.ident or ops.value(k, last, load));
  }
%   end
  memcpy(out, result, sizeof result);
}
% else
void $(k.sym)($(ops.signature(k, outs())))
{
  $(ops.baked_locals(k))
  $(k.sym)_range($(ops.arguments(k, ops.out_names(k, {"0", ops.total(k)}))));
}
% end

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

