"""test_measure.py: the claim policy's decisions in gen/ort/measure.py, with scripted timings
in place of sessions: a region counts as faster on 7 of 8 paired rounds and a 2% median,
and the whole model is timed with the regions found faster claimed, dropping the half with
the smallest margins while it loses."""
import importlib.util
import json
import os

import pytest

from conftest import SOURCE_DIR


@pytest.fixture
def measure():
    path = os.path.join(SOURCE_DIR, "gen", "ort", "measure.py")
    spec = importlib.util.spec_from_file_location("wherec_measure", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kernels_with_margins(margins):
    """Kernels measured faster, region r<i> by margins[i] (ort 100 us)."""
    return [{"name": "r%d" % i, "measured": {"faster": True, "ort_us": 100.0, "wherec_us": 100.0 * (1 - m),
                                             "won": 8, "with": []}}
            for i, m in enumerate(margins)]


def run_check(measure, monkeypatch, tmp_path, kernels, model_wins):
    """check_whole_model with model_wins(claimed names) -> (ort us, wherec us, rounds won)."""
    manifest = {"version": 2, "kernels": kernels}
    path = str(tmp_path / "kernels.where.json")
    seen = []

    def paired(a, b, feeds, budget=None):
        claimed = sorted(k["name"] for k in kernels if k["measured"]["faster"])
        with open(path) as f:  # the provider reads the manifest as written for this round
            on_disk = sorted(k["name"] for k in json.load(f)["kernels"] if k["measured"]["faster"])
        assert on_disk == claimed
        seen.append(claimed)
        return model_wins(claimed)

    monkeypatch.setattr(measure, "session_pair", lambda *a: (None, None))
    monkeypatch.setattr(measure, "paired_us", paired)
    measure.check_whole_model(None, "model.onnx", {}, [], {}, manifest, path, kernels)
    with open(path) as f:
        return json.load(f), seen


def test_a_model_faster_with_its_regions_keeps_them_all(measure, monkeypatch, tmp_path):
    kernels = kernels_with_margins([0.3, 0.1, 0.05])
    written, seen = run_check(measure, monkeypatch, tmp_path, kernels, lambda c: (100.0, 90.0, 8))
    assert seen == [["r0", "r1", "r2"]]
    assert [k["measured"]["faster"] for k in written["kernels"]] == [True, True, True]
    assert written["measured_model"]["faster"] and written["measured_model"]["regions"] == 3


def test_the_half_with_the_smallest_margins_goes_while_the_model_loses(measure, monkeypatch, tmp_path):
    kernels = kernels_with_margins([0.05, 0.3, 0.02, 0.2])  # by margin: r1, r3, r0, r2
    written, seen = run_check(measure, monkeypatch, tmp_path, kernels,
                              lambda c: (100.0, 101.0, 2) if "r2" in c else (100.0, 95.0, 7))
    assert seen == [["r0", "r1", "r2", "r3"], ["r1", "r3"]]
    faster = {k["name"]: k["measured"]["faster"] for k in written["kernels"]}
    assert faster == {"r0": False, "r1": True, "r2": False, "r3": True}
    dropped = {k["name"] for k in written["kernels"] if "dropped" in k["measured"]}
    assert dropped == {"r0", "r2"}
    assert written["measured_model"] == {"regions": 2, "1thr": {"ort_us": 100.0, "wherec_us": 95.0, "won": 7},
                                         "faster": True}


def test_six_rounds_of_eight_or_a_tie_is_not_faster(measure, monkeypatch, tmp_path):
    for verdict in [(100.0, 90.0, 6), (100.0, 100.0, 8)]:
        kernels = kernels_with_margins([0.3])
        written, _ = run_check(measure, monkeypatch, tmp_path, kernels, lambda c, v=verdict: v)
        assert not written["kernels"][0]["measured"]["faster"]
        assert not written["measured_model"]["faster"]


def test_no_region_faster_writes_the_manifest_untouched(measure, monkeypatch, tmp_path):
    kernels = kernels_with_margins([0.3])
    kernels[0]["measured"]["faster"] = False
    written, seen = run_check(measure, monkeypatch, tmp_path, kernels, lambda c: (100.0, 50.0, 8))
    assert seen == [] and "measured_model" not in written
    assert written["kernels"] == kernels
