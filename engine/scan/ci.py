"""CI workflows whose steps start vLLM: GitHub Actions (`jobs.<id>.steps[].run`, composite
actions' `runs.steps[].run`) with workflow/job/step `env:`, and GitLab CI (`before_script` +
`script` of each job, `variables:`). `${{ … }}` expressions are resolved where the file says
what they are (an input's default, a one-value matrix, env) and kept as unknown otherwise."""
from __future__ import annotations

import posixpath
import re
from pathlib import PurePosixPath

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.embedded import block_first_line, script_sites
from vllm_kb.engine.scan.shell_expand import hole
from vllm_kb.engine.scan.site import Setting, Site

_EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
_GITLAB_RESERVED = {"stages", "variables", "include", "default", "workflow", "image", "services", "before_script",
                    "after_script", "cache", "pages"}


def is_github(rel: str, data: dict) -> bool:
    p = PurePosixPath(rel)
    if ".github/workflows" in rel or p.name in ("action.yml", "action.yaml"):
        return isinstance(data.get("jobs"), dict) or isinstance((data.get("runs") or {}).get("steps"), list)
    return False


def is_gitlab(rel: str, data: dict) -> bool:
    if PurePosixPath(rel).name.endswith(".gitlab-ci.yml") or PurePosixPath(rel).name == ".gitlab-ci.yaml":
        return True
    jobs = [v for k, v in data.items() if k not in _GITLAB_RESERVED and isinstance(v, dict)]
    return bool(jobs) and all(isinstance(j.get("script"), (list, str)) for j in jobs) and "stages" in data


def scan_github(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    data = doc.data
    lines = (ctx.read(rel) or "").splitlines()
    inputs = _inputs(data)
    out: list[Site] = []
    jobs = data.get("jobs") if isinstance(data.get("jobs"), dict) else {"": {"steps": (data.get("runs") or {}).get("steps")}}
    for jid, job in jobs.items():
        if not isinstance(job, dict) or not isinstance(job.get("steps"), list):
            continue
        base = ("jobs", jid) if jid else ("runs",)
        matrix = ((job.get("strategy") or {}).get("matrix") or {}) if isinstance(job.get("strategy"), dict) else {}
        env = {**_env(data.get("env"), ()), **_env(job.get("env"), ())}
        for i, step in enumerate(job["steps"]):
            if not isinstance(step, dict) or not isinstance(step.get("run"), str):
                continue
            step_env = {**env, **_env(step.get("env"), ())}
            ctx_vals = {"inputs": inputs, "matrix": matrix, "env": step_env}
            script = _EXPR.sub(lambda m: _expr(m.group(1), ctx_vals), step["run"])
            key_line = doc.line_of(base + ("steps", i, "run"))
            first = block_first_line(lines, key_line, step["run"])
            known = {k: _EXPR.sub(lambda m: _expr(m.group(1), ctx_vals), str(v)) for k, v in step_env.items()}
            settings = {k: Setting(k, v, "\ue000" not in v, rel, doc.line_of(base + ("steps", i)), k, v, "ci") for k, v in known.items()}
            # a step runs in the repository root unless `working-directory` (step, job or workflow defaults) says otherwise
            out += script_sites(ctx, rel, script, first, known=known, env=settings, cwd=_workdir(data, job, step))
    return out


def _workdir(data: dict, job: dict, step: dict) -> str | None:
    """The step's folder in the checkout: the root, or its `working-directory`; None where that is
    an expression or lies outside the checkout."""
    for block in (step, (job.get("defaults") or {}).get("run"), (data.get("defaults") or {}).get("run")):
        wd = block.get("working-directory") if isinstance(block, dict) else None
        if isinstance(wd, str) and wd.strip():
            wd = posixpath.normpath(wd.strip())
            return None if "${{" in wd or wd.startswith(("/", "..")) else "" if wd == "." else wd
    return ""


def scan_gitlab(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    data = doc.data
    lines = (ctx.read(rel) or "").splitlines()
    top_vars = _env(data.get("variables"), ())
    default = data.get("default") if isinstance(data.get("default"), dict) else {}
    out: list[Site] = []
    for jid, job in data.items():
        if jid in _GITLAB_RESERVED or not isinstance(job, dict):
            continue
        variables = {**top_vars, **_env(job.get("variables"), ())}
        known = {k: str(v) for k, v in variables.items()}
        settings = {k: Setting(k, v, True, rel, doc.line_of((jid,)), k, v, "ci") for k, v in known.items()}
        for part in ("before_script", "script"):
            items = job.get(part, default.get(part) if part == "before_script" else None)
            if isinstance(items, str):
                items = [items]
            for i, cmd in enumerate(items or []):
                if not isinstance(cmd, str):
                    continue
                key_line = doc.line_of((jid, part, i)) if part in job else doc.line_of(("default", part, i))
                first = block_first_line(lines, key_line, cmd)
                out += script_sites(ctx, rel, cmd, first, known=known, env=settings, cwd="")  # jobs run in the checkout's root
    return out


def _env(block, _path) -> dict[str, str]:
    if not isinstance(block, dict):
        return {}
    return {str(k): ("" if v is None else "true" if v is True else "false" if v is False else str(v)) for k, v in block.items()}


def _inputs(data: dict) -> dict[str, str]:
    """Defaults of a composite action's or a reusable/dispatched workflow's inputs."""
    out = {}
    blocks = [data.get("inputs")]
    on = data.get("on") or data.get(True)  # `on:` is read as True by YAML 1.1 loaders
    if isinstance(on, dict):
        for trig in ("workflow_dispatch", "workflow_call"):
            if isinstance(on.get(trig), dict):
                blocks.append(on[trig].get("inputs"))
    for block in blocks:
        for name, spec in (block or {}).items() if isinstance(block, dict) else []:
            if isinstance(spec, dict) and spec.get("default") is not None:
                out[str(name)] = str(spec["default"])
    return out


def _expr(expr: str, values: dict) -> str:
    m = re.fullmatch(r"(inputs|matrix|env)\.([\w-]+)", expr.strip())
    if m:
        src = values.get(m.group(1))
        v = src.get(m.group(2)) if isinstance(src, dict) else None  # `matrix: ${{ fromJson(…) }}` is a string
        if isinstance(v, list):
            v = v[0] if len(v) == 1 else None
        if v is not None and not isinstance(v, (dict, list)):
            return str(v)
    return hole("${{" + re.sub(r"\s+", "", expr) + "}}")
