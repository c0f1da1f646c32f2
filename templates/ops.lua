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

local function is_float(name) local k = dt(name).kind return k == "REAL" or k == "HALF" end

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

-- Float arithmetic goes through wc_add_f32 etc., which pin NaN results down
-- (kernel.h); float comparisons are plain operators.
local infix = { EQ = "==", NE = "!=", LT = "<", LE = "<=", GT = ">", GE = ">=" }
local int_infix = { ADD = "+", SUB = "-", MUL = "*", DIV = "/",
                    EQ = "==", NE = "!=", LT = "<", LE = "<=", GT = ">", GE = ">=" }
local helper = { ADD = "add", SUB = "sub", MUL = "mul", DIV = "div", MIN = "min", MAX = "max",
                 NEG = "neg", ABS = "abs", EQ = "eq", NE = "ne", LT = "lt", LE = "le",
                 GT = "gt", GE = "ge", MOD = "mod", FMOD = "fmod", BAND = "band", BOR = "bor",
                 BXOR = "bxor", BNOT = "bnot", SHL = "shl", SHR = "shr", FLOOR = "floor",
                 CEIL = "ceil", ROUND = "round", TRUNC = "trunc", SQRT = "sqrt", EXP = "exp" }
-- The element operations of one operand (the others take two).
local unary = { NEG = true, ABS = true, BNOT = true, FLOOR = true, CEIL = true, ROUND = true,
                TRUNC = true, SQRT = true, EXP = true }
local load_class = { SINT = "sint", UINT = "uint", BOOL = "uint", REAL = "real", HALF = "real" }

-- The C expression of an operation on operand expressions a, b, c.
-- `t` is the result dtype, `at` the dtype of operand a.
function ops.expr(op, t, at, a, b, c)
  if op == "WHERE" then
    local kind = dt(t).kind
    if kind == "SINT" or kind == "UINT" or kind == "REAL" or kind == "HALF" then
      return "wc_sel_" .. dt(t).sfx .. "(" .. a .. ", " .. b .. ", " .. c .. ")"
    end
    return a .. " ? " .. b .. " : " .. c
  end
  if op == "OR" then return a .. " || " .. b end
  if op == "AND" then return a .. " && " .. b end
  if op == "NOT" then return "!" .. a end
  if op == "CAST" then
    return "wc_" .. dt(t).sfx .. "_from_" .. load_class[dt(at).kind] .. "(wc_load_" .. dt(at).sfx .. "(" .. a .. "))"
  end
  -- float and double: plain C operators (contraction is off in this file)
  local k = dt(at).kind
  -- (a value compared with itself goes through the helper: compilers warn on x == x)
  if k == "REAL" and infix[op] and a ~= b then return a .. " " .. infix[op] .. " " .. b end
  if (k == "SINT" or k == "UINT" or k == "BOOL") and int_infix[op] and t == "bool" and a ~= b then
    return a .. " " .. int_infix[op] .. " " .. b
  end
  local f = "wc_" .. helper[op] .. "_" .. dt(at).sfx
  if unary[op] then return f .. "(" .. a .. ")" end
  return f .. "(" .. a .. ", " .. b .. ")"
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

-- The kernel's expression, readable, for comments: where(c, x, x * 0.01).
-- Shared subexpressions repeat in the text, so it stops at `limit` characters.
local spell = { ADD = "+", SUB = "-", MUL = "*", DIV = "/", EQ = "==", NE = "!=", LT = "<",
                LE = "<=", GT = ">", GE = ">=", OR = "||", AND = "&&", MOD = "%", BAND = "&",
                BOR = "|", BXOR = "^", SHL = "<<", SHR = ">>" }
-- Operations the spec writes as calls: abs(x), fmod(a, b), ...
local called = { ABS = true, MIN = true, MAX = true, FMOD = true, FLOOR = true, CEIL = true,
                 ROUND = true, TRUNC = true, SQRT = true, EXP = true }
local function describe(k, id, budget)
  if budget.left <= 0 then return "..." end
  budget.left = budget.left - 1
  local n = k.nodes[id + 1]
  local function sub(i) return describe(k, i, budget) end
  if n.op == "INPUT" then return k.params[n.a + 1].name end
  if n.op == "CONST" then return n.value end
  if n.op == "WHERE" then return "where(" .. sub(n.a) .. ", " .. sub(n.b) .. ", " .. sub(n.c) .. ")" end
  if n.op == "NOT" then return "!" .. sub(n.a) end
  if n.op == "NEG" then return "-" .. sub(n.a) end
  if n.op == "BNOT" then return "~" .. sub(n.a) end
  if called[n.op] then
    if unary[n.op] then return n.op:lower() .. "(" .. sub(n.a) .. ")" end
    return n.op:lower() .. "(" .. sub(n.a) .. ", " .. sub(n.b) .. ")"
  end
  if n.op == "CAST" then return n.dtype .. "(" .. sub(n.a) .. ")" end
  return "(" .. sub(n.a) .. " " .. spell[n.op] .. " " .. sub(n.b) .. ")"
end
-- Text that can stand inside a /* */ comment.
function ops.comment(s) return (s:gsub("%*/", "* /")) end

function ops.describe(k, id) return ops.comment(describe(k, id, { left = 40 })) end

-- s as a C string literal.
function ops.cstring(s)
  return '"' .. s:gsub('[%c"\\?]', function(c) return string.format("\\%03o", c:byte()) end) .. '"'
end

-- ---- values of plan nodes ------------------------------------------------

local function node(k, id) return k.nodes[id + 1] end
ops.node = node

-- The C expression of node n's value, in terms of earlier values; load(n)
-- spells the element an input node reads ("x_row[j]").
function ops.value(k, n, load)
  if n.op == "INPUT" then return ops.load(n.dtype, load(n)) end
  if n.op == "CONST" then return ops.const(n.dtype, n.bits0, n.bits1) end
  local at = node(k, n.a).dtype
  local function name(id) return node(k, id).ident end
  return ops.expr(n.op, n.dtype, at, name(n.a), name(n.b), name(n.c))
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

-- "size_t N, const bool *c, const float *x" of a kernel; extra appended.
function ops.signature(k, extra)
  local s = {}
  for _, e in ipairs(k.extents) do s[#s + 1] = "size_t " .. e.ident end
  for _, p in ipairs(k.params) do s[#s + 1] = "const " .. ops.ctype(p.dtype) .. " *" .. p.ident end
  for _, x in ipairs(extra or {}) do s[#s + 1] = x end
  return #s > 0 and table.concat(s, ", ") or "void"
end

-- "N, c, x" passing a kernel's own arguments on; extra appended.
function ops.arguments(k, extra)
  local s = {}
  for _, e in ipairs(k.extents) do s[#s + 1] = e.ident end
  for _, p in ipairs(k.params) do s[#s + 1] = p.ident end
  for _, x in ipairs(extra or {}) do s[#s + 1] = x end
  return table.concat(s, ", ")
end

-- The same arguments taken from an _invoke's ext[] and in[]; extra appended.
function ops.unpacked(k, extra)
  local s = {}
  for e = 1, #k.extents do s[#s + 1] = "ext[" .. (e - 1) .. "]" end
  for i, p in ipairs(k.params) do s[#s + 1] = "(const " .. ops.ctype(p.dtype) .. " *)in[" .. (i - 1) .. "]" end
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

-- Whether a kernel lists coordinates (argwhere, nonzero).
function ops.is_coords(k) return k.kind == "argwhere" or k.kind == "nonzero" end

return ops
