"""test_fused.py: fused kernels (float16, bfloat16, integers, several outputs) against the
reference evaluator bit for bit, on values hypothesis draws; reference() and the interpreter."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import wherec
from conftest import BF16, random_array, same_bits

SPEC = """
option prefix = "fused";
kernel leaky16(x: float16[N,8]) = where(x > 0, x, x * 0.01);
kernel clamp_i8(x: int8[N], lo: int8[], hi: int8[]) = where(x < lo, lo, where(x > hi, hi, x));
kernel mix(c: bool[N,1], a: int16[N,M], b: int16[1,M]) = where(c, a * b, a - b);
kernel hs(x: float[N]) -> (y, t) { let t = x + 3.0; y = x * min(max(t, 0.0), 6.0) / 6.0; }
"""
BF_SPEC = "kernel lbf(x: bfloat16[N]) = where(x > 0, x, x * 0.01);\n"


@pytest.fixture(scope="module")
def k():
    return wherec.compile(SPEC)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(0, 40), seed=st.integers(0, 2**32 - 1))
def test_float16_leaky_matches_the_reference_and_numpy(k, n, seed):
    x = random_array(np.random.default_rng(seed), (n, 8), np.float16)
    got = k.leaky16(x)
    assert same_bits(got, k.leaky16.reference(x))
    # numpy computes float16 * float16 in float32 and rounds once too, where x is not NaN
    with np.errstate(invalid="ignore"):
        ref = np.where(x > 0, x, (x.astype(np.float32) * np.float32(np.float16(0.01))).astype(np.float16))
    ok = ~np.isnan(x)
    assert same_bits(got[ok], ref[ok])


@settings(max_examples=30, deadline=None)
@given(n=st.integers(0, 50), lo=st.integers(-128, 127), hi=st.integers(-128, 127),
       seed=st.integers(0, 2**32 - 1))
def test_int8_clamp_matches_numpy(k, n, lo, hi, seed):
    x = random_array(np.random.default_rng(seed), (n,), np.int8)
    lo8, hi8 = np.int8(lo), np.int8(hi)
    assert same_bits(k.clamp_i8(x, lo8, hi8), np.where(x < lo8, lo8, np.where(x > hi8, hi8, x)))


@settings(max_examples=30, deadline=None)
@given(n=st.integers(0, 6), m=st.integers(0, 9), seed=st.integers(0, 2**32 - 1))
def test_int16_arithmetic_wraps_like_numpy(k, n, m, seed):
    rng = np.random.default_rng(seed)
    c = random_array(rng, (n, 1), np.bool_)
    a, b = random_array(rng, (n, m), np.int16), random_array(rng, (1, m), np.int16)
    with np.errstate(over="ignore"):
        expected = np.where(c, a * b, a - b)
    assert same_bits(k.mix(c, a, b), expected)
    assert same_bits(k.mix.interpret(c, a, b), expected)
    assert same_bits(wherec.reference(k, "mix", c, a, b), expected)


def test_several_outputs_come_back_as_a_tuple_and_fill_out(k):
    x = np.linspace(-5, 5, 11, dtype=np.float32)
    y, t = k.hs(x)
    ry, rt = k.hs.reference(x)
    assert same_bits(y, ry) and same_bits(t, rt)
    assert same_bits(t, x + np.float32(3))
    oy, ot = np.empty_like(x), np.empty_like(x)
    assert k.hs(x, out=(oy, ot))[0] is oy
    assert same_bits(oy, y) and same_bits(ot, t)
    assert [o.name for o in k.hs.outputs] == ["y", "t"]


@pytest.mark.skipif(BF16 is None, reason="ml_dtypes is not installed")
@settings(max_examples=20, deadline=None)
@given(n=st.integers(0, 64), seed=st.integers(0, 2**32 - 1))
def test_bfloat16_from_ml_dtypes_matches_the_reference(n, seed):
    k = wherec.compile(BF_SPEC)
    x = random_array(np.random.default_rng(seed), (n,), BF16)
    got = k.lbf(x)
    assert got.dtype == BF16
    assert same_bits(got, k.lbf.reference(x))


def test_reference_takes_spec_text_and_a_kernel_name():
    got = wherec.reference("kernel r(c: bool[N], x: int32[N], y: int32[]) = where(c, x, y);\n", "r",
                           np.array([True, False]), np.array([7, 8], np.int32), np.int32(-1))
    assert got.tolist() == [7, -1]


def test_a_baked_constant_is_no_argument_and_every_path_reads_it():
    """A spec's `const` is baked into the C: the kernel takes x only, on both paths."""
    kc = wherec.compile("const s: float[3] = {0.5, -0.0, 4.0};\n"
                        "kernel scale(x: float[N,3]) = x * s;\n")
    assert [p.name for p in kc.scale.params] == ["x"]
    x = np.array([[1, -1, 2], [-3, 0.25, 8]], np.float32)
    want = x * np.array([0.5, -0.0, 4.0], np.float32)
    assert same_bits(kc.scale(x), want)
    assert kc.scale.path(x) == "specialized"
    x1 = np.array([[1], [-3]], np.float32)      # [2,1]: off the pattern, the interpreter
    assert same_bits(kc.scale(x1), x1 * np.array([0.5, -0.0, 4.0], np.float32))
    assert kc.scale.path(x1) == "interpreted"
