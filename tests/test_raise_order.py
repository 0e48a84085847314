"""knowledge/vllm/raise_order.yaml: a site's P0s in the order vLLM raises them."""
from __future__ import annotations

from pathlib import Path

from vllm_kb.engine.check.catalog_findings import CODES
from vllm_kb.engine.check.raise_order import LAST, stage_of
from vllm_kb.engine.check.rules import rules
from vllm_kb.engine.kb.knowledge import load

KB = load()
DATA = KB.doc("vllm", "raise_order.yaml").data


def test_every_name_is_a_check_or_finding_and_every_stage_exists():
    reg = rules()
    stages = {s["id"] for s in DATA["stages"]}
    names = [c for s in DATA["stages"] for c in s["checks"]] + [m["check"] for m in DATA["moves"]]
    assert len(set(c for s in DATA["stages"] for c in s["checks"])) == sum(len(s["checks"]) for s in DATA["stages"])
    assert all(reg.find(n) is not None or n in CODES for n in names)
    assert all(m["stage"] in stages for m in DATA["moves"])


def test_every_launch_check_with_a_p0_has_a_stage():
    missing = [c.id for c in KB.checks if c.category == "L" and any(r.status == "recommended" for r in c.rules)
               and stage_of(KB, c.id, "0.20.0") == LAST and c.id != "L39"]
    assert not missing


def test_config_order_and_release_moves():
    # ModelConfig before CacheConfig before ParallelConfig before SchedulerConfig before the engine
    order = [stage_of(KB, c, "0.20.0") for c in ("unknown-option", "L21", "L18", "L19", "L17", "L1", "L13", "L16")]
    assert order == sorted(order)
    # the PP allow-list of 0.5.1-0.6.2 is met before the unregistered architecture (loaded later)
    assert stage_of(KB, "L3", "0.6.2") < stage_of(KB, "L21", "0.6.2")
    assert stage_of(KB, "L21", "0.6.3") < stage_of(KB, "L3", "0.6.3")


def test_report_lists_the_pp_list_error_first(tmp_path: Path):
    from vllm_kb.engine.audit import audit
    from vllm_kb.engine.report.model import build

    (tmp_path / "requirements.txt").write_text("vllm==0.6.2\n")
    (tmp_path / "serve.sh").write_text("vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --pipeline-parallel-size 2\n")
    rep = build(audit(tmp_path, gpu="H100-80GB x16"), "en")
    p0 = [r["check"] for r in rep["sites"][0]["recommendations"] if r["priority"] == "P0"]
    assert p0[:2] == ["L3", "L21"]


def test_within_a_stage_the_list_order():
    # _get_and_verify_max_len refuses the window-off rope scaling before the length (0.6.3:1757-1790)
    assert stage_of(KB, "L146", "0.6.3") < stage_of(KB, "L14", "0.6.3")
    # a check moved into a stage sorts after that stage's own list, before the next stage
    assert stage_of(KB, "L21", "0.6.2") > stage_of(KB, "L62", "0.6.2")
    assert stage_of(KB, "L21", "0.6.2") < stage_of(KB, "L126", "0.6.2")


def _p0s(tmp_path: Path, version: str, call: str, gpu: str) -> list[str]:
    from vllm_kb.engine.audit import audit
    from vllm_kb.engine.report.model import build

    (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
    (tmp_path / "gen.py").write_text(f"from vllm import LLM\nllm = LLM({call})\n")
    rep = build(audit(tmp_path, gpu=gpu), "en")
    return [r["check"] for r in rep["sites"][0]["recommendations"] if r["priority"] == "P0"]


def test_the_dtype_refusal_comes_from_the_worker(tmp_path: Path):
    # the worker's init_device checks bfloat16 against the GPU (vllm/worker/worker.py 0.3.0:81 …
    # vllm/v1/worker/gpu_worker.py 0.34.0:500): after ModelConfig, before the weights and the profiling
    for v in ("0.3.0", "0.9.0", "0.34.0"):
        assert stage_of(KB, "L14", v) < stage_of(KB, "L4", v) < stage_of(KB, "L16", v)
        assert stage_of(KB, "L50", v) < stage_of(KB, "L4", v)
    # 0.4.3 resolves the architecture when the model is loaded, after the worker's dtype check
    assert stage_of(KB, "L4", "0.4.3") < stage_of(KB, "L21", "0.4.3")


def test_two_refusals_report_the_earlier_first_in_either_id_order(tmp_path: Path):
    # a bfloat16 Mistral on a T4 (compute capability 7.5) whose weights also leave no KV cache:
    # the worker refuses the dtype before any memory is profiled (L4 before L16) …
    assert _p0s(tmp_path, "0.3.0", 'model="mistralai/Mistral-7B-Instruct-v0.2"', "T4") == ["L4", "L16"]
    # … and ModelConfig refuses a length past the model's own before any worker starts (L14 before L4)
    assert _p0s(tmp_path, "0.3.0", 'model="mistralai/Mistral-7B-Instruct-v0.2", max_model_len=65536', "T4") == ["L14", "L4", "L16"]


def test_the_shared_gpu_refusal_comes_before_the_kv_cache_from_0_9_1():
    # V1's init_device measures free memory before the model is built (vllm/v1/worker/gpu_worker.py
    # 0.13.0:240-255): L37 is met before L16/L15; before 0.9.1 the engine started second runs short later
    assert stage_of(KB, "L37", "0.13.0") < stage_of(KB, "L16", "0.13.0") < stage_of(KB, "L15", "0.13.0")
    assert stage_of(KB, "L37", "0.8.5") > stage_of(KB, "L15", "0.8.5")
