% -- coords.c.tpl: an argwhere or nonzero kernel K of the plan: K_count (how
% -- many elements are true), K_fill (their coordinates), K (both) and the
% -- table's entries K_count_invoke and K_coords_invoke.
% -- Locals: e<l> loop extents, i<l> loop indices (outermost l = 0), n the
% -- true elements so far, u an element of a group of 8.
% local k = ...
% local nl = #k.loops
% local last = ops.node(k, #k.nodes - 1)
% local inner = "i" .. (nl - 1)
% local truth = ops.truth(last.dtype, last.ident)
%
% -- A contiguous 1-byte input as the value (bool, int8, uint8): 8 elements
% -- are tested as one 64-bit word, and counted without a per-byte loop.
% local byte_param = nl > 0 and last.op == "INPUT" and k.params[last.a + 1]
% local bytewise = byte_param and dtypes[byte_param.dtype].size == 1 and k.loops[nl].strides[last.a + 1] == "1"
% local function byte_at(i) return "((const uint8_t *)" .. (byte_param and byte_param.ident or "") .. ")[" .. ops.offset(k, last.a + 1, i) .. "]" end
%
% -- The loops of levels from .. to - 1 (1-based) around inner().
% local function loops(from, to, body)
%   if from == to then return body() end
  for (size_t i$(from - 1) = 0; i$(from - 1) < e$(from - 1); i$(from - 1)++) {
%   indent("  ", loops, from + 1, to, body)
  }
% end
%
% -- The slot of coordinate l (1-based) of the n-th true element.
% local function slot(l)
%   return k.kind == "argwhere" and ("n * " .. nl .. " + " .. (l - 1)) or ((l - 1) .. " * count + n")
% end
/* ---- $(k.name) = $(ops.describe(k, #k.nodes - 1)) ---- */
int64_t $(k.sym)_count($(ops.signature(k)))
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
  size_t $(inner) = 0;
  for (; $(inner) + 8 <= e$(nl - 1); $(inner) += 8) {
    uint64_t word;
    memcpy(&word, &$(byte_at(nil)), 8);
    /* each non-zero byte becomes 0x01; one multiply sums the eight */
    word = ((((word & UINT64_C(0x7f7f7f7f7f7f7f7f)) + UINT64_C(0x7f7f7f7f7f7f7f7f)) | word) >> 7) & UINT64_C(0x0101010101010101);
    n += (int64_t)((word * UINT64_C(0x0101010101010101)) >> 56);
  }
  for (; $(inner) < e$(nl - 1); $(inner)++) n += $(byte_at(nil)) != 0 ? 1 : 0;
%   end)
% else
%   loops(1, nl + 1, function()
%     include("values.c.tpl", "  ", k, ops.at_level(k, "inner"), ops.load_at(k))
  n += $(truth) ? 1 : 0;
%   end)
% end
  return n;
}

/* the coordinates of the count true elements (count from $(k.sym)_count) */
static void $(k.sym)_fill($(ops.signature(k, {"int64_t count", "int64_t *coords"})))
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
%   -- The innermost loop goes 8 elements at a time: their truths first, and
%   -- a group of 8 false elements is skipped whole (most groups when true
%   -- is rare); otherwise each writes its slot at n, and n advances by its
%   -- truth, branch-free.
%   loops(1, nl, function()
  size_t $(inner) = 0;
  for (; $(inner) + 8 <= e$(nl - 1); $(inner) += 8) {
%     if bytewise then
    uint64_t word;
    size_t u;
    memcpy(&word, &$(byte_at(nil)), 8);
    if (word == 0) continue;
%     else
    bool truth[8];
    size_t u;
    for (u = 0; u < 8; u++) {
%       include("values.c.tpl", "      ", k, ops.at_level(k, "inner"), ops.load_at(k, "(" .. inner .. " + u)"))
      truth[u] = $(truth);
    }
    if (!(truth[0] | truth[1] | truth[2] | truth[3] | truth[4] | truth[5] | truth[6] | truth[7])) continue;
%     end
    for (u = 0; u < 8; u++) {
%     for l = 1, nl do
      coords[$(slot(l))] = (int64_t)$(l == nl and ("(" .. inner .. " + u)") or ("i" .. (l - 1)));
%     end
%     if bytewise then
      n += $(byte_at("(" .. inner .. " + u)")) != 0 ? 1 : 0;
%     else
      n += truth[u] ? 1 : 0;
%     end
      if (n == count) return;
    }
  }
  for (; $(inner) < e$(nl - 1); $(inner)++) {
%     include("values.c.tpl", "    ", k, ops.at_level(k, "inner"), ops.load_at(k))
%     for l = 1, nl do
    coords[$(slot(l))] = (int64_t)i$(l - 1);
%     end
    n += $(truth) ? 1 : 0;
    if (n == count) return;
  }
%   end)
% end
}

int64_t $(k.sym)($(ops.signature(k, {"int64_t *coords"})))
{
  const int64_t count = $(k.sym)_count($(ops.arguments(k)));
  $(k.sym)_fill($(ops.arguments(k, {"count", "coords"})));
  return count;
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

