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
# a GitHub mirror or download proxy puts the github.com path (or the whole github URL) after its own host:
# `git+http://ghfast.top/https://github.com/OWNER/REPO`, `https://gitclone.com/github.com/OWNER/REPO`;
# git fetches the same repository, so the ref is the same pin
_MIRRORED = r"(?:(?:https?:/{1,2})?(?:[\w-]+\.)*github\.com/)?"
_URL = re.compile(r"^(?:[A-Za-z0-9][\w.-]*(?:\[[^\]]*\])?\s*@\s*)?git\+(?:https?|ssh|git)://(?:[^/@\s]+@)?[^/\s]+/"
                  + _MIRRORED + r"(?P<owner>[\w.-]+)/(?P<repo>[\w.-]+?)(?:\.git)?/?(?:@(?P<ref>[^\s#]+))?(?:#\S*)?$", re.I)
_TAG = re.compile(r"^v?(\d+(?:\.\d+){1,3}(?:\.post\d+|rc\d+)?)$")
_SHA = re.compile(r"^[0-9a-f]{7,40}$")


@dataclass(frozen=True)
class GitRef:
    package: str
    ref: str  # as written; "" for the repository's default branch
    kind: str  # release | commit | branch
    release: str | None = None  # the version a release tag names
    fork: bool = False  # another owner's copy of the package (a transformers fork's model branch): its code is not known


def parse(word: str) -> GitRef | None:
    """The framework and ref a pip requirement or a bare git URL installs; None for anything else."""
    m = _URL.match(word.strip())
    if m is None:
        return None
    package = REPOS.get(f"{m['owner']}/{m['repo']}".lower())
    ref = m["ref"] or ""
    if package is None and m["repo"].lower() == "transformers":
        # a fork of transformers (a model's preview branch, vllm#15754): neither a release nor main's mapping
        return GitRef("transformers", ref, "commit" if _SHA.match(ref.lower()) else "branch", fork=True)
    if package is None:
        return None
    if (t := _TAG.match(ref)) is not None:
        return GitRef(package, ref, "release", t.group(1))
    return GitRef(package, ref, "commit" if _SHA.match(ref.lower()) else "branch")


def pin(rel: str, line: int, word: str, kind: str, pin_type, extras: tuple = ()):
    """The framework pin a git requirement makes (a release tag gives its version), else None."""
    g = parse(word)
    if g is None:
        return None
    release = None if g.fork else g.release
    return pin_type(rel, line, word.strip(), f"=={release}" if release else "", kind, release, g.package, extras,
                    source="fork" if g.fork else "git")



# `git clone [-b REF] URL [DIR] && cd DIR && [git checkout REF &&] pip install [-e] .`: the checkout
# built in place is the code at REF (the clone's default branch where none is named)
_CLONE_LINE = re.compile(r"\bgit\s+clone\b([^\n;&|]*)", re.I)
_CLONE_TAKES = {"-b", "--branch", "--depth", "-j", "--jobs", "-c", "--config", "-o", "--origin", "--reference", "--separate-git-dir"}
_REPO = re.compile(r"^(?:(?:https?|ssh|git)://(?:[^/@\s]+@)?[^/\s]+/" + _MIRRORED + r"|git@[^:\s]+:)(?P<owner>[\w.-]+)/(?P<repo>[\w.-]+?)(?:\.git)?/?$", re.I)


def _clone_words(args: str) -> tuple[str, str, str] | None:
    """(url, branch, folder) of a `git clone` command's arguments."""
    words = [w.strip("'\"") for w in args.replace("\\\n", " ").split()]
    branch, plain, i = "", [], 0
    while i < len(words):
        w = words[i]
        if w in ("-b", "--branch") and i + 1 < len(words):
            branch = words[i + 1]
        if w.startswith("--branch="):
            branch = w.split("=", 1)[1]
        if w.startswith("-"):
            i += 2 if w in _CLONE_TAKES else 1
            continue
        plain.append(w)
        i += 1
    return (plain[0], branch, plain[1] if len(plain) > 1 else "") if plain else None


_CHECKOUT = re.compile(r"\bgit\s+(?:-C\s+\S+\s+)?checkout\s+(?:-q\s+)?(?:tags/)?([^\s;&|\"']+)")


def clone_ref(text: str, start: int, stop: int) -> tuple[str, str, str] | None:
    """(owner, repository, ref) of the `git clone` command at offset `start` of `text`, the ref as a
    later `git checkout REF` before offset `stop` (the build) leaves it: the checkout's, else the
    clone's `--branch`, else "" (the default branch)."""
    line = _CLONE_LINE.match(text, start)
    got = _clone_words(line.group(1)) if line is not None else None
    repo = _REPO.match(got[0]) if got else None
    if line is None or got is None or repo is None:
        return None
    checkout = _CHECKOUT.search(text, line.end(), max(stop, line.end()))
    return repo["owner"], repo["repo"], checkout.group(1) if checkout else got[1]


def clone_pins(rel: str, text: str, kind: str, pin_type) -> list:
    """Framework checkouts a script or Dockerfile clones and then installs from the clone (`pip
    install -e .`, `pip install .[vllm]`, `pip install -e ./verl`): the framework pin of that ref."""
    out = []
    for m in _CLONE_LINE.finditer(text):
        got = _clone_words(m.group(1))
        repo = _REPO.match(got[0]) if got else None
        package = REPOS.get(f"{repo['owner']}/{repo['repo']}".lower()) if repo else None
        fork = repo is not None and package is None and repo["repo"].lower() == "transformers"  # built from a fork's branch
        if got is None or repo is None or (package in (None, "transformers") and not fork):
            continue
        folder = (got[2] or repo["repo"]).rstrip("/")
        # the clone by path: `.` after a cd, `./verl`, `/opt/verl`, `-e verl` (a bare `verl` is PyPI's)
        where = [r"\.", r"\./" + re.escape(folder.removeprefix("./")), r"(?:-e|--editable)\s+" + re.escape(folder)]
        where += [re.escape(folder)] if folder.startswith("/") else []
        rest = text[m.end():]
        install = re.search(r"\b(?:pip3?|uv\s+pip|python3?\s+-m\s+pip)\s+install\b[^\n;&|]*?\s(?:" + "|".join(where)
                            + r")/?(?:\[[^\]]*\])?(?=[\s\"';&|]|$)", rest, re.I)
        if install is None:
            continue
        checkout = _CHECKOUT.search(rest[:install.start()])
        ref = checkout.group(1) if checkout else got[1]
        g = parse(f"git+https://github.com/{repo['owner']}/{repo['repo']}" + (f"@{ref}" if ref else ""))
        if g is None:
            continue
        line = text.count("\n", 0, m.start()) + 1
        shown = text.splitlines()[line - 1].strip()[:160]
        out.append(pin_type(rel, line, shown, f"=={g.release}" if g.release and not g.fork else "", kind, None if g.fork else g.release,
                            g.package, (), source="fork" if g.fork else "git"))
    return out
