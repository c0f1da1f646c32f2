"""test_dlpack.py: arrays of any library that speaks DLPack go through numpy.from_dlpack,
without a copy when contiguous."""
import numpy as np
import pytest

import wherec
from conftest import same_bits


class OnlyDLPack:
    """An array known only by its __dlpack__ and __dlpack_device__, as a foreign library's."""

    def __init__(self, a):
        self._a = a

    def __dlpack__(self, **kw):
        return self._a.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


@pytest.fixture(scope="module")
def k():
    return wherec.compile("kernel dl(c: bool[N], x: double[N], y: double[N]) = where(c, x, y);\n")


def test_dlpack_inputs_give_numpys_result(k):
    rng = np.random.default_rng(5)
    c = rng.integers(0, 2, 100).astype(bool)
    x, y = rng.standard_normal(100), rng.standard_normal(100)
    got = k.dl(OnlyDLPack(c), OnlyDLPack(x), OnlyDLPack(y))
    assert same_bits(got, np.where(c, x, y))


def test_dlpack_of_a_strided_view_is_copied(k):
    x = np.arange(20, dtype=np.float64)[::2]
    c = np.ones(10, bool)
    assert same_bits(k.dl(OnlyDLPack(c), OnlyDLPack(x), x), x)


def test_dlpack_of_the_wrong_dtype_names_the_parameter(k):
    with pytest.raises(TypeError, match="parameter 'x'"):
        k.dl(np.ones(3, bool), OnlyDLPack(np.ones(3, np.float32)), np.ones(3))
