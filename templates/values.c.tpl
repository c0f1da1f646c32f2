% -- values.c.tpl: the values of plan nodes, one declaration a line, each
% -- constant with its value in a comment. Arguments: the kernel, the nodes
% -- (ops.at_level) and how an input node loads its element (ops.load_*).
% local k, nodes, load = ...
% for _, n in ipairs(nodes) do
const $(ops.ctype(n.dtype)) $(n.ident) = $(ops.value(k, n, load));$(ops.value_note(n))
% end
