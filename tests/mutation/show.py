#!/usr/bin/env python3
"""tests/mutation/show.py: the diff of mutants, named as the report names them.

  python3 tests/mutation/show.py 'src/coords.c#157:bf1317403c60' ...

A mutant is shown in the version of its file it was drawn from (its blob in
build/mutation/results.json), else in HEAD's.
"""
import difflib
import json
import os
import subprocess
import sys
import tempfile

import run


def drawn_from():
    path = os.path.join(run.ROOT, "build", "mutation", "results.json")
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        return {key: m["blob"] for key, m in json.load(f).get("mutants", {}).items() if "blob" in m}


def main():
    blobs = drawn_from()
    for key in sys.argv[1:]:
        rel, rest = key.split("#", 1)
        idx = int(rest.split(":", 1)[0])
        rev = blobs.get(key, f"HEAD:{rel}")
        text = subprocess.run(["git", "show", rev], cwd=run.ROOT, stdout=subprocess.PIPE,
                              check=True).stdout.decode("utf-8", "surrogateescape")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, os.path.basename(rel))
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(text)
            mutants = dict(run.mutants_of(run.DEFAULT_MUTATE, path, run.LANGUAGE[os.path.splitext(rel)[1]]))
        print(f"== {key}")
        sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), mutants[idx].splitlines(True),
                                                   rel, f"{rel} (mutant {idx})", n=2))


if __name__ == "__main__":
    main()
