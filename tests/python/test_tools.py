"""test_tools.py: wherec.check (the table as data), wherec.import_onnx (spec text and
manifest), the `wherec` command the package installs, and the ABI the binding declares."""
import os
import subprocess
import sys

import numpy as np
import pytest

import wherec
from conftest import SOURCE_DIR, same_bits


def test_check_returns_one_row_per_kernel():
    spec = ("kernel a(c: bool[N,1], x: float[N,M], y: float[1,M]) = where(c, x, y);\n"
            "kernel b(x: int32[N]) = where(x > 0, x, -x);\n")
    rows = wherec.check(spec, trials=4)
    assert [r["kernel"] for r in rows] == ["a", "b"]
    assert all(r["mismatches"] == 0 and r["bindings"] > 0 for r in rows)
    assert rows[0]["kind"] == "elementwise"
    assert "0 mismatches" in rows.summary


def test_check_of_a_bad_spec_raises_spec_error():
    with pytest.raises(wherec.SpecError):
        wherec.check("kernel bad(x: float[N]) = where(x, x, x);\n")


def test_check_mismatch_is_an_assertion_error():
    assert issubclass(wherec.CheckMismatch, AssertionError)


def test_import_onnx_returns_spec_text_and_manifest():
    model = os.path.join(SOURCE_DIR, "tests", "gen", "import", "models", "padding_mask", "model.onnx")
    spec = wherec.import_onnx(model)
    assert "kernel padding_mask(" in spec
    assert isinstance(spec.manifest, dict)              # {} from a wherec that writes none
    k = wherec.compile(spec)
    keep = np.array([[[1, 1, 0, 0]], [[1, 0, 1, 0]]], bool).reshape(2, 1, 4)
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    scale, bias = np.float32(2), np.arange(4, dtype=np.float32)
    assert same_bits(k.padding_mask(keep, x, scale, bias),
                     (np.where(keep, x, np.float32(0)) * scale) + bias)


def test_import_of_a_file_that_is_no_model_raises_spec_error(tmp_path):
    p = tmp_path / "junk.onnx"
    p.write_bytes(b"\x00not a model")
    with pytest.raises(wherec.SpecError):
        wherec.import_onnx(p)


def test_the_wherec_command_is_installed_with_the_package():
    exe = os.path.join(os.path.dirname(sys.executable), "wherec")
    r = subprocess.run([exe, "--version"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("wherec ")
    r = subprocess.run([exe, "run", "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "usage: wherec run" in r.stdout


def test_headers_and_templates_are_installed():
    assert os.path.isfile(os.path.join(wherec.include_dir(), "wherec", "wherec.h"))
    assert os.path.isfile(os.path.join(wherec.include_dir(), "wherec", "kernel.h"))


def test_the_binding_declares_the_headers_layouts(tmp_path):
    """sizeof and offsetof of the structs _ffi.py declares, against the C compiler's."""
    from wherec._cache import default_cc
    from wherec._ffi import ffi
    fields = {"wc_tensor": ["dtype", "rank", "shape", "data"],
              "wc_param": ["name", "dtype", "rank", "dims", "data"],
              "wc_kernel": ["name", "kind", "n_inputs", "inputs", "n_extents", "extent_names",
                            "out_dtype", "out_rank", "out_dims", "n_instrs", "program", "range",
                            "count", "coords", "n_outputs", "outputs", "out_instrs", "range_outs"],
              "wc_kernel_table": ["prefix", "spec", "n_kernels", "kernels"],
              "wc_plan": ["range", "count", "bytes", "n_inputs", "path", "kernel", "v1", "u",
                          "n_outputs", "range_outs", "n_baked"]}
    lines = ["#include <stdio.h>", "#include <stddef.h>", "#include <wherec/wherec.h>", "int main(void) {"]
    for t, fs in fields.items():
        lines.append(f'printf("{t} %zu\\n", sizeof({t}));')
        for f in fs:
            lines.append(f'printf("{t}.{f} %zu\\n", offsetof({t}, {f}));')
    lines.append("return 0; }")
    src = tmp_path / "abi.c"
    src.write_text("\n".join(lines))
    exe = tmp_path / "abi"
    subprocess.run([default_cc(), "-std=c99", f"-I{wherec.include_dir()}", str(src), "-o", str(exe)],
                   check=True)
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split("\n")
    for line in filter(None, out):
        what, value = line.split()
        if "." in what:
            t, f = what.split(".")
            assert ffi.offsetof(t, f) == int(value), what
        else:
            assert ffi.sizeof(what) == int(value), what


def test_check_progress_counts_kernels_and_is_silent_off_a_terminal(capfd):
    from wherec import _count_kernels
    assert _count_kernels(b"kernel a(x: float[N]) = x;\n# kernel z(\n"
                          b"kernel p<T: float, int32, float16>(x: T[N]) = x;\n"
                          b"kernel q<T: float, double, U: int8, int16>(x: T[N], y: U[N]) = x;\n") == 8
    rows = wherec.check("kernel pr(x: int8[N]) = where(x > 0, x, 0);\n", trials=2, progress=True)
    assert len(rows) == 1
    assert capfd.readouterr().err == ""                 # stderr is no terminal here
