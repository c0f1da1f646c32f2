# records.py: reads the records of wherec_bench, numpy_bench.py and peers.py, and
# the figures every part of the report derives from them.
import os

# The fields of a `case` record after its tag, in order (cases.py reads the first five
# alike); a `fields case NAME...`
# record names them otherwise. Fields past the known ones are kept by name, unknown
# records and variants kept aside, so that wherec_bench may add some.
CASE_FIELDS = ["name", "kind", "dtype", "p", "shapes", "elements", "bytes", "out_bytes"]
CASE_TYPES = {"p": float, "elements": int, "bytes": float, "out_bytes": int}


class Records:
    """rows: [(case name, {kind, dtype, p, ..., t: {variant: median ns}})] in order;
    extra: {tag: fields} of other records; peers: [(variant, heading, version)];
    missing: [(variant, heading, why)]; skips: {(case, variant): why};
    builds: [(name, flags)] of the timed code (a case's m: {(pages, column, build): ns});
    mismatches: {(case, variant): [(class, count, elements)]}."""

    def __init__(self):
        self.rows, self.extra, self.peers, self.missing = [], {}, [], []
        self.skips, self.mismatches, self.builds = {}, {}, []
        self._cases = {}

    def matrix_time(self, name, pages, column, build, ns):
        """wherec_bench's time of a column on some pages under a build ("-": none).
        All go into c["m"]; on huge pages (numpy's placement) the table's t takes
        the worst build of the generated kernel and the best of the tuned loop."""
        c = self.case(name)
        c.setdefault("m", {})[(pages, column, build)] = ns
        if pages != "huge":
            return
        t, pick = c["t"], max if column == "gen" else min
        if column not in t or pick(t[column], ns) == ns:
            t[column] = ns
            c.setdefault("build_of", {})[column] = build

    def case(self, name):
        if name not in self._cases:
            self._cases[name] = {"t": {}}
        return self._cases[name]

    def add(self, r, fields):
        tag = r[0]
        if tag == "fields":
            fields[r[1]] = r[2:]
        elif tag == "case":
            named = dict(zip(fields.get("case", CASE_FIELDS), r[1:]))
            c = self.case(named["name"])
            c.update({k: CASE_TYPES.get(k, str)(v) for k, v in named.items() if k != "name"})
            self.rows.append((named["name"], c))
        elif tag == "time" and len(r) == 6:
            self.matrix_time(r[1], r[2], r[3], r[4], float(r[5]))
        elif tag == "time":
            self.case(r[1])["t"][r[2]] = float(r[3])
        elif tag == "build":
            if (r[1], r[2]) not in self.builds:
                self.builds.append((r[1], r[2]))
        elif tag == "peer":
            self.peers.append(tuple(r[1:4]))
        elif tag == "missing":
            self.missing.append(tuple(r[1:4]))
        elif tag == "skip":
            self.skips[(r[1], r[2])] = r[3]
        elif tag == "mismatch":
            self.mismatches.setdefault((r[1], r[2]), []).append((r[3], int(r[4]), int(r[5])))
        else:
            self.extra[tag] = r[1:]


def read_records(paths):
    recs, fields = Records(), {}
    for path in paths:
        if not path or not os.path.exists(path):
            continue
        with open(path) as f:
            for line in f:
                if line.strip():
                    recs.add(line.rstrip("\n").split("\t"), fields)
    return recs


def fmt_time(ns):
    if ns is None:
        return "-"
    if ns < 1e3:
        return f"{ns:.1f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.1f} us"
    return f"{ns / 1e6:.2f} ms"


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt_ratio(r, digits=2):
    return "-" if r is None else f"{r:.{digits}f}x"


def bound_ns(c):
    """The bandwidth bound of a case: its bytes moved at the copy rate memcpy
    reached on the output's size (2 x output bytes per memcpy: read and write)."""
    m = c["t"].get("memcpy")
    return c["bytes"] / (2 * c["out_bytes"] / m) if m and c.get("out_bytes") else None
