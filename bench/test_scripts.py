# test_scripts.py: the bench scripts' own checks (ctest bench_scripts_check_bytes_and_report_peers):
# the data they build, the byte check's classes, the report's reading and peer summary.
# Nothing here is timed.
import os
import re
import tempfile
import unittest

import numpy as np

import peers_report
from cases import SPECIAL_PERIOD, Case, read_cases, specials
from peers import mismatches
from records import read_records

HERE = os.path.dirname(os.path.abspath(__file__))


class Data(unittest.TestCase):
    def test_float_specials_are_those_bench_c_writes(self):
        with open(os.path.join(HERE, "bench.c")) as f:
            src = f.read()
        listed = re.search(r"specials\[\] = \{([^}]*)\}", src).group(1)
        c_values = [float.fromhex(v.strip().rstrip("f")) for v in listed.split(",")]
        bits = lambda a: np.asarray(a, np.float32).view(np.uint32).tolist()
        self.assertEqual(bits(specials(np.float32)), bits(c_values))
        self.assertIn(f"i % {SPECIAL_PERIOD} < 5", src)

    def test_float_operands_hold_the_specials_every_period(self):
        case = Case(["case", "t", "where", "float16", "0.5", f"{3 * SPECIAL_PERIOD};;7", "x", "extra"])
        ops = case.operands()
        self.assertEqual((ops["c"].dtype, ops["x"].shape, ops["y"].shape), (np.bool_, (), (7,)))
        s = specials(np.float16).view(np.uint16).tolist()
        self.assertEqual(ops["y"][:5].view(np.uint16).tolist(), s)
        self.assertEqual(ops["x"].view(np.uint16), s[0])    # a scalar is element 0: -0.0

    def test_every_script_gets_the_same_operands(self):
        rec = ["case", "f32 64K p.5", "where", "float", "0.5", "64;64;64"]
        a, b = Case(rec).operands(), Case(rec).operands()
        for k in a:
            self.assertEqual(a[k].tobytes(), b[k].tobytes())


class ByteCheck(unittest.TestCase):
    def test_equal_bytes_are_no_mismatch(self):
        x = specials(np.float32)
        self.assertEqual(mismatches(x, x.copy()), {})

    def test_a_lost_negative_zero_and_flushed_subnormals_are_told_apart(self):
        want = specials(np.float32)                # -0.0, three subnormals, a normal
        got = np.array([0.0, 0.0, -0.0, 0.0, 1.0], np.float32)
        self.assertEqual(mismatches(want, got), {"-0.0 lost": 1, "subnormal flushed": 3, "other": 1})

    def test_a_wrong_dtype_or_shape_fails_the_whole_output(self):
        want = np.zeros(4, np.float32)
        self.assertEqual(mismatches(want, np.zeros(4, np.float64)), {"dtype float64": 4})
        self.assertEqual(mismatches(want, np.zeros((2, 2), np.float32)), {"shape (2, 2)": 4})


RECORDS = """fields\tcase\tname\tkind\tdtype\tp\tshapes\telements\tbytes\tout_bytes\tcompiler
case\tf32 4 p.5\twhere\tfloat\t0.5\t4;4;4\t4\t52\t16\tgcc -O3
case\t2x2 per call\twhere\tfloat\t0.5\t2,2;2,2;2,2\t4\t52\t16\tgcc -O3
time\tf32 4 p.5\tgen\t10
time\tf32 4 p.5\tgen clang -O2\t11
time\t2x2 per call\tgen\t3
matrix\tsomething new
"""
PEERS = """peer\tort_1t\tort 1t\tonnxruntime 1.0
missing\tnumexpr_1t\tnumexpr 1t\tnumexpr: not installed
missing\tnumexpr_2t\tnumexpr 2t\tnumexpr: not installed
time\tf32 4 p.5\tort_1t\t100
time\t2x2 per call\tort_1t\t2
mismatch\tf32 4 p.5\tort_1t\t-0.0 lost\t1\t4
skip\t2x2 per call\tort_1t\tno float
"""


class Report(unittest.TestCase):
    def records(self, *texts):
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for i, t in enumerate(texts):
                paths.append(os.path.join(d, f"{i}.tsv"))
                with open(paths[-1], "w") as f:
                    f.write(t)
            return read_records(paths)

    def test_cases_are_read_by_field_name(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "c.tsv")
            with open(path, "w") as f:
                f.write("fields\tcase\tkind\tname\tdtype\tp\tshapes\nmatrix\tx\n"
                        "case\twhere\tf32 4\tfloat\t0.5\t4;;4\textra\n")
            (c,) = read_cases(path)
        self.assertEqual((c.name, c.kind, c.dtype, c.p, c.shapes), ("f32 4", "where", np.float32, 0.5, [(4,), (), (4,)]))

    def test_records_are_read_by_field_name_and_unknown_ones_kept_aside(self):
        recs = self.records(RECORDS)
        c = dict(recs.rows)["f32 4 p.5"]
        self.assertEqual((c["out_bytes"], c["compiler"]), (16, "gcc -O3"))
        self.assertEqual(c["t"], {"gen": 10.0, "gen clang -O2": 11.0})
        self.assertEqual(recs.extra["matrix"], ["something new"])

    def test_missing_peers_are_named_with_the_way_to_install_them(self):
        text = "\n".join(peers_report.peer_lines(self.records(RECORDS, PEERS)))
        self.assertIn("numexpr: not installed (bench/peers-venv.sh installs them)", text)

    def test_peer_summary_tells_who_differs_and_who_is_behind(self):
        text = "\n".join(peers_report.peer_lines(self.records(RECORDS, PEERS)))
        self.assertIn("ort 1t: a selected -0.0 comes out +0.0 in 1 case (f32 4 p.5 1 of 4)", text)
        self.assertIn("ort 1t: no float: 2x2 per call", text)
        self.assertIn("100.0 ns*", text)
        self.assertIn("peers (onnxruntime 1.0)", text)
        self.assertIn("[MISSED] generated kernel ahead of every peer on every case", text)
        self.assertIn("behind: 2x2 per call (ort 1t 0.67x)", text)

    def test_without_peer_records_the_report_says_so(self):
        self.assertEqual(peers_report.peer_lines(self.records(RECORDS)), ["peers: not run (peers.py)"])


class Accuracy(unittest.TestCase):
    """bench/accuracy.py's decoding and its float64 model (no session is run here)."""

    def test_components_are_four_connected_with_their_boxes_and_pixels(self):
        import accuracy
        m = np.zeros((6, 8), bool)
        m[1:3, 1:4] = True          # a 2x3 block
        m[3, 3] = True              # joined to it below
        m[4, 4] = True              # diagonal only: a component of its own
        m[0:2, 6] = True
        self.assertEqual(accuracy.components(np, m),
                         [(0, 6, 1, 6, 2), (1, 1, 3, 3, 7), (4, 4, 4, 4, 1)])

    def test_a_u_shape_joined_below_is_one_component(self):
        import accuracy
        m = np.zeros((4, 5), bool)
        m[0:3, 0] = m[0:3, 4] = True
        m[3, :] = True
        self.assertEqual(accuracy.components(np, m), [(0, 0, 3, 4, 11)])

    def test_ctc_merges_repeats_and_drops_blanks(self):
        import accuracy
        steps = [1, 1, 0, 1, 2, 2, 0, 0, 3]
        logits = np.zeros((1, len(steps), 4), np.float32)
        logits[0, np.arange(len(steps)), steps] = 1
        self.assertEqual(accuracy.ctc_text(np, logits, ["blank", "a", "b", "c"]), "aabc")

    def test_float64_model_has_no_float32_left(self):
        import accuracy
        from onnx import TensorProto, helper, numpy_helper
        w = numpy_helper.from_array(np.array([0.5], np.float32), "w")
        g = helper.make_graph(
            [helper.make_node("Mul", ["x", "w"], ["m"]), helper.make_node("Cast", ["m"], ["c"], to=TensorProto.FLOAT),
             helper.make_node("Constant", [], ["k"], value=numpy_helper.from_array(np.array(2, np.float32))),
             helper.make_node("Add", ["c", "k"], ["y"])], "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])], [w])
        m = accuracy.to_float64(helper.make_model(g))
        self.assertNotIn(f"elem_type: {TensorProto.FLOAT}\n", str(m))
        self.assertNotIn(f"data_type: {TensorProto.FLOAT}\n", str(m))
        self.assertEqual(m.graph.node[1].attribute[0].i, TensorProto.DOUBLE)
        self.assertEqual(numpy_helper.to_array(m.graph.initializer[0]).dtype, np.float64)


class CrmathReport(unittest.TestCase):
    LINES = ["exp\tgcc -O3 -march=native\t0.800\n", "exp\tclang -O3 -march=native\t0.600\n",
             "exp\tgcc -O3 -mavx2 -mfma\t1.300\n", "exp\tclang -O3 -mavx2 -mfma\t0.900\n",
             "exp\tnumpy 2.4.6\t0.310\n", "exp\tonnxruntime 1.32.0\t0.500\n",
             "elu_cr\tgcc -O3 -march=native\t0.900\n", "elu_cr\tclang -O3 -march=native\t0.700\n",
             "elu_cr\tonnxruntime 1.32.0\t1.340\n", "not a line\n"]

    def test_builds_become_columns_and_peers_keep_their_versions(self):
        import crmath_report
        runs = crmath_report.read_lines(self.LINES)
        self.assertEqual(runs["exp"]["gcc O3n"], 0.8)
        self.assertEqual(runs["exp"]["clang AVX2"], 0.9)
        self.assertEqual(crmath_report.peers_of(runs), ["numpy 2.4.6", "onnxruntime 1.32.0"])
        self.assertIn("| exp |  | 0.80 |  | 0.60 | 1.30 | 0.90 | 0.31 | 0.50 |", crmath_report.table(runs))

    def test_targets_judge_the_slower_compiler_against_the_faster_peer(self):
        import crmath_report
        t = crmath_report.targets(crmath_report.read_lines(self.LINES))
        # exp: the faster peer is numpy (0.31); gcc's 0.80 is 2.6x: missed
        self.assertIn("numpy's 0.31: 2.6x and 1.9x (within 2x: missed)", t)
        # an activation is set against onnxruntime alone: Elu's 0.90 is 0.7x of 1.34
        self.assertIn("onnxruntime's 1.34: 0.7x and 0.5x (within 2x: met)", t)
        # AVX2: exp at most 1.0 ns, gcc's 1.30 misses it
        self.assertIn("exp under -O3 -mavx2 -mfma: gcc 1.30, clang 0.90 ns (at most 1.0: missed)", t)

    def test_peers_draw_from_the_ranges_crmath_speed_c_uses(self):
        import crmath_peers
        self.assertEqual(crmath_peers.RANGES["acosh"], (1.0, 100.0))
        kernels = [k for k, *_ in crmath_peers.ORT] + [k for k, _ in crmath_peers.NUMPY]
        self.assertEqual([k for k in kernels if k not in crmath_peers.RANGES], [])

    def test_csv_round_trip(self):
        import crmath_report
        runs = crmath_report.read_lines(self.LINES)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "c.csv")
            crmath_report.write_csv(runs, path)
            self.assertEqual(crmath_report.read_csv(path), runs)


if __name__ == "__main__":
    unittest.main()
