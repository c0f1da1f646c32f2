"""test_where.py: every dtype and broadcast pattern against numpy.where, bit for bit, with
hypothesis drawing the shapes (and the seed of the values)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from conftest import DTYPES, random_array, same_bits


@st.composite
def broadcast_shapes(draw, n=3, max_rank=4, max_side=5):
    """n shapes that broadcast together: a common shape, each operand dropping leading
    axes and setting some extents to 1 (numpy's rules), zero-size extents included."""
    rank = draw(st.integers(0, max_rank))
    full = draw(st.lists(st.integers(0, max_side), min_size=rank, max_size=rank))
    shapes = []
    for _ in range(n):
        r = draw(st.integers(0, rank))
        s = [1 if draw(st.booleans()) else e for e in full[rank - r:]]
        shapes.append(tuple(s))
    return shapes


@pytest.mark.parametrize("name", list(DTYPES))
@settings(max_examples=25, deadline=None)
@given(shapes=broadcast_shapes(), seed=st.integers(0, 2**32 - 1))
def test_where_matches_numpy_bit_for_bit(where_all, name, shapes, seed):
    rng = np.random.default_rng(seed)
    dt = DTYPES[name]
    c = random_array(rng, shapes[0], np.bool_)
    x = random_array(rng, shapes[1], dt)
    y = random_array(rng, shapes[2], dt)
    k = where_all[f"w_{name}"]
    got = k(c, x, y)
    assert same_bits(got, np.where(c, x, y))


@pytest.mark.parametrize("name", list(DTYPES))
def test_where_fitting_the_pattern_runs_specialized_and_others_interpreted(where_all, name):
    k = where_all[f"w_{name}"]
    dt = DTYPES[name]
    rng = np.random.default_rng(1)
    c = random_array(rng, (2, 3, 4), np.bool_)
    x, y = random_array(rng, (2, 3, 4), dt), random_array(rng, (2, 3, 4), dt)
    assert k.path(c, x, y) == "specialized"
    assert k.path(c[:, :1], x, y) == "interpreted"       # a broadcast the pattern does not name
    assert same_bits(k(c[:, :1], x, y), np.where(c[:, :1], x, y))


def test_out_is_written_in_place_and_returned(where_all):
    k = where_all["w_float"]
    rng = np.random.default_rng(2)
    c = random_array(rng, (3, 4, 5), np.bool_)
    x = rng.standard_normal((3, 4, 5)).astype(np.float32)
    y = rng.standard_normal((3, 4, 5)).astype(np.float32)
    o = np.empty_like(x)
    assert k(c, x, y, out=o) is o
    assert same_bits(o, np.where(c, x, y))
    expected = np.where(c, x, y)
    assert k(c, x, y, out=x) is x                      # out may be an input of its shape
    assert same_bits(x, expected)


def test_non_contiguous_inputs_are_copied_and_give_numpys_result(where_all):
    k = where_all["w_double"]
    rng = np.random.default_rng(3)
    c = random_array(rng, (4, 6, 8), np.bool_)[:, ::2, 1::2]
    x = rng.standard_normal((4, 3, 4)).T                 # Fortran order
    y = rng.standard_normal((4, 3, 8))[..., ::2]
    assert not (c.flags.c_contiguous or x.flags.c_contiguous or y.flags.c_contiguous)
    assert same_bits(k(c, x, y), np.where(c, x, y))


def test_scalars_and_lists_convert_to_the_parameters_dtype():
    import wherec
    k = wherec.compile("kernel clampf(x: float[N], lo: float[], hi: float[]) = "
                       "where(x < lo, lo, where(x > hi, hi, x));\n")
    x = np.array([-2, -0.5, 0, 0.5, 2], np.float32)
    got = k.clampf(x, -1.0, np.float32(1))
    assert same_bits(got, np.clip(x, -1, 1))
    assert same_bits(k.clampf([-2.0, 3.0], -1, 1), np.array([-1, 1], np.float32))


def test_strings_select_like_numpy():
    import wherec
    k = wherec.compile("kernel s(c: bool[N], x: string[N], y: string[]) = where(c, x, y);\n")
    c = np.array([True, False, True])
    x = np.array(["a", "bé", ""], dtype=object)
    got = k.s(c, x, np.array("-", dtype=object))
    assert got.tolist() == ["a", "-", ""]
    assert k.s(c, np.array(["x", "y", "z"]), np.array("-")).tolist() == ["x", "-", "z"]


def test_kernels_named_like_attributes_stay_reachable_by_name():
    import wherec
    k = wherec.compile("kernel path(x: int8[N]) = where(x > 0, x, 0);\n")
    assert k.path.endswith(".so")
    assert k["path"](np.array([-1, 1], np.int8)).tolist() == [0, 1]


def test_argwhere_and_nonzero_give_int64_coordinates():
    import wherec
    k = wherec.compile("kernel aw(c: bool[N,M]) = argwhere(c);\nkernel nz(x: float[N]) = nonzero(x);\n")
    c = np.array([[True, False, True], [False, False, True]])
    assert np.array_equal(k.aw(c), np.argwhere(c))
    x = np.array([0, 1.5, np.nan, 0, -0.0, 3], np.float32)
    assert np.array_equal(k.nz(x), np.array(np.nonzero(x)))
    assert k.aw(np.zeros((0, 3), bool)).shape == (0, 2)


def test_the_c_call_path_and_the_python_one_agree(where_all):
    """Kernel calls go through _fast.c when it is built (CPython >= 3.11) and through
    _slow_call (cffi) otherwise or for what the C path hands over: both give numpy's bytes."""
    k = where_all["w_int16"]
    rng = np.random.default_rng(11)
    for shapes in [((2, 3, 4),) * 3, ((1, 3, 1), (2, 3, 4), (4,)), ((), (), ())]:
        c = random_array(rng, shapes[0], np.bool_)
        x, y = random_array(rng, shapes[1], np.int16), random_array(rng, shapes[2], np.int16)
        expected = np.where(c, x, y)
        assert same_bits(k(c, x, y), expected)             # first call: prepares
        assert same_bits(k(c, x, y), expected)             # later calls: the plan remembered
        assert same_bits(k._slow_call((c, x, y)), expected)
        o = np.empty_like(expected)
        assert k(c, x, y, out=o) is o and same_bits(o, expected)
    with pytest.raises(TypeError, match="unexpected keyword argument 'outt'"):
        k(c, x, y, outt=o)


def test_misaligned_views_are_copied_and_a_misaligned_out_refused(where_all):
    k = where_all["w_double"]
    raw = np.zeros(8 * 24 + 1, np.uint8)
    x = np.frombuffer(raw.data, dtype=np.float64, count=24, offset=1).reshape(2, 3, 4)
    assert not x.flags.aligned
    c = np.ones((2, 3, 4), bool)
    y = np.ones((2, 3, 4))
    assert same_bits(k(c, x, y), np.where(c, x, y))
    out = np.frombuffer(bytearray(8 * 24 + 1), dtype=np.float64, count=24, offset=1).reshape(2, 3, 4)
    with pytest.raises(ValueError, match="aligned"):
        k(c, x, y, out=out)


def test_where_v1_picks_whole_rows():
    import wherec
    k = wherec.compile("kernel v1(c: bool[B], x: double[B,7], y: double[B,7]) = where_v1(c, x, y);\n")
    rng = np.random.default_rng(4)
    c = rng.integers(0, 2, 5).astype(bool)
    x, y = rng.standard_normal((5, 7)), rng.standard_normal((5, 7))
    assert same_bits(k.v1(c, x, y), np.where(c[:, None], x, y))
    with pytest.raises(ValueError):
        k.v1(c[:4], x, y)
