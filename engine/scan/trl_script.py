"""Whether `python X.py --use_vllm …` runs a TRL trainer. `--use_vllm` is TRL's key, but evaluation
scripts spell their own switch the same way (Qwen2.5-Math's `math_eval.py --use_vllm` builds an
`LLM(...)` itself): only a script that reaches TRL's trainer configs makes the flag a TRL rollout
(colocated with training by default). A script the project holds is read; one it does not hold is
told by the TRL-only keys it is given or a trainer's name. A trainer named like TRL's is TRL's
only where it comes from TRL: a project's own `GRPOTrainer` (Dense-Communication/GRPO_latent's
`from training import GRPOTrainer`, a class in training/rl_trainer.py with no TRL import) is not."""
from __future__ import annotations

import ast
import posixpath
import re
from pathlib import PurePosixPath

# what a TRL trainer script shows: trl imported, or a trainer / config / parser of TRL named
# (through a project module that imports it: open-r1's `from open_r1.configs import GRPOConfig`)
_TRL_IMPORT = re.compile(r"^\s*(?:from\s+trl\b|import\s+trl\b)", re.M)
_TRL_NAME = re.compile(r"\b(?:(?:GRPO|OnlineDPO|RLOO|NashMD|XPO|GKD|PPO|DPO)(?:Config|Trainer)|TrlParser)\b")
# how many project modules a name is followed through (a package __init__ re-exporting a submodule's)
_DEPTH = 3
# keys only TRL's trainer configs take (an evaluation script's own `--use_vllm` is not one)
_TRL_ONLY = {"vllm_mode", "vllm_gpu_memory_utilization", "vllm_server_host", "vllm_server_port", "vllm_server_base_url",
             "vllm_tensor_parallel_size", "vllm_importance_sampling_correction", "num_generations"}
# a script TRL's examples or a recipe names for a trainer
_TRAINER_NAME = re.compile(r"(?:grpo|dpo|rloo|ppo|gkd|xpo|nash|online|trainer|train|rl|sft|r1)", re.I)


def runs_trl(ctx, rel: str | None, script: str, rest: list[str]) -> bool:
    """True unless the script is known not to be TRL's: its text in the project shows no TRL,
    or, not held, it is given no TRL-only key and its name is no trainer's."""
    ref = script_ref(ctx, rel, script) if ctx is not None and rel is not None else None
    text = ctx.read(ref) if ref is not None else None
    if ref is not None and text is not None:
        return _shows_trl(ctx, ref, text)
    keys = {v.lstrip("-").replace("-", "_").split("=")[0] for v in rest if v.startswith("--")}
    return bool(keys & _TRL_ONLY) or "config" in keys or bool(_TRAINER_NAME.search(script.rsplit("/", 1)[-1]))


def _shows_trl(ctx, ref: str, text: str) -> bool:
    """trl imported, or a trainer / config / parser of TRL's name that comes from TRL (through a
    project module that imports it: open-r1's `from open_r1.configs import GRPOConfig`)."""
    if _TRL_IMPORT.search(text):
        return True
    names = set(_TRL_NAME.findall(text))
    if not names:
        return False
    tree = _parse(text)
    return tree is None or any(_from_trl(ctx, ref, tree, name, 0) for name in names)


def _from_trl(ctx, ref: str, tree: ast.Module, name: str, depth: int) -> bool:
    """Whether `name` in the module `ref` is TRL's. Defined there (TRL not imported) it is not;
    imported from a module the project holds, that module decides; from a package the project
    does not hold (trl itself, open_r1 installed, unsloth), or reached some other way, it is."""
    src = imported_from(tree, name)
    if src is None:
        return not any(isinstance(n, ast.ClassDef) and n.name == name for n in ast.walk(tree))
    mod_ref = module_ref(ctx, ref, *src)
    text = ctx.read(mod_ref) if mod_ref is not None else None
    if mod_ref is None or text is None or depth >= _DEPTH or _TRL_IMPORT.search(text):
        return True
    sub = _parse(text)
    return sub is None or _from_trl(ctx, mod_ref, sub, name, depth + 1)


def _parse(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None


def imported_from(tree: ast.Module, name: str) -> tuple[int, str] | None:
    """(level, module) of a `from M import name` anywhere in the module."""
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom) and any(a.name == name and a.asname in (None, name) for a in n.names):
            return n.level, n.module or ""
    return None


def module_ref(ctx, ref: str, level: int, module: str) -> str | None:
    """The project file of `from <level dots><module> import …` written in `ref`: relative to its
    package, else beside it (the script's folder is first on sys.path), else at the root."""
    here = PurePosixPath(ref).parent
    if level:
        for _ in range(level - 1):
            here = here.parent
        bases = [here]
    else:
        bases = [here, PurePosixPath(".")]
    tail = module.replace(".", "/")
    files = _files(ctx)
    for base in bases:
        stem = posixpath.normpath((base / tail).as_posix() if tail else base.as_posix())
        for cand in ((stem + ".py") if tail else None, "__init__.py" if stem == "." else stem + "/__init__.py"):
            if cand is not None and not cand.startswith("..") and cand in files:
                return cand
    return None


def script_ref(ctx, rel: str, script: str) -> str | None:
    """The script as the command names it: beside the file, at the root, in a folder above the
    file (a script run as `cd ..; python x.py`), else the project's one file of that path's tail."""
    ref = ctx.resolve_ref(rel, script)
    if ref is None and "$" not in script and not script.startswith(("/", "~")):
        here = PurePosixPath(rel).parent
        for up in here.parents:
            cand = posixpath.normpath((up / script).as_posix())
            if cand in _files(ctx):
                ref = cand
                break
        if ref is None:
            tail = posixpath.normpath(script).lstrip("/")
            # the files that are `tail` or end with `/tail`: the context's index of path tails (a
            # pass over every file per script was a quarter of the 5,000-file tree's audit)
            hits = (ctx.files_ending(tail) if hasattr(ctx, "files_ending")
                    else [f for f in _files(ctx) if ("/" + f).endswith("/" + tail)])
            ref = hits[0] if len(hits) == 1 else None
    return ref


def _files(ctx) -> set[str]:
    got = ctx.__dict__.get("_file_set")
    if got is None or len(got) != len(ctx.files):
        got = ctx.__dict__["_file_set"] = set(ctx.files)
    return got
