#!/usr/bin/env python3
"""Build knowledge/vllm/spec_decode.yaml: what each vLLM release asks of a speculative-decoding
launch before it starts, read from the releases' sources (DIR/<version>/vllm/...). Per release:

  num_tokens  where SpeculativeConfig refuses a launch that gives no num_speculative_tokens:
              `ngram` the raise the n-gram path meets ("num_speculative_tokens must be provided
              with speculative model unless the draft model config contains an n_predict
              parameter.", _verify_args / maybe_create_spec_config, 0.5.1 on); `draft` the one a
              loaded draft whose config has no n_predict meets first: the same text, then from
              the release that added `speculative_token_tree` "A speculative model was provided,
              but neither `speculative_token_tree` nor `num_speculative_tokens` was provided", and
              later "A speculative model was provided, but `num_speculative_tokens` was not
              provided" (config/speculative.py, v1/worker/gpu/spec_decode/speculator_config.py).
  eagle_prefix
              where EAGLEConfig (transformers_utils/configs/eagle.py) renames a method-"eagle"
              draft's architecture X to EagleX (unless it starts with Eagle): the registry is then
              asked for EagleX, and a release without it refuses the draft.
  draft_pp    where SpeculativeConfig verifies the draft's ModelConfig against the draft's parallel
              config, which copies the target's pipeline_parallel_size: a draft class without
              SupportsPP raises "Pipeline parallelism is not supported for this model."
  eagle3_targets
              the model_type substrings SpeculativeConfig._verify_args takes as EAGLE-3 targets
              ("Eagle3 is only supported for …", 0.8.5–0.21) and the methods the list applies to.

Usage:
  python tools/vllm_spec_decode.py --source /work/sdists/src -o knowledge/vllm/spec_decode.yaml [--check]
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_architectures import VERSION_DIR, vkey, write_or_check  # noqa: E402

CONFIG_FILES = ("vllm/config/speculative.py", "vllm/config/__init__.py", "vllm/config.py",
                "vllm/v1/worker/gpu/spec_decode/speculator_config.py")
MUST = "num_speculative_tokens must be provided with"
TREE = "nor `num_speculative_tokens`"
NOT_PROVIDED = "`num_speculative_tokens` was not provided"
TEXTS = {
    MUST: "num_speculative_tokens must be provided with speculative model unless the draft model config contains an n_predict parameter.",
    TREE: "A speculative model was provided, but neither `speculative_token_tree` nor `num_speculative_tokens` was provided",
    NOT_PROVIDED: "A speculative model was provided, but `num_speculative_tokens` was not provided",
}
_LIST = re.compile(r"(eagle3_target_supported|aux_hidden_states_supported)\s*=\s*\[([^\]]*)\]", re.S)
_LLAMA_ONLY = re.compile(r'"llama" not in self\.target_model_config')
_METHODS = re.compile(r"self\.method\s+in\s+(\([^)]*\))")


def _find(root: Path, needle: str) -> tuple[str, int] | None:
    """(file, line) of the first line holding `needle` in the release's config files."""
    for rel in CONFIG_FILES:
        f = root / rel
        if not f.is_file():
            continue
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if needle in line:
                return rel, i
    return None


def _eagle3(root: Path) -> dict | None:
    for rel in CONFIG_FILES[:3]:
        f = root / rel
        if not f.is_file():
            continue
        text = f.read_text(encoding="utf-8")
        if m := _LIST.search(text):
            models = [x.strip().strip("\"'") for x in m.group(2).split(",") if x.strip()]
            tail = text[m.end():m.end() + 600]
            mm = _METHODS.search(tail)
            methods = list(ast.literal_eval(mm.group(1))) if mm else ["eagle3"]
            return {"file": rel, "line": text[:m.start()].count("\n") + 1, "models": models, "methods": methods}
        if m := _LLAMA_ONLY.search(text):
            return {"file": rel, "line": text[:m.start()].count("\n") + 1, "models": ["llama"], "methods": ["eagle3"]}
    return None


def scan(root: Path) -> dict:
    row: dict = {}
    must = _find(root, MUST)
    if must:
        row["ngram"] = {"file": must[0], "line": must[1], "text": TEXTS[MUST]}
        draft = _find(root, NOT_PROVIDED) or _find(root, TREE) or must
        key = NOT_PROVIDED if _find(root, NOT_PROVIDED) else TREE if _find(root, TREE) else MUST
        row["draft"] = {"file": draft[0], "line": draft[1], "text": TEXTS[key]}
    eagle = root / "vllm/transformers_utils/configs/eagle.py"
    if eagle.is_file():
        for i, line in enumerate(eagle.read_text(encoding="utf-8").splitlines(), 1):
            if 'f"Eagle{arch}"' in line:
                row["eagle_prefix"] = {"file": str(eagle.relative_to(root)), "line": i}
                break
    pp = _find(root, "self.draft_model_config.verify_with_parallel_config(")
    if pp:
        row["draft_pp"] = {"file": pp[0], "line": pp[1]}
    if e3 := _eagle3(root):
        row["eagle3_targets"] = e3
    return row


def build(sources: list[Path]) -> dict:
    found = {d.name: d for s in sources for d in s.iterdir() if VERSION_DIR.fullmatch(d.name) and (d / "vllm").is_dir()}
    releases = sorted(found, key=vkey)
    return {"releases": releases, "rows": {v: scan(found[v]) for v in releases}}


def _at(e: dict) -> str:
    return f'{{file: {e["file"]}, line: {e["line"]}}}'


def dump(data: dict) -> str:
    lines = [
        "# What each vLLM release asks of a speculative-decoding launch before it starts, built by",
        "# tools/vllm_spec_decode.py from the releases' sources (its docstring says what each key means).",
        "# Do not edit by hand. Releases without a key do not make that check.",
        "version: 1",
        "releases: [" + ", ".join(f'"{r}"' for r in data["releases"]) + "]",
        "texts:",
    ]
    lines += [f"  {k}: {v!r}".replace("'", '"') for k, v in (("must", TEXTS[MUST]), ("tree", TEXTS[TREE]),
                                                              ("not_provided", TEXTS[NOT_PROVIDED]))]
    lines.append("per_release:")
    inv = {v: k for k, v in (("must", TEXTS[MUST]), ("tree", TEXTS[TREE]), ("not_provided", TEXTS[NOT_PROVIDED]))}
    for v, row in data["rows"].items():
        if not row:
            continue
        lines.append(f'  "{v}":')
        for key in ("ngram", "draft"):
            if key in row:
                lines.append(f'    {key}: {{file: {row[key]["file"]}, line: {row[key]["line"]}, text: {inv[row[key]["text"]]}}}')
        for key in ("eagle_prefix", "draft_pp"):
            if key in row:
                lines.append(f"    {key}: {_at(row[key])}")
        if "eagle3_targets" in row:
            e = row["eagle3_targets"]
            lines.append(f'    eagle3_targets: {{file: {e["file"]}, line: {e["line"]}, methods: [{", ".join(e["methods"])}], '
                         f'models: [{", ".join(e["models"])}]}}')
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", type=Path, required=True, action="append")
    ap.add_argument("-o", "--output", type=Path, required=True)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    return write_or_check(a.output, dump(build(a.source)), a.check)


if __name__ == "__main__":
    sys.exit(main())
