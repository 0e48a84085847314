"""A framework the project installs from its git repository (engine/scan/framework_git.py), as the
code that runs: a commit of its main branch is read from the framework's history
(knowledge/frameworks/git_history.json) — its version and the vLLM imports its adapter runs — and
held against the pinned vLLM like a copy in the tree (engine/check/framework_copy.py). The main
branch itself (or no ref: the default branch) is read at the newest commit the history knows and
marked `moving`: what was installed depends on when, so a break there is a P1 that names the date.
A release tag is a release (the pin carries its version); a commit the history does not hold, a
PR's ref or another branch are not judged."""
from __future__ import annotations

from vllm_kb.engine.kb import framework_history
from vllm_kb.engine.scan import framework_git
from vllm_kb.engine.scan.framework_source import SourceCopy, SourceImport

_MAIN = ("", "main", "master")


def copy_for(pin) -> SourceCopy | None:
    """The code a git pin installs, as a copy; None where it is a release or not known."""
    if pin is None or getattr(pin, "source", "") != "git" or pin.exact:
        return None
    g = framework_git.parse(pin.text)
    if g is None or g.kind == "release" or (g.kind == "branch" and g.ref not in _MAIN):
        return None
    if g.kind == "commit":
        got = framework_history.commit(g.package, g.ref)
        if got is None:
            return None
        run, sha, when = got
        label, ref = f"{g.package} at commit {sha} ({when})", f"git {sha}"
    else:
        got = framework_history.head(g.package)
        if got is None:
            return None
        run, sha, when = got
        label, ref = f"{g.package} {g.ref or 'main'} as of {when} (commit {sha})", f"git {g.ref or 'main'}"
    imports = tuple(SourceImport(i["entry"], i["module"], i["name"], i["file"], i["line"]) for i in run.get("imports") or [])
    return SourceCopy(g.package, "", imports, label, g.kind == "branch", run.get("version"), ref, kwargs=_kwargs(g.package, run, ref),
                      declared=run.get("declared") if g.kind == "commit" else None)


def _kwargs(package: str, run: dict, ref: str) -> tuple[dict, ...] | None:
    """The run's engine calls as engine_kwargs.yaml rows (framework_kwargs.breaks reads them), the
    commit standing where a row names its releases (LLaMA-Factory main passed disable_log_requests
    to any vLLM until PR 9539: llamafactory#9386); None where the history did not read them."""
    if "kwargs" not in run:
        return None
    first = run["commits"].split()[0]
    return tuple({"releases": ref, "call": c["call"], **({"entry": c["entry"]} if c.get("entry") else {}),
                  **({"gate": c["gate"]} if c.get("gate") else {}), "source": f"{package} {c['file']}:{c['line']}",
                  "url": f"{framework_history.repo_url(package)}/blob/{first}/{c['file']}", "kwargs": c["kwargs"]}
                 for c in run["kwargs"])
