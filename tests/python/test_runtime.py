"""test_runtime.py: threads (set_threads, the GIL released during calls) and the compile
cache (shared with `wherec run`, safe under concurrent processes)."""
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import wherec
from conftest import random_array, same_bits

BIG = "kernel big(c: bool[N], x: float[N], y: float[N]) = where(c, x * 2.0, y + 1.0);\n"


@pytest.fixture(scope="module")
def big():
    return wherec.compile(BIG)


def test_set_threads_gives_the_serial_bytes(big):
    rng = np.random.default_rng(7)
    n = 1 << 20
    c = random_array(rng, (n,), np.bool_)
    x, y = random_array(rng, (n,), np.float32), random_array(rng, (n,), np.float32)
    serial = big.big(c, x, y)
    try:
        wherec.set_threads(3, threshold_bytes=1 << 12)
        assert wherec.get_threads() == 3
        assert same_bits(big.big(c, x, y), serial)
        wherec.set_threads(2)
        assert same_bits(big.big(c, x, y), serial)
    finally:
        wherec.set_threads(1, threshold_bytes=0)
    assert same_bits(big.big(c, x, y), serial)
    with pytest.raises(ValueError):
        wherec.set_threads(0)


def test_the_gil_is_released_during_a_call(big):
    n = 1 << 23
    c = np.ones(n, bool)
    x = np.ones(n, np.float32)
    y = np.zeros(n, np.float32)
    o = np.empty_like(x)
    big.big(c, x, y, out=o)                              # plan and pages ready
    done = threading.Event()
    spans = []

    def worker():
        for _ in range(3):
            t0 = time.perf_counter()
            big.big(c, x, y, out=o)
            spans.append((t0, time.perf_counter()))
        done.set()

    ticks = []
    t = threading.Thread(target=worker)
    t.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
    t.join()
    # This thread can tick inside a call only while the caller waits in C without the GIL.
    inside = sum(1 for v in ticks if any(a < v < b for a, b in spans))
    assert inside > 100, (inside, spans)


def test_python_and_wherec_run_share_one_cache_entry(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("WHEREC_CACHE_DIR", str(cache))
    spec = tmp_path / "shared.where"
    spec.write_text("kernel s(x: float[N]) = where(x > 1, x, 1.0);\n")
    k = wherec.compile(str(spec), cc="clang" if _have("clang") else "cc")
    entries = os.listdir(cache)
    assert len(entries) == 1
    np.save(tmp_path / "x.npy", np.arange(4, dtype=np.float32))
    args = [wherec.executable(), "run", str(spec), "s", str(tmp_path / "x.npy"), "-o", str(tmp_path / "y.npy")]
    if not _have("clang"):
        args += ["--cc", "cc"]
    r = subprocess.run(args, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "compiled" not in r.stderr                   # found the shared object Python built
    assert os.listdir(cache) == entries
    assert same_bits(np.load(tmp_path / "y.npy"), k.s(np.arange(4, dtype=np.float32)))


def test_concurrent_processes_compile_one_entry_safely(tmp_path):
    env = dict(os.environ, WHEREC_CACHE_DIR=str(tmp_path / "cache"))
    code = ("import numpy as np, wherec\n"
            "k = wherec.compile('kernel race(x: int32[N]) = where(x > 0, x, 0);\\n')\n"
            "assert k.race(np.array([-1, 2], np.int32)).tolist() == [0, 2]\n")
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stderr=subprocess.PIPE)
             for _ in range(4)]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err.decode()
    (entry,) = os.listdir(tmp_path / "cache")
    files = sorted(os.listdir(tmp_path / "cache" / entry))
    assert "libkernels.so" in files
    assert not [f for f in files if ".tmp" in f], files   # no temporary left behind


def test_compile_twice_returns_the_loaded_kernels():
    a = wherec.compile(BIG)
    b = wherec.compile(BIG)
    assert a is b


def _have(prog):
    from shutil import which
    return which(prog) is not None


def test_without_the_extension_calls_go_through_cffi_alone(tmp_path):
    """The package without _fast (CPython < 3.11, no development files): the same results."""
    code = ("import sys; sys.modules['wherec._fast'] = None\n"
            "import numpy as np, wherec, wherec._kernels as kk\n"
            "assert not kk.HAVE_FAST\n"
            "k = wherec.compile('kernel nofast(c: bool[N], x: float[N], y: float[]) = where(c, x, y);\\n')\n"
            "c = np.array([True, False, True]); x = np.arange(3, dtype=np.float32); y = np.float32(-1)\n"
            "for _ in range(2): assert k.nofast(c, x, y).tolist() == [0, -1, 2]\n"
            "o = np.empty(3, np.float32); assert k.nofast(c, x, y, out=o) is o\n"
            "assert k.nofast(c[::-1], x, y).tolist() == [0, -1, 2]\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_threads_calling_one_kernel_on_changing_shapes_agree_with_numpy():
    """Plans are stored and replaced while other threads run them, the GIL released."""
    k = wherec.compile("kernel mt(c: bool[N,M], x: int32[N,M], y: int32[M]) = where(c, x, y);\n")
    errors = []

    def worker(seed):
        rng = np.random.default_rng(seed)
        try:
            for i in range(200):
                n, m = int(rng.integers(0, 40)), int(rng.integers(1, 9 + seed))
                c = rng.integers(0, 2, (n, m)).astype(bool)
                x = rng.integers(-9, 9, (n, m)).astype(np.int32)
                y = rng.integers(-9, 9, m).astype(np.int32)
                if not same_bits(k.mt(c, x, y), np.where(c, x, y)):
                    errors.append((seed, i))
        except Exception as e:  # noqa: BLE001: reported below
            errors.append(e)

    ts = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors
