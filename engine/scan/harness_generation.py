"""How many tokens an evaluation harness generates per request at its vLLM site: lm_eval's
`--gen_kwargs max_gen_toks=N`, its `--model_args …,max_gen_toks=N` and the `generation_kwargs:
max_gen_toks` of the project's own task YAML a `--tasks` name (or `--include_path`) picks; lighteval's
`generation_parameters={max_new_tokens:N}`. A max_model_len proposed for the site must hold that
much beside the prompt: lm_eval's VLLM.generate_until cuts each prompt to max_length - max_gen_toks
(lm_eval/models/vllm_causallms.py), so a shorter limit silently truncates the prompts it scores."""
from __future__ import annotations

import posixpath
import re

import yaml

_TOKS = re.compile(r"""["']?\b(?:max_gen_toks|max_new_tokens|max_tokens)["']?\s*[:=]\s*["']?(\d+)""")


def _number(text: str) -> int | None:
    got = [int(m.group(1)) for m in _TOKS.finditer(text or "")]
    return max(got) if got else None


def _option(vals: list[str], names: tuple[str, ...]) -> str | None:
    for k, v in enumerate(vals):
        if v in names and k + 1 < len(vals):
            return vals[k + 1]
        for n in names:
            if v.startswith(n + "="):
                return v.split("=", 1)[1]
    return None


def _task_files(ctx) -> dict:
    """Each project task YAML with a `generation_kwargs.max_gen_toks`: (its `task:` name, the number),
    read once for the project (a harness checkout holds thousands of task files)."""
    if getattr(ctx, "task_generation", None) is not None:
        return ctx.task_generation
    out: dict = {}
    for cand in getattr(ctx, "files", ()) or ():
        if not cand.endswith((".yaml", ".yml")):
            continue
        text = ctx.read(cand)
        if not text or "max_gen_toks" not in text or "task" not in text:
            continue
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError:
            continue
        gen = data.get("generation_kwargs") if isinstance(data, dict) else None
        n = gen.get("max_gen_toks") if isinstance(gen, dict) else None
        if isinstance(n, int) and not isinstance(n, bool):
            out[cand] = (str(data.get("task")), n)
    try:
        ctx.task_generation = out
    except AttributeError:
        pass
    return out


def _task_yaml(ctx, rel: str, tasks: set[str], include: str | None) -> tuple[int, str] | None:
    """The largest `max_gen_toks` of the project's task YAMLs that a `--tasks` name picks (a file
    whose `task:` is one of them), or every one under `--include_path`."""
    folders = {posixpath.normpath(posixpath.join(posixpath.dirname(rel), include)), posixpath.normpath(include)} if include else set()
    best: tuple[int, str] | None = None
    for cand, (task, n) in _task_files(ctx).items():
        if task in tasks or any(cand.startswith(f.rstrip("/") + "/") for f in folders):
            if best is None or n > best[0]:
                best = (n, f"{cand}: generation_kwargs.max_gen_toks={n}")
    return best


def lm_eval(ctx, rel: str, words, model_args: str | None) -> dict:
    """`generation_tokens` and where it is written, the largest of what the command and the
    project say (each may be the one lm_eval uses: --gen_kwargs over the task's over the model's)."""
    vals = [w.value or "" for w in words]
    line = words[0].line if words else 0
    found: list[tuple[int, str]] = []
    gen = _option(vals, ("--gen_kwargs", "--gen-kwargs"))
    if gen and (n := _number(gen)):
        found.append((n, f"{rel}:{line}: --gen_kwargs max_gen_toks={n}"))
    if model_args and (m := re.search(r"(?:^|,)\s*max_gen_toks=(\d+)", model_args)):
        found.append((int(m.group(1)), f"{rel}:{line}: --model_args max_gen_toks={m.group(1)}"))
    tasks = {t.strip() for t in (_option(vals, ("--tasks", "--task")) or "").split(",") if t.strip()}
    if (task := _task_yaml(ctx, rel, tasks, _option(vals, ("--include_path", "--include-path")))) is not None:
        found.append(task)
    return _facts(found)


def lighteval(rel: str, line: int, model_args: str) -> dict:
    m = re.search(r"generation_parameters=\{(.*?)\}", model_args or "")
    n = _number(m.group(1)) if m else None
    return _facts([(n, f"{rel}:{line}: generation_parameters max_new_tokens={n}")] if n else [])


def _facts(found: list[tuple[int, str]]) -> dict:
    if not found:
        return {}
    n, where = max(found)
    return {"generation_tokens": n, "generation_where": where, "max_len_for_generation": max_len_for(n)}


def max_len_for(n: int) -> int:
    """The power of two that leaves at least as much room for the prompt as the generation takes,
    and no less than the 16384 check B2 proposes otherwise."""
    out = 16384
    while out < 2 * n:
        out *= 2
    return out
