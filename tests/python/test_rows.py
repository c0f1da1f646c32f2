"""test_rows.py: kernels with row reductions (a masked softmax, a LayerNorm, an integer
row sum) from Python: bit for bit against the reference evaluator on random bits, and
against numpy in double within the bound of their roundings on ordinary values."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import wherec
from conftest import random_array, same_bits

SPEC = """
option prefix = "rows";
kernel softmax(mask: bool[B,1,S], s: float[B,H,S]) -> (y) {
  let z = where(mask, s, -inf);
  let e = exp(z - row_max(z));
  y = e / row_sum(e);
}
kernel layernorm(x: float[N,D], g: float[D], b: float[D]) -> (y) {
  let d = x - row_mean(x);
  y = d / sqrt(row_mean(d * d) + 0.00001) * g + b;
}
kernel plane_sums(x: int32[A,B,C]) = row_sum(x, 2);
"""


@pytest.fixture(scope="module")
def k():
    return wherec.compile(SPEC)


@settings(max_examples=25, deadline=None)
@given(b=st.integers(0, 3), h=st.integers(1, 4), s=st.integers(0, 40),
       seed=st.integers(0, 2**32 - 1))
def test_masked_softmax_matches_the_reference_on_any_bits(k, b, h, s, seed):
    rng = np.random.default_rng(seed)
    mask = random_array(rng, (b, 1, s), np.bool_)
    x = random_array(rng, (b, h, s), np.float32)
    assert same_bits(k.softmax(mask, x), k.softmax.reference(mask, x))


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 6), s=st.integers(1, 300), seed=st.integers(0, 2**32 - 1))
def test_masked_softmax_is_numpy_softmax_within_a_few_ulps(k, n, s, seed):
    rng = np.random.default_rng(seed)
    mask = rng.random((n, 1, s)) < 0.8
    mask[..., 0] = True  # no row wholly masked (that row is NaN, as 0 / 0)
    x = (rng.standard_normal((n, 2, s)) * 4).astype(np.float32)
    z = np.where(mask, x.astype(np.float64), -np.inf)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    want = e / e.sum(axis=-1, keepdims=True)
    got = k.softmax(mask, x).astype(np.float64)
    # exp rounded once, the sum within gamma(ceil(s/16)+3), one division: a few ulps
    tol = 4 * 2.0 ** -24 * ((s + 15) // 16 + 6)
    assert np.all(np.abs(got - want) <= tol * np.abs(want) + 1e-45)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(0, 5), d=st.integers(1, 200), seed=st.integers(0, 2**32 - 1))
def test_layernorm_matches_the_reference_and_numpy(k, n, d, seed):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((n, d)) * 3 + 1).astype(np.float32)
    g = rng.standard_normal(d).astype(np.float32)
    b = rng.standard_normal(d).astype(np.float32)
    got = k.layernorm(x, g, b)
    assert same_bits(got, k.layernorm.reference(x, g, b))
    x64 = x.astype(np.float64)
    dd = x64 - x64.mean(axis=-1, keepdims=True)
    want = dd / np.sqrt((dd * dd).mean(axis=-1, keepdims=True) + np.float32(0.00001)) * g + b
    assert np.all(np.abs(got - want) <= 1e-4 * (np.abs(dd / np.sqrt((dd * dd).mean(axis=-1, keepdims=True) + 1e-5) * g) + np.abs(b)) + 1e-6)


def test_integer_rows_of_two_axes_wrap_like_numpy(k):
    x = np.random.default_rng(7).integers(-2**31, 2**31, size=(3, 5, 7), dtype=np.int64).astype(np.int32)
    got = k.plane_sums(x)
    want = x.sum(axis=(1, 2), dtype=np.int32, keepdims=True)  # numpy's int32 sum wraps too
    assert same_bits(got, np.broadcast_to(want, x.shape).copy())
