"""An env file a shell script exports before it starts a project Python file: `set -a; source .env;
python serve.py`, `export $(grep -v '^#' .env | xargs)` then `python3 -u app/main.py`. The Python
process inherits those variables, so the file's `os.getenv("MODEL")` reads them as a
`load_dotenv()` would (engine/scan/python_env.py). Only what the shell really exports counts: a
`source` under `set -a`, an `export $(… .env | xargs)`, or the lines the file itself writes as
`export KEY=…`; a plain `source .env` leaves the others as shell variables the child never sees.
A file two scripts start with different values gets none of them. The scripts are read once per
audit (an index on the scan context), as text: a line-level reading, not the shell interpreter."""
from __future__ import annotations

import re
from pathlib import PurePosixPath

from vllm_kb.engine.scan import envfile
from vllm_kb.engine.scan.context import texts_with

_SOURCE = re.compile(r"""^\s*(?:source|\.)\s+["']?([\w./-]*env[\w./-]*)["']?\s*(?:$|[;&|#])""")
_EXPORT_ALL = re.compile(r"""export\s+["']?\$\((?:cat|grep\b[^)]*?)\s+["']?([\w./-]*env[\w./-]*)["']?\s*(?:\|[^)]*)?\)""")
_SET_A = re.compile(r"^\s*set\s+(-a|\+a|-o\s+allexport|\+o\s+allexport)\b")
_RUN = re.compile(r"""(?:^|[\s;&|(])(?:exec\s+)?(?:\S*/)?python[0-9.]*\s+(?:-[uBOE]+\s+)*["']?([\w./-]+\.py)\b""")
_SPLIT = re.compile(r"\s*(?:;|&&)\s*")
_EXPORTED_LINE = re.compile(r"^\s*export\s+([A-Za-z_][A-Za-z0-9_]*)\s*=")


def sourced(ctx, rel: str) -> dict[str, envfile.EnvValue]:
    """The variables the shell scripts that start `rel` export from env files first."""
    index = ctx.__dict__.get("_script_env")
    if index is None:
        index = ctx.__dict__["_script_env"] = _index(ctx)
    return index.get(rel, {})


def _index(ctx) -> dict[str, dict[str, envfile.EnvValue]]:
    files = getattr(ctx, "files", None) or []
    known = set(files)
    seen: dict[str, list[dict[str, envfile.EnvValue]]] = {}
    for script, text in texts_with(ctx, files, ".sh", "env", "python"):
        for target, env in _runs(ctx, script, text, known):
            seen.setdefault(target, []).append(env)
    return {t: envs[0] for t, envs in seen.items() if envs[0] and all(_same(e, envs[0]) for e in envs)}


def _same(a: dict[str, envfile.EnvValue], b: dict[str, envfile.EnvValue]) -> bool:
    return {k: v.value for k, v in a.items()} == {k: v.value for k, v in b.items()}


def _runs(ctx, script: str, text: str, known: set[str]):
    """(Python file, what is exported when it starts) for each `python X.py` of the script."""
    env: dict[str, envfile.EnvValue] = {}
    allexport = False
    commands = (c.strip() for whole in text.splitlines() for c in _SPLIT.split(whole))  # `set -a; source .env`
    for line in commands:
        if not line or line.startswith("#"):
            continue
        m = _SET_A.match(line)
        if m:
            allexport = m.group(1).startswith("-")
            continue
        m = _SOURCE.match(line)
        if m:
            env.update(_load(ctx, script, m.group(1), everything=allexport))
            continue
        m = _EXPORT_ALL.search(line)
        if m:
            env.update(_load(ctx, script, m.group(1), everything=True))
            continue
        for m in _RUN.finditer(line):
            target = _file(script, m.group(1), known)
            if target:
                yield target, dict(env)


_ENV_NAME = re.compile(r"^(?:\.env(?:\.[\w-]+)?|[\w.-]+\.env|env)$")  # .env, .env.local, prod.env — not venv/bin/activate


def _load(ctx, script: str, path: str, everything: bool) -> dict[str, envfile.EnvValue]:
    """The env file's variables the shell exports: beside the script (where it is usually run
    from), else from the project root."""
    if not _ENV_NAME.match(PurePosixPath(path).name):
        return {}
    for cand in (envfile.beside(script, path), envfile.beside("x", path)):
        got = envfile.load(ctx, cand) if cand else None
        if got is None:
            continue
        if everything:
            return dict(got)
        text = ctx.read(cand) or ""
        exported = {m.group(1) for ln in text.splitlines() if (m := _EXPORTED_LINE.match(ln))}
        return {k: v for k, v in got.items() if k in exported}
    return {}


def _file(script: str, path: str, known: set[str]) -> str | None:
    for cand in (envfile.beside(script, path), envfile.beside("x", path)):
        if cand in known:
            return cand
    name = PurePosixPath(path).name
    if path.startswith("/"):  # an absolute path (a container's /app/serve.py): one project file of that name
        hits = [f for f in known if f.rpartition("/")[2] == name]  # project paths: their name is the last part
        return hits[0] if len(hits) == 1 else None
    return None
