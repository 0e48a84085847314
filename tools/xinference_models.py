#!/usr/bin/env python3
"""Build knowledge/deploy/xinference_models.yaml: Xinference's built-in LLM registry
(xinference/model/llm/llm_family.json inside a release's wheel) as (model_name, size in
billions) → the Hugging Face checkpoint of its pytorch-format spec (and of each prequantized spec:
gptq/awq/fp8/bnb × quantization), kept only where
knowledge/models.yaml describes that checkpoint exactly — what `xinference launch --model-name
qwen2.5-instruct --size-in-billions 7` loads, so the audit can size it (engine/scan/tool_launch.py).

Several --wheel: the newest release's registry first; a name only an older release lists keeps that
release's entry (registry names come and go: qwen2-audio is in 1.16.0, not in 2.7.0), and `older`
names the release it came from.

Usage: python tools/xinference_models.py --wheel xinference-1.16.0-py3-none-any.whl [--wheel xinference-2.7.0-py3-none-any.whl]
       [-o knowledge/deploy/xinference_models.yaml]
"""
from __future__ import annotations

import argparse
import json
import re
import zipfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
# formats whose spec names one prequantized repo per quantization (`Qwen/Qwen2.5-7B-Instruct-GPTQ-{quantization}`)
# and that vLLM loads; ggufv2 and mlx are llama.cpp's and MLX's
QUANTIZED_FORMATS = ("gptq", "awq", "fp8", "bnb")


def _size(v) -> str:
    return str(v).replace("_", ".")


def build(wheel: Path) -> dict:
    from vllm_kb.engine.kb import models

    release = re.match(r"xinference-([\w.]+?)-py3", wheel.name).group(1)
    with zipfile.ZipFile(wheel) as z:
        families = json.loads(z.read("xinference/model/llm/llm_family.json"))
    known = yaml.safe_load((ROOT / "knowledge" / "models.yaml").read_text(encoding="utf-8"))["families"]
    out: dict[str, dict[str, str]] = {}
    quantized: dict[str, dict[str, dict[str, dict[str, str]]]] = {}
    for fam in families:
        for spec in fam.get("model_specs", []):
            src = (spec.get("model_src") or {}).get("huggingface") or {}
            hub = src.get("model_id") or ""
            fmt, quants = spec.get("model_format"), src.get("quantizations") or []
            size = _size(spec["model_size_in_billions"])
            if fmt in QUANTIZED_FORMATS and hub:
                # `--model-format gptq --quantization Int8`: the repo the spec names for that quantization
                for q in quants:
                    repo = hub.replace("{quantization}", q)
                    if "{" not in repo and models.exact_entry(models._short_name(repo), known):
                        quantized.setdefault(fam["model_name"], {}).setdefault(size, {}).setdefault(fmt, {}).setdefault(q, repo)
                continue
            # the unquantized pytorch weights (a 4-bit pytorch spec of the same size names another repo)
            if fmt != "pytorch" or "none" not in quants or not hub or "{" in hub:
                continue
            if models.exact_entry(models._short_name(hub), known):
                out.setdefault(fam["model_name"], {}).setdefault(size, hub)
    return {"release": release, "models": {k: out[k] for k in sorted(out)}, "quantized": {k: quantized[k] for k in sorted(quantized)}}


def merge(wheels: list[Path]) -> dict:
    """The registries of several releases, newest first: a name keeps the newest release's sizes."""
    from vllm_kb.engine.kb.versions import parse

    got = sorted((build(w) for w in wheels), key=lambda g: parse(g["release"]), reverse=True)
    models: dict = {}
    quantized: dict = {}
    older: dict[str, str] = {}
    for g in got:
        for kind, into in (("models", models), ("quantized", quantized)):
            for name, sizes in g[kind].items():
                if name not in into:
                    into[name] = sizes
                    if g is not got[0]:
                        older[name] = g["release"]
    return {"release": got[0]["release"], "releases": [g["release"] for g in got],
            "models": {k: models[k] for k in sorted(models)}, "quantized": {k: quantized[k] for k in sorted(quantized)},
            "older": {k: older[k] for k in sorted(older)}}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--wheel", type=Path, required=True, action="append")
    ap.add_argument("-o", type=Path, default=ROOT / "knowledge" / "deploy" / "xinference_models.yaml")
    a = ap.parse_args()
    got = merge(a.wheel)
    urls = ", ".join(f"https://pypi.org/project/xinference/{r}/" for r in got["releases"])
    head = (f"# Xinference's built-in LLM registry, releases {', '.join(got['releases'])} (xinference/model/llm/llm_family.json in\n"
            f"# each wheel, {urls}): model_name → size in billions → the Hugging Face\n"
            "# checkpoint of its pytorch-format spec, only where knowledge/models.yaml describes it exactly; `quantized`:\n"
            "# model_name → size → format (gptq, awq, fp8, bnb) → quantization → the prequantized repo its spec names;\n"
            "# `older`: the names only an older release lists, with that release (the newest release's entry wins).\n"
            "# Generated by tools/xinference_models.py; re-run it on a newer wheel (with the older ones).\n")
    body = yaml.safe_dump({"source": {"release": got["release"], "releases": got["releases"],
                                      "url": f"https://pypi.org/project/xinference/{got['release']}/",
                                      "file": "xinference/model/llm/llm_family.json"},
                           "models": got["models"], "quantized": got["quantized"], "older": got["older"]},
                          sort_keys=False, allow_unicode=True, width=200)
    a.o.write_text(head + body, encoding="utf-8")
    n_q = sum(len(q) for s in got["quantized"].values() for f in s.values() for q in f.values())
    print(f"{sum(len(v) for v in got['models'].values())} checkpoints of {len(got['models'])} registry names, {n_q} prequantized → {a.o}")


if __name__ == "__main__":
    main()
