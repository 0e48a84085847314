"""A report agrees with itself (engine/report/consistency.py): over every fixture, example and
real case on several machines, and over a generated corpus (tests/corpus.py), no two checks
propose opposite values for a setting, no P0 contradicts the site's own memory estimate or rests
on an inconclusive one, the scenario proposes nothing a check advises otherwise, a status word
fits its change and every P0 fix is safe. The checker itself is tested on reports that do
contradict themselves, and the false P0s seen on real repositories are cases here."""
from __future__ import annotations

import copy
import os
import tempfile
from pathlib import Path

import pytest
from corpus import projects
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_report_catalogue import assert_reads_back
from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import cel
from vllm_kb.engine.report import consistency, model
from vllm_kb.engine.scan.project import copy_scan, scan_project

ROOT = Path(__file__).parent.parent
TREES = sorted([p for p in (ROOT / "tests" / "fixtures").iterdir() if p.is_dir()]
               + [p for p in (ROOT / "examples").iterdir() if p.is_dir()]
               + [p for p in (ROOT / "tests" / "realcases").iterdir() if p.is_dir()])
GPUS = ["H100-80GB x8", "H100 x4", "A100-40GB x1", "L4 x1", "A10G x2", "none"]
N = int(os.environ.get("VLLM_KB_CONSISTENCY_EXAMPLES", "20"))
cel._backend()


@pytest.mark.parametrize("tree", TREES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_fixture_and_example_agrees_with_itself(tree):
    scanned = scan_project(tree)  # the read does not depend on the GPU: once per tree, a copy per audit
    for gpu in GPUS:
        rep = audit(tree, gpu=gpu, scanned=copy_scan(scanned))
        data = model.build(rep, "en")
        assert consistency.check(data) == [], gpu
        try:
            assert_reads_back(rep, data)  # and its checks read back as schema_version 1 wrote them
        except AssertionError as e:
            raise AssertionError(f"{gpu}: {e}") from e


@settings(max_examples=N, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(projects(), st.sampled_from(GPUS))
def test_a_generated_corpus_agrees_with_itself(p, gpu):
    from test_fix_property import materialise

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "proj"
        root.mkdir()
        materialise(p, root)
        data = model.build(audit(root, gpu=gpu), "en")
        assert consistency.check(data) == []


# --- the checker finds what it should ---------------------------------------------------------

@pytest.fixture(scope="module")
def clean() -> dict:
    return model.build(audit(ROOT / "examples" / "quickstart", gpu="H100-80GB x8"), "en")


def _serve(data: dict) -> dict:
    return next(s for s in data["sites"] if s["id"] == "deploy/serve.sh:10")


def _kinds(data: dict) -> set[str]:
    return {p["kind"] for p in consistency.check(data)}


def test_the_example_is_clean(clean):
    assert consistency.check(clean) == []


def test_opposite_values_are_found(clean):
    data = copy.deepcopy(clean)
    s = _serve(data)
    s["checks"].append({"id": "X9", "status": "recommended", "priority": "P2", "fix": [{"op": "set", "target": "max_model_len", "value": 4096}]})
    s["checks"].append({"id": "X8", "status": "recommended", "priority": "P2", "fix": [{"op": "unset", "target": "max_model_len", "value": None}]})
    assert "opposite-values" in _kinds(data)


def test_a_no_fit_verdict_beside_an_estimate_that_fits_is_found(clean):
    data = copy.deepcopy(clean)
    s = _serve(data)
    c1 = next(c for c in s["checks"] if c["id"] == "C1")
    c1.update(status="recommended", priority="P0")
    assert s["memory"]["fits"] and "memory" in _kinds(data)
    s["memory"]["fits"] = False
    assert "p0-estimate" in _kinds(data)  # the weights fit in what vLLM may use: only an estimate


def test_a_scenario_that_contradicts_a_check_is_found(clean):
    data = copy.deepcopy(clean)
    s = _serve(data)
    target = next(c for c in s["checks"] if c["status"] == "recommended" and any(f["op"] == "set" for f in c["fix"]))
    op = next(f for f in target["fix"] if f["op"] == "set")
    s["scenario"]["differences"].append({"name": op["target"], "current": None, "scenario": "something else"})
    assert "scenario" in _kinds(data)


def test_a_removal_labelled_enable_is_found(clean):
    data = copy.deepcopy(clean)
    s = _serve(data)
    b4 = next(c for c in s["checks"] if c["id"] == "B4")
    assert b4["action"] == "remove"  # the report labels the swap-space removal "remove", never "enable"
    b4["action"] = "enable"
    assert "status-word" in _kinds(data)


def test_an_unsafe_p0_and_a_no_op_are_found(clean):
    data = copy.deepcopy(clean)
    s = _serve(data)
    p0 = next(r for r in s["recommendations"] if r["priority"] == "P0")
    assert p0["safe"]
    p0["safe"] = False
    s["changes"].append({"op": "set", "target": "max_num_seqs", "file": "x", "line": 1, "before": "--max-num-seqs 8",
                         "after": "--max-num-seqs 8"})
    assert {"p0-unsafe", "no-op"} <= _kinds(data)


# --- false P0s seen on real repositories --------------------------------------------------------

def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path


def _p0s(root: Path, gpu: str = "H100-80GB x8") -> list[str]:
    data = model.build(audit(root, gpu=gpu), "en")
    assert consistency.check(data) == []
    return [r["check"] for s in data["sites"] for r in s["recommendations"] if r["priority"] == "P0"]


def test_a_setup_py_extra_is_no_unbounded_pin(tmp_path):
    root = _tree(tmp_path, {
        "setup.py": ('from setuptools import setup\n\nsetup(\n    name="proj",\n    install_requires=["torch>=2.1"],\n'
                     '    extras_require={\n        "vllm": ["vllm"],\n        "serve": ["vllm>=0.6.0"],\n    },\n)\n'),
        "serve.sh": "#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct --swap-space 4\n",
    })
    data = model.build(audit(root, gpu="H100-80GB x8"), "en")
    pins = data["project"]["pins"]
    assert [p["text"] for p in pins] == ["vllm", "vllm>=0.6.0"], "the extra's name is no requirement"
    assert data["project"]["vllm"]["basis"] == "range", "the bounded entry says more than a bare name"
    # swap_space fails from 0.18 only; vllm>=0.6 allows releases where it works: not a certain failure
    assert _p0s(root) == []


def test_a_range_that_allows_working_releases_makes_no_release_dependent_p0(tmp_path):
    root = _tree(tmp_path, {"requirements.txt": "vllm>=0.10,<0.20\n",
                            "serve.sh": "#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct --swap-space 4 --api-keyz x\n"})
    assert _p0s(root) == ["unknown-option:api_keyz"], "a flag no release has stays P0; swap-space (gone in 0.18) does not"
    (root / "requirements.txt").write_text("vllm>=0.18\n")
    assert sorted(_p0s(root)) == ["B4", "unknown-option:api_keyz"]  # every allowed release refuses it
    (root / "requirements.txt").unlink()
    assert sorted(_p0s(root)) == ["B4", "unknown-option:api_keyz"]  # no bound: pip installs the newest


def test_the_kv_reserve_alone_is_no_p0(tmp_path):
    """The weights fit in what vLLM may use; only the estimated activations and the KV reserve do
    not: an estimate, P1 — never "vLLM will not start"."""
    root = _tree(tmp_path, {"requirements.txt": "vllm==0.33.0\n",
                            "serve.sh": "#!/bin/bash\nvllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 4096 "
                                        "--gpu-memory-utilization 0.85\n"})
    data = model.build(audit(root, gpu="L4 x1"), "en")
    (site,) = data["sites"]
    c1 = next(c for c in site["checks"] if c["id"] == "C1")
    mem = site["memory"]
    assert not mem["fits"] and mem["weights_per_gpu_gib"] < mem["requested_per_gpu_gib"]  # 15 of 18.7 GiB
    assert (c1["status"], c1["priority"]) == ("recommended", "P1")
    assert consistency.check(data) == []
    # the weights alone over what vLLM may use: no KV cache at all, that is certain — P0 (L16)
    (root / "serve.sh").write_text("#!/bin/bash\nvllm serve Qwen/Qwen2.5-32B-Instruct --max-model-len 4096\n")
    assert any(p in ("C1", "L16") for p in _p0s(root, "L4 x1"))


def test_vllm_serve_model_flag_is_p0_only_where_vllm_rejects_it(tmp_path):
    root = _tree(tmp_path, {"requirements.txt": "vllm==0.33.0\n",
                            "serve.sh": "#!/bin/bash\nvllm serve --model Qwen/Qwen2.5-7B-Instruct --port 8000\n"})
    assert "L33" not in _p0s(root)  # 0.33 warns, it starts
    (root / "requirements.txt").write_text("vllm==0.10.1\n")
    assert "L33" in _p0s(root)  # 0.8.3–0.11.0 reject it
    (root / "requirements.txt").write_text("vllm>=0.8,<0.12\n")
    assert "L33" not in _p0s(root)  # 0.11.1 is allowed and takes it


def test_two_pins_agree_when_a_release_satisfies_both():
    """L21 (the first release that implements the architecture) and L43 (the nearest release the
    framework takes, among those that run the model) may both pin vllm: they must meet."""
    from vllm_kb.engine.report.consistency import _pins_meet

    assert _pins_meet(">=0.6.1", "==0.6.1") and _pins_meet(">=0.6.1", "<0.7")
    assert not _pins_meet(">=0.6.1", "==0.5.5") and not _pins_meet("<0.5", ">=0.6")
