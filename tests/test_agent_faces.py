"""What agents and their registries read: the skill's description names the files and the
symptoms that should bring it up, in English and Chinese; `skill install` writes a manifest and
never deletes what it did not write; the MCP server's server.json for the MCP registry; the
Claude Code plugin manifest."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from vllm_kb.engine.kb import about
from vllm_kb.engine.kb.errors import UsageError
from vllm_kb.skill import build, install

ROOT = Path(__file__).resolve().parents[1]


def _description() -> str:
    text = (ROOT / "skill" / build.NAME / "SKILL.md").read_text(encoding="utf-8")
    return json.loads(re.search(r"^description: (.*)$", text, re.M).group(1))


# what people type or see when vLLM goes wrong, and the files that configure it
SYMPTOMS_EN = ("CUDA out of memory", "KV cache", "max_model_len", "slow first token", "OOM in rollout", "TTFT",
               "throughput", "will not start")
SYMPTOMS_ZH = ("显存不足", "KV Cache", "首 token 慢", "吞吐低", "显存溢出", "无法启动")
FILE_KINDS = ("vllm serve", "python -m vllm.entrypoints", "EngineArgs", "Dockerfile", "compose", "Kubernetes", "Helm",
              "gpu_memory_utilization", "use_vllm", "rollout.name=vllm", "vllm_num_engines", "infer_backend: vllm")


def test_the_skill_description_names_files_and_symptoms_in_both_languages():
    desc = _description()
    assert desc == build.description(__import__("vllm_kb.engine.kb.knowledge", fromlist=["load"]).load())
    assert len(desc) <= build.MAX_DESCRIPTION and desc.startswith("Use when")
    for word in SYMPTOMS_EN + SYMPTOMS_ZH + FILE_KINDS:
        assert word in desc, word
    # triggers first: the files and symptoms come before what the skill does
    assert max(desc.index(w) for w in SYMPTOMS_EN) < desc.index("Audits")
    # the count is the knowledge's, not a number typed once
    from vllm_kb.engine.kb.knowledge import load

    assert f"against {len(load().checks)} versioned checks" in desc
