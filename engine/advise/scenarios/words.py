"""A workload described in words (MCP `match_scenario`): mode, framework, model, GPU and
release read from a sentence."""
from __future__ import annotations

import re

from vllm_kb.engine.kb.knowledge import Knowledge

_MODE_WORDS = (
    ("rlhf_server", r"server mode|rollout server|vllm-serve|server 模式|独立推理|独立 gpu"),
    ("rlhf_colocate", r"colocate|hybrid engine|共卡|grpo|ppo|rlhf|\brl\b|dapo|rloo"),
    ("standalone_offline", r"offline|batch|离线|批处理|\bllm\(\)"),
)
_FRAMEWORK_WORDS = (("trl", r"\btrl\b"), ("verl", r"\bverl\b"), ("openrlhf", r"openrlhf"),
                    ("llamafactory", r"llama-?factory"), ("ms-swift", r"ms-swift|\bswift\b"))
_HF_ID = re.compile(r"\b[\w.-]+/[\w.-]+\b")
_TOKEN = re.compile(r"(?i)\b[a-z][\w.]*-[\w.-]*[\w]")
_VERSION = re.compile(r"(?i)vllm\s*(?:==|v|version)?\s*(\d+\.\d+(?:\.\d+)?)")


def read_description(text: str, kb: Knowledge) -> dict[str, str]:
    """What a description says about the model, GPUs, mode, framework, syntax and vLLM release;
    only what it names (a caller's explicit arguments win over these)."""
    from vllm_kb.engine.kb.models import model_facts

    out: dict[str, str] = {}
    low = text.lower()
    for cand in _HF_ID.findall(text) + _TOKEN.findall(text):
        if "/" in cand or model_facts(cand, kb.models, []).get("params_b"):
            out["model"] = cand
            break
    gpu = _gpu_in(text, kb)
    if gpu:
        out["gpu"] = gpu
    for mode, rx in _MODE_WORDS:
        if re.search(rx, low):
            out["mode"] = mode
            break
    for fid, rx in _FRAMEWORK_WORDS:
        if re.search(rx, low):
            out["framework"] = fid
            out.setdefault("mode", "rlhf_colocate" if fid != "llamafactory" else "standalone_serve")
            break
    v = _VERSION.search(text)
    if v:
        out["vllm_version"] = v.group(1) if v.group(1).count(".") == 2 else v.group(1) + ".0"
    if re.search(r"--config|\byaml\b", low):
        out["syntax"] = "yaml-config"
    elif re.search(r"\bpython\b|\bllm\(", low):
        out["syntax"] = "python-call"
    return out


def _gpu_in(text: str, kb: Knowledge) -> str | None:
    """The GPU a text names, longest name first, with a count written next to it (8xH100,
    H100 x8, 4 × A100-80GB, RTX 4090)."""
    best = None
    for g in kb.gpus:
        for name in {str(n) for n in (g["id"], *g.get("aliases", ()))}:
            parts = re.findall(r"[A-Za-z]+|\d+", name)
            rx = r"(?:(?<=\d[x×*])|(?<![\w]))" + r"[-_ ]?".join(re.escape(p) for p in parts) + r"(?![\w])"
            m = re.search(rx, text, re.I)
            if m and (best is None or len(m.group(0)) > len(best[1].group(0))):
                best = (g, m)
    if best is None:
        return None
    g, m = best
    before = re.search(r"(\d+)\s*(?:[x×*]|卡|张|\s+GPUs?)\s*$", text[:m.start()], re.I)
    after = re.match(r"\s*(?:[x×*:]\s*(\d+)|\s*(?:GPUs?|cards?|卡)?)", text[m.end():], re.I)
    count = before.group(1) if before else (after.group(1) if after and after.group(1) else None)
    return f"{g['id']} x{count}" if count else g["id"]
