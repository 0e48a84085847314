"""Hydra entry points of the project that run verl: `python -m mypkg.main_ppo` or `python x/main.py`
whose module is a project file decorated `@hydra.main(config_path=…, config_name=…)`. The config it
names (a folder next to it, or `pkg://a.b` inside the project) is the launch's config; the files its
`defaults:` list names from the same search path come first, as Hydra composes them. A config
that inherits verl's own trainer config (`pkg://verl.trainer.config`, `defaults: [ppo_trainer]`) or
holds `actor_rollout_ref` makes the launch a verl one; anything else is not read as verl."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from vllm_kb.engine.scan.context import parse_python
from vllm_kb.engine.scan.python_scope import dotted

_VERL_BASES = {"ppo_trainer", "ppo_megatron_trainer", "_generated_ppo_trainer", "_generated_ppo_megatron_trainer"}


@dataclass
class Entry:
    file: str  # the entry point's project file
    config: str | None  # its config file in the project, if any
    defaults: list[str]  # config files its `defaults:` list composes before it, in order
    verl: bool


def module_file(ctx, rel: str, module: str) -> str | None:
    """The project file `python -m module` runs: next to the script, at the root, or the one
    file anywhere whose path ends with the module's."""
    tail = module.replace(".", "/")
    # the context's set and path-tail index, built once (a set of every file, and a pass over all
    # of them, per module asked about, in each of a large tree's entry points)
    indexed = hasattr(ctx, "file_set") and hasattr(ctx, "files_ending")
    files = ctx.file_set() if indexed else set(getattr(ctx, "files", None) or [])
    here = PurePosixPath(rel).parent
    for cand in (f"{tail}.py", f"{tail}/__main__.py"):
        for base in (here, *here.parents):
            p = (base / cand).as_posix().removeprefix("./")
            if p in files:
                return p
    # the index also holds `tail.py` at the root, which the loop above would have returned
    ends = ctx.files_ending(f"{tail}.py") if indexed else [f for f in files if f.endswith("/" + tail + ".py")]
    return ends[0] if len(ends) == 1 else None


def find(ctx, rel: str, module: str | None = None, script: str | None = None) -> Entry | None:
    if ctx is None:
        return None
    file = module_file(ctx, rel, module) if module else ctx.resolve_ref(rel, script) if script else None
    if file is None:
        return None
    text = ctx.read(file)
    if not text or "hydra" not in text:
        return None
    try:
        tree = parse_python(text, file)
    except (SyntaxError, ValueError, RecursionError):
        return None
    main = _hydra_main(tree)
    if main is None:
        return None
    path, name = main
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    imports_verl = any(m.split(".")[0] == "verl" for m in imported)
    # verl's SFT trainer (verl.trainer.sft_trainer, fsdp_sft_trainer; its sft_trainer* configs) builds
    # no rollout: a project entry that drives it is no vLLM launch unless its own config has one
    sft = bool(name and "sft" in name.lower()) or any(re.match(r"verl\.trainer\.\w*sft", m) for m in imported)
    if path is not None and path.startswith("pkg://verl."):
        return None if sft else Entry(file, None, [], True)
    folder = _config_dir(ctx, file, path)
    config = None
    if folder is not None and name:
        cand = f"{folder}/{name}" if folder else name
        cand = cand if cand.endswith((".yaml", ".yml")) else cand + ".yaml"
        config = cand if cand in set(ctx.files) else None
    defaults, inherits = _defaults(ctx, config) if config else ([], False)
    verl = (imports_verl and not sft) or inherits or (config is not None and _has_rollout(ctx, [config, *defaults]))
    return Entry(file, config, defaults, verl) if verl else None


# what an entry point that trains calls: trainer.fit(), run_ppo(config), runner.run.remote(…), …
_WORK = re.compile(r"fit|train|run|task|ppo|grpo|dapo|generat|rollout", re.I)


def _hydra_main(tree: ast.Module) -> tuple[str | None, str | None] | None:
    """(config_path, config_name) of the `@hydra.main` function, when it does more than print
    its config (a config printer or checker is no launch)."""
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for d in node.decorator_list:
            if isinstance(d, ast.Call) and _name(d.func) in ("hydra.main", "main") and (_name(d.func) == "hydra.main" or _imports_hydra_main(tree)):
                # the callee's whole dotted name: `main_task.remote(config)` (TinyZero's split_placement) and
                # `runner.run.remote(…)` name their work before `.remote`
                if not any(isinstance(c, ast.Call) and _WORK.search(_dotted(c.func)) for c in ast.walk(node)):
                    return None
                kw = {k.arg: k.value for k in d.keywords}
                path = kw.get("config_path", d.args[0] if d.args else None)
                name = kw.get("config_name", d.args[1] if len(d.args) > 1 else None)
                return _str(path), _str(name)
    return None


def _dotted(f) -> str:
    """`a.b.c` of a callee made of names and attributes; the last attribute of anything else."""
    return dotted(f) or (f.attr if isinstance(f, ast.Attribute) else "")


def _imports_hydra_main(tree) -> bool:
    return any(isinstance(n, ast.ImportFrom) and n.module == "hydra" and any(a.name == "main" for a in n.names) for n in tree.body)


def _name(f) -> str:
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        return f"{f.value.id}.{f.attr}"
    return f.id if isinstance(f, ast.Name) else ""


def _str(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _config_dir(ctx, file: str, path: str | None) -> str | None:
    """The project folder a config_path names: relative to the entry point, or `pkg://a.b` as a
    package folder of the project."""
    if path is None:
        return None
    files = set(ctx.files)
    if path.startswith("pkg://"):
        tail = path[len("pkg://"):].replace(".", "/")
        hits = sorted({PurePosixPath(f).parent.as_posix() for f in files if PurePosixPath(f).parent.as_posix() == tail
                       or PurePosixPath(f).parent.as_posix().endswith("/" + tail)})
        return hits[0] if len(hits) == 1 else None
    if path.startswith("file://"):
        path = path[len("file://"):]
    base = PurePosixPath(file).parent
    parts: list[str] = []
    for p in (base / path).parts:
        if p == "..":
            if parts:
                parts.pop()
        elif p != ".":
            parts.append(p)
    return "/".join(parts)


def _load(ctx, rel: str):
    from vllm_kb.engine.kb import yamlio

    text = ctx.read(rel)
    try:
        doc = yamlio.load(text or "")
    except (yamlio.YamlError, RecursionError):
        return None
    return doc.data if isinstance(doc.data, dict) else None


def _defaults(ctx, config: str) -> tuple[list[str], bool]:
    """Config files of the project that `defaults:` composes before `config` (depth first), and
    whether the chain reaches verl's own trainer config."""
    out: list[str] = []
    inherits = False
    seen = {config}
    files = set(ctx.files)

    def walk(rel: str, depth: int) -> None:
        nonlocal inherits
        data = _load(ctx, rel)
        if data is None or depth > 6:
            return
        for item in data.get("defaults") or []:
            if not isinstance(item, str) or item == "_self_":
                continue
            name = item.split("@", 1)[0].strip()
            cand = f"{PurePosixPath(rel).parent.as_posix()}/{name}.yaml".removeprefix("./")
            if cand in files and cand not in seen:
                seen.add(cand)
                walk(cand, depth + 1)
                out.append(cand)
            elif name in _VERL_BASES:
                inherits = True

    walk(config, 0)
    return out, inherits


def _has_rollout(ctx, configs: list[str]) -> bool:
    for rel in configs:
        data = _load(ctx, rel)
        if isinstance(data, dict) and isinstance(data.get("actor_rollout_ref"), dict):
            return True
    return False


# the frameworks whose entry point a project file may run under its own name
_REEXPORTED = ("verl.", "recipe.")


def reexported_main(ctx, rel: str, script: str) -> str | None:
    """The framework module whose `main` a project script imports and calls (`entry.py`:
    `from verl.trainer.main_ppo import main` with `main()` under `if __name__ == "__main__":`,
    utopiafar/TinyZero_QWen3.5, eval86): `python entry.py <overrides>` runs that entry point as
    `python -m verl.trainer.main_ppo` would. None where the script does anything else with it."""
    file = ctx.resolve_ref(rel, script) if ctx is not None else None
    text = ctx.read(file) if file else None
    if not text or not any(p + "trainer" in text or p in text for p in _REEXPORTED):
        return None
    try:
        tree = parse_python(text, str(file))
    except (SyntaxError, ValueError, RecursionError):
        return None
    imported = {a.asname or a.name: n.module for n in tree.body if isinstance(n, ast.ImportFrom) and n.module
                and n.module.startswith(_REEXPORTED) and not n.level for a in n.names if a.name == "main"}
    body = list(tree.body)
    for n in tree.body:  # the `if __name__ == "__main__":` block runs as the script's body
        if isinstance(n, ast.If) and isinstance(n.test, ast.Compare) and "__main__" in ast.unparse(n.test):
            body += n.body
    for n in body:
        if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Name) \
                and n.value.func.id in imported and not n.value.args and not n.value.keywords:
            return imported[n.value.func.id]
    return None
