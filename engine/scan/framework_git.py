"""A framework installed from its git repository rather than as a release: `verl @ git+https://…/verl@<ref>`
in requirements or pyproject, `pip install git+https://github.com/huggingface/trl.git@main` in a
Dockerfile or a shell script. What runs is the code at that ref:

- a release tag (`v0.4.1`, `0.19.0`) is that release: the pin gets its version and the release's rows
  apply as for `verl==0.4.1`;
- a commit is looked up in the framework's main history (knowledge/frameworks/git_history.json,
  engine/kb/framework_history.py): the vLLM imports that commit's adapter runs are judged like a
  copy in the tree (engine/check/framework_copy.py);
- a branch (`main`, a PR's ref, none) moves: what it holds depends on when it was installed, so it is
  judged against the newest commit the history knows, and only as a P1.

The pin keeps the requirement as written (`text`); `source` is "git"."""
from __future__ import annotations

import re
from dataclasses import dataclass

# owner/repository (lower case) → framework package, for the repositories each framework was published from
REPOS = {
    "volcengine/verl": "verl", "verl-project/verl": "verl", "huggingface/trl": "trl",
    "openrlhf/openrlhf": "openrlhf", "openllmai/openrlhf": "openrlhf",
    "hiyouga/llama-factory": "llamafactory", "hiyouga/llamafactory": "llamafactory",
    "modelscope/ms-swift": "ms-swift", "modelscope/swift": "ms-swift",
    # not a framework: transformers from its main branch is how a model type newer than any release is read
    "huggingface/transformers": "transformers",
}
_URL = re.compile(r"^(?:[A-Za-z0-9][\w.-]*(?:\[[^\]]*\])?\s*@\s*)?git\+(?:https?|ssh|git)://(?:[^/@\s]+@)?[^/\s]+/"
                  r"(?P<owner>[\w.-]+)/(?P<repo>[\w.-]+?)(?:\.git)?/?(?:@(?P<ref>[^\s#]+))?(?:#\S*)?$", re.I)
_TAG = re.compile(r"^v?(\d+(?:\.\d+){1,3}(?:\.post\d+|rc\d+)?)$")
_SHA = re.compile(r"^[0-9a-f]{7,40}$")


@dataclass(frozen=True)
class GitRef:
    package: str
    ref: str  # as written; "" for the repository's default branch
    kind: str  # release | commit | branch
    release: str | None = None  # the version a release tag names


def parse(word: str) -> GitRef | None:
    """The framework and ref a pip requirement or a bare git URL installs; None for anything else."""
    m = _URL.match(word.strip())
    if m is None:
        return None
    package = REPOS.get(f"{m['owner']}/{m['repo']}".lower())
    if package is None:
        return None
    ref = m["ref"] or ""
    if (t := _TAG.match(ref)) is not None:
        return GitRef(package, ref, "release", t.group(1))
    return GitRef(package, ref, "commit" if _SHA.match(ref.lower()) else "branch")


def pin(rel: str, line: int, word: str, kind: str, pin_type, extras: tuple = ()):
    """The framework pin a git requirement makes (a release tag gives its version), else None."""
    g = parse(word)
    if g is None:
        return None
    return pin_type(rel, line, word.strip(), f"=={g.release}" if g.release else "", kind, g.release, g.package, extras, source="git")

