"""wherec: fused Where / element-wise kernels compiled ahead of time to C, called on numpy
and DLPack arrays. compile() a spec (text or path) and call its kernels; reference(),
check() and import_onnx() reach the reference evaluator, `wherec check` and `wherec
import`; set_threads() splits large calls over a pool. docs/python.md is the guide."""
import atexit
import os
import re
import shlex
import subprocess
import sys
import tempfile
import threading
from typing import List, Optional, Sequence, Union

from . import _cache, _paths
from ._cache import CompileError, SpecError
from ._kernels import Kernel, Kernels, WherecError

__all__ = ["compile", "reference", "check", "import_onnx", "set_threads", "get_threads",
           "Kernel", "Kernels", "CheckResult", "CheckMismatch", "CompileError", "SpecError",
           "WherecError", "executable", "include_dir", "cache_dir", "__version__"]

try:
    from importlib.metadata import version as _dist_version
    __version__ = _dist_version("wherec")
except Exception:  # noqa: BLE001: running from a tree that is not installed
    __version__ = "unknown"

SpecLike = Union[str, bytes, "os.PathLike[str]"]


def executable() -> str:
    """The wherec command this package installed (the `wherec` script runs it)."""
    return _paths.executable()


def include_dir() -> str:
    """The directory holding wherec/wherec.h and wherec/kernel.h."""
    return _paths.include_dir()


def cache_dir() -> str:
    """The compile cache shared with `wherec run` ($WHEREC_CACHE_DIR, else
    $XDG_CACHE_HOME/wherec, else ~/.cache/wherec)."""
    return _cache.cache_root()


def _spec_arg(spec: SpecLike):
    """(path, None) for a file, (None, bytes) for spec text."""
    if isinstance(spec, os.PathLike):
        return os.fspath(spec), None
    if isinstance(spec, bytes):
        return None, spec
    if not isinstance(spec, str):
        raise TypeError(f"spec must be spec text or a path, got {type(spec).__name__}")
    if "\n" not in spec and (spec.endswith(".where") or os.path.isfile(spec)):
        if not os.path.isfile(spec):
            raise FileNotFoundError(f"no spec file {spec}")
        return spec, None
    return None, spec.encode()


def _flags(cflags: Union[str, Sequence[str], None]) -> List[str]:
    if cflags is None:
        return ["-O2"]
    if isinstance(cflags, str):
        return shlex.split(cflags)
    return list(cflags)


def compile(spec: SpecLike, cflags: Union[str, Sequence[str], None] = None, *,
            cc: Optional[str] = None, verbose: bool = False) -> Kernels:
    """Generate C for spec (spec text, or the path of a .where file), compile it into the
    cache `wherec run` uses (content-hashed; the compiler runs only for a new entry), load
    it and return one callable per kernel: `k = wherec.compile(...); y = k.leaky(x)`.

    cflags: the optimisation flags (default "-O2", `wherec run`'s: then both share
    entries); cc: the C compiler (default: $CC, else clang, else cc). Raises SpecError
    with the diagnostics when the spec has errors, CompileError when the toolchain fails."""
    path, text = _spec_arg(spec)
    so, prefix, _ = _cache.build(path, text, cc, _flags(cflags), verbose=verbose)
    from ._kernels import load
    return load(so, prefix)


def reference(spec: Union[SpecLike, Kernels], kernel: str, *arrays):
    """Kernel `kernel` of spec evaluated by the reference evaluator (wc_ref_run_multi):
    deliberately naive and independent of the generated code; a tuple for several outputs."""
    ks = spec if isinstance(spec, Kernels) else compile(spec)
    return ks[kernel].reference(*arrays)


class CheckResult(list):
    """`wherec check`'s table as data: one dict per kernel (kernel, kind, dtypes,
    bindings, elements, mismatches), plus .output (the whole text) and .summary."""

    output: str = ""
    summary: str = ""


class CheckMismatch(AssertionError):
    """A kernel disagreed with the reference (`wherec check` exit 3): .result is the table."""

    def __init__(self, msg: str, result: CheckResult):
        super().__init__(msg)
        self.result = result


_INT_COLUMNS = ("bindings", "elements", "mismatches")


def _parse_check(text: str) -> CheckResult:
    rows = CheckResult()
    lines = text.splitlines()
    header = None
    for line in lines:
        cols = re.split(r"\s{2,}", line.strip())
        if cols and cols[0] == "kernel" and "mismatches" in cols:
            header = cols
            continue
        if header is None:
            continue
        if len(cols) != len(header):
            header = None if rows else header
            continue
        row = dict(zip(header, cols))
        for c in _INT_COLUMNS:
            if c in row:
                try:
                    row[c] = int(row[c])
                except ValueError:
                    pass
        rows.append(row)
    rows.output = text
    rows.summary = lines[-1] if lines else ""
    return rows


def check(spec: SpecLike, *, cc: Optional[str] = None, cflags: Optional[str] = None,
          trials: Optional[int] = None, seed: Optional[int] = None, sanitize: bool = False,
          progress: bool = False) -> CheckResult:
    """Run `wherec check` on spec: every kernel against the reference, bit for bit, on
    random inputs full of special values. Returns the per-kernel table as a list of dicts;
    raises CheckMismatch (an AssertionError, so pytest shows it) on a mismatch and
    CompileError / SpecError when generating or compiling fails. progress=True shows
    kernels done out of total on stderr when it is a terminal (nothing otherwise)."""
    path, text = _spec_arg(spec)
    tmp = None
    if path is None:
        tmp = tempfile.TemporaryDirectory(prefix="wherec-check-")
        path = os.path.join(tmp.name, "kernels.where")
        with open(path, "wb") as f:
            f.write(text)
    cmd = [executable(), "check", path]
    if cc:
        cmd += ["--cc", cc]
    if cflags is not None:
        cmd += ["--cflags", cflags]
    if trials is not None:
        cmd += ["--trials", str(trials)]
    if seed is not None:
        cmd += ["--seed", str(seed)]
    if sanitize:
        cmd.append("--sanitize")
    try:
        if progress and sys.stderr.isatty():
            total = _count_kernels(text if text is not None else open(path, "rb").read())
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            out, done, in_table = [], 0, False
            for line in p.stdout:       # the harness flushes each row as the next kernel starts
                out.append(line)
                cols = re.split(r"\s{2,}", line.strip())
                if cols and cols[0] == "kernel" and "mismatches" in cols:
                    in_table = True
                elif in_table and len(cols) >= 6:
                    done += 1
                    sys.stderr.write(f"\rwherec check: {done}/{max(total, done)} kernels ({cols[0]})\033[K")
                    sys.stderr.flush()
                else:
                    in_table = False
            stderr = p.stderr.read()
            rc = p.wait()
            sys.stderr.write("\n" if done else "")
            stdout = "".join(out)
        else:
            r = subprocess.run(cmd, capture_output=True, text=True)
            rc, stdout, stderr = r.returncode, r.stdout, r.stderr
    finally:
        if tmp is not None:
            tmp.cleanup()
    result = _parse_check(stdout)
    if rc == 0:
        return result
    if rc == 3:
        raise CheckMismatch((stdout + stderr).strip(), result)
    if rc == 1:
        raise SpecError(stderr.strip() or stdout.strip())
    raise CompileError(f"wherec check failed (status {rc}): {(stderr or stdout).strip()}")


def _count_kernels(spec: bytes) -> int:
    """Kernels a spec declares, a dtype list counting one per binding: check's progress total."""
    text = re.sub(rb"#[^\n]*", b"", spec).decode("utf-8", "replace")
    total = 0
    for m in re.finditer(r"\bkernel\s+\w+\s*(<([^>]*)>)?", text):
        n = 1
        if m.group(2):
            for var in re.split(r"\b\w+\s*:", m.group(2))[1:]:
                n *= max(1, len([t for t in var.split(",") if t.strip()]))
        total += n
    return total


class Imported(str):
    """The spec text `wherec import` wrote (a str), with .manifest (the JSON manifest,
    parsed) and .log (stderr: kernels written, nodes not taken)."""

    manifest: dict
    log: str


def import_onnx(model: Union[str, "os.PathLike[str]"]) -> Imported:
    """Import the element-wise regions of an ONNX model: returns the spec text (pass it
    to compile()) with .manifest, per kernel its ONNX nodes and the graph tensors of its
    parameters and outputs, and .log. Raises SpecError for a model it cannot read."""
    import json
    with tempfile.TemporaryDirectory(prefix="wherec-import-") as d:
        stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(os.fspath(model)))[0]) or "model"
        out = os.path.join(d, stem + ".where")
        r = subprocess.run([executable(), "import", os.fspath(model), "-o", out],
                           capture_output=True, text=True)
        if r.returncode == 1:
            raise SpecError(r.stderr.strip())
        if r.returncode != 0:
            raise CompileError(f"wherec import failed (status {r.returncode}): {r.stderr.strip()}")
        with open(out, encoding="utf-8") as f:
            spec = Imported(f.read())
        manifest = out + ".json"
        spec.manifest = {}
        if os.path.exists(manifest):
            with open(manifest, encoding="utf-8") as f:
                spec.manifest = json.load(f)
        spec.log = r.stderr
    return spec


# ---- threads ---------------------------------------------------------------------------

_threads_lock = threading.Lock()
_pool = None
_threads = 1
_retired = []


def set_threads(n: int, threshold_bytes: Optional[int] = None) -> None:
    """Split calls whose output has at least threshold_bytes (default 1 MiB) over n threads
    (the calling thread and n - 1 workers of a pthread pool the module owns, installed
    with wc_set_parallel); n = 1 restores serial calls. The bytes are the same for every n."""
    global _pool, _threads
    from ._ffi import ffi, lib, pool_lib
    n = int(n)
    if not 1 <= n <= 256:
        raise ValueError(f"set_threads: n must be 1..256, got {n}")
    with _threads_lock:
        if threshold_bytes is not None:
            lib.wc_set_parallel_threshold(int(threshold_bytes))
        if n == _threads:
            return
        old = _pool
        if n == 1:
            lib.wc_set_parallel(ffi.NULL, ffi.NULL)
            _pool = None
        else:
            pl = pool_lib()
            p = pl.pool_create(n)
            if p == ffi.NULL:
                raise OSError(f"set_threads: cannot start {n} threads")
            lib.wc_set_parallel(pl.pool_parallel, p)
            _pool = p
        _threads = n
        # A call that started before the change may still use the old pool: it is
        # stopped at exit, not now.
        if old is not None:
            _retired.append(old)


def get_threads() -> int:
    """The n of the last set_threads (1: serial)."""
    return _threads


@atexit.register
def _stop_pools() -> None:
    from ._ffi import ffi, lib, pool_lib
    if _pool is None and not _retired:
        return
    lib.wc_set_parallel(ffi.NULL, ffi.NULL)
    for p in _retired + ([_pool] if _pool is not None else []):
        pool_lib().pool_destroy(p)
