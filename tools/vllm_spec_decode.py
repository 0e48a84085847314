#!/usr/bin/env python3
"""Build knowledge/vllm/spec_decode.yaml: what each vLLM release asks of a speculative-decoding
launch before it starts, read from the releases' sources (DIR/<version>/vllm/...). Per release:

  ngram/draft where SpeculativeConfig refuses a launch that gives no num_speculative_tokens, and
              the text it prints: `ngram` the raise the n-gram path meets ("num_speculative_tokens
              must be provided with speculative model unless the draft model config contains an
              n_predict parameter.", _verify_args / maybe_create_spec_config, 0.5.1 on; up to 0.8.1
              it says speculative_model); `draft` the one a
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
              config, and that copies the target's pipeline_parallel_size (up to 0.29; from 0.30
              create_draft_parallel_config gives the draft PP 1): a draft class without SupportsPP
              raises "Pipeline parallelism is not supported for this model."
  eagle3_targets
              the model_type substrings SpeculativeConfig._verify_args takes as EAGLE-3 targets
              ("Eagle3 is only supported for …", 0.8.5–0.21) and the methods the list applies to.
  mtp_steps   SpeculativeConfig.hf_config_override, the rewrite of the draft's config that turns a
              target checkpoint into its MTP draft (DeepseekV3 → DeepSeekMTPModel …), compiled to
              steps in source order: `if` a model_type (equal to / containing) or an architecture
              (the current one, or the one the config came with), then `model_type` and
              `architecture` set (or `map`: architecture → architecture, or `by_model_type`:
              the model_type the step was entered with → architecture, for a class picked by a
              flag read off hf_config.model_type, Qwen3.5's `"Qwen3_5MoeMTP" if is_moe else
              "Qwen3_5MTP"`), `stop` where it returns; `unsure` where the reading cannot follow the step (a condition on other
              fields, a class chosen at run time): a config it applies to is left unknown.
  eagle3_runner
              where the model runner, when EAGLE-3 asks for the target's auxiliary hidden states,
              raises "Model does not support EAGLE3 interface" for a target class without
              SupportsEagle3 (0.10.1 on, while the model loads).
  eagle3_interface / eagle3_interface_unresolved (top level)
              architecture → spans of the releases with that check whose registered class
              implements SupportsEagle3 (a base named so, a class body `supports_eagle3 = True`, or
              the interface's methods defined: the runner tests the protocol with isinstance), read
              like SupportsPP by tools/vllm_architectures.py; unresolved classes apart (unknown).
  dspark_default
              where method "dspark" with the target's checkpoint as the draft makes the draft
              DSparkDraftModel (or DSparkV41DraftModel), unless the draft already is one of
              `unless` (0.25–0.33).

Usage:
  python tools/vllm_spec_decode.py --source /work/sdists/src -o knowledge/vllm/spec_decode.yaml [--check]
"""
from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vllm_architectures as va  # noqa: E402
from vllm_architectures import registry_file, source_main, sp, spans, VERSION_DIR, vkey  # noqa: E402
from spec_decode_mtp import mtp_steps  # noqa: E402

_EAGLE3_METHODS = ("get_eagle3_aux_hidden_state_layers", "set_aux_hidden_state_layers")
_plain_flags = va._flags


def _flags(node: ast.ClassDef) -> frozenset[str]:
    """The interface flags, and supports_eagle3 for a class that sets it or defines the protocol's methods."""
    out = set(_plain_flags(node))
    for st in node.body:
        if isinstance(st, (ast.Assign, ast.AnnAssign)):
            targets = st.targets if isinstance(st, ast.Assign) else [st.target]
            if any(isinstance(t, ast.Name) and t.id == "supports_eagle3" for t in targets) \
                    and isinstance(st.value, ast.Constant) and st.value.value is True:
                out.add("supports_eagle3")
        elif isinstance(st, ast.FunctionDef) and st.name in _EAGLE3_METHODS:
            out.add("supports_eagle3")
    return frozenset(out)


va._flags = _flags
va.INTERFACES["eagle3"] = ("SupportsEagle3", "supports_eagle3")
RUNNER_FILES = ("vllm/v1/worker/gpu_model_runner.py", "vllm/v1/worker/gpu/spec_decode/eagle/eagle3_utils.py")

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


def _literal(root: Path, rel: str, prefix: str) -> str | None:
    """The whole string literal (adjacent pieces joined) that starts with `prefix` in a file."""
    tree = ast.parse((root / rel).read_text(encoding="utf-8"))
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.startswith(prefix):
            return n.value
    return None


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


_DSPARK = re.compile(r'if self\.method == "dspark"\s+and \((?P<unless>.*?)\):\s*\n(?P<body>.*?)architectures = \[\s*(?P<arch>[^\]]*?)\s*\]', re.S)


def _dspark(root: Path) -> dict | None:
    f = root / "vllm/config/speculative.py"
    if not f.is_file():
        return None
    text = f.read_text(encoding="utf-8")
    m = _DSPARK.search(text)
    if not m or len(m.group("body")) > 1200:
        return None
    unless = re.findall(r'"(\w+)"\s+not in self\.draft_model_config\.architectures', m.group("unless"))
    archs = re.findall(r'"(\w+)"', m.group("arch"))
    if not unless or not archs:
        return None
    return {"file": "vllm/config/speculative.py", "line": text[:m.start()].count("\n") + 1, "unless": unless,
            "architectures": archs}


def scan(root: Path) -> dict:
    row: dict = {}
    must = _find(root, MUST)
    if must:
        row["ngram"] = {"file": must[0], "line": must[1], "text": _literal(root, must[0], MUST) or TEXTS[MUST]}
        draft = _find(root, NOT_PROVIDED) or _find(root, TREE) or must
        key = NOT_PROVIDED if _find(root, NOT_PROVIDED) else TREE if _find(root, TREE) else MUST
        text = TEXTS[key] if key != MUST else row["ngram"]["text"]
        row["draft"] = {"file": draft[0], "line": draft[1], "text": text}
    eagle = root / "vllm/transformers_utils/configs/eagle.py"
    if eagle.is_file():
        for i, line in enumerate(eagle.read_text(encoding="utf-8").splitlines(), 1):
            if 'f"Eagle{arch}"' in line:
                row["eagle_prefix"] = {"file": str(eagle.relative_to(root)), "line": i}
                break
    pp = _find(root, "self.draft_model_config.verify_with_parallel_config(")
    if pp and _find(root, "pipeline_parallel_size=target_parallel_config"):  # 0.30 gives the draft PP 1
        row["draft_pp"] = {"file": pp[0], "line": pp[1]}
    if e3 := _eagle3(root):
        row["eagle3_targets"] = e3
    if steps := mtp_steps(root, CONFIG_FILES[:3]):
        row["mtp_steps"] = steps
    if ds := _dspark(root):
        row["dspark_default"] = ds
    for rel in RUNNER_FILES:
        f = root / rel
        if f.is_file():
            lines = f.read_text(encoding="utf-8").splitlines()
            hit = next((i for i, line in enumerate(lines, 1) if "does not support EAGLE3 interface" in line), None)
            if hit:
                row["eagle3_runner"] = {"file": rel, "line": hit}
                break
    return row


def build(sources: list[Path]) -> dict:
    found = {d.name: d for s in sources for d in s.iterdir() if VERSION_DIR.fullmatch(d.name) and (d / "vllm").is_dir()}
    releases = sorted(found, key=vkey)
    rows = {v: scan(found[v]) for v in releases}
    checked = [v for v in releases if "eagle3_runner" in rows[v] and registry_file(found[v])]
    per = {v: va._per_class(found[v], "eagle3") for v in checked}
    names = sorted(set().union(*(yes for yes, _ in per.values())))
    unres = sorted(set().union(*(no for _, no in per.values())))
    return {"releases": releases, "rows": rows, "eagle3_checked": checked,
            "eagle3_interface": {n: spans([n in per[v][0] for v in checked], checked) for n in names},
            "eagle3_interface_unresolved": {n: spans([n in per[v][1] for v in checked], checked) for n in unres}}


def _at(e: dict) -> str:
    return f'{{file: {e["file"]}, line: {e["line"]}}}'


def dump(data: dict) -> str:
    lines = [
        "# What each vLLM release asks of a speculative-decoding launch before it starts, built by",
        "# tools/vllm_spec_decode.py from the releases' sources (its docstring says what each key means).",
        "# Do not edit by hand. Releases without a key do not make that check.",
        "version: 1",
        "releases: [" + ", ".join(f'"{r}"' for r in data["releases"]) + "]",
        "per_release:",
    ]
    for v, row in data["rows"].items():
        if not row:
            continue
        lines.append(f'  "{v}":')
        for key in ("ngram", "draft"):
            if key in row:
                lines.append(f"    {key}: {json.dumps(row[key], sort_keys=True)}")
        for key in ("eagle_prefix", "draft_pp"):
            if key in row:
                lines.append(f"    {key}: {_at(row[key])}")
        if "eagle3_targets" in row:
            e = row["eagle3_targets"]
            lines.append(f'    eagle3_targets: {{file: {e["file"]}, line: {e["line"]}, methods: [{", ".join(e["methods"])}], '
                         f'models: [{", ".join(e["models"])}]}}')
        if "mtp_steps" in row:
            lines.append("    mtp_steps:")
            lines += [f"      - {json.dumps(st, sort_keys=True)}" for st in row["mtp_steps"]]
        if "dspark_default" in row:
            lines.append(f'    dspark_default: {json.dumps(row["dspark_default"], sort_keys=True)}')
        if "eagle3_runner" in row:
            lines.append(f'    eagle3_runner: {_at(row["eagle3_runner"])}')
    lines.append("# the releases the eagle3_interface spans run over (those with the runner's check)")
    lines.append("eagle3_checked: [" + ", ".join(f'"{r}"' for r in data["eagle3_checked"]) + "]")
    for key in ("eagle3_interface", "eagle3_interface_unresolved"):
        lines.append(f"{key}:")
        lines += [f"  {n}: {sp(x)}" for n, x in data[key].items()]
    return "\n".join(lines) + "\n"


def main() -> int:
    return source_main(__doc__, lambda source: dump(build(source)), many=True)


if __name__ == "__main__":
    sys.exit(main())
