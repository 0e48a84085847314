"""NeMo-RL configs as its run scripts read them: `examples/run_grpo_math.py --config cfg.yaml k=v …`
loads the YAML with `defaults:` inheritance (nemo_rl/utils/config.py load_config_with_inheritance:
each parent, relative to the first config's folder, merged under the child), then applies the
Hydra-style overrides (`k=v`, `+k=v`, `++k=v`), then resolves `${a.b}` interpolations over the
result — so `max_model_len: ${policy.max_total_sequence_length}` follows an override of the latter.
The generation keys sit under `policy.generation` (GRPO) or at the top as `generation` (run_eval.py,
eval.yaml), which is read here as the same keys."""
from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Any

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.framework_site import Entry, mapping_entries

# the config each run script loads without --config (examples/run_*.py: os.path.join(…, "configs", NAME))
DEFAULT_CONFIGS = {"run_grpo_math.py": "grpo_math_1B.yaml", "run_grpo_sliding_puzzle.py": "grpo_sliding_puzzle.yaml",
                   "run_eval.py": "eval.yaml"}
_RUN = re.compile(r"^run_\w+\.py$")
_REF = re.compile(r"^\$\{([A-Za-z_][\w.]*)\}$")


def launch(ctx: ScanContext, rel: str, script: str, rest: list[str]) -> tuple[str, str] | None:
    """(command, config) when `script` is a NeMo-RL run script whose config generates with vLLM:
    `eval` for a top-level `generation:` block (run_eval.py), else `train`."""
    name = script.rsplit("/", 1)[-1]
    if not _RUN.match(name):
        return None
    config = None
    for k, word in enumerate(rest):
        if word == "--config" and k + 1 < len(rest):
            config = ctx.resolve_ref(rel, rest[k + 1])
        elif word.startswith("--config="):
            config = ctx.resolve_ref(rel, word.split("=", 1)[1])
    if config is None and not any(w == "--config" or w.startswith("--config=") for w in rest) and name in DEFAULT_CONFIGS:
        where = ctx.resolve_ref(rel, script)
        if where is not None:
            config = ctx.resolve_ref(where, f"configs/{DEFAULT_CONFIGS[name]}")
    if config is None:
        return None
    data = composed(ctx, config)
    command = generation_command(data)
    return (command, config) if command else None


def generation_command(data: dict) -> str | None:
    """`train` (policy.generation with a vllm_cfg), `eval` (top-level generation), or None."""
    policy = data.get("policy")
    gen = policy.get("generation") if isinstance(policy, dict) else None
    if isinstance(gen, dict) and isinstance(gen.get("vllm_cfg"), dict):
        return "train"
    gen = data.get("generation")
    if isinstance(gen, dict) and isinstance(gen.get("vllm_cfg"), dict):
        return "eval"
    return None


def chain(ctx: ScanContext, config: str) -> list[tuple[str, yamlio.Document]]:
    """The config and its `defaults:` parents, parents first (a parent met twice is read once)."""
    out: list[tuple[str, yamlio.Document]] = []
    base = PurePosixPath(config).parent.as_posix()

    def visit(rel: str, depth: int) -> None:
        if depth > 8 or any(r == rel for r, _ in out):
            return
        text = ctx.read(rel)
        if text is None:
            return
        try:
            doc = yamlio.load(text)
        except yamlio.YamlError as e:
            ctx.skip(rel, "yaml-error", e.line, str(e))
            return
        if not isinstance(doc.data, dict):
            return
        parents = doc.data.get("defaults")
        for parent in [parents] if isinstance(parents, str) else parents if isinstance(parents, list) else []:
            if isinstance(parent, str):
                # relative to the first config's folder (load_config_with_inheritance keeps base_dir)
                ref = ctx.resolve_ref(f"{base}/x.yaml" if base not in ("", ".") else "x.yaml", parent) or ctx.resolve_ref(rel, parent)
                if ref is not None:
                    visit(ref, depth + 1)
        out.append((rel, doc))

    visit(config, 0)
    return out


def composed(ctx: ScanContext, config: str) -> dict:
    """The merged mapping (for telling what a config does), without positions."""
    merged: dict = {}
    for _, doc in chain(ctx, config):
        _merge(merged, {k: v for k, v in doc.data.items() if k != "defaults"})
    return merged


def _merge(into: dict, new: dict) -> None:
    for k, v in new.items():
        if isinstance(v, dict) and isinstance(into.get(k), dict):
            _merge(into[k], v)
        else:
            into[k] = v


def entries(ctx: ScanContext, config: str | None, found: list[Entry], command: str | None, referenced: bool = True) -> list[Entry]:
    """Every key of the composed config, each from the file that writes it (a fix edits that file),
    then the command line's overrides; `${a.b}` values resolved over the result. `referenced`: the
    files are a launch's (no config site of their own)."""
    out: list[Entry] = []
    for rel, doc in chain(ctx, config) if config else []:
        if referenced:
            ctx.referenced.add(rel)
        out += [e for e in mapping_entries({k: v for k, v in doc.data.items() if k != "defaults"}, doc, rel, True)]
    out += found
    if command == "eval":
        for e in out:
            bare = e.written.lstrip("+~")
            lead = e.written[:len(e.written) - len(bare)]
            if bare == "generation.model_name":
                e.written = lead + "policy.model_name"
            elif bare.startswith("generation."):
                e.written = lead + "policy." + bare
    resolve(out)
    return out


def resolve(entries: list[Entry]) -> None:
    """OmegaConf's `${a.b}`: the value of the key it names, after every file and override; any other
    interpolation (`${mul:…}`, a partial string) is a value the audit cannot read."""
    last = {e.written.lstrip("+~"): e for e in entries}
    for e in entries:
        s = e.setting
        if not isinstance(s.value, str) or "${" not in s.value:
            continue
        target: Any = s.value
        seen: set[str] = set()
        while isinstance(target, str) and (m := _REF.match(target.strip())) and m.group(1) not in seen:
            seen.add(m.group(1))
            ref = last.get(m.group(1))
            target = ref.setting.value if ref is not None and ref.setting.resolved else None
        if target is None or (isinstance(target, str) and "${" in target):
            s.value, s.resolved = None, False
            s.note = f"{s.raw} (an interpolation the audit cannot read)"
        else:
            s.value, s.resolved = target, True
            s.note = f"{s.raw} = {target!r}"
