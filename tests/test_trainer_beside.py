"""B1 leaves a low gpu_memory_utilization alone where the project itself starts a trainer on the engine's GPU
(engine/check/trainer_beside.py): a Python training loop that starts vLLM's server as a subprocess, or a
trainer command of the same script on the same CUDA_VISIBLE_DEVICES text."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

_GRPO = '''import subprocess
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
model = torch.nn.Linear(4, 4)
model.to(device)
proc = subprocess.Popen(["python", "-m", "vllm.entrypoints.openai.api_server", "--model", "a/b",
                         "--gpu-memory-utilization", "0.45"])
for _ in range(3):
    loss = model(torch.zeros(4, device=device)).sum()
    loss.backward()
'''

_SHARED = '''#!/bin/bash
SHARED_GPU=${{SHARED_GPU:-0}}
env CUDA_VISIBLE_DEVICES="$SHARED_GPU" vllm serve a/b --gpu-memory-utilization 0.5 &
env CUDA_VISIBLE_DEVICES="{trainer_gpu}" python -m example_trainer.grpo --model a/b
'''


def _b1(tmp_path, files) -> dict:
    (tmp_path / "requirements.txt").write_text("vllm==0.11.0\n")
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    rep = audit(tmp_path, gpu="H100-80GB x1")
    return {sr.site.id: (next(r for r in sr.results if r.check.id == "B1").status, sr.facts["launch"].get("trainer_beside"))
            for sr in rep.sites}


def test_a_python_training_loop_that_starts_the_server(tmp_path):
    # atropos environments/community/mcp_tool_calling/grpo.py (eval119): the policy trains on "cuda" in the
    # process that starts vLLM at 0.45; unsetting the share would starve the trainer
    got = _b1(tmp_path, {"grpo.py": _GRPO})
    assert got == {"grpo.py:7": ("not_applicable", "grpo.py:11")}, got
    (tmp_path / "split").mkdir()
    split = _b1(tmp_path / "split", {"grpo.py": "import os\nos.environ['CUDA_VISIBLE_DEVICES'] = '1'\n" + _GRPO})
    assert all(v == ("recommended", None) for v in split.values()), split


def test_a_trainer_on_the_same_cuda_visible_devices_text(tmp_path):
    # atropos example_trainer/run_gsm8k_lora_matrix.sh (eval119): shared-weights mode, engine and trainer
    # both on "$SHARED_GPU"; a trainer on another GPU leaves B1 to judge the engine's share
    for sub, gpu, want in (("same", "$SHARED_GPU", ("not_applicable", "run.sh:4")), ("other", "$TRAINER_GPU", ("recommended", None))):
        (tmp_path / sub).mkdir()
        got = _b1(tmp_path / sub, {"run.sh": _SHARED.format(trainer_gpu=gpu)})
        assert list(got.values()) == [want], (sub, got)
