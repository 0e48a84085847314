"""The frameworks' main branches commit by commit (knowledge/frameworks/git_history.json, written by
tools/framework_git_history.py): for a commit a project installs from git, the run of commits it
belongs to — its version, its declared vLLM range, the vLLM imports its adapter runs on load and
(LLaMA-Factory) the engine arguments its calls pass;
for a branch, the newest commit known. Read only when a project installs a framework from git."""
from __future__ import annotations

import json
from functools import lru_cache

from vllm_kb.engine.kb import resources


@lru_cache(maxsize=1)
def table() -> dict:
    return json.loads(resources.read_text("knowledge", "frameworks", "git_history.json"))


def _framework(fid: str) -> dict:
    return (table().get("frameworks") or {}).get(fid) or {}


def commit(fid: str, sha: str) -> tuple[dict, str, str] | None:
    """(run, the commit's 10-character prefix, its date bounds "since…until") for a commit of the
    framework's main branch; None for a commit the history does not hold (a fork's, a PR branch's, a
    prefix shorter than 7 characters or one that several commits share)."""
    sha = sha.lower()
    if len(sha) < 7:
        return None
    hits = [(run, c) for run in _framework(fid).get("runs") or [] for c in run["commits"].split() if c.startswith(sha[:10])]
    if len(hits) != 1:
        return None
    run, c = hits[0]
    return run, c, run["since"] if run["since"] == run["until"] else f"{run['since']}…{run['until']}"


def position(fid: str, sha: str) -> int | None:
    """The commit's place on the framework's main branch (0 the oldest), for rules that hold from a
    commit on; None for a commit the history does not hold."""
    sha = sha.lower()
    if len(sha) < 7:
        return None
    hits = [i for i, c in enumerate(c for run in _framework(fid).get("runs") or [] for c in run["commits"].split())
            if c.startswith(sha[:10])]
    return hits[0] if len(hits) == 1 else None


def head(fid: str) -> tuple[dict, str, str] | None:
    """(the newest run, the newest commit known, its date) of the framework's main branch."""
    fw = _framework(fid)
    runs = fw.get("runs") or []
    if not runs:
        return None
    return runs[-1], str(fw.get("head") or ""), str(fw.get("head_date") or runs[-1]["until"])


# the repositories the history was read from, for the links a message gives (tools/framework_git_history.py)
_REPOS = {"llamafactory": "https://github.com/hiyouga/LLaMA-Factory"}


def repo_url(fid: str) -> str:
    return _REPOS.get(fid, f"https://pypi.org/project/{fid}")
