#!/usr/bin/env python3
"""make_spec_dict.py: writes tests/fuzz/fuzz_spec.dict, fuzz_spec's libFuzzer dictionary,
from the tables that define the spec language, so that it cannot fall behind them: the
lexer's literal tokens (gen/front/lexer.re), the operations' spellings
(include/wherec/operations.h), the kernel kinds and built-ins (gen/front/ast.h), the dtypes
and their aliases (include/wherec/dtypes.h), the words parse.c and sema.c read as keywords,
and a few byte sequences the lexer must survive.

usage: make_spec_dict.py SOURCE_DIR [--check]   (standard library only)
--check: exit 1, saying so, when the committed dictionary differs from what this writes
(ctest fuzz_spec_dict_is_current).
"""
import os
import re
import sys

EXTRA = ["#", '"', ".", "[]", "[N,M]", "T:", "->", "0x", "e-", "1e38", "0x1p-149", "\\x00", "\\xef\\xbb\\xbf",
         "\\x0a", "18446744073709551616", "9223372036854775807", "4294967296"]


def quote(tok):
    """tok as a libFuzzer dictionary value (its own escapes kept)."""
    if "\\x" in tok:
        return tok
    return tok.replace("\\", "\\\\").replace('"', '\\"')


def tokens(src):
    def read(path):
        with open(os.path.join(src, path)) as f:
            return f.read()
    out = []
    lexer = read("gen/front/lexer.re")
    out += [t for t in re.findall(r'^\s*"([^"\s]+)"\s*\{', lexer, re.M) if "\\" not in t]
    ops = read("include/wherec/operations.h")
    out += [s for s in re.findall(r'X\(P,\s*\w+,\s*"([^"]*)"', ops) if s]
    ast = read("gen/front/ast.h")
    out += re.findall(r'X\(\w+,\s*"([a-z_0-9]+)",\s*\d+\)', ast)
    dtypes = read("include/wherec/dtypes.h")
    for name, alias in re.findall(r'X\(\w+,\s*\d+,\s*"(\w+)",[^,]+,\s*"(\w*)"', dtypes):
        out += [name] + ([alias] if alias else [])
    for path in ("gen/front/parse.c", "gen/front/sema.c"):
        out += re.findall(r'strcmp\([^;]*?"([a-z_]+)"\)', read(path))
        out += re.findall(r'ident_is\([^;]*?"([a-z_]+)"\)', read(path))
    out += ["let", "const"] + EXTRA
    seen, unique = set(), []
    for t in out:
        if t not in seen:
            seen.add(t)
            unique.append(t)
    return unique


def text(src):
    lines = ["# fuzz_spec.dict: tokens of the spec language for libFuzzer (-dict=), written by",
             "# tests/fuzz/make_spec_dict.py from the lexer, the operation, kind and dtype tables",
             "# (ctest fuzz_spec_dict_is_current keeps it current: run the script to update it)."]
    lines += ['t%d="%s"' % (i + 1, quote(t)) for i, t in enumerate(tokens(src))]
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    src = sys.argv[1]
    path = os.path.join(src, "tests", "fuzz", "fuzz_spec.dict")
    want = text(src)
    if "--check" in sys.argv[2:]:
        with open(path) as f:
            if f.read() != want:
                print("fuzz_spec.dict is not what tests/fuzz/make_spec_dict.py writes from the "
                      "tables: run `python3 tests/fuzz/make_spec_dict.py .`")
                return 1
        print("fuzz_spec.dict: %d tokens, current" % (want.count("\n") - 3))
        return 0
    with open(path, "w") as f:
        f.write(want)
    return 0


if __name__ == "__main__":
    sys.exit(main())
