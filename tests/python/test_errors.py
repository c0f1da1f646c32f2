"""test_errors.py: wrong dtypes, shapes, counts and outputs raise exceptions that name the
parameter and what was expected; a spec with errors raises SpecError with its diagnostics."""
import os

import numpy as np
import pytest

import wherec

SPEC = ("kernel rows(c: bool[N,1], x: float[N,M], y: float[1,M]) = where(c, x, y);\n"
        "kernel leaky(x: float[N,64]) = where(x > 0, x, x * 0.01);\n")


@pytest.fixture(scope="module")
def k():
    return wherec.compile(SPEC)


def test_wrong_dtype_names_the_parameter_and_the_expected_dtype(k):
    c = np.ones((2, 1), bool)
    with pytest.raises(TypeError, match=r"rows\(\): parameter 'x' is float\[N,M\]: expected an array of float32, got float64"):
        k.rows(c, np.ones((2, 3)), np.ones((1, 3), np.float32))


def test_shapes_that_do_not_broadcast_name_every_parameter(k):
    with pytest.raises(ValueError, match=r"do not broadcast: c \(2, 1\), x \(3, 3\), y \(1, 3\)"):
        k.rows(np.ones((2, 1), bool), np.ones((3, 3), np.float32), np.ones((1, 3), np.float32))


def test_wrong_number_of_arrays_lists_the_parameters(k):
    with pytest.raises(TypeError, match=r"leaky\(\) takes 1 array \(x: float\[N,64\]\); 2 given"):
        k.leaky(np.ones((1, 64), np.float32), np.ones(1))


def test_out_of_the_wrong_shape_or_dtype_or_layout_is_refused(k):
    x = np.ones((2, 64), np.float32)
    with pytest.raises(ValueError, match=r"out: expected shape \(2, 64\), got \(64, 2\)"):
        k.leaky(x, out=np.empty((64, 2), np.float32))
    with pytest.raises(TypeError, match=r"out: expected an array of float32, got float64"):
        k.leaky(x, out=np.empty((2, 64)))
    with pytest.raises(ValueError, match="C-contiguous"):
        k.leaky(x, out=np.empty((64, 2), np.float32).T)
    ro = np.empty((2, 64), np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        k.leaky(x, out=ro)


def test_unknown_kernel_lists_the_kernels(k):
    with pytest.raises(AttributeError, match="no kernel 'pick'; kernels: rows, leaky"):
        k.pick
    with pytest.raises(KeyError, match="no kernel 'pick'"):
        k["pick"]


def test_spec_errors_raise_spec_error_with_the_diagnostics(tmp_path, monkeypatch):
    monkeypatch.setenv("WHEREC_CACHE_DIR", str(tmp_path))
    with pytest.raises(wherec.SpecError, match=r"kernels.where:1:\d+: error: "):
        wherec.compile("kernel bad(x: float[N]) = where(x, x, x);\n")
    assert os.listdir(tmp_path) == []                  # no trace in the cache


def test_a_missing_spec_file_raises_file_not_found():
    with pytest.raises(FileNotFoundError):
        wherec.compile("no/such/spec.where")


def test_a_missing_compiler_raises_compile_error(tmp_path, monkeypatch):
    monkeypatch.setenv("WHEREC_CACHE_DIR", str(tmp_path))
    with pytest.raises(wherec.CompileError, match="cannot run the compiler"):
        wherec.compile("kernel nocc(x: int8[N]) = where(x > 0, x, 0);\n", cc="/no/such/cc")
