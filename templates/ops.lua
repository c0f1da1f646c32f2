-- ops.lua: how each operation, constant and truth test is spelled in C.
-- The source and header templates call these; edit here to change the C.

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
                 GT = "gt", GE = "ge" }
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
  if op == "NEG" or op == "ABS" then return f .. "(" .. a .. ")" end
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

-- A constant, readable: 0.01, -3, true, nan.
local function name_const(n)
  local bits = math.tointeger(tonumber(n.bits0:sub(3), 16)) or 0
  local d = dt(n.dtype)
  if d.kind == "BOOL" then return bits ~= 0 and "true" or "false" end
  if n.dtype == "float" then return string.format("%.9g", (string.unpack("<f", string.pack("<I4", bits)))) end
  if n.dtype == "double" then return string.format("%.17g", (string.unpack("<d", string.pack("<i8", bits)))) end
  if d.kind == "HALF" then return n.dtype .. "(" .. n.bits0 .. ")" end
  if d.kind == "SINT" and d.size < 8 and bits >= (1 << (8 * d.size - 1)) then
    bits = bits - (1 << (8 * d.size))
  end
  if d.kind == "UINT" and bits < 0 then return n.bits0 end  -- uint64 above 2^63
  return string.format("%d", bits)
end

-- The kernel's expression, readable, for comments: where(c, x, x * 0.01).
-- Shared subexpressions repeat in the text, so it stops at `limit` characters.
local spell = { ADD = "+", SUB = "-", MUL = "*", DIV = "/", EQ = "==", NE = "!=", LT = "<",
                LE = "<=", GT = ">", GE = ">=", OR = "||", AND = "&&" }
local function describe(k, id, budget)
  if budget.left <= 0 then return "..." end
  budget.left = budget.left - 1
  local n = k.nodes[id + 1]
  local function sub(i) return describe(k, i, budget) end
  if n.op == "INPUT" then return k.params[n.a + 1].name end
  if n.op == "CONST" then return name_const(n) end
  if n.op == "WHERE" then return "where(" .. sub(n.a) .. ", " .. sub(n.b) .. ", " .. sub(n.c) .. ")" end
  if n.op == "NOT" then return "!" .. sub(n.a) end
  if n.op == "NEG" then return "-" .. sub(n.a) end
  if n.op == "ABS" then return "abs(" .. sub(n.a) .. ")" end
  if n.op == "MIN" or n.op == "MAX" then
    return n.op:lower() .. "(" .. sub(n.a) .. ", " .. sub(n.b) .. ")"
  end
  if n.op == "CAST" then return n.dtype .. "(" .. sub(n.a) .. ")" end
  return "(" .. sub(n.a) .. " " .. spell[n.op] .. " " .. sub(n.b) .. ")"
end
-- Text that can stand inside a /* */ comment.
function ops.comment(s) return (s:gsub("%*/", "* /")) end

function ops.describe(k, id) return ops.comment(describe(k, id, { left = 40 })) end

-- A spec name as a C identifier that cannot clash with C keywords or with
-- the names the source template uses (v3, e0, i0, a0, a0_r, n, out, ...).
local reserved = {}
for w in ([[auto break case char const continue default do double else enum extern float
  for goto if inline int long register restrict return short signed sizeof static struct
  switch typedef union unsigned void volatile while bool true false begin end out n i j
  count coords slot in ext NULL]]):gmatch("%S+") do reserved[w] = true end
function ops.ident(name)
  if reserved[name] or name:match("^[veia]%d+") or name:match("^_") or name:match("^wc_") then
    return name .. "_"
  end
  return name
end

-- s as a C string literal.
function ops.cstring(s)
  return '"' .. s:gsub('[%c"\\?]', function(c) return string.format("\\%03o", c:byte()) end) .. '"'
end

return ops
