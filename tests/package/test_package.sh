#!/usr/bin/env bash
# test_package.sh: wherec as a package, end to end, with examples/consumer as the user.
#
# usage: test_package.sh installed|shared|subdirectory SOURCE_DIR BUILD_DIR CMAKE CC [FLAGS]
#   installed     cmake --install BUILD_DIR into a temporary prefix (then moved, to prove
#                 it relocatable); the consumer through find_package + wherec_generate with
#                 Unix Makefiles and with Ninja (if present): runs right, a second build
#                 regenerates nothing, editing or touching the spec, a template or wherec
#                 regenerates (once, recompiling nothing when the output is the same);
#                 then main.c built by hand with pkg-config, and `wherec check`.
#   shared        the same with a shared libwherec: configures SOURCE_DIR into BUILD_DIR
#                 (a directory of its own, reused between runs) with BUILD_SHARED_LIBS=ON,
#                 no tests and no bench, builds what installs, then checks that the
#                 installed wherec's RUNPATH is relative to $ORIGIN and names the directory
#                 of libwherec, and goes through everything `installed` does. READELF names
#                 readelf.
#   subdirectory  a tiny project that add_subdirectory()s SOURCE_DIR and the consumer.
# FLAGS go to every compile and link against the installed libwherec (a sanitized
# build's libwherec needs -fsanitize=...). Everything else happens in a temporary directory.
set -euo pipefail

mode=$1 src=$2 build=$3 cmake=$4 cc=$5 flags=${6:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wherec-package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# What wherec reads from the environment must not rescue a broken install, nor may the
# loader's search path: an installed wherec, and a consumer built against the install,
# must find a shared libwherec by their own RUNPATH. Everything below runs without it.
unset WHEREC_TEMPLATES WHEREC_INCLUDE_DIR WHEREC_HARNESS WHEREC_RUNTIME_LIB LD_LIBRARY_PATH
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}

fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }
generated() { grep -q "wherec: generating" "$1"; }

# The consumer is copied: the test edits its spec.
cp -R "$src/examples/consumer" "$tmp/consumer"

# build_consumer BUILD LOG: builds and keeps the build's output in LOG.
build_consumer() {
  "$cmake" --build "$1" >"$2" 2>&1 || { cat "$2"; fail "building $1"; }
}

# expect_regeneration WHAT BUILD [same]: after WHAT, one build regenerates, the next
# does not; with `same` (the output is unchanged) nothing is recompiled either.
expect_regeneration() {
  build_consumer "$2" "$tmp/log"
  generated "$tmp/log" || { cat "$tmp/log"; fail "$1 did not regenerate ($2)"; }
  if [ "${3:-}" = same ] && grep -q "Building C object" "$tmp/log"; then
    cat "$tmp/log"; fail "$1 left the generated files as they were, yet the build recompiled ($2)"
  fi
  "$2/consumer" >/dev/null || fail "the consumer gives wrong results after $1 ($2)"
  build_consumer "$2" "$tmp/log"
  generated "$tmp/log" && { cat "$tmp/log"; fail "the build after $1 regenerated again ($2)"; }
  ok "$1 regenerates once ($2)"
}

if [ "$mode" = subdirectory ]; then
  mkdir "$tmp/embedder"
  cat >"$tmp/embedder/CMakeLists.txt" <<EOF
# A project that builds wherec from source as part of itself.
cmake_minimum_required(VERSION 3.20)
project(wherec_embedder LANGUAGES C)
set(WHEREC_BUILD_TESTS OFF)
set(WHEREC_BUILD_BENCH OFF)
add_subdirectory("$src" wherec)
add_subdirectory("$tmp/consumer" consumer)
EOF
  # Debug: what is tested is the embedding, not the optimiser (interp.c alone takes
  # minutes of CPU at -O3 on a loaded 2-core machine)
  "$cmake" -S "$tmp/embedder" -B "$tmp/b" -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_C_COMPILER="$cc" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "configuring the embedder"; }
  build_consumer "$tmp/b" "$tmp/log"
  generated "$tmp/log" || fail "the embedder's first build generated nothing"
  "$tmp/b/consumer/consumer" || fail "the consumer built through add_subdirectory gives wrong results"
  build_consumer "$tmp/b" "$tmp/log"
  generated "$tmp/log" && { cat "$tmp/log"; fail "a second build through add_subdirectory regenerated"; }
  ok "add_subdirectory: the consumer builds, runs, and a rebuild regenerates nothing"
  touch "$tmp/consumer/model.where"
  build_consumer "$tmp/b" "$tmp/log"
  generated "$tmp/log" || fail "touching the spec did not regenerate (add_subdirectory)"
  ok "add_subdirectory: touching the spec regenerates"
  exit 0
fi

case $mode in
  installed) ;;
  shared)
    # Debug: the test is about the install's layout, and -O0 spares ~100 s of -O3 on
    # src/interp.c. Without tests and bench, all is what `cmake --install` copies (wherec,
    # libwherec, the execution provider) and the demo: every installed target, named or not.
    "$cmake" -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER="$cc" \
      -DBUILD_SHARED_LIBS=ON -DWHEREC_BUILD_TESTS=OFF -DWHEREC_BUILD_BENCH=OFF \
      -DWHEREC_SANITIZE=OFF -DWHEREC_FUZZ=OFF >"$tmp/log" 2>&1 ||
      { cat "$tmp/log"; fail "configuring the shared build"; }
    "$cmake" --build "$build" >"$tmp/log" 2>&1 ||
      { cat "$tmp/log"; fail "building the shared wherec, libwherec and what else installs"; }
    ok "configured with BUILD_SHARED_LIBS=ON and built ($build)"
    ;;
  *) fail "unknown mode '$mode'" ;;
esac

# ---- install, then move the prefix: nothing may point back at the build ----
"$cmake" --install "$build" --prefix "$tmp/stage" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "cmake --install"; }
mv "$tmp/stage" "$tmp/prefix"
prefix=$tmp/prefix
for f in bin/wherec include/wherec/wherec.h include/wherec/kernel.h include/wherec/dtypes.h \
         include/wherec/ops.h include/wherec/exp.h include/wherec/stream.h include/wherec/loop.h \
         include/wherec/truth.h include/wherec/table.h \
         share/wherec/check/harness.c share/wherec/base/exit_status.h \
         share/wherec/templates/ops.lua share/wherec/templates/elementwise.c.tpl; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
pc=$(find "$prefix" -name wherec.pc)
config=$(find "$prefix" -name wherecConfig.cmake)
[ -n "$pc" ] || fail "not installed: wherec.pc"
[ -n "$config" ] || fail "not installed: wherecConfig.cmake"
[ -e "$(dirname "$config")/wherecConfigVersion.cmake" ] || fail "not installed: wherecConfigVersion.cmake"
if grep -rIl -e "$src" -e "$build" -e "$tmp/stage" "$prefix"; then
  fail "the installed text files above hold paths of this machine"
fi
ok "installed into a temporary prefix; moved; no text file names the build"

# ---- a shared install: the installed wherec finds libwherec through $ORIGIN ----
if [ "$mode" = shared ]; then
  readelf=${READELF:-readelf}
  dynamic=$("$readelf" -d "$prefix/bin/wherec") || fail "readelf -d bin/wherec"
  # Without a NEEDED libwherec the build was not shared and the test would prove nothing.
  needed=$(sed -n 's/.*(NEEDED).*\[\(libwherec[^]]*\)\]$/\1/p' <<<"$dynamic")
  [ -n "$needed" ] || { echo "$dynamic"; fail "the installed wherec does not link a shared libwherec"; }
  # RUNPATH; a linker that defaults to the old tag writes RPATH, which serves as well.
  runpath=$(sed -n 's/.*(RUNPATH).*\[\(.*\)\]$/\1/p' <<<"$dynamic")
  [ -n "$runpath" ] || runpath=$(sed -n 's/.*(RPATH).*\[\(.*\)\]$/\1/p' <<<"$dynamic")
  [ -n "$runpath" ] || { echo "$dynamic"; fail "the installed wherec has no RUNPATH"; }
  found=
  IFS=: read -ra entries <<<"$runpath"
  # shellcheck disable=SC2016  # $ORIGIN is the loader's, not the shell's
  for entry in "${entries[@]}"; do
    case $entry in
      '$ORIGIN' | '$ORIGIN'/*) ;;
      *) fail "the installed wherec's RUNPATH [$runpath] holds $entry, not relative to \$ORIGIN" ;;
    esac
    [ -e "$prefix/bin${entry#'$ORIGIN'}/$needed" ] && found=$entry
  done
  [ -n "$found" ] || fail "the installed wherec's RUNPATH [$runpath] does not lead to $needed"
  ok "the installed wherec's RUNPATH [$runpath] is relative to \$ORIGIN and finds $needed"
fi

# The installed wherec renders with the installed templates (the build tree's are
# its fallback): a marker line added to the installed header template shows up.
echo "/* rendered by the installed templates */" >>"$prefix/share/wherec/templates/header.h.tpl"
"$prefix/bin/wherec" gen "$tmp/consumer/model.where" -o "$tmp/probe" || fail "installed wherec gen"
grep -q "rendered by the installed templates" "$tmp/probe/model.h" ||
  fail "the installed wherec did not use its installed templates"
ok "the installed wherec finds its installed templates"

# ---- find_package + wherec_generate, with each generator at hand ----
generators=("Unix Makefiles")
command -v ninja >/dev/null && generators+=(Ninja)
for gen in "${generators[@]}"; do
  b=$tmp/build-${gen// /-}
  "$cmake" -S "$tmp/consumer" -B "$b" -G "$gen" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >"$tmp/log" 2>&1 ||
    { cat "$tmp/log"; fail "configuring the consumer ($gen)"; }
  build_consumer "$b" "$tmp/log"
  generated "$tmp/log" || fail "the first build generated nothing ($gen)"
  "$b/consumer" || fail "the consumer gives wrong results ($gen)"
  build_consumer "$b" "$tmp/log"
  generated "$tmp/log" && { cat "$tmp/log"; fail "a build with nothing changed regenerated ($gen)"; }
  ok "find_package: the consumer builds, runs, and a rebuild regenerates nothing ($gen)"

  touch "$tmp/consumer/model.where"                  # same content: files are not rewritten
  expect_regeneration "touching the spec" "$b" same
  touch "$prefix/share/wherec/templates/ops.lua"
  expect_regeneration "touching a template" "$b" same
  touch "$prefix/bin/wherec"
  expect_regeneration "touching the wherec executable" "$b" same
done

# An edit that changes the output: new kernel, new declaration, still one regeneration.
echo "kernel negate(x: float[N]) = -x;" >>"$tmp/consumer/model.where"
expect_regeneration "adding a kernel to the spec" "$b"
grep -q "model_negate" "$b/wherec_generated/consumer/model.h" || fail "model.h lacks the new kernel"

# ---- pkg-config, with sources generated beforehand ----
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$pc")
[ "$(pkg-config --modversion wherec)" = "$("$prefix/bin/wherec" --version | grep -o '[0-9][0-9.]*' | head -1)" ] ||
  fail "pkg-config's version of wherec differs from wherec --version"
[ -x "$(pkg-config --variable=wherec wherec)" ] || fail "pkg-config's wherec variable is not the executable"
"$(pkg-config --variable=wherec wherec)" gen "$tmp/consumer/model.where" -o "$tmp/pc-gen"
# The rpath finds a shared libwherec (BUILD_SHARED_LIBS) outside the loader's path.
# shellcheck disable=SC2046,SC2086  # the flags are meant to split into words
"$cc" -std=c99 -Wall -Wextra -Werror -pedantic $flags $(pkg-config --cflags wherec) -I"$tmp/pc-gen" \
  "$tmp/consumer/main.c" "$tmp/pc-gen/model.c" $(pkg-config --libs wherec) \
  -Wl,-rpath,"$(pkg-config --variable=libdir wherec)" -o "$tmp/pc-consumer" ||
  fail "building the consumer with pkg-config"
"$tmp/pc-consumer" >/dev/null || fail "the consumer built with pkg-config gives wrong results"
ok "pkg-config: the consumer builds by hand and runs"

# ---- wherec check finds the installed harness, headers and libwherec ----
"$prefix/bin/wherec" check "$tmp/consumer/model.where" --cc "$cc" --trials 2 >"$tmp/log" 2>&1 ||
  { cat "$tmp/log"; fail "the installed wherec check"; }
ok "the installed wherec check builds and passes the consumer's spec"
