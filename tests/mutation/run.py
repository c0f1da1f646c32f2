#!/usr/bin/env python3
"""tests/mutation/run.py: mutation testing of wherec with universalmutator.

Samples mutants per file with a fixed seed (until a number of them compile),
builds each in a copy of the
committed tree, runs the plain suite (or a chosen subset) with a time budget,
and sorts them into killed, survived and not compiled; writes a Markdown
report. Not part of test.sh: a full run takes hours (tests/mutation/README.md).

  build/mutation-venv/bin/pip install universalmutator     # once
  python3 tests/mutation/run.py --per-file 2 src/broadcast.c
  python3 tests/mutation/run.py                            # every default file
"""
import argparse
import difflib
import glob
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# What the issue asks to cover: the runtime, its public headers, the generator's
# front and back layers, and the templates.
DEFAULT_FILES = ["src/*.c", "src/*.h", "src/ref/*.c", "src/ref/*.h", "include/wherec/*.h",
                 "gen/front/*.c", "gen/front/*.h", "gen/front/*.re",
                 "gen/back/*.c", "gen/back/*.h", "templates/*.tpl", "templates/*.lua"]

DEFAULT_MUTATE = os.path.join(ROOT, "build", "mutation-venv", "bin", "mutate")

# The plain suite (-LE exhaustive) less what repeats it at a mutant's cost: 7 of
# the random suite's 9 ctests (the same 1,000 kernels under other compilers,
# flags and seeds; clang -O2 baseline seed 1 and gcc -O2 seed 3 stay) and the
# add_subdirectory package test (46 s; the installed-package test stays).
QUICK_SUITE = ("-LE exhaustive -E package_consumer_builds_through_add_subdirectory|random_kernels_[24]|"
               "random_kernels_1_.*gcc|random_kernels_3_.*(clang|O0)")

# universalmutator's rule set per file kind: C for C and for the templates (C text
# with Lua control lines); its language-independent rules for Lua, which it has none for.
LANGUAGE = {".c": "c", ".h": "c", ".re": "c", ".tpl": "c", ".lua": "none"}


def log(msg):
    print(msg, flush=True)


def run(cmd, cwd, timeout):
    """(returncode or None on timeout, combined output)."""
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, text=True, errors="replace")
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return None, out


def mutants_of(mutate, path, lang):
    """Every mutant universalmutator makes of path: list of (index, text)."""
    with tempfile.TemporaryDirectory() as d:
        rc, out = run([mutate, path, lang, "--noCheck", "--mutantDir", d], d, 600)
        if rc != 0:
            sys.exit(f"run.py: mutate failed on {path}:\n{out[-2000:]}")
        found = []
        for name in os.listdir(d):
            parts = name.split(".mutant.")
            if len(parts) == 2:
                idx = int(parts[1].split(".")[0])
                with open(os.path.join(d, name), encoding="utf-8", errors="surrogateescape") as f:
                    found.append((idx, f.read()))
        return sorted(found)


def changed_line(orig, mutant):
    """(line number, original line, mutated line) of a one-site mutant."""
    a, b = orig.splitlines(), mutant.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            return i1 + 1, " ".join(a[i1:i2]).strip(), " ".join(b[j1:j2]).strip()
    return 0, "", ""


def failed_tests(out):
    """The tests ctest's summary lists as failed (not those it lists as skipped)."""
    names = []
    for line in out.splitlines():
        line = line.strip()
        if line and line[0].isdigit() and " - " in line and "(" in line and not line.endswith("(Skipped)"):
            names.append(line.split(" - ", 1)[1].rsplit(" (", 1)[0])
    return names


def blob_of(rev, rel):
    """The git object id of file rel at rev: a mutant's identity includes it."""
    return subprocess.run(["git", "rev-parse", f"{rev}:{rel}"], cwd=ROOT, stdout=subprocess.PIPE,
                          text=True, check=True).stdout.strip()


def carry_over(results, head):
    """The results of an earlier commit that still hold at head: a mutant killed
    (or not compiled) there, of a file head has unchanged, is kept, since tests
    are only ever added (the issue: no test loses an assertion), and so is a
    survivor verdicts.json judges equivalent. Other survivors are run again: a
    new test may kill them. Everything else is dropped."""
    kept, earlier = {}, dict(results.get("earlier", {}))
    verdicts = json.load(open(VERDICTS)) if os.path.exists(VERDICTS) else {}
    for key, m in results.get("mutants", {}).items():
        if m["status"] == "survived" and key not in verdicts:  # run again; the report keeps its first verdict
            earlier[key] = {"status": m.get("first", "survived"), "tested_at": m.get("tested_at", results["head"])}
        if m["status"] != "survived" or key in verdicts:  # a judged survivor stays one
            try:
                blob = m.get("blob") or blob_of(results["head"], m["file"])
                if blob_of(head, m["file"]) == blob:
                    m["blob"] = blob
                    m.setdefault("tested_at", results["head"])
                    kept[key] = m
            except subprocess.CalledProcessError:  # the file is gone
                pass
    return {"head": head, "ctest": results.get("ctest"), "mutants": kept, "earlier": earlier}


def suite_names(bld, selection):
    """The names of the tests a ctest selection runs."""
    rc, out = run(["ctest", "-N"] + selection, bld, 600)
    names = [line.split(":", 1)[1].strip() for line in out.splitlines()
             if line.strip().startswith("Test") and "#" in line and ":" in line]
    if rc != 0 or not names:
        sys.exit(f"run.py: no tests in the selection {selection}:\n{out[-2000:]}")
    return names


def run_in_stages(ctest, bld, names, timeout):
    """The selection in two runs: the tests that took under a second in the
    last runs (ctest's cost data), then the others. Same verdict as one run,
    but most mutants fail a fast test: ctest alone starts the slowest first."""
    costs = {}
    path = os.path.join(bld, "Testing", "Temporary", "CTestCostData.txt")
    if os.path.exists(path):
        for line in open(path):
            parts = line.split()
            if len(parts) == 3:
                costs[parts[0]] = float(parts[2])
    fast = [n for n in names if costs.get(n, 0.0) < 1.0]
    slow = [n for n in names if costs.get(n, 0.0) >= 1.0]
    out_all = ""
    for stage in (fast, slow):
        if not stage:
            continue
        regex = "^(" + "|".join(n.replace(".", "\\.").replace("+", "\\+") for n in stage) + ")$"
        rc, out = run(ctest + ["-R", regex], bld, timeout)
        out_all += out
        if rc != 0:
            return rc, out_all
    return 0, out_all


def prepare_tree(work, build_type):
    """A copy of the committed tree (git archive HEAD) under work/src, built in work/build."""
    src, bld = os.path.join(work, "src"), os.path.join(work, "build")
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, stdout=subprocess.PIPE,
                          text=True, check=True).stdout.strip()
    stamp = os.path.join(work, "HEAD")
    if not (os.path.exists(stamp) and open(stamp).read() == head):
        # a new commit: a fresh copy; the build directory builds it incrementally,
        # and results.json keeps what carries over (carry_over)
        shutil.rmtree(src, ignore_errors=True)
        os.makedirs(src)
        archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, stdout=subprocess.PIPE,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", src], input=archive, check=True)
        with open(stamp, "w") as f:
            f.write(head)
    if not os.path.exists(os.path.join(bld, "CMakeCache.txt")):
        rc, out = run(["cmake", "-S", src, "-B", bld, f"-DCMAKE_BUILD_TYPE={build_type}"], work, 600)
        if rc != 0:
            sys.exit(f"run.py: configure failed:\n{out[-3000:]}")
    return head, src, bld


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", help="files or globs, relative to the repository (default: the issue's set)")
    ap.add_argument("--per-file", type=int, default=5, help="mutants that compile, per file (default 5)")
    ap.add_argument("--per-file-for", action="append", default=[], metavar="PREFIX=N",
                    help="N mutants that compile per file under PREFIX (repeatable; the longest prefix wins)")
    ap.add_argument("--max-tries", type=int, default=20,
                    help="give up on a file after per-file * this many mutants (default 20)")
    ap.add_argument("--seed", type=int, default=14, help="sampling seed (default 14)")
    ap.add_argument("--budget", type=int, default=120, help="seconds for one test of a mutant (ctest --timeout; default 120)")
    ap.add_argument("--build-budget", type=int, default=1200, help="seconds for one mutant's build")
    ap.add_argument("--ctest", default=QUICK_SUITE,
                    help="ctest selection (default: the plain suite less what repeats it, QUICK_SUITE)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="build and ctest parallelism (default 2)")
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "mutation"), help="work tree, build and results")
    ap.add_argument("--mutate", default=DEFAULT_MUTATE,
                    help="universalmutator's mutate")
    ap.add_argument("--report", default=None, help="Markdown report (default: WORK/REPORT.md)")
    ap.add_argument("--report-only", action="store_true",
                    help="write the report from results.json, running no mutant")
    args = ap.parse_args()
    if not os.path.exists(args.mutate):
        sys.exit(f"run.py: no {args.mutate}: python3 -m venv build/mutation-venv && "
                 "build/mutation-venv/bin/pip install universalmutator")

    files = []
    for pat in args.files or DEFAULT_FILES:
        for p in sorted(glob.glob(os.path.join(ROOT, pat))):
            rel = os.path.relpath(p, ROOT)
            if os.path.splitext(rel)[1] in LANGUAGE and rel not in files:
                files.append(rel)
    if not files:
        sys.exit("run.py: no files to mutate")

    os.makedirs(args.work, exist_ok=True)
    if args.report_only:  # the committed files, read apart from a run's work tree
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, stdout=subprocess.PIPE,
                              text=True, check=True).stdout.strip()
        src, bld = tempfile.mkdtemp(prefix="wherec-report-"), None
        archive = subprocess.run(["git", "archive", head], cwd=ROOT, stdout=subprocess.PIPE, check=True).stdout
        subprocess.run(["tar", "-x", "-C", src], input=archive, check=True)
    else:
        head, src, bld = prepare_tree(args.work, "Release")
    ctest = ["ctest", "-j", str(args.jobs), "--stop-on-failure", "--no-tests=error",
             "--timeout", str(args.budget)]
    build = ["cmake", "--build", bld, "-j", str(args.jobs)]

    # results.json: kept across runs of one HEAD, so an interrupted run resumes
    results_path = os.path.join(args.work, "results.json")
    results = json.load(open(results_path)) if os.path.exists(results_path) else {}
    if results.get("ctest") != args.ctest:
        results = {"ctest": args.ctest}
    if args.report_only and results.get("head"):  # the report of the commit the results are of
        head = results["head"]
    if results.get("head") != head:
        results = carry_over(results, head)
        results["ctest"] = args.ctest

    def save():
        with open(results_path + ".tmp", "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
        os.replace(results_path + ".tmp", results_path)

    if not args.report_only:
        log(f"run.py: baseline build and tests in {bld}")
        rc, out = run(build, src, args.build_budget)
        if rc != 0:
            sys.exit(f"run.py: the unmutated tree does not build:\n{out[-3000:]}")
    # after the build, which configures again: a commit's new tests are in the selection
    names = [] if args.report_only else suite_names(bld, args.ctest.split())
    if "baseline" not in results and not args.report_only:
        t0 = time.time()
        rc, out = run(ctest + args.ctest.split(), bld, 10 * args.budget)
        if rc != 0:
            sys.exit(f"run.py: the unmutated tree fails its tests:\n{out[-3000:]}")
        results["baseline"] = round(time.time() - t0, 1)
        save()

    overrides = sorted((tuple(o.split("=", 1)) for o in args.per_file_for), key=lambda o: -len(o[0]))
    per_file = lambda rel: next((int(n) for prefix, n in overrides if rel.startswith(prefix)), args.per_file)
    drawn = set()  # the report's mutants: this run's draw, done now or before
    for rel in files:
        path = os.path.join(src, rel)
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            orig = f.read()
        every = mutants_of(args.mutate, path, LANGUAGE[os.path.splitext(rel)[1]])
        # A fixed shuffle, walked until per_file mutants compiled: most of the
        # tool's regexp mutants do not compile, and those cost a failed build only.
        order = list(every)
        random.Random(f"{args.seed}:{rel}").shuffle(order)
        log(f"{rel}: {len(every)} mutants")
        compiled = tried = 0
        for idx, text in order:
            if compiled >= per_file(rel) or tried >= args.max_tries * per_file(rel):
                break
            tried += 1
            key = f"{rel}#{idx}:{hashlib.sha1(text.encode('utf-8', 'surrogateescape')).hexdigest()[:12]}"
            line, before, after = changed_line(orig, text)
            drawn.add(key)
            if key in results["mutants"]:
                compiled += results["mutants"][key]["status"] != "not compiled"
                continue
            if args.report_only:  # not run yet: the draw stops here
                drawn.discard(key)
                break
            t0 = time.time()
            try:
                with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(text)
                rc, out = run(build, src, args.build_budget)
                if rc != 0:
                    status, by = "not compiled", []
                else:
                    rc, out = run_in_stages(ctest, bld, names, 10 * args.budget)
                    status = "survived" if rc == 0 else "killed"
                    by = ["(time budget)"] if rc is None else failed_tests(out)
            finally:
                with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(orig)
            results["mutants"][key] = {"file": rel, "index": idx, "line": line, "before": before,
                                       "after": after, "status": status, "by": by[:3],
                                       "seconds": round(time.time() - t0, 1), "total": len(every),
                                       "blob": blob_of(head, rel), "tested_at": head,
                                       "first": results.get("earlier", {}).get(key, {}).get("status", status)}
            save()
            compiled += status != "not compiled"
            log(f"  #{idx} line {line}: {status} ({results['mutants'][key]['seconds']} s)"
                + (f" by {', '.join(by[:3])}" if status == "killed" else ""))
    if args.report_only:
        shutil.rmtree(src, ignore_errors=True)
    else:
        run(build, src, args.build_budget)  # the work tree back to its unmutated build

    report = args.report or os.path.join(args.work, "REPORT.md")
    write_report(report, results, drawn, files, args)
    log(f"run.py: wrote {report}")


# The report's groups: the issue asks for the score of src/ and include/ apart.
GROUPS = [("src/ (runtime, reference)", "src/"), ("include/wherec/", "include/"),
          ("gen/ (front and back)", "gen/"), ("templates/", "templates/")]
VERDICTS = os.path.join(ROOT, "tests", "mutation", "verdicts.json")


def write_report(report, results, drawn, files, args):
    """REPORT.md: the score per file, group and overall (killed over the mutants
    that compiled, less those judged equivalent in verdicts.json), the score
    before the tests the survivors led to, and every survivor with its verdict.
    A verdict is "equivalent: why" or "test.sh: why" (the selection misses it,
    a test.sh runs outside it kills it: the sanitizer builds, the random
    suite's other builds; counted killed)."""
    verdicts = json.load(open(VERDICTS)) if os.path.exists(VERDICTS) else {}
    ms = {key: m for key, m in results["mutants"].items() if key in drawn}
    judged = lambda kind: {key for key, m in ms.items()
                           if m["status"] == "survived" and verdicts.get(key, "").startswith(kind + ": ")}
    equivalent, elsewhere = judged("equivalent"), judged("test.sh")

    def tally(sel, field="status"):
        """killed (by the selection, or else by test.sh's sanitizer builds),
        survived, equivalent, not compiled, and the score."""
        k = sum(1 for key in sel if ms[key].get(field, ms[key]["status"]) == "killed" or key in elsewhere)
        s = sum(1 for key in sel if ms[key].get(field, ms[key]["status"]) == "survived" and key not in elsewhere)
        e = sum(1 for key in sel if key in equivalent)
        n = sum(1 for key in sel if ms[key]["status"] == "not compiled")
        score = 100.0 * k / (k + s - e) if k + s - e > 0 else 100.0
        return k, s, e, n, score

    k, s, e, n, score = tally(ms)
    k0, s0, _, _, score0 = tally(ms, "first")
    lines = ["# Mutation testing report", "",
             f"universalmutator 1.14.1 mutants of commit `{results['head'][:12]}`, drawn per file in an "
             f"order fixed by seed {args.seed} until {args.per_file} compiled"
             + "".join(f" ({n} under `{prefix}`)" for prefix, n in (o.split("=", 1) for o in args.per_file_for))
             + "; each built and run through "
             f"ctest's selection `{args.ctest}` (the sub-second tests first, then the rest; stop on the "
             f"first failure, {args.budget} s per test). Baseline suite: {results.get('baseline', '?')} s. "
             "A mutant killed at an earlier commit of a file unchanged since is carried over; "
             "survivors are run again at each commit. Written by `tests/mutation/run.py`; "
             "the verdicts on survivors are `tests/mutation/verdicts.json`.", "",
             f"**{score:.1f}% of the non-equivalent mutants killed: {k} killed ({len(elsewhere)} of them "
             f"only by tests outside the selection that test.sh runs), {s} survived ({e} of them equivalent), {n} not compiled.** "
             "Before the tests the survivors led to: "
             f"{k0} killed, {s0} survived ({score0:.1f}% with the same equivalents).", "",
             "| group | killed | survived | equivalent | not compiled | score |", "|---|---|---|---|---|---|"]
    for label, prefix in GROUPS:
        sel = [key for key in ms if ms[key]["file"].startswith(prefix)]
        if sel:
            gk, gs, ge, gn, gscore = tally(sel)
            lines.append(f"| {label} | {gk} | {gs} | {ge} | {gn} | {gscore:.1f}% |")
    lines += ["", "| file | mutants | drawn | killed | survived | not compiled |", "|---|---|---|---|---|---|"]
    for rel in files:
        sel = [key for key in ms if ms[key]["file"] == rel]
        if sel:
            fk, fs, _, fn, _ = tally(sel)
            lines.append(f"| `{rel}` | {ms[sel[0]]['total']} | {len(sel)} | {fk} | {fs} | {fn} |")
    lines += ["", "## Survivors and their verdicts", ""]
    surv = sorted((key for key in ms if ms[key]["status"] == "survived"),
                  key=lambda key: (ms[key]["file"], ms[key]["line"]))
    if not surv:
        lines.append("None.")
    for key in surv:
        m = ms[key]
        verdict = verdicts.get(key, "").split(": ", 1)[-1]
        lines.append(f"- `{m['file']}:{m['line']}` (`{key}`): `{m['before']}` -> `{m['after']}`. "
                     + (f"**Equivalent:** {verdict}" if key in equivalent else
                        f"**Killed by test.sh, outside the selection:** {verdict}" if key in elsewhere else
                        "**Not judged.**"))
    lines += ["", "## Survivors killed by the tests they led to", ""]
    new = sorted((key for key in ms if ms[key]["status"] == "killed" and ms[key].get("first") == "survived"),
                 key=lambda key: (ms[key]["file"], ms[key]["line"]))
    if not new:
        lines.append("None.")
    for key in new:
        m = ms[key]
        lines.append(f"- `{m['file']}:{m['line']}`: `{m['before']}` -> `{m['after']}`, by {', '.join(m['by']) or '?'}")
    lines += ["", "## Killed, and by which tests", ""]
    for key in sorted((key for key in ms if ms[key]["status"] == "killed"),
                      key=lambda key: (ms[key]["file"], ms[key]["line"])):
        m = ms[key]
        lines.append(f"- `{m['file']}:{m['line']}`: `{m['after']}` by {', '.join(m['by']) or '?'}")
    with open(report, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
