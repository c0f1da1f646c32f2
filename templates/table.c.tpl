% -- table.c.tpl: what the runtime knows of each kernel (parameters, shape
% -- patterns, the program its interpreter and reference run) and the
% -- kernel table <prefix>_table (include/wherec/kernel.h).
% local spec = ...
% local kinds = { elementwise = "WC_KIND_ELEMENTWISE", where_v1 = "WC_KIND_WHERE_V1",
%                 argwhere = "WC_KIND_ARGWHERE", nonzero = "WC_KIND_NONZERO" }
% for _, k in ipairs(spec.kernels) do
/* ---- $(k.name): its description for the runtime ---- */
%   for i, p in ipairs(k.params) do
%     if p.rank > 0 then
static const int64_t $(k.sym)_dims$(i - 1)[] = {$(table.concat(p.pattern, ", "))};
%     end
%   end
%   if #k.params > 0 then
static const wc_param $(k.sym)_params[] = {
%     for i, p in ipairs(k.params) do
  {$(ops.cstring(p.name)), $(ops.enum(p.dtype)), $(p.rank), $(p.rank > 0 and (k.sym .. "_dims" .. (i - 1)) or "NULL")},
%     end
};
%   end
%   if #k.extents > 0 then
%     local names = {}
%     for _, e in ipairs(k.extents) do names[#names + 1] = ops.cstring(e.name) end
static const char *const $(k.sym)_extents[] = {$(table.concat(names, ", "))};
%   end
%   if k.out.rank > 0 then
static const int64_t $(k.sym)_out_dims[] = {$(table.concat(k.out.pattern, ", "))};
%   end
static const wc_instr $(k.sym)_program[] = {
%   for _, n in ipairs(k.nodes) do
  {WC_OP_$(n.op), $(ops.enum(n.dtype)), $(n.a), $(n.b), $(n.c), {UINT64_C($(n.bits0)), UINT64_C($(n.bits1))}},$(n.op == "CONST" and (" /* " .. ops.comment(n.value) .. " */") or "")
%   end
};

% end
static const wc_kernel $(spec.prefix)_kernels[] = {
% for _, k in ipairs(spec.kernels) do
%   local coords = ops.is_coords(k)
  {$(ops.cstring(k.name)), $(kinds[k.kind]), $(#k.params), $(#k.params > 0 and (k.sym .. "_params") or "NULL"), $(#k.extents), $(#k.extents > 0 and (k.sym .. "_extents") or "NULL"),
   $(ops.enum(k.out_dtype)), $(k.out.rank), $(k.out.rank > 0 and (k.sym .. "_out_dims") or "NULL"), $(#k.nodes), $(k.sym)_program,
   $(coords and "NULL" or (k.sym .. "_invoke")), $(coords and (k.sym .. "_count_invoke") or "NULL"), $(coords and (k.sym .. "_coords_invoke") or "NULL")},
% end
};

const wc_kernel_table $(spec.prefix)_table = {$(ops.cstring(spec.prefix)), $(ops.cstring(spec.path)), $(#spec.kernels), $(spec.prefix)_kernels};
