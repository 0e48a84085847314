#!/usr/bin/env python3
"""Build knowledge/vllm/eplb_moe.yaml: the registered mixture-of-experts architectures whose class does not
implement vLLM's MixtureOfExperts interface, in the releases where --enable-eplb then stops the engine.

With --enable-eplb the model runner's eplb_step, called from the start-up dummy run, asserts that the
loaded model is a MixtureOfExperts (`assert is_mixture_of_experts(model)` in 0.9.2-0.21.0, `assert
self._moe_model is not None` from 0.22.0, vllm/v1/worker/gpu_model_runner.py); a model class that builds
fused-MoE layers without the interface (PhiMoEForCausalLM, Qwen2MoeForCausalLM in 0.19.1) dies there with a
bare AssertionError (vllm-project/vllm#40740). The releases are those whose gpu_model_runner.py holds
either assert inside eplb_step.

Per release this reads the models package with `ast` (never imported; the class lineage of
tools/vllm_lora_moe.py) and, for each registered architecture, decides:
  - lacking: the class's lineage is followed to its end, none of it names MixtureOfExperts, defines
    set_eplb_state or sets the protocol's attributes (the interface is a runtime-checkable Protocol:
    isinstance also holds for a class with its members), it is not multimodal (0.22.0+ look into a
    multimodal wrapper's language model: left out), and a file of the lineage builds fused-MoE layers
    (a dense class is L19's, expert parallelism on it is refused earlier);
  - unresolved: a base the reading cannot follow.

Usage:
  python tools/vllm_eplb_moe.py --source /work/sdists/src -o knowledge/vllm/eplb_moe.yaml [--check]
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_architectures import registry_file, source_main, sp, spans, split_registry, VERSION_DIR, vkey  # noqa: E402
from vllm_lora_moe import Package, _has  # noqa: E402

RUNNER = "vllm/v1/worker/gpu_model_runner.py"
ASSERTS = ("assert is_mixture_of_experts(", "assert self._moe_model is not None")
MEMBERS = {"num_moe_layers", "expert_weights", "moe_layers"}


def assert_line(root: Path) -> int | None:
    """The line of eplb_step's assert in the release's model runner (None: no such assert)."""
    f = root / RUNNER
    if not f.is_file():
        return None
    inside = False
    for i, text in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
        if text.strip().startswith("def "):
            inside = text.strip().startswith("def eplb_step(")
        elif inside and text.strip().startswith(ASSERTS):
            return i
    return None


def _sets_members(line: list[ast.ClassDef]) -> bool:
    for c in line:
        for n in ast.walk(c):
            if isinstance(n, ast.Attribute) and n.attr in MEMBERS and isinstance(n.value, ast.Name) \
                    and n.value.id == "self" and isinstance(n.ctx, ast.Store):
                return True
    return False


def judge(pkg: Package, cls: str) -> bool | None:
    """True: a MoE class without the interface; False: implements it, dense or multimodal; None: unknown."""
    line = pkg.lineage(cls)
    if line is None:
        return None
    names = {c.name for c in line}
    if "MixtureOfExperts" in names or _has(line, "set_eplb_state") or _sets_members(line):
        return False
    if "SupportsMultiModal" in names:
        return False
    return bool({pkg.file_of(c) for c in line} & pkg.moe_files)


def build(source: Path) -> dict:
    dirs = sorted((d for d in source.iterdir() if VERSION_DIR.fullmatch(d.name) and registry_file(d)), key=lambda d: vkey(d.name))
    found = [(d, assert_line(d)) for d in dirs]
    asserting = [(d, n) for d, n in found if n]
    releases = [d.name for d, _ in asserting]
    per = []
    for d, _ in asserting:
        pkg = Package(d)
        per.append(split_registry(d, lambda _module, cls, pkg=pkg: judge(pkg, cls)))
    names = sorted(set().union(*(y for y, _ in per))) if per else []
    source_rows, last = [], None
    for d, n in asserting:
        if n != last:
            source_rows.append({"release": d.name, "file": RUNNER, "line": n})
            last = n
    return {"releases": releases, "source": source_rows,
            "lacking": {n: spans([n in y for y, _ in per], releases) for n in names}}


def dump(data: dict) -> str:
    lines = [
        "# The registered mixture-of-experts architectures whose class does not implement vLLM's MixtureOfExperts",
        "# interface, in the releases whose model runner asserts it when --enable-eplb runs the start-up dummy run",
        "# (vllm-project/vllm#40740). Built by tools/vllm_eplb_moe.py from the releases' sources; do not edit by",
        "# hand. Read by engine/check/startup_eplb.py.",
        "#   releases: the releases whose eplb_step asserts; lacking: architecture → spans of those releases",
        "version: 1",
        "releases: [" + ", ".join(f'"{r}"' for r in data["releases"]) + "]",
        "source: [" + ", ".join(f'{{release: "{s["release"]}", file: {s["file"]}, line: {s["line"]}}}' for s in data["source"]) + "]",
        "lacking:" + ("" if data["lacking"] else " {}"),
        *[f"  {n}: {sp(s)}" for n, s in data["lacking"].items()],
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    return source_main(__doc__, lambda source: dump(build(source)), Path(__file__).resolve().parents[1] / "knowledge/vllm/eplb_moe.yaml")


if __name__ == "__main__":
    sys.exit(main())
