% -- coords.c.tpl: an argwhere or nonzero kernel K of the plan: K_count (how
% -- many elements are true), K_fill (their coordinates), K (both) and the
% -- table's entries K_count_invoke and K_coords_invoke.
% -- Locals: e<l> loop extents, i<l> loop indices (outermost l = 0), n the
% -- true elements so far, outer a row's outer coordinates, truth a block of
% -- computed truths, u an element of it, rest its length.
% local k = ...
% local nl = #k.loops
% local last = ops.node(k, #k.nodes - 1)
% local inner = "i" .. (nl - 1)
% local truth = ops.truth(last.dtype, last.ident)
%
% -- A contiguous 1-byte input as the value (bool, int8, uint8): its rows are
% -- their own truth bytes (any non-zero byte is true), counted and listed by
% -- wherec/truth.h in place.
% local byte_param = nl > 0 and last.op == "INPUT" and k.params[last.a + 1]
% local bytewise = byte_param and dtypes[byte_param.dtype].size == 1 and k.loops[nl].strides[last.a + 1] == "1"
% local function byte_at(i) return "((const uint8_t *)" .. (byte_param and byte_param.ident or "") .. ")[" .. ops.offset(k, last.a + 1, i) .. "]" end
%
% -- Where the current row of the byte input starts (the outer indices only).
% local function row_ptr()
%   local terms = {}
%   for l = 1, nl - 1 do
%     local st = k.loops[l].strides[last.a + 1]
%     if st ~= "0" then terms[#terms + 1] = st == "1" and ("i" .. (l - 1)) or ("i" .. (l - 1) .. " * " .. st) end
%   end
%   return "(const uint8_t *)" .. byte_param.ident .. (#terms > 0 and (" + " .. table.concat(terms, " + ")) or "")
% end
%
% -- The loops of levels from .. to - 1 (1-based) around inner().
% local function loops(from, to, body)
%   if from == to then return body() end
  for (size_t i$(from - 1) = 0; i$(from - 1) < e$(from - 1); i$(from - 1)++) {
%   indent("  ", loops, from + 1, to, body)
  }
% end
%
/* ---- $(k.name) = $(ops.describe(k, #k.nodes - 1)) ---- */
% -- The count and the fill, built for one target: sfx "_any" (the build's own,
% -- inline) or "_avx2" (WC_TRUTH_CLONES: AVX2 and BMI, truth.h), each calling
% -- truth.h's functions of its target so that the constant slot steps fold in.
% local function count_fn(sfx, attr)
$(attr)int64_t $(k.sym)_count$(sfx)($(ops.signature(k)))
{
% if nl > 0 then
  const size_t $(ops.loop_extents(k));
% end
  int64_t n = 0;
% for _, name in ipairs(ops.unused(k)) do
  (void)$(name);
% end
% include("values.c.tpl", "  ", k, ops.at_level(k, "kernel"), ops.load_once(k))
% if nl == 0 then
  n = $(truth) ? 1 : 0;
% elseif bytewise then
%   loops(1, nl, function()
  n += wc_count_nonzero$(sfx)($(row_ptr()), e$(nl - 1));
%   end)
% else
%   loops(1, nl + 1, function()
%     include("values.c.tpl", "  ", k, ops.at_level(k, "inner"), ops.load_at(k))
  n += $(truth) ? 1 : 0;
%   end)
% end
  return n;
}
% end
%
% local function fill_fn(sfx, attr)
$(attr)void $(k.sym)_fill$(sfx)($(ops.signature(k, {"int64_t count", "int64_t *coords"})))
{
% if nl == 0 then
%   for _, e in ipairs(k.extents) do
  (void)$(e.ident);
%   end
%   for _, p in ipairs(k.params) do
  (void)$(p.ident);
%   end
  (void)count;  /* a scalar has no coordinates */
  (void)coords;
% else
  const size_t $(ops.loop_extents(k));
  int64_t n = 0;
%   for _, name in ipairs(ops.unused(k)) do
  (void)$(name);
%   end
%   include("values.c.tpl", "  ", k, ops.at_level(k, "kernel"), ops.load_once(k))
  if (count == 0) return;
%   -- Row by row: the outer coordinates are the row's, wc_coords_row lists
%   -- the row's true columns from 64-bit masks of its truth bytes: the input
%   -- itself, or blocks of 64 truths computed here. The slots of argwhere's
%   -- [n, rank] are 1 apart within an element and rank apart between
%   -- elements; nonzero's [rank, n] count and 1.
%   local step = k.kind == "argwhere" and "1" or "(size_t)count"
%   local nxt = k.kind == "argwhere" and tostring(nl) or "1"
%   local outer = nl > 1 and "outer" or "NULL"
%   loops(1, nl, function()
%     if nl > 1 then
%       local idx = {}
%       for l = 1, nl - 1 do idx[l] = "(int64_t)i" .. (l - 1) end
  const int64_t outer[$(nl - 1)] = {$(table.concat(idx, ", "))};
%     end
%     if bytewise then
  wc_coords_row$(sfx)($(row_ptr()), e$(nl - 1), 0, $(outer), $(nl - 1), coords, &n, count, $(step), $(nxt));
%     else
  for (size_t $(inner) = 0; $(inner) < e$(nl - 1); $(inner) += 64) {
    const size_t rest = e$(nl - 1) - $(inner) < 64 ? e$(nl - 1) - $(inner) : 64;
    uint8_t truth[64];
    size_t u;
    for (u = 0; u < rest; u++) {
%       include("values.c.tpl", "      ", k, ops.at_level(k, "inner"), ops.load_at(k, "(" .. inner .. " + u)"))
      truth[u] = $(truth) ? 1 : 0;
    }
    wc_coords_row$(sfx)(truth, rest, (int64_t)$(inner), $(outer), $(nl - 1), coords, &n, count, $(step), $(nxt));
  }
%     end
%     if nl > 1 then
  if (n == count) return;  /* the rest is false */
%     end
%   end)
% end
}
% end
%
%
% -- A byte input's K lists in one pass, counting as it goes, and reads the
% -- input once, not twice: argwhere appends rows (truth.h's wc_argwhere_row),
% -- nonzero packs each true byte's coordinates into one word while true is
% -- rare and unpacks them once n is known (wc_nonzero_bytes; the input, the
% -- value itself, is contiguous).
% local one_pass = bytewise
% local function list_fn(sfx, attr)
$(attr)int64_t $(k.sym)_list$(sfx)($(ops.signature(k, {"int64_t *coords"})))
{
  const size_t $(ops.loop_extents(k));
% for _, name in ipairs(ops.unused(k)) do
  (void)$(name);
% end
% if k.kind == "nonzero" then
%   local ext = {}
%   for l = 1, nl do ext[l] = "e" .. (l - 1) end
  const size_t ext[$(nl)] = {$(table.concat(ext, ", "))};
  return wc_nonzero_bytes$(sfx)((const uint8_t *)$(byte_param.ident), ext, $(nl), coords);
% else
  int64_t n = 0;
%   loops(1, nl, function()
%     if nl > 1 then
%       local idx = {}
%       for l = 1, nl - 1 do idx[l] = "(int64_t)i" .. (l - 1) end
  const int64_t outer[$(nl - 1)] = {$(table.concat(idx, ", "))};
%     end
  wc_argwhere_row$(sfx)($(row_ptr()), e$(nl - 1), 0, $(nl > 1 and "outer" or "NULL"), $(nl - 1), coords, &n);
%   end)
  return n;
% end
}
% end
%
% if nl == 0 then
%   count_fn("", "")

/* the coordinates of the count true elements (count from $(k.sym)_count) */
%   fill_fn("", "static ")
% else
%   count_fn("_any", "WC_INLINE ")

%   fill_fn("_any", "WC_INLINE ")

%   if one_pass then
%     list_fn("_any", "WC_INLINE ")

%   end
#if WC_TRUTH_CLONES
/* the same for AVX2, run when the CPU has it (truth.h) */
%   count_fn("_avx2", "static WC_TARGET_TRUTH_AVX2 ")

%   fill_fn("_avx2", "static WC_TARGET_TRUTH_AVX2 ")
%   if one_pass then

%     list_fn("_avx2", "static WC_TARGET_TRUTH_AVX2 ")
%   end
#endif

%   local args = ops.arguments(k)
int64_t $(k.sym)_count($(ops.signature(k)))
{
#if WC_TRUTH_CLONES
  if (wc_cpu_truth_avx2()) return $(k.sym)_count_avx2($(args));
#endif
  return $(k.sym)_count_any($(args));
}

%   local fargs = ops.arguments(k, {"count", "coords"})
/* the coordinates of the count true elements (count from $(k.sym)_count) */
static void $(k.sym)_fill($(ops.signature(k, {"int64_t count", "int64_t *coords"})))
{
#if WC_TRUTH_CLONES
  if (wc_cpu_truth_avx2()) {
    $(k.sym)_fill_avx2($(fargs));
    return;
  }
#endif
  $(k.sym)_fill_any($(fargs));
}
% end

int64_t $(k.sym)($(ops.signature(k, {"int64_t *coords"})))
{
% if one_pass then
%   local largs = ops.arguments(k, {"coords"})
#if WC_TRUTH_CLONES
  if (wc_cpu_truth_avx2()) return $(k.sym)_list_avx2($(largs));
#endif
  return $(k.sym)_list_any($(largs));
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
% if #k.params == 0 then
  (void)in;
% end
  return $(k.sym)_count($(ops.unpacked(k)));
}

static void $(k.sym)_coords_invoke(const size_t *ext, const void *const *in, int64_t count, int64_t *coords)
{
% if #k.extents == 0 then
  (void)ext;
% end
% if #k.params == 0 then
  (void)in;
% end
  $(k.sym)_fill($(ops.unpacked(k, {"count", "coords"})));
}

