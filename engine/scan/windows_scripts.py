"""Windows launch scripts → sites: a batch file or PowerShell script (engine/scan/windows_shell.py
reads their grammars) that runs `vllm serve …`, `python -m vllm.entrypoints.openai.api_server …` or
a project script handing its argv to vLLM is read with the same argv parser as a shell script. Such
a launch runs in a native Windows process (cmd.exe / PowerShell), which the platform check
(knowledge/checks/L.yaml, platform-windows) reports; so does a project Python file these scripts
run with `python file.py` (its LLM(...) is found by the Python scanner; `index` names the files).
The words carry no file offsets: a fix is shown as a change, never written into the script."""
from __future__ import annotations

from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from vllm_kb.engine.scan import docker_run, scripts
from vllm_kb.engine.scan.argv_entry import script_file
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.images import container_command
from vllm_kb.engine.scan.launchers import program_start
from vllm_kb.engine.scan.shell_expand import Expander
from vllm_kb.engine.scan.shell_run import Candidate
from vllm_kb.engine.scan.site import Setting, Site

if TYPE_CHECKING:
    from vllm_kb.engine.scan.windows_shell import Env, Stmt

# The grammars (engine/scan/windows_shell.py, powershell.py) are loaded with the first Windows
# script: compiling their regular expressions was a sixth of a 20-file audit's cold start.
BATCH_SUFFIXES = (".bat", ".cmd")
POWERSHELL_SUFFIXES = (".ps1",)
SUFFIXES = BATCH_SUFFIXES + POWERSHELL_SUFFIXES


def is_windows_script(rel: str) -> bool:
    # PurePosixPath(rel).suffix, without building a path for each of the project's files
    name = rel.rpartition("/")[2]
    if not name or name == ".":
        name = PurePosixPath(rel).name
    dot = name.rfind(".")
    return 0 < dot < len(name) - 1 and name[dot:].lower() in SUFFIXES


def commands(rel: str, text: str) -> tuple[list[Stmt], Env, str]:
    """(commands, variables, shell name) of a Windows script."""
    from vllm_kb.engine.scan.powershell import powershell_commands
    from vllm_kb.engine.scan.windows_shell import batch_commands

    if PurePosixPath(rel).suffix.lower() in POWERSHELL_SUFFIXES:
        cmds, env = powershell_commands(text)
        return cmds, env, "PowerShell"
    cmds, env = batch_commands(text)
    return cmds, env, "cmd.exe"


def scan(ctx: ScanContext, rel: str, text: str) -> list[Site]:
    from vllm_kb.engine.scan.windows_shell import Env

    version = ctx.version_for(rel)
    out: dict[str, Site] = {}
    cmds, _env, shell = commands(rel, text)
    for stmt in cmds:
        _relative_slashes(stmt)
        env = stmt.env or Env()
        settings = {env.names[k]: Setting(env.names[k], v, v is not None, rel, env.lines[k], env.names[k], env.raws[k], "cli")
                    for k, v in env.values.items()}
        known = {s.name: str(s.value) for s in settings.values() if s.value is not None}
        c = _docker(ctx, rel, stmt, settings, known) or Candidate(stmt.words, stmt.line, stmt.end_line, Expander(known), settings)
        site = scripts.site_for(ctx, rel, version, c)
        if site is not None and site.id not in out:
            if not site.container and not site.image:  # a container runs Linux, wherever it is started from
                site.launch["windows_shell"] = f"{rel}:{stmt.line} ({shell})"
            out[site.id] = site
    return list(out.values())


def _relative_slashes(stmt: Stmt) -> None:
    """A relative path written with Windows separators (`.\\infer_vllm.yaml`, `configs\\serve.yaml`) as the
    project's own path: Windows takes `/` as well, and the scanners find the file a command names by it
    (LlamaFactory#5767's `llamafactory-cli chat .\\infer_vllm.yaml`). A drive-letter or UNC path stays."""
    for w in stmt.words:
        v = w.value
        if v and "\\" in v and not v.startswith("\\\\") and not (len(v) > 1 and v[1] == ":") \
                and (v.startswith((".\\", "..\\")) or v.lower().endswith(_RELATIVE_FILES)):
            w.value = w.text = v.replace("\\", "/")


_RELATIVE_FILES = (".yaml", ".yml", ".json", ".py", ".toml", ".jinja")


def _docker(ctx: ScanContext, rel: str, stmt: Stmt, settings: dict, known: dict) -> Candidate | None:
    """`docker run … IMAGE …` (Docker Desktop): what the container runs, with its own environment."""
    words = stmt.words
    if not words or (words[0].value or "").rsplit("/", 1)[-1].lower() not in ("docker", "podman"):
        return None
    run = docker_run.find(words, 0)
    if run is None:
        return None
    argv = container_command(run, ctx.untagged_image_release)
    if not argv:
        return None
    env = dict(settings)
    for name, val, _opt in run.env:
        if val is not None:
            env[name] = Setting(name, val.value, val.value is not None, rel, val.line, name, val.raw, "cli")
    facts = dict(run.facts, image=run.image.value if run.image is not None else None)
    return Candidate(argv, stmt.line, stmt.end_line, Expander(known), env, container=facts)


def index(ctx: ScanContext, files: list[str]) -> dict[str, str]:
    """Project Python files that a Windows script runs (`python serve.py`), each with the script line
    that runs it: their LLM(...) runs in that native Windows process too."""
    out: dict[str, str] = {}
    for rel in files:
        if not is_windows_script(rel):
            continue
        text = ctx.read(rel)
        if text is None or ".py" not in text:
            continue
        cmds, _env, shell = commands(rel, text)
        for stmt in cmds:
            got = program_start(stmt.words)
            if got is None:
                continue
            i = got[0]
            vals = [w.value for w in stmt.words]
            if (vals[i] or "").rsplit("/", 1)[-1] not in ("python", "python3"):
                continue
            j = i + 1
            while j < len(vals) and (vals[j] or "").startswith("-") and vals[j] != "-m":
                j += 1
            script = vals[j] if j < len(vals) else None
            if script and script.endswith(".py"):
                target = script_file(ctx, rel, script.replace("\\", "/"))
                if target is not None:
                    out.setdefault(target, f"{rel}:{stmt.line} ({shell})")
    return {t: w for t, w in out.items() if not _run_elsewhere(ctx, files, t)} if out else out


_OTHER_LAUNCHERS = (".sh", ".bash", ".zsh", ".slurm", ".sbatch", ".yaml", ".yml", ".service", ".toml", ".cfg", ".ipynb", ".md")


def _run_elsewhere(ctx: ScanContext, files: list[str], target: str) -> bool:
    """Whether a Linux launcher of the project (a shell script, a Dockerfile, compose, a Makefile, a
    Procfile, the README's commands …) names the file too: then it does not only run on Windows."""
    name = PurePosixPath(target).name
    for rel in files:
        base = PurePosixPath(rel).name
        if is_windows_script(rel) or rel == target or not (
                rel.lower().endswith(_OTHER_LAUNCHERS) or base.startswith(("Dockerfile", "Makefile", "Procfile")) or "." not in base):
            continue
        text = ctx.read(rel)
        if text is not None and name in text:
            return True
    return False
