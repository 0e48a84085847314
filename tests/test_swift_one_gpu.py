"""`swift rlhf --rlhf_type grpo --use_vllm true` before ms-swift 3.5 (no --vllm_mode): on one visible
GPU swift builds the engine beside the trainer on that GPU — 3.2.2-3.4.x rlhf_args.py _check_grpo calls
device_count == num_infer_workers its colocate mode, 3.1.1 grpo_trainer.py shares the only GPU — so the
site is judged colocated (H1 sleep mode, the RL text of B3), and sleep mode is written as swift's own
`--sleep_level 1` (3.2.1 on; ms-swift #3943: the docs recommend level 1 when actor and rollout share a
GPU). From eval105: CharmCheen/PRL-addENV scripts/mr/mr_qwen_qwen.sh, "training model + vLLM on same GPU"."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit

_TRAIN = ("{env}swift rlhf \\\n    --rlhf_type grpo \\\n    --model Qwen/Qwen2.5-7B-Instruct \\\n"
          "    --use_vllm true \\\n{extra}    --vllm_gpu_memory_utilization 0.5 \\\n    --num_generations 4\n")


def _site(tmp_path, swift: str, env: str = "CUDA_VISIBLE_DEVICES=0 \\\n", extra: str = "", gpu: str = "H100-80GB x8"):
    (tmp_path / "requirements.txt").write_text(f"ms-swift=={swift}\nvllm==0.8.5\n")
    (tmp_path / "train.sh").write_text(_TRAIN.format(env=env, extra=extra))
    (site,) = audit(tmp_path, gpu=gpu).sites
    return site


def _result(site, check: str):
    return next(r for r in site.results if r.check.id == check)


def test_one_visible_gpu_is_swifts_colocate_mode_and_sleep_mode_is_its_sleep_level(tmp_path):
    site = _site(tmp_path, "3.4.0")
    assert site.site.mode == "rlhf_colocate"
    h1 = _result(site, "H1")
    assert h1.status == "recommended" and h1.priority == "P1"
    (change,) = [c for c in site.changes if c.target == "enable_sleep_mode"]
    assert change.after == "--sleep_level 1" and change.blocked is None
    assert _result(site, "B3").priority == "P2"  # a rollout engine's FP8 KV cache, not a server's


def test_a_written_sleep_level_0_is_the_line_rewritten(tmp_path):
    site = _site(tmp_path, "3.4.0", extra="    --sleep_level 0 \\\n")
    (change,) = [c for c in site.changes if c.target == "enable_sleep_mode"]
    assert change.before == "--sleep_level 0" and change.after == "--sleep_level 1" and change.line == 6


@pytest.mark.parametrize("gpu", ["H100-80GB x1", "H100-80GB x8"])
def test_the_gpu_count_of_the_machine_decides_without_cuda_visible_devices(tmp_path, gpu):
    # eight GPUs: swift's async mode puts the engine on a GPU of its own (the last one)
    site = _site(tmp_path, "3.4.0", env="", gpu=gpu)
    assert site.site.mode == ("rlhf_colocate" if gpu.endswith("x1") else "standalone_offline")


def test_a_release_without_sleep_level_says_so(tmp_path):
    # ms-swift 3.1.1 shares the only GPU too, but has no sleep_level key (3.2.1 added it)
    site = _site(tmp_path, "3.1.1")
    assert site.site.mode == "rlhf_colocate"
    (change,) = [c for c in site.changes if c.target == "enable_sleep_mode"]
    assert change.blocked is not None and change.after is None
