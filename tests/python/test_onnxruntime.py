"""test_onnxruntime.py: wherec's execution provider inside onnxruntime, through
wherec.onnxruntime: it claims the imported regions, runs them bit for bit as onnxruntime
does (NaN payloads and -0.0 through a Where), leaves a region to onnxruntime when the model
is another or ORT's shapes differ, and gives the same bytes on 1 and 2 threads."""
import json

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402

import wherec.onnxruntime as wo  # noqa: E402


def masked_relu(shape, scale=0.5):
    """y = Relu(Where(keep, x, zero) * scale): three nodes, one region."""
    dims = [d if isinstance(d, int) else d for d in shape]
    nodes = [helper.make_node("Where", ["keep", "x", "zero"], ["m"]),
             helper.make_node("Mul", ["m", "scale"], ["s"]),
             helper.make_node("Relu", ["s"], ["y"])]
    inits = [helper.make_tensor("zero", TensorProto.FLOAT, [], [0.0]),
             helper.make_tensor("scale", TensorProto.FLOAT, [], [scale])]
    g = helper.make_graph(nodes, "masked_relu",
                          [helper.make_tensor_value_info("keep", TensorProto.BOOL, dims),
                           helper.make_tensor_value_info("x", TensorProto.FLOAT, dims)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, dims)], initializer=inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=9)
    return m.SerializeToString()


def where_only(shape):
    g = helper.make_graph([helper.make_node("Where", ["c", "x", "y"], ["out"])], "where_only",
                          [helper.make_tensor_value_info("c", TensorProto.BOOL, shape),
                           helper.make_tensor_value_info("x", TensorProto.FLOAT, shape),
                           helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
                          [helper.make_tensor_value_info("out", TensorProto.FLOAT, shape)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=9).SerializeToString()


def decisions(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def cpu(model, feeds):
    return ort.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, feeds)


def ep(model, directory, tmp_path, claim="all", threads=1):
    report = str(tmp_path / ("report-%d.jsonl" % len(list(tmp_path.iterdir()))))
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.add_provider_for_devices(wo.devices(ort), wo.provider_options(directory, claim, report))
    return ort.InferenceSession(model, so), report


def test_provider_claims_the_region_and_matches_onnxruntime_bit_for_bit(tmp_path):
    model = masked_relu([4, 33])
    rng = np.random.default_rng(1)
    feeds = {"keep": rng.integers(0, 2, (4, 33)).astype(bool),
             "x": rng.standard_normal((4, 33)).astype(np.float32)}
    s, report = ep(model, wo.build(model), tmp_path)
    assert any(d["kernel"] and d["decision"] == "claimed" for d in decisions(report))
    assert s.run(None, feeds)[0].tobytes() == cpu(model, feeds)[0].tobytes()


def test_nan_payloads_and_negative_zero_pass_through_where(tmp_path):
    model = where_only([64])
    bits = np.arange(64, dtype=np.uint32) | np.uint32(0x7f800001)  # NaNs with payloads
    x = bits.view(np.float32)
    y = np.full(64, -0.0, dtype=np.float32)
    c = (np.arange(64) % 3 == 0)
    s, report = ep(model, wo.build(model), tmp_path)
    assert [d["decision"] for d in decisions(report)][0] == "claimed"
    out = s.run(None, {"c": c, "x": x, "y": y})[0]
    assert out.view(np.uint32).tolist() == np.where(c, x, y).view(np.uint32).tolist()


def test_a_plugin_built_for_another_model_finds_nothing_and_onnxruntime_runs_it(tmp_path):
    other = wo.build(masked_relu([8]))
    model = where_only([8])
    feeds = {"c": np.arange(8) % 2 == 0, "x": np.linspace(-1, 1, 8, dtype=np.float32),
             "y": np.zeros(8, np.float32)}
    s, report = ep(model, other, tmp_path)
    assert {d["decision"] for d in decisions(report)} == {"not found"}
    assert s.run(None, feeds)[0].tobytes() == cpu(model, feeds)[0].tobytes()


def test_a_literal_of_another_value_is_not_matched(tmp_path):
    directory = wo.build(masked_relu([8], scale=0.5))
    model = masked_relu([8], scale=0.25)
    s, report = ep(model, directory, tmp_path)
    why = [d["why"] for d in decisions(report)]
    assert all(d["decision"] == "not found" for d in decisions(report)), why
    assert any("another value" in w for w in why), why


def test_shapes_onnxruntime_reports_otherwise_are_refused_with_the_reason(tmp_path):
    directory = wo.build(masked_relu([2, 3]))
    model = masked_relu([5, 3])
    s, report = ep(model, directory, tmp_path)
    refused = [d for d in decisions(report) if d["decision"] == "refused"]
    assert refused and "has bool[5,3], the kernel bool[2,3]" in refused[0]["why"]


def test_a_shape_outside_the_kernels_pattern_runs_on_the_interpreter(tmp_path):
    directory = wo.build(masked_relu([2, 3]))  # kernel specialized for [2,3]
    model = masked_relu(["n", "m"])            # the same graph with dynamic axes
    rng = np.random.default_rng(2)
    feeds = {"keep": rng.integers(0, 2, (7, 5)).astype(bool),
             "x": rng.standard_normal((7, 5)).astype(np.float32)}
    s, report = ep(model, directory, tmp_path)
    assert [d["decision"] for d in decisions(report)][0] == "claimed"
    assert s.run(None, feeds)[0].tobytes() == cpu(model, feeds)[0].tobytes()


def test_calls_of_changing_shapes_each_run_their_own_plan(tmp_path):
    # the first call's plan is kept for the node; a call of other shapes prepares its own,
    # and a later call of the first shapes takes the kept one again
    directory = wo.build(masked_relu([2, 3]))
    model = masked_relu(["n", "m"])
    s, report = ep(model, directory, tmp_path)
    assert [d["decision"] for d in decisions(report)][0] == "claimed"
    rng = np.random.default_rng(4)
    for shape in [(2, 3), (7, 5), (2, 3), (0, 3), (1, 1), (2, 3)]:
        feeds = {"keep": rng.integers(0, 2, shape).astype(bool),
                 "x": rng.standard_normal(shape).astype(np.float32)}
        out = s.run(None, feeds)[0]
        assert out.shape == shape
        assert out.tobytes() == cpu(model, feeds)[0].tobytes(), shape


def test_a_float16_region_matches_onnxruntime_bit_for_bit(tmp_path):
    # Where -> Mul 0.5 -> Relu in float16: each step one rounding to half, as onnxruntime's.
    # Its CPU provider runs these nodes in float between Casts it inserts after partitioning:
    # import --ort imports the graph without them, the graph the provider is handed
    nodes = [helper.make_node("Where", ["keep", "x", "zero"], ["m"]),
             helper.make_node("Mul", ["m", "scale"], ["s"]),
             helper.make_node("Relu", ["s"], ["y"])]
    inits = [helper.make_tensor("zero", TensorProto.FLOAT16, [], [0.0]),
             helper.make_tensor("scale", TensorProto.FLOAT16, [], [0.5])]
    g = helper.make_graph(nodes, "masked_relu_f16",
                          [helper.make_tensor_value_info("keep", TensorProto.BOOL, [4, 33]),
                           helper.make_tensor_value_info("x", TensorProto.FLOAT16, [4, 33])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [4, 33])], initializer=inits)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=9).SerializeToString()
    rng = np.random.default_rng(6)
    x = rng.integers(0, 1 << 16, (4, 33)).astype(np.uint16).view(np.float16)  # every kind of bits
    x.flat[:4] = [np.float16(-0.0), np.float16(6.1e-5), np.float16(np.inf), np.float16(-np.inf)]
    feeds = {"keep": rng.integers(0, 2, (4, 33)).astype(bool), "x": x}
    s, report = ep(model, wo.build(model), tmp_path)
    assert [d["decision"] for d in decisions(report)] == ["claimed"]
    got, want = s.run(None, feeds)[0], cpu(model, feeds)[0]
    nan = np.isnan(want)
    assert (np.isnan(got) == nan).all()
    assert got[~nan].view(np.uint16).tolist() == want[~nan].view(np.uint16).tolist()


def test_concurrent_runs_of_one_session_each_get_their_own_bytes(tmp_path):
    # onnxruntime lets threads share a session; the first calls race to keep a node's plan
    import threading
    directory = wo.build(masked_relu([2, 3]))
    model = masked_relu(["n", "m"])
    s, _ = ep(model, directory, tmp_path)
    shapes = [(2, 3), (5, 7), (2, 3), (1, 64)]
    rng = np.random.default_rng(8)
    cases = [{"keep": rng.integers(0, 2, sh).astype(bool), "x": rng.standard_normal(sh).astype(np.float32)}
             for sh in shapes]
    want = [cpu(model, f)[0].tobytes() for f in cases]
    bad = []

    def worker(k):
        for i in range(40):
            j = (k + i) % len(cases)
            if s.run(None, cases[j])[0].tobytes() != want[j]:
                bad.append((k, i))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert bad == []


def test_two_threads_give_the_bytes_of_one(tmp_path):
    model = masked_relu([1 << 21])
    rng = np.random.default_rng(3)
    feeds = {"keep": rng.integers(0, 2, 1 << 21).astype(bool),
             "x": rng.standard_normal(1 << 21).astype(np.float32)}
    directory = wo.build(model)
    one = ep(model, directory, tmp_path, threads=1)[0].run(None, feeds)[0]
    two = ep(model, directory, tmp_path, threads=2)[0].run(None, feeds)[0]
    assert one.tobytes() == two.tobytes() == cpu(model, feeds)[0].tobytes()


def test_session_builds_once_per_content_and_applies_session_options(tmp_path):
    model = masked_relu([16])
    assert wo.build(model) == wo.build(model)
    assert wo.build(model) != wo.build(masked_relu([16], scale=2.0))
    report = str(tmp_path / "r.jsonl")
    s = wo.session(model, report=report, intra_op_num_threads=1)
    assert wo.get_ep_name() in s.get_providers()
    d = decisions(report)
    assert d and d[0]["decision"] in ("claimed", "left to onnxruntime")  # the measured policy
    with pytest.raises(TypeError):
        wo.session(model, no_such_option=1)


def test_a_model_without_a_region_runs_in_onnxruntime_alone_with_a_warning(tmp_path):
    g = helper.make_graph([helper.make_node("Hardmax", ["x"], ["y"], axis=-1)], "hardmax_only",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 5])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 5])])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=9).SerializeToString()
    with pytest.raises(wo.NoRegionError):
        wo.build(model)
    with pytest.warns(RuntimeWarning, match="no element-wise region"):
        s = wo.session(model)
    assert wo.get_ep_name() not in s.get_providers()
    feeds = {"x": np.arange(10, dtype=np.float32).reshape(2, 5)}
    assert s.run(None, feeds)[0].tobytes() == cpu(model, feeds)[0].tobytes()


def test_a_model_with_external_data_is_imported_with_its_data(tmp_path):
    # x @ w + b -> Relu -> * b, both initializers in model.data beside model.onnx
    from onnx import numpy_helper
    w = numpy_helper.from_array(np.linspace(-1, 1, 64 * 64, dtype=np.float32).reshape(64, 64), "w")
    b = numpy_helper.from_array(np.full(64, 0.5, np.float32), "b")
    nodes = [helper.make_node("MatMul", ["x", "w"], ["m"]), helper.make_node("Add", ["m", "b"], ["a"]),
             helper.make_node("Relu", ["a"], ["r"]), helper.make_node("Mul", ["r", "b"], ["y"])]
    g = helper.make_graph(nodes, "ext", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8, 64])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [8, 64])], [w, b])
    path = str(tmp_path / "model.onnx")
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=9), path,
              save_as_external_data=True, location="model.data", size_threshold=0)
    report = str(tmp_path / "ext.jsonl")
    s = wo.session(path, claim="all", report=report)
    assert [d["decision"] for d in decisions(report)] == ["claimed"]
    feeds = {"x": np.random.default_rng(7).standard_normal((8, 64)).astype(np.float32)}
    assert s.run(None, feeds)[0].tobytes() == cpu(path, feeds)[0].tobytes()


def test_a_model_of_dynamic_shape_timed_without_inputs_gets_a_warning(tmp_path):
    model = masked_relu(["n", 8])
    with pytest.warns(RuntimeWarning, match=r"dynamic shape \(keep, x\).*pass inputs="):
        wo.session(model)
    feeds = {"keep": np.ones((3, 8), bool), "x": np.ones((3, 8), np.float32)}
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        wo.session(model, inputs=feeds)


def relu_softmax_hardswish(decomposed):
    """x -> Relu -> Hardmax -> HardSwish: two regions; HardSwish written as the function
    body onnxruntime inlines it to (x * HardSigmoid(x, 1/6, 1/2)) when decomposed."""
    tail = ([helper.make_node("HardSigmoid", ["s"], ["h"], alpha=1.0 / 6, beta=0.5),
             helper.make_node("Mul", ["s", "h"], ["y"])] if decomposed else
            [helper.make_node("HardSwish", ["s"], ["y"])])
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Hardmax", ["r"], ["s"])] + tail,
                          "rsh", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 16])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 16])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=9).SerializeToString()


def test_regions_found_after_onnxruntime_inlines_a_function_node(tmp_path):
    # onnxruntime asks the provider again once it has inlined the HardSwish no provider took;
    # 1.23 would name that pass's fused nodes as the first pass's and fail the session
    directory = wo.build(relu_softmax_hardswish(decomposed=True))
    model = relu_softmax_hardswish(decomposed=False)
    s, report = ep(model, directory, tmp_path)
    feeds = {"x": np.random.default_rng(9).standard_normal((4, 16)).astype(np.float32) * 4}
    assert s.run(None, feeds)[0].tobytes() == cpu(model, feeds)[0].tobytes()
    d = decisions(report)
    assert any(x["decision"] == "claimed" for x in d)
    version = tuple(int(v) for v in ort.__version__.split(".")[:2])
    if version < (1, 24):
        assert any(x["decision"] == "left to onnxruntime" and "second pass" in x["why"] for x in d), d


def conv_bn_relu_scale():
    """x -> Conv -> BatchNormalization -> Relu -> Mul 0.5: onnxruntime's basic rewrites fuse
    the BatchNormalization into the Conv before the provider is asked."""
    rng = np.random.default_rng(4)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    c = [rng.standard_normal(4).astype(np.float32) for _ in range(3)] + [np.ones(4, np.float32)]
    inits = [helper.make_tensor("w", TensorProto.FLOAT, w.shape, w.ravel()),
             helper.make_tensor("half", TensorProto.FLOAT, [], [0.5])]
    inits += [helper.make_tensor(n, TensorProto.FLOAT, [4], a) for n, a in zip("sbmv", c)]
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("BatchNormalization", ["c", "s", "b", "m", "v"], ["n"]),
             helper.make_node("Relu", ["n"], ["r"]),
             helper.make_node("Mul", ["r", "half"], ["y"])]
    g = helper.make_graph(nodes, "cbr", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 16, 16])], initializer=inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=9).SerializeToString()


def test_a_region_is_found_after_onnxruntimes_basic_rewrites(tmp_path):
    model = conv_bn_relu_scale()
    x = np.random.default_rng(5).standard_normal((1, 3, 16, 16)).astype(np.float32)
    s, report = ep(model, wo.build(model), tmp_path)  # ORT_ENABLE_ALL, the default
    assert [d["decision"] for d in decisions(report) if d["decision"] != "not found"] == ["claimed"]
    np.testing.assert_allclose(s.run(None, {"x": x})[0], cpu(model, {"x": x})[0], rtol=1e-6, atol=1e-6)


def pow_sum(exponent):
    nodes = [helper.make_node("Pow", ["a", "e"], ["p"]), helper.make_node("Add", ["p", "a"], ["y"])]
    g = helper.make_graph(nodes, "pow_sum", [helper.make_tensor_value_info("a", TensorProto.FLOAT, [16])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [16])],
                          initializer=[helper.make_tensor("e", TensorProto.FLOAT, [], [exponent])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=9).SerializeToString()


def test_a_constant_the_import_wrote_into_the_formula_is_checked_by_value(tmp_path):
    directory = wo.build(pow_sum(2.0))
    s, report = ep(pow_sum(2.0), directory, tmp_path)
    assert [d["decision"] for d in decisions(report)] == ["claimed"]
    s, report = ep(pow_sum(3.0), directory, tmp_path)
    d = decisions(report)
    assert [x["decision"] for x in d] == ["not found"] and "another value" in d[0]["why"]


def test_check_compares_every_call_with_the_reference_and_fails_on_a_difference(tmp_path):
    """check=1 runs src/ref on the tensors onnxruntime handed the kernel: a kernels.so whose
    compiled code says 0.25 where its program says 0.5 fails the run, naming the kernel."""
    import re
    import shutil
    import subprocess
    from wherec import _paths
    model = masked_relu([4, 33])
    directory = wo.build(model)
    feeds = {"keep": np.ones((4, 33), bool), "x": np.ones((4, 33), np.float32)}
    so = ort.SessionOptions()
    so.add_provider_for_devices(wo.devices(ort), dict(wo.provider_options(directory, "all"), check="1"))
    assert ort.InferenceSession(model, so).run(None, feeds)[0].tobytes() == cpu(model, feeds)[0].tobytes()
    bad = tmp_path / "bad"
    shutil.copytree(directory, bad)
    src = (bad / "kernels.c").read_text()
    wrong, n = re.subn(r"(= wc_bits_to_f32\(UINT32_C\()0x3f000000", r"\g<1>0x3e800000", src)
    assert n >= 1
    (bad / "kernels.c").write_text(wrong)
    cc = shutil.which("cc") or shutil.which("clang")
    subprocess.run([cc, "-std=c99", "-O2", "-fPIC", "-shared", "-I" + _paths.include_dir(), "-o",
                    str(bad / "kernels.so"), str(bad / "kernels.c")], check=True)
    so = ort.SessionOptions()
    so.add_provider_for_devices(wo.devices(ort), dict(wo.provider_options(str(bad), "all"), check="1"))
    with pytest.raises(Exception, match="masked_relu: output 0 differs from the reference"):
        ort.InferenceSession(model, so).run(None, feeds)


def if_model():
    """y = If(c, then: Relu(x * 0.5), else: Neg(x)), x read from the outer scope."""
    then_g = helper.make_graph([helper.make_node("Mul", ["x", "half"], ["m"]), helper.make_node("Relu", ["m"], ["t"])],
                               "then_branch", [], [helper.make_tensor_value_info("t", TensorProto.FLOAT, [64])],
                               initializer=[helper.make_tensor("half", TensorProto.FLOAT, [], [0.5])])
    else_g = helper.make_graph([helper.make_node("Neg", ["x"], ["e"])], "else_branch", [],
                               [helper.make_tensor_value_info("e", TensorProto.FLOAT, [64])])
    g = helper.make_graph([helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)], "ifm",
                          [helper.make_tensor_value_info("c", TensorProto.BOOL, []),
                           helper.make_tensor_value_info("x", TensorProto.FLOAT, [64])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [64])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=9).SerializeToString()


def test_regions_inside_if_branches_are_claimed_and_run_in_each_branch(tmp_path):
    model = if_model()
    s, report = ep(model, wo.build(model), tmp_path)
    claimed = {d["kernel"] for d in decisions(report) if d["decision"] == "claimed"}
    left = {d["kernel"] for d in decisions(report) if d["decision"] == "left to onnxruntime"}
    if tuple(int(v) for v in ort.__version__.split(".")[:2]) >= (1, 24):
        assert claimed == {"then_branch", "else_branch"}
    else:  # 1.23 names every sub-graph's fused nodes alike and refuses the second
        assert not claimed and left == {"then_branch", "else_branch"}
    x = np.linspace(-2, 2, 64, dtype=np.float32)
    for c in (True, False):
        feeds = {"c": np.array(c), "x": x}
        assert s.run(None, feeds)[0].tobytes() == cpu(model, feeds)[0].tobytes()


def frames_model():
    """y = Relu(If(T == 1, Squeeze(x, 1), x) * s), x: [B, T], s a scalar input: the If's
    branches differ in rank (Silero's decoder), so the import knows no rank for what follows."""
    then_g = helper.make_graph([helper.make_node("Squeeze", ["x", "ax1"], ["t"])], "then_branch", [],
                               [helper.make_tensor_value_info("t", TensorProto.FLOAT, None)],
                               initializer=[helper.make_tensor("ax1", TensorProto.INT64, [1], [1])])
    else_g = helper.make_graph([helper.make_node("Identity", ["x"], ["e"])], "else_branch", [],
                               [helper.make_tensor_value_info("e", TensorProto.FLOAT, None)])
    nodes = [helper.make_node("Shape", ["x"], ["shp"]),
             helper.make_node("Gather", ["shp", "one"], ["t_len"]),
             helper.make_node("Equal", ["t_len", "one"], ["c"]),
             helper.make_node("If", ["c"], ["r"], then_branch=then_g, else_branch=else_g),
             helper.make_node("Mul", ["r", "s"], ["m"]),
             helper.make_node("Relu", ["m"], ["y"])]
    g = helper.make_graph(nodes, "frames",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["B", "T"]),
                           helper.make_tensor_value_info("s", TensorProto.FLOAT, [])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                          initializer=[helper.make_tensor("one", TensorProto.INT64, [], [1])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=9).SerializeToString()


def test_a_region_after_an_if_of_unknown_rank_runs_flat_in_either_rank(tmp_path):
    model = frames_model()
    rng = np.random.default_rng(3)
    feeds = [{"x": rng.standard_normal(shape).astype(np.float32), "s": np.array(0.75, np.float32)}
             for shape in ((3, 1), (3, 5), (2, 7))]
    directory = wo.build(model, inputs=feeds[0])
    with open(directory + "/kernels.where") as f:
        assert "(s: float[], r: float[n]) = " in f.read()
    s, report = ep(model, directory, tmp_path)
    assert "y" in [d["kernel"] for d in decisions(report) if d["decision"] == "claimed"]
    for f in feeds:  # rank 1 from the then branch, rank 2 from the else branch
        got, want = s.run(None, f)[0], cpu(model, f)[0]
        assert got.shape == want.shape and got.tobytes() == want.tobytes()


# ---- regions of several outputs: a spec and manifest written here, as an importer that
# fuses them would write them (wherec import gives such a region one kernel per output today)

def f32_bits(v):
    import struct
    return "0x%x" % struct.unpack("<I", struct.pack("<f", v))[0]


def two_output_region(tmp_path, spec, kernel, nodes, params, literals, outputs):
    """(the model of nodes, provider options for a kernels library of spec and a manifest of
    one region): nodes as (op, inputs, output); params and outputs by name, float[8];
    literals {name: value} are initializers of one float."""
    from wherec import _cache
    so, prefix, _ = _cache.build(None, spec.encode(), None, ["-O2"])
    assert prefix == "kernels"
    vi = lambda n: helper.make_tensor_value_info(n, TensorProto.FLOAT, [8])
    g = helper.make_graph([helper.make_node(op, list(ins), [out]) for op, ins, out in nodes], kernel,
                          [vi(p) for p in params], [vi(o) for o in outputs],
                          [helper.make_tensor(n, TensorProto.FLOAT, [], [v]) for n, v in literals.items()])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=9).SerializeToString()
    shape = [8]
    manifest = {"format": "wherec-import-manifest", "version": 2, "kernels": [{
        "name": kernel, "scope": None,
        "nodes": [{"op_type": op, "name": out, "inputs": list(ins), "outputs": [out]} for op, ins, out in nodes],
        "extents": [],
        "params": [{"name": p, "tensor": p, "from": "input", "constant": False, "dtype": "float", "shape": shape}
                   for p in params],
        "literals": [{"tensor": n, "dtype": "float", "value": repr(v), "bits": f32_bits(v)} for n, v in literals.items()],
        "baked": [],
        "outputs": [{"name": o, "tensor": o, "dtype": "float", "shape": shape} for o in outputs]}]}
    path = tmp_path / "two.where.json"
    path.write_text(json.dumps(manifest))
    report = str(tmp_path / "two-report.jsonl")
    return model, {"manifest": str(path), "kernels": so, "claim": "all", "report": report}


def run_two_output_region(model, options, feeds):
    so = ort.SessionOptions()
    so.add_provider_for_devices(wo.devices(ort), options)
    s = ort.InferenceSession(model, so)
    claimed = [d for d in decisions(options["report"]) if d["decision"] == "claimed"]
    assert len(claimed) == 1, decisions(options["report"])
    got, want = s.run(None, feeds), cpu(model, feeds)
    assert [g.tobytes() for g in got] == [w.tobytes() for w in want]


def test_a_region_whose_output_is_read_inside_it_too_runs_as_one_kernel(tmp_path):
    # r = x * 2 + 1 is a graph output and what y = r * 3 reads: one kernel writes both
    spec = "kernel chain(x: float[8]) -> (r, y) {\n  r = x * 2.0 + 1.0;\n  y = r * 3.0;\n}\n"
    model, options = two_output_region(
        tmp_path, spec, "chain", [("Mul", ("r", "three"), "y"), ("Add", ("m", "one"), "r"), ("Mul", ("x", "two"), "m")],
        ["x"], {"two": 2.0, "one": 1.0, "three": 3.0}, ["r", "y"])
    x = np.array([-0.0, 1.5, -3.25, np.inf, -np.inf, 1e38, 7.0, -2.0], np.float32)
    run_two_output_region(model, options, {"x": x})


def test_a_region_of_two_sinks_of_one_value_runs_as_one_kernel(tmp_path):
    # s = x * 2 read by y1 = s + b and y2 = s * 3: the second sink found from s
    spec = "kernel sinks(x: float[8], b: float[8]) -> (y1, y2) {\n  let s = x * 2.0;\n  y1 = s + b;\n  y2 = s * 3.0;\n}\n"
    model, options = two_output_region(
        tmp_path, spec, "sinks", [("Add", ("s", "b"), "y1"), ("Mul", ("x", "two"), "s"), ("Mul", ("s", "three"), "y2")],
        ["x", "b"], {"two": 2.0, "three": 3.0}, ["y1", "y2"])
    rng = np.random.default_rng(5)
    run_two_output_region(model, options, {"x": rng.standard_normal(8).astype(np.float32),
                                           "b": rng.standard_normal(8).astype(np.float32)})
