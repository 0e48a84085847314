"""The project's own program a Dockerfile's ENTRYPOINT/CMD runs: `CMD ["python", "serve.py"]`,
`ENTRYPOINT ["bash", "/app/start.sh"]`, `CMD python3 -u main.py`. That file runs inside the image,
so its `vllm serve` / `LLM(...)` sites run the image's vLLM (its tag, or the `pip install vllm==X`
of its RUN lines) and see the image's `ENV` — the way a container's own command does. The file is
the one of that name the final stage COPYs or ADDs in (engine/scan/deploy/image_files.py); a name
two copied files share is left alone. The Dockerfiles are read once per audit (a lazily built
index on the scan context), never per site."""
from __future__ import annotations

import dataclasses
import json
import re
import posixpath
import shlex
from dataclasses import dataclass, field

from vllm_kb.engine.scan import mounted_config, scripts
from vllm_kb.engine.scan.deploy import compose_entry, compose_env
from vllm_kb.engine.scan.deploy.common import image_version
from vllm_kb.engine.scan.deploy.dockerfile import _final_stage, is_dockerfile
from vllm_kb.engine.scan.deploy.image_files import _copies, copied_paths
from vllm_kb.engine.scan.shell_expand import Expander
from vllm_kb.engine.scan.shell_run import State
from vllm_kb.engine.scan.site import Setting, Site

_INTERPRETERS = {"python", "python3", "bash", "sh", "exec", "uv", "run", "dumb-init", "tini", "--"}
_SCRIPT_SUFFIXES = (".py", ".sh")
_SHELLS = {"bash", "sh", "dash", "zsh"}


@dataclass
class Entry:
    dockerfile: str
    line: int  # the ENTRYPOINT/CMD that runs the file
    image: str
    installed: tuple | None  # (release, "Dockerfile:line", text) its RUN lines install
    env: dict[str, Setting] = field(default_factory=dict)
    from_line: int | None = None  # the final stage's FROM
    copies: dict[str, list[str]] = field(default_factory=dict)  # container path → project paths copied there

    @property
    def where(self) -> str:
        return f"{self.dockerfile}:{self.line}"

    def release(self) -> str | None:
        return image_version(self.image) or (self.installed[0] if self.installed else None)


def runs(ctx, rel: str) -> Entry | None:
    """The image whose ENTRYPOINT/CMD runs the project file `rel`, or None."""
    return _entries(ctx).get(rel)


def _entries(ctx) -> dict[str, Entry]:
    index = ctx.__dict__.get("_image_entries")
    if index is None:
        index = ctx.__dict__["_image_entries"] = _index(ctx)
    return index


def known_env(entry: Entry | None) -> dict[str, str]:
    return {k: str(s.value) for k, s in entry.env.items() if s.resolved and s.value is not None} if entry else {}


def adopt(ctx, site: Site, entry: Entry | None) -> None:
    """Give a site of the file the image's vLLM and environment (what the file sets wins)."""
    if entry is None:
        return
    if not site.image and not site.installed:
        site.image = entry.image
        if entry.installed:
            site.installed = entry.installed
    site.env = {**entry.env, **(site.env or {})}
    site.launch.setdefault("image_entry", entry.where)
    if entry.copies:
        # what the image holds at a container path is a folder of the project: read like a mount,
        # relative to the site's own folder (engine/check/facts.py _mounted_checkpoint)
        here = posixpath.dirname(site.file)
        mounts = dict((site.container or {}).get("mounts") or {})
        for target, srcs in entry.copies.items():
            rels = [posixpath.relpath(src or ".", here or ".") for src in srcs]
            mounts.setdefault(target, [r if r.startswith("..") or r == "." else "./" + r for r in rels])
        site.container = {**(site.container or {}), "mounts": mounts}
        mounted_config.merge(ctx, site, mounts)  # `--config /app/config.yaml` the image COPYs in
    if site.image == entry.image and entry.from_line:
        site.launch["image_at"] = (entry.dockerfile, entry.from_line)  # where a change of the tag is made


def scan_script(ctx, rel: str, text: str) -> list[Site]:
    """A shell script's sites; one an image runs is walked with the image's ENV exported and
    evaluated as the image's vLLM."""
    entry = runs(ctx, rel)
    if entry is None:
        return scripts.scan(ctx, rel, text)
    return _walk(ctx, rel, text, entry)


def deployed(ctx, image: str | None, env: dict[str, Setting], rel: str, line: int) -> list[Site]:
    """The sites of a deployment (a Kubernetes container, a Helm template) that runs the project's
    own image with no command of its own: the project shell script that image's Dockerfile
    ENTRYPOINT/CMD runs, walked with the image's ENV and then the deployment's, placed at the
    deployment's line. civo-learn/civo-vllm-docker (eval77): `CMD ["/entrypoint.sh"]` builds `--model
    $MODEL` from the env a manifest gives; audited alone the script had no model. Only a build of the
    image's name in the project ties it to its Dockerfile (engine/scan/own_images.py); one image
    whose builds run different scripts is left alone."""
    from vllm_kb.engine.scan import own_images

    return _deployed(ctx, set(own_images.dockerfiles(ctx, image)) if image else set(), env, rel, line)


def with_docker_runs(ctx, sites: list[Site]) -> list[Site]:
    """`sites` and the docker runs of project images whose entry is a script (docker_runs): such a
    run followed into its script replaces the site the scan made of the same line as an image's
    default launch (jasonacox/TinyLLM: `docker run … vllm` of an image built FROM a CUDA base whose
    CMD runs entrypoint.sh was also a `vllm serve` site, and the two were taken to share the GPU)."""
    runs = docker_runs(ctx)
    at = {(s.file, s.line) for s in runs}
    return [s for s in sites if (s.file, s.line) not in at] + runs


def docker_runs(ctx) -> list[Site]:
    """The same for each `docker run` of a project image a script builds (noted while the scripts were
    walked, engine/scan/shell_containers.py container_run): its `-e` env, at its line; a command given
    to `docker run` counts only where it is that script (`docker run IMAGE /entrypoint.sh`)."""
    out: list[Site] = []
    seen = set()
    for rel, line, end, df, env, named, gpus in ctx.image_script_runs:
        if (rel, line) in seen:
            continue
        seen.add((rel, line))
        got = _deployed(ctx, {df}, env, rel, line, named)
        for site in got:
            site.end_line = end
            site.gpu_request = gpus if isinstance(gpus, int) else None
        out += got
    return out


def _deployed(ctx, dfs: set[str], env: dict[str, Setting], rel: str, line: int, named: str | None = None) -> list[Site]:
    got = [(s, e) for s, e in _entries(ctx).items() if e.dockerfile in dfs and s.endswith(".sh")
           and (named is None or named.rpartition("/")[2] == s.rpartition("/")[2])]
    text = ctx.read(got[0][0]) if len(got) == 1 else None
    if not text:
        return []
    script, entry = got[0]
    sites = _walk(ctx, script, text, dataclasses.replace(entry, env={**entry.env, **env}))
    for site in sites:
        # the argv is written in the script: a flag the deployment cannot pass is no edit of its file (engine/fix/changes.py)
        site.launch["runs_script"] = f"{site.file}:{site.line}"
        site.file, site.line, site.end_line = rel, line, line
    return sites


def _walk(ctx, rel: str, text: str, entry: Entry) -> list[Site]:
    ex = Expander(known_env(entry))
    ex.exported |= set(entry.env)
    ex.origins.update({k: f"{v.file}:{v.line}" for k, v in entry.env.items()})
    release = entry.release()
    sites = scripts.scan(ctx, rel, text, state=State(ex, dict(entry.env)),
                         version=ctx.catalog.installed_version(release))
    for site in sites:
        adopt(ctx, site, entry)
    return sites


def _index(ctx) -> dict[str, Entry]:
    files = getattr(ctx, "files", None) or []
    dockerfiles = [f for f in files if is_dockerfile(f)]
    by_name: dict[str, list[str]] = {}
    for f in files:
        if f.endswith(_SCRIPT_SUFFIXES):
            by_name.setdefault(f.rpartition("/")[2], []).append(f)
    out: dict[str, Entry] = {}
    composed = compose_env.by_dockerfile(ctx)  # what a compose service that builds the image adds
    for df in sorted(dockerfiles):
        text = ctx.read(df)
        if not text or not any(k in text for k in ("CMD", "ENTRYPOINT", "cmd", "entrypoint")):
            continue
        st = _final_stage(df, text)
        if not st or not st.get("image"):
            continue
        # `ENTRYPOINT ["python3"]` + `CMD ["serve.py"]`: the file may be named by either
        ins, script = next(((i, got) for i in (st.get("entrypoint"), st.get("cmd")) if i is not None
                            and (got := _script(i.arg)) is not None), (None, None))
        if ins is None or script is None:
            continue
        found = [f for f in by_name.get(script.rpartition("/")[2], []) if _copies(df, text, f)]
        if len(found) != 1 or found[0] in out:
            continue
        out[found[0]] = Entry(df, ins.line, st["image"], (st["installed"][0], f"{df}:{st['installed'][1]}", st["installed"][2])
                              if st.get("installed") else None, {**(st.get("env") or {}), **composed.get(df, {})},
                              _from_line(text, st["image"]),
                              copied_paths(df, text, lambda p: _is_dir(files, p)))
    # a script a compose service runs from a bind mount (engine/scan/deploy/compose_entry.py)
    for script, (where, line, image, installed, env, at, copies) in compose_entry.rows(ctx, _script).items():
        if script not in out:
            out[script] = Entry(where, line, image, installed, env, at, copies)
    return out


def _is_dir(files: list[str], path: str) -> bool:
    prefix = path.rstrip("/") + "/" if path not in ("", ".") else ""
    return not prefix or any(f.startswith(prefix) for f in files)


def _from_line(text: str, image: str) -> int | None:
    lines = [n for n, ln in enumerate(text.splitlines(), 1) if ln.lstrip()[:5].upper() == "FROM " and image in ln]
    return lines[-1] if lines else None


def _script(arg: str) -> str | None:
    """The .py/.sh file an ENTRYPOINT/CMD (exec or shell form) runs, after its interpreter."""
    try:
        words = json.loads(arg) if arg.lstrip().startswith("[") else shlex.split(arg, comments=True)
    except ValueError:
        return None
    if not isinstance(words, list):
        return None
    for i, w in enumerate(words):
        w = str(w)
        base = w.rpartition("/")[2]
        if w == "-c" and i and str(words[i - 1]).rpartition("/")[2] in _SHELLS and i + 1 < len(words):
            return _last_script(str(words[i + 1]))
        if w.endswith(_SCRIPT_SUFFIXES) and not w.startswith("-"):
            return w
        if base in _INTERPRETERS or base.startswith("python3.") or w.startswith("-") and len(w) <= 3:
            continue  # `python -u`, `bash -e`: the file comes next
        return None
    return None


def _last_script(code: str) -> str | None:
    """The file a `sh -c` string's last command runs (`source /opt/intel/oneapi/setvars.sh && bash
    /llm/start.sh` → /llm/start.sh): the commands before it set the scene (eval119 GenAIComps
    compose_text-generation.yaml:188, a script mounted into intel/llm-scaler-vllm)."""
    parts = [p for p in re.split(r"&&|\|\||;|\n", re.sub(r"\\\s", " ", code)) if p.strip()]
    return _script(parts[-1]) if parts else None
