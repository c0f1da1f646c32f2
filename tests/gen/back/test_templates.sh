#!/usr/bin/env bash
# test_templates.sh: the templates a user can customise, and the names generated code uses.
#
# usage: test_templates.sh customisation|names SOURCE_DIR WHEREC CC...
#   customisation  runs the block of templates/README.md ("A worked customisation") on a
#                  copy of templates/: its text shows up where the README says, and the
#                  output compiles with every CC (-std=c99 -Wall -Wextra -Werror -pedantic).
#   errors         a mistake in an included template: wherec gen exits 4 naming the
#                  template file and line, then each line that included it; and an
#                  include of a file outside the templates directory, and a text line
#                  with two lists $(), refused.
#   names          a spec whose names clash with C keywords, the templates' locals, their
#                  patterns and the symbols the code calls: they are mangled as README
#                  ("Names") says, the output compiles with every CC, and `wherec check`
#                  finds it bit-exact against the reference.
set -euo pipefail

mode=$1 src=$2 wherec=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
shift 3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wherec-templates.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
unset WHEREC_TEMPLATES

fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }
compiles() {                                           # compiles DIR PREFIX
  local dir=$1 prefix=$2 cc
  for cc in "${compilers[@]}"; do
    "$cc" -std=c99 -Wall -Wextra -Werror -pedantic -I"$src/include" -I"$dir" -c "$dir/$prefix.c" \
      -o "$tmp/$prefix.o" || fail "$dir/$prefix.c does not compile warning-free with $cc"
  done
}
compilers=("$@")
[ ${#compilers[@]} -gt 0 ] || fail "no compiler given"
cd "$tmp"

case $mode in
customisation)
  # The spec of README's worked example, and the block the templates' README shows.
  printf '%s\n' 'option prefix = "model";' \
    'kernel rows(c: bool[N,1], x: float[N,M], y: float[1,M]) = where(c, x, y);' \
    'kernel leaky(x: float[N,64]) = where(x > 0, x, x * 0.01);' >model.where
  cp -R "$src/templates" templates
  awk '/^<!-- tested:/ { want = 1; next }
       want && /^```sh$/ { inside = 1; next }
       inside && /^```$/ { exit }
       inside { print }' "$src/templates/README.md" >block.sh
  [ -s block.sh ] || fail "templates/README.md has no tested sh block"
  mkdir -p build/gen && ln -s "$wherec" build/gen/wherec
  bash -euo pipefail block.sh || fail "the README's customisation block fails"
  [ -f out/model.c ] || fail "the block wrote no out/model.c"
  grep -qx '/\* Rendered with the Acme templates. \*/' out/model.c ||
    fail "the customised banner line is not in out/model.c"
  # every element loop of leaky (unroll 1: the one loop) carries the pragma just before it
  pragmas=$(grep -c '^ *#pragma GCC unroll 2$' out/model.c || true)
  [ "$pragmas" -ge 1 ] || fail "the added pragma is not in out/model.c"
  loops=$(grep -c '^ *for (; i < n; i++) {$' out/model.c || true)
  [ "$pragmas" -eq "$loops" ] || fail "$pragmas pragmas for $loops element loops"
  grep -B1 '^ *for (; i < n; i++) {$' out/model.c | grep -q '#pragma GCC unroll 2' ||
    fail "the pragma does not precede the element loop"
  compiles out model
  ok "the README's customised templates render their text, and the C compiles"
  ;;
errors)
  fails_to_render() {                                  # fails_to_render WHAT: exit 4, no out/
    local rc=0
    "$wherec" gen leaky.where -o out --templates templates 2>err.txt || rc=$?
    [ "$rc" -eq 4 ] || fail "wherec gen exits $rc on $1, not 4"
    [ ! -e out ] || fail "$1 wrote out/"
  }
  cp -R "$src/templates" templates
  printf '%s\n' 'kernel leaky(x: float[N,64]) = where(x > 0, x, x * 0.01);' >leaky.where
  # the line of elementwise.c.tpl's values macro that declares a value
  line=$(grep -n '^const ' templates/elementwise.c.tpl | cut -d: -f1)
  [ "$(echo "$line" | wc -w)" -eq 1 ] || fail "elementwise.c.tpl: not one '^const ' line: $line"
  sed -i "${line}s/\$/ \$(ops.no_such_helper(n))/" templates/elementwise.c.tpl
  fails_to_render "a broken template"
  grep -q "^templates/elementwise.c.tpl:$line: .*no_such_helper" err.txt ||
    { cat err.txt; fail "the message does not start with elementwise.c.tpl:$line"; }
  grep -q "^  from templates/elementwise.c.tpl:[0-9]*\$" err.txt ||
    { cat err.txt; fail "the message does not name the elementwise.c.tpl line calling the macro"; }
  grep -q "^  from templates/source.c.tpl:[0-9]*\$" err.txt ||
    { cat err.txt; fail "the message does not name the including source.c.tpl line"; }
  ok "a broken included template is named with its line and the lines that led to it"
  # an include outside the templates directory is refused, naming the file asked for
  cp "$src/templates/elementwise.c.tpl" templates/elementwise.c.tpl
  sed -i 's|"elementwise.c.tpl"|"../elementwise.c.tpl"|' templates/source.c.tpl
  grep -q '"\.\./elementwise.c.tpl"' templates/source.c.tpl || fail "source.c.tpl does not include elementwise.c.tpl"
  fails_to_render "an include of ../elementwise.c.tpl"
  grep -q "template name '../elementwise.c.tpl': a file of the templates directory, without '/'" err.txt ||
    { cat err.txt; fail "the message does not name the include outside the directory"; }
  ok "an include of a file outside the templates directory is refused"
  # a text line takes one list $() (a line per element): two are refused, naming the line
  cp "$src/templates/source.c.tpl" templates/source.c.tpl
  printf '%s\n' '/* $(spec.kernels) $(spec.consts) */' >>templates/source.c.tpl
  fails_to_render "a text line with two lists"
  grep -q "^templates/source.c.tpl:$(wc -l <templates/source.c.tpl): two lists" err.txt ||
    { cat err.txt; fail "the message does not name the line with two lists"; }
  ok "a text line with two lists is refused, naming its line"
  ;;
names)
  cat >clash.where <<'SPEC'
option prefix = "p";
kernel k(int: float[n, out], x: float[n, out], x_row: float[n, out], i0: float[],
         mul_4: float[n, 1], k_range: bool[n, out], x_val: float[n, out], e1: float[])
  = where(k_range, x * i0 + mul_4, x_row - x_val * e1 + int);
kernel a(wc_x: int8[count], end: int8[count], begin: int8[], x_: int8[count]) = where(wc_x > begin, end, x_);
kernel z(for: bool[C, n]) = argwhere(for);
kernel z2(case: uint8[R]) = nonzero(case);
SPEC
  "$wherec" gen clash.where -o out || fail "wherec gen clash.where"
  want=(
    'void p_k(size_t n_, size_t out_, const float *int_, const float *x, const float *x_row_, const float *i0_, const float *mul_4_, const bool *k_range_, const float *x_val_, const float *e1_, float *out);'
    'void p_a(size_t count_, const int8_t *wc_x_, const int8_t *end_, const int8_t *begin_, const int8_t *x__, int8_t *out);'
    'int64_t p_z(size_t C, size_t n_, const bool *for_, int64_t *coords);'
    'int64_t p_z2(size_t R, const uint8_t *case_, int64_t *coords);')
  for line in "${want[@]}"; do
    grep -qxF "$line" out/p.h || fail "out/p.h does not declare: $line"
  done
  compiles out p
  "$wherec" check clash.where >check.log 2>&1 || { cat check.log; fail "wherec check clash.where"; }
  ok "clashing names are mangled with a trailing _, compile, and match the reference"
  ;;
*) fail "unknown mode '$mode'" ;;
esac
