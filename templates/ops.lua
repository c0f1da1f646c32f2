-- ops.lua: how each operation, constant and truth test is spelled in C,
-- and the small pieces of C the templates share (signatures, offsets, loads).
-- Every template sees this module as `ops`; templates/README.md lists it.

local ops = {}

local function dt(name) return dtypes[name] end

-- The C type of a dtype.
function ops.ctype(name) return dt(name).ctype end

-- The C type the kernels access memory through: bool as uint8_t, because
-- gcc does not vectorize loads and stores of bool (values are 0 or 1).
function ops.mtype(name) return name == "bool" and "uint8_t" or dt(name).ctype end

-- A value loaded through ops.mtype, as the dtype's C type.
function ops.load(name, lvalue) return name == "bool" and ("(" .. lvalue .. " != 0)") or lvalue end

-- The dtype's enum constant: "WC_FLOAT".
function ops.enum(name) return dt(name).enum end

-- A constant of dtype `name` from its bits (hex strings, as in wc_instr).
function ops.const(name, bits0, bits1)
  local d = dt(name)
  if d.kind == "BOOL" then return bits0 == "0x0" and "false" or "true" end
  if name == "float" then return "wc_bits_to_f32(UINT32_C(" .. bits0 .. "))" end
  if name == "double" then return "wc_bits_to_f64(UINT64_C(" .. bits0 .. "))" end
  if d.kind == "HALF" then return "(" .. d.ctype .. ")UINT16_C(" .. bits0 .. ")" end
  if name == "complex64" then
    return "{wc_bits_to_f32(UINT32_C(" .. bits0 .. ")), wc_bits_to_f32(UINT32_C(" .. bits1 .. "))}"
  end
  if name == "complex128" then
    return "{wc_bits_to_f64(UINT64_C(" .. bits0 .. ")), wc_bits_to_f64(UINT64_C(" .. bits1 .. "))}"
  end
  if d.kind == "UINT" then return "(" .. d.ctype .. ")UINT64_C(" .. bits0 .. ")" end
  -- signed: the bits, converted modulo 2^bits (every C compiler here wraps)
  return "(" .. d.ctype .. ")(int64_t)UINT64_C(" .. bits0 .. ")"
end

-- The C expression of node n on operand expressions a, b, c, as lower.c
-- decided it (n.render): a C operator, ?:, or a call of n.c_op.
function ops.expr(n, a, b, c, raw)
  if n.render == "infix" then return a .. " " .. n.c_op .. " " .. b end
  if n.render == "prefix" then return n.c_op .. a end
  if n.render == "ternary" then return a .. " ? " .. b .. " : " .. c end
  if n.c_load then a = n.c_load .. "(" .. a .. ")" end
  local args = ({ a, b, c })
  local f = raw and n.c_op_raw or n.c_op
  return f .. "(" .. table.concat(args, ", ", 1, optable[n.op].arity) .. ")"
end

-- C condition that a value v of dtype `name` is non-zero (argwhere / nonzero).
function ops.truth(name, v)
  local d = dt(name)
  if d.kind == "BOOL" then return v end
  if d.kind == "HALF" then return "((" .. v .. ") & 0x7fffu) != 0" end
  if d.kind == "COMPLEX" then return "(" .. v .. ".re != 0 || " .. v .. ".im != 0)" end
  if d.kind == "STRING" then return "(" .. v .. " != NULL && " .. v .. "[0] != '\\0')" end
  return "(" .. v .. ") != 0"
end

-- The kernel's expression, readable, for comments: where(c, x, x * 0.01),
-- spelled as the spec writes each operation (optable). Shared subexpressions
-- repeat in the text, so it stops at `limit` characters.
local function describe(k, id, budget)
  if budget.left <= 0 then return "..." end
  budget.left = budget.left - 1
  local n = k.nodes[id + 1]
  local op = optable[n.op]
  local args = {}
  for i, field in ipairs({ "a", "b", "c" }) do
    if i <= op.arity then args[i] = describe(k, n[field], budget) end
  end
  if n.op == "INPUT" then return k.params[n.a + 1].name end
  if n.op == "CONST" then return n.value end
  if op.form == "CAST" then return n.dtype .. "(" .. args[1] .. ")" end
  if op.form == "PREFIX" then return op.spelling .. args[1] end
  if op.form == "INFIX" then return "(" .. args[1] .. " " .. op.spelling .. " " .. args[2] .. ")" end
  return op.spelling .. "(" .. table.concat(args, ", ") .. ")"
end
-- Text that can stand inside a /* */ comment.
function ops.comment(s) return (s:gsub("%*/", "* /")) end

function ops.describe(k, id) return ops.comment(describe(k, id, { left = 40 })) end

-- A kernel for comments: "leaky = where(...)", or with several outputs
-- "hs -> (y, t): y = ...; t = (x + 3.0f)".
function ops.summary(k)
  if not k.multi then return k.name .. " = " .. ops.describe(k, #k.nodes - 1) end
  local names, values = {}, {}
  for _, o in ipairs(k.outputs) do
    names[#names + 1] = o.name
    values[#values + 1] = o.name .. " = " .. ops.describe(k, o.node)
  end
  local list = table.concat(names, ", ")
  return ops.comment(k.name .. " -> (" .. list .. "): " .. table.concat(values, "; "))
end

-- s as a C string literal.
function ops.cstring(s)
  return '"' .. s:gsub('[%c"\\?]', function(c) return string.format("\\%03o", c:byte()) end) .. '"'
end

-- ---- values of plan nodes ------------------------------------------------

local function node(k, id) return k.nodes[id + 1] end
ops.node = node

-- The C expression of node n's value, in terms of earlier values; load(n)
-- spells the element an input node reads ("x_row[j]"); raw: the plain IEEE
-- form where the node has one (c_op_raw, a nan_redo kernel's first pass).
function ops.value(k, n, load, raw)
  if n.op == "INPUT" then return ops.load(n.dtype, load(n)) end
  if n.op == "CONST" then return ops.const(n.dtype, n.bits0, n.bits1) end
  local function name(id) return node(k, id).ident end
  return ops.expr(n, name(n.a), name(n.b), name(n.c), raw)
end

-- The nodes computed at a level ("kernel", "row", "elem"; "inner" is row and
-- elem together), in order; without the kernel's value when skip_last.
function ops.at_level(k, level, skip_last)
  local out = {}
  for i, n in ipairs(k.nodes) do
    local here = n.level == level or (level == "inner" and n.level ~= "kernel")
    if here and not (skip_last and i == #k.nodes) then out[#out + 1] = n end
  end
  return out
end

-- A trailing comment with a constant's value: " /* 0.01f */"; else "".
function ops.value_note(n)
  return n.op == "CONST" and (" /* " .. ops.comment(n.value) .. " */") or ""
end

-- ---- parameters, offsets and signatures ------------------------------------

-- Whether the plan reads parameter p (1-based).
function ops.is_used(k, p)
  for _, n in ipairs(k.nodes) do if n.op == "INPUT" and n.a == p - 1 then return true end end
  return false
end

-- The parameters the plan never reads, by C name (they get a (void) cast).
function ops.unused(k)
  local out = {}
  for p, param in ipairs(k.params) do
    if not ops.is_used(k, p) then out[#out + 1] = param.ident end
  end
  return out
end

-- The C names of a list of parameters, extents or outputs: {"N", "x"}.
function ops.idents(list)
  local t = {}
  for i, x in ipairs(list) do t[i] = x.ident end
  return t
end

-- "size_t N, const bool *c, const float *x" of a kernel; extra appended.
function ops.signature(k, extra)
  local s = {}
  for _, e in ipairs(k.extents) do s[#s + 1] = "size_t " .. e.ident end
  for _, p in ipairs(k.params) do
    if not p.baked then s[#s + 1] = "const " .. ops.ctype(p.dtype) .. " *" .. p.ident end
  end
  for _, x in ipairs(extra or {}) do s[#s + 1] = x end
  return #s > 0 and table.concat(s, ", ") or "void"
end

-- The parameters the caller passes (those that are no baked constant).
function ops.n_own(k)
  local n = 0
  for _, p in ipairs(k.params) do
    if not p.baked then n = n + 1 end
  end
  return n
end

-- The baked parameters (a spec's constants) as locals of a function whose
-- signature leaves them out: "const float *w = model_const_w.value;", then
-- "(void)w;" (a function that only passes arguments on reads none).
function ops.baked_locals(k)
  local s = {}
  for _, p in ipairs(k.params) do
    if p.baked then
      s[#s + 1] = "const " .. ops.ctype(p.dtype) .. " *" .. p.ident .. " = " .. p.const_sym .. ".value;"
      s[#s + 1] = "(void)" .. p.ident .. ";"
    end
  end
  return s
end

-- "N, c, x" passing a kernel's own arguments on; extra appended.
function ops.arguments(k, extra)
  local s = {}
  for _, e in ipairs(k.extents) do s[#s + 1] = e.ident end
  for _, p in ipairs(k.params) do
    if not p.baked then s[#s + 1] = p.ident end
  end
  for _, x in ipairs(extra or {}) do s[#s + 1] = x end
  return table.concat(s, ", ")
end

-- The same arguments taken from an _invoke's ext[] and in[]; extra appended.
function ops.unpacked(k, extra)
  local s = {}
  for e = 1, #k.extents do s[#s + 1] = "ext[" .. (e - 1) .. "]" end
  for i, p in ipairs(k.params) do
    if not p.baked then s[#s + 1] = "(const " .. ops.ctype(p.dtype) .. " *)in[" .. (i - 1) .. "]" end
  end
  for _, x in ipairs(extra or {}) do s[#s + 1] = x end
  return table.concat(s, ", ")
end

-- Element offset of parameter p (1-based) at the loop indices i0, i1, ...;
-- inner (optional) stands for the innermost index.
function ops.offset(k, p, inner)
  local terms = {}
  for l, loop in ipairs(k.loops) do
    local s = loop.strides[p]
    local i = (inner and l == #k.loops) and inner or ("i" .. (l - 1))
    if s ~= "0" then terms[#terms + 1] = (s == "1") and i or (i .. " * " .. s) end
  end
  return #terms > 0 and table.concat(terms, " + ") or "0"
end

-- Parameter p (1-based) as a pointer of its memory type (bool: uint8_t).
function ops.base(k, p)
  local param = k.params[p]
  if ops.mtype(param.dtype) == ops.ctype(param.dtype) then return param.ident end
  return "((const " .. ops.mtype(param.dtype) .. " *)" .. param.ident .. ")"
end

-- Where the current row of parameter p (1-based) starts.
function ops.row_start(k, p)
  local off = ops.offset(k, p)
  return off == "0" and ops.base(k, p) or (ops.base(k, p) .. " + " .. off)
end

-- The row pointer of parameter p (1-based): "x_row".
function ops.row(k, p) return k.params[p].ident .. "_row" end

-- "e0 = (size_t)N * 64, e1 = 3u": the loop extents, as one declaration list.
function ops.loop_extents(k)
  local t = {}
  for l, loop in ipairs(k.loops) do
    t[#t + 1] = "e" .. (l - 1) .. " = " .. (loop.fixed and (loop.fixed .. "u") or ("(size_t)" .. loop.extent))
  end
  return table.concat(t, ", ")
end

-- Loads of input nodes: the parameter's first element (kernel level), the
-- row's first (row level), the row's element at first .. "j" (elements),
-- the element at the loop indices (coordinates), or at fixed offsets.
function ops.load_once(k) return function(n) return ops.base(k, n.a + 1) .. "[0]" end end
function ops.load_row(k) return function(n) return ops.row(k, n.a + 1) .. "[0]" end end
function ops.load_elem(k, first)
  return function(n) return ops.row(k, n.a + 1) .. "[" .. (first or "") .. "j]" end
end
function ops.load_at(k, inner)
  return function(n) return ops.base(k, n.a + 1) .. "[" .. ops.offset(k, n.a + 1, inner) .. "]" end
end
function ops.load_fixed(k, offsets)
  return function(n) return ops.base(k, n.a + 1) .. "[" .. offsets[n.a + 1] .. "]" end
end

-- ---- outputs ------------------------------------------------------------------

-- The outputs of an elementwise kernel, each {ident, dtype}: `out` when it has
-- one, else one pointer per output, named as the spec names them.
function ops.outs(k)
  if not k.multi then return { { ident = "out", dtype = k.out_dtype } } end
  return k.outputs
end

-- List a, then the items of b.
function ops.cat(a, b)
  local t = {}
  for _, x in ipairs(a) do t[#t + 1] = x end
  for _, x in ipairs(b or {}) do t[#t + 1] = x end
  return t
end

-- The outputs as parameters ("float *out"), then extra.
function ops.out_params(k, extra)
  local t = {}
  for _, o in ipairs(ops.outs(k)) do t[#t + 1] = ops.ctype(o.dtype) .. " *" .. o.ident end
  return ops.cat(t, extra)
end

-- The outputs' names passed on ("out"), then extra.
function ops.out_names(k, extra)
  local t = {}
  for _, o in ipairs(ops.outs(k)) do t[#t + 1] = o.ident end
  return ops.cat(t, extra)
end

-- An _invoke's outputs as typed pointers: "(float *)out", or
-- "(float *)out[0]", ... from the array of a kernel with several; then extra.
function ops.out_casts(k, extra)
  local t = {}
  for i, o in ipairs(ops.outs(k)) do
    t[#t + 1] = "(" .. ops.ctype(o.dtype) .. " *)out" .. (k.multi and ("[" .. (i - 1) .. "]") or "")
  end
  return ops.cat(t, extra)
end

-- Where each output's current row starts: "float *out_row = out + begin;".
function ops.out_rows(k)
  local t = {}
  for _, o in ipairs(ops.outs(k)) do
    local mt = ops.mtype(o.dtype)
    local base = mt == ops.ctype(o.dtype) and o.ident or ("(" .. mt .. " *)" .. o.ident)
    t[#t + 1] = mt .. " *" .. o.ident .. "_row = " .. base .. " + begin;"
  end
  return t
end

-- The stores of element j: dst[j] = value (one output), or each output's
-- row from its node's value (several: every value is a local).
function ops.stores(k, dst, value)
  if not k.multi then return { dst .. "[j] = " .. value .. ";" } end
  local t = {}
  for _, o in ipairs(k.outputs) do t[#t + 1] = o.ident .. "_row[j] = " .. node(k, o.node).ident .. ";" end
  return t
end

-- A nan_redo block's outputs, computed into local arrays before any store:
-- per output the array's C type and name (names ending in '_' never clash
-- with the spec's, lower_ident), its value, where the block goes, and
-- whether a NaN in it sends the block to the pinned pass.
function ops.block_outputs(k, dst, value)
  local t = {}
  local list = k.multi and k.outputs or { { dtype = k.out_dtype } }
  for o, out in ipairs(list) do
    t[o] = {
      type = ops.mtype(out.dtype),
      name = "block" .. (o - 1) .. "_",
      value = k.multi and node(k, out.node).ident or value,
      to = (k.multi and (out.ident .. "_row") or dst) .. " + i",
      nan = dt(out.dtype).kind == "REAL",
    }
  end
  return t
end

-- Whether a kernel lists coordinates (argwhere, nonzero).
function ops.is_coords(k) return k.kind == "argwhere" or k.kind == "nonzero" end

-- ---- loops: lists and nests ------------------------------------------------

-- name .. l for the loops l = 0 .. n - 1, joined by sep: ops.seq("e", 3, " * ")
-- is "e0 * e1 * e2".
function ops.seq(name, n, sep)
  local t = {}
  for l = 0, n - 1 do t[#t + 1] = name .. l end
  return table.concat(t, sep)
end

-- The indentation of depth d in a loop nest: two spaces a level.
function ops.pad(d) return string.rep("  ", d) end

-- The element count of the output: "(size_t)N * 64 * (size_t)3".
function ops.total(k)
  local t = {}
  for _, loop in ipairs(k.loops) do t[#t + 1] = "(size_t)" .. loop.extent end
  return table.concat(t, " * ")
end

-- Each loop's extent and the parameters along it, broadcast ones marked, for
-- a comment: "[N] c:bcast x | [64] c x".
function ops.loop_classes(k)
  local t = {}
  for _, loop in ipairs(k.loops) do
    local ps = {}
    for i, p in ipairs(k.params) do ps[#ps + 1] = p.ident .. (loop.strides[i] == "0" and ":bcast" or "") end
    t[#t + 1] = "[" .. loop.extent .. "] " .. table.concat(ps, " ")
  end
  return table.concat(t, " | ")
end

-- Where the current row of a 1-byte parameter p (1-based) starts, at the
-- outer loop indices: "(const uint8_t *)c + i0 * e1".
function ops.byte_row(k, p)
  local terms = {}
  for l = 1, #k.loops - 1 do
    local st = k.loops[l].strides[p]
    if st ~= "0" then terms[#terms + 1] = st == "1" and ("i" .. (l - 1)) or ("i" .. (l - 1) .. " * " .. st) end
  end
  return "(const uint8_t *)" .. k.params[p].ident .. (#terms > 0 and (" + " .. table.concat(terms, " + ")) or "")
end

-- How far apart wc_coords_row writes the slots of a coordinate kernel (truth.h):
-- within an element, then between elements. Argwhere's [n, rank] are 1 apart
-- within an element and rank apart between elements; nonzero's [rank, n]
-- count and 1.
function ops.coord_steps(k)
  if k.kind == "argwhere" then return "1, " .. #k.loops end
  return "(size_t)count, 1"
end

return ops
