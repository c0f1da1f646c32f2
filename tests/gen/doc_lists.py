#!/usr/bin/env python3
"""doc_lists.py: the prose lists of the spec language's operations against the operation
table (include/wherec/operations.h), so that a new operation cannot be left out of them:
docs/language.md's forms (every spelling) and its Types table (each spelling in the row of
its domain), and README.md's list of functions (every function spelled as a call); with
--wherec, also docs/cli.md's table of the ONNX operators that become kernels against the
importer's operator table (`wherec import --list-operators`).

usage: doc_lists.py SOURCE_DIR [--wherec WHEREC]   (standard library only; exit 1 naming
what is missing)
"""
import json
import os
import re
import subprocess
import sys

# The Types table's row of each domain of operations.h, by the text that row begins with.
DOMAIN_ROW = {"ANY": "every dtype", "ORD": "integers, floats and `bool`",
              "NUM": "integers and floats", "INT": "integers (", "BOOL": "`bool`",
              "FLOAT": "float16, bfloat16, float, double", "CRF": "float16, bfloat16, float (on"}


def rows(src):
    with open(os.path.join(src, "include", "wherec", "operations.h")) as f:
        text = f.read()
    out = []
    for name, spell, domain, form, on_bool in re.findall(
            r'X\(P,\s*(\w+),\s*"([^"]*)",\s*\d,\s*(\w+),\s*\w+,\s*(\w+),\s*\w+,\s*(\w+)\)', text):
        if spell and name not in ("INPUT", "CONST"):
            out.append((name, spell, domain, form, on_bool))
    return out


def code_words(text):
    """The words of every `code span` in text."""
    return {w for span in re.findall(r"`([^`]*)`", text) for w in span.replace("\\|", "|").split()}


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "."
    with open(os.path.join(src, "docs", "language.md")) as f:
        lang = f.read()
    with open(os.path.join(src, "README.md")) as f:
        readme = f.read()
    forms = lang[lang.index("The forms:"):lang.index("- casts written")]
    table = {}
    for line in lang[lang.index("| operations | take |"):].splitlines()[2:]:
        if not line.startswith("|"):
            break
        ops, take = line[1:].split(" | ", 1) if " | " in line else (line, "")
        table[take.strip(" |")] = code_words(ops)
    problems = []
    ops = rows(src)
    for name, spell, domain, form, on_bool in ops:
        if spell not in code_words(forms) and "%s(" % spell not in forms:
            problems.append("docs/language.md's forms do not name %s (%s)" % (spell, name))
        want = DOMAIN_ROW["INT"] if domain == "INT" and on_bool == "NONE" else \
            "integers and `bool`" if domain == "INT" else DOMAIN_ROW[domain]
        row = next((ws for take, ws in table.items() if take.startswith(want)), None)
        if row is None or spell not in row:
            problems.append("docs/language.md's Types table has no %s in its row '%s...' (%s)"
                            % (spell, want, name))
        if form == "CALL" and domain in ("FLOAT", "CRF", "NUM") and spell not in code_words(readme):
            problems.append("README.md's list of functions lacks %s" % spell)
    if "--wherec" in sys.argv:
        r = subprocess.run([sys.argv[sys.argv.index("--wherec") + 1], "import", "--list-operators"],
                           capture_output=True, text=True, check=True)
        with open(os.path.join(src, "docs", "cli.md")) as f:
            cli = f.read()
        start = cli.index("| ONNX | spec form |")
        table = cli[start:cli.index("\n\n", start)]
        named = set(re.findall(r"[A-Za-z][A-Za-z0-9]*", " ".join(l.split(" | ")[0] for l in table.splitlines())))
        for op in json.loads(r.stdout)["operators"]:
            if op["elementwise"] and op["domain"] == "ai.onnx" and op["name"] not in named:
                problems.append("docs/cli.md's table of ONNX operators lacks %s" % op["name"])
    for p in problems:
        print(p)
    print("doc_lists.py: %d operations, %d missing from the docs" % (len(ops), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
