"""conftest.py: shared fixtures of the Python package's tests: every dtype with its numpy
dtype, random arrays of any bits (NaN payloads, -0.0, subnormals, extremes), the source tree."""
import os

import numpy as np
import pytest
from hypothesis import settings

import wherec

# No example database: the suite runs from the source tree and leaves nothing in it.
settings.register_profile("wherec", database=None, deadline=None)
settings.load_profile("wherec")

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

try:
    import ml_dtypes
    BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # the suite installs ml-dtypes; without it bfloat16 cases skip
    BF16 = None

# spec name -> numpy dtype (strings are object arrays, tested on their own)
DTYPES = {
    "bool": np.dtype(np.bool_), "int8": np.dtype(np.int8), "int16": np.dtype(np.int16),
    "int32": np.dtype(np.int32), "int64": np.dtype(np.int64), "uint8": np.dtype(np.uint8),
    "uint16": np.dtype(np.uint16), "uint32": np.dtype(np.uint32), "uint64": np.dtype(np.uint64),
    "float16": np.dtype(np.float16), "float": np.dtype(np.float32), "double": np.dtype(np.float64),
    "complex64": np.dtype(np.complex64), "complex128": np.dtype(np.complex128),
}
if BF16 is not None:
    DTYPES["bfloat16"] = BF16


def random_array(rng: np.random.Generator, shape, dtype) -> np.ndarray:
    """An array of shape and dtype from random bytes: every bit pattern may appear (bool: 0/1)."""
    dtype = np.dtype(dtype)
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    raw = rng.integers(0, 256, size=n * dtype.itemsize, dtype=np.uint8)
    return raw.view(dtype).reshape(shape).copy()


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal shapes, dtypes and bytes (NaN payloads and -0.0 included)."""
    return a.shape == b.shape and a.dtype == b.dtype and \
        np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()


@pytest.fixture(scope="session")
def where_all():
    """One plain where kernel per dtype over fully symbolic 3-d shapes, and a row-broadcast one."""
    lines = []
    for name in DTYPES:
        lines.append(f"kernel w_{name}(c: bool[A,B,C], x: {name}[A,B,C], y: {name}[A,B,C]) = where(c, x, y);")
    spec = "option prefix = \"pyall\";\n" + "\n".join(lines) + "\n"
    return wherec.compile(spec)
