"""L125: a transformers whose config makes Gemma 4's head_dim per-layer (5.15.0+) under a vLLM release
that reads it as one value while it builds the ModelConfig (0.14.0-0.27.1): vllm#52768, the v0.27.1
ROCm image with transformers 5.15.0 stops with AmbiguousGlobalPerLayerAttributeError; 0.28.0 reads
the per-layer configs."""
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.transformers_per_layer import _table, per_layer_fit
from vllm_kb.engine.kb.knowledge import load

ROOT = Path(__file__).resolve().parent.parent
SRC, WHEELS = Path("/work/sdists/src"), Path("/work/scratch/tf5-wheels")  # the wheels the table was built from
KB = load()
RELEASED = KB.doc("vllm", "model_types.yaml").data["released"]
VLLM_RELEASED = KB.doc("vllm", "release_dates.yaml").data["released"]


def test_the_table_is_what_the_sources_say():
    if not (SRC / "0.28.0").is_dir() or not any(WHEELS.glob("transformers-5.15.*.whl")):
        pytest.skip("the vLLM sdists and transformers wheels are not here")
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "vllm_per_layer_head.py"), "--check", str(SRC), str(WHEELS)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_release_facts():
    t = _table()
    assert t["global_head_dim"][-1][1] == "0.27.1" and t["per_layer_at"]["release"] == "0.28.0"
    assert t["per_layer_head_dim"]["gemma4"] == "5.15.0" and t["per_layer_head_dim"]["gemma4_unified"] == "5.15.0"
    assert not {"llama", "gemma3", "qwen3"} & set(t["per_layer_head_dim"])


def _pin(spec: str):
    return SimpleNamespace(spec=spec, text=f"transformers{spec}", file="requirements.txt", line=2)


def _fit(release: str, pin=None, image=None, model_type="gemma4", pinned=True):
    facts = {"model": {"model_type": model_type}, "vllm": {"version": release, "pinned": pinned}}
    return per_layer_fit(facts, pin, ">=5.5.3", image, VLLM_RELEASED, RELEASED)


def test_the_transformers_the_site_runs():
    got = _fit("0.27.1", _pin("==5.15.0"))
    assert got["tf_layer"] == "head_dim" and got["tf_layer_vllm_fix"] == ">=0.28.0" and got["tf_layer_fix"] == "<5.15"
    assert _fit("0.27.1", _pin("==5.14.1")) == {}
    assert _fit("0.27.1", _pin(">=5.5")) == {}  # allows an older one
    assert _fit("0.28.0", _pin("==5.15.0")) == {}  # reads the per-layer configs
    assert _fit("0.27.1", _pin("==5.15.0"), model_type="llama") == {}
    # vLLM's image: built 2026-08-11, the day after transformers 5.15.0; 0.27.0's the same day holds it too (vllm#51744);
    # 0.26.0's (2026-07-25) predates it
    assert _fit("0.27.1", image="vllm/vllm-openai-rocm:v0.27.1")["tf_layer_pin_at"] == "vllm/vllm-openai-rocm:v0.27.1"
    assert _fit("0.27.0", image="vllm/vllm-openai:v0.27.0")["tf_layer"] == "head_dim"
    assert _fit("0.26.0", image="vllm/vllm-openai:v0.26.0") == {}
    assert _fit("0.27.1", image="ghcr.io/someone/vllm:v0.27.1") == {}  # another make's image: its own transformers
    # a pip installation of the pinned release resolves the newest transformers its requirement allows
    assert _fit("0.27.1")["tf_layer_fresh"] is True
    assert _fit("0.27.1", pinned=False) == {}


def _l125(tmp_path: Path, requirements: str) -> tuple | None:
    (tmp_path / "requirements.txt").write_text(requirements, encoding="utf-8")
    (tmp_path / "run.sh").write_text("#!/bin/bash\ndocker run --device /dev/kfd --device /dev/dri vllm/vllm-openai-rocm:v0.27.1 \\\n"
                                     "  RedHatAI/gemma-4-31B-it-FP8-block --max-model-len 32768\n", encoding="utf-8")
    rep = audit(tmp_path, gpu="MI300X")
    return next(((r.priority, [(c.target, c.value) for c in r.changes] if hasattr(r, "changes") else None)
                 for s in rep.sites for r in s.results if r.check.id == "L125" and r.status == "recommended"), None)


def test_gemma4_on_the_0271_rocm_image(tmp_path):
    got = _l125(tmp_path, "vllm==0.27.1\ntransformers==5.15.0\n")
    assert got is not None and got[0] == "P0"
    (tmp_path / "b").mkdir()  # the image's lock with transformers 5.8.1: head_dim is one value
    assert _l125(tmp_path / "b", "vllm==0.27.1\ntransformers==5.8.1\n") is None


def _docker_l125(tmp_path: Path, script: str) -> str | None:
    (tmp_path / "run.sh").write_text("#!/bin/bash\ndocker run --gpus all --entrypoint bash vllm/vllm-openai:v0.27.0 \\\n"
                                     f"  -c \"{script}\"\n", encoding="utf-8")
    rep = audit(tmp_path, gpu="H100 x2")
    return next((r.priority for s in rep.sites for r in s.results if r.check.id == "L125" and r.status == "recommended"), None)


def test_what_the_container_installs_before_it_serves(tmp_path):
    # vllm#51744: the 0.27.0 image holds transformers 5.15.0; the workaround installs 5.14.1 over it
    assert _docker_l125(tmp_path, "vllm serve google/gemma-4-31B-it --tensor-parallel-size 2") == "P0"
    (tmp_path / "b").mkdir()
    assert _docker_l125(tmp_path / "b", "pip install transformers==5.14.1 && vllm serve google/gemma-4-31B-it "
                                        "--tensor-parallel-size 2") is None
