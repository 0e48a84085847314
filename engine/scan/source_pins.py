"""vLLM installed from its sources rather than as a release: a git URL (`pip install
git+https://github.com/vllm-project/vllm@<sha>`, `vllm @ git+…`), a checkout built in place (`git clone
…/vllm` then `pip install -e .`, `VLLM_USE_PRECOMPILED=1`), a nightly wheel (wheels.vllm.ai) or a
development version (`vllm==0.11.1.dev123+g<sha>`). Such a build may hold options newer than the
newest release, so it is judged like an image whose tag names no release (engine/check/unpinned.py):
a development version names the release it leads to; a commit alone names none."""
from __future__ import annotations

import re

from vllm_kb.engine.kb.versions import try_parse
from vllm_kb.engine.scan import fork_source, framework_git

BASIS = "source"
# a repository named vllm (vllm-project's or a fork), as pip is given it
_GIT_URL = re.compile(r"^(?:vllm\s*@\s*)?git\+(?:https?|ssh|git)://[^\s@]*?/vllm(?:\.git)?(?:@[^\s#]+)?(?:#\S*)?$", re.I)
_CLONE = re.compile(r"\bgit\s+clone\b[^\n]*?/vllm(?:\.git)?(?=[\s\"']|$)", re.I | re.M)
_IN_PLACE = re.compile(r"\b(?:pip3?|uv\s+pip)\s+install\b[^\n]*?(?:\s-e\s+|\s--editable\s+|\s)(?:\.|vllm/?|\S*/vllm/?(?:\[[^\]]*\])?)(?=[\s\"']|$)"
                       r"|\bpython3?\s+setup\.py\s+(?:install|develop|bdist_wheel)\b|\buv\s+build\b|\bVLLM_USE_PRECOMPILED=", re.I | re.M)
NIGHTLY = "wheels.vllm.ai"
_DEV = re.compile(r"\.?dev\d*|\+g[0-9a-f]{7,}", re.I)


def is_git_url(word: str) -> bool:
    """A pip requirement that builds vLLM from a git repository."""
    return bool(_GIT_URL.match(word.strip()))


# vllm-project's own repository at a release tag (`…/vllm.git@v0.8.5`): that release's code, built here
_TAG = r"v?(\d+\.\d+\.\d+(?:\.post\d+)?)"  # a release's tag: v0.8.5, 0.6.3.post1
_RELEASE_TAG = re.compile(r"^(?:vllm\s*@\s*)?git\+(?:https?|ssh|git)://(?:[^/\s@]*@)?github\.com[/:]vllm-project/vllm(?:\.git)?"
                          r"@" + _TAG + r"(?:#\S*)?$", re.I)


def release_tag(word: str) -> str | None:
    """The release a git URL of vllm-project/vllm at a release tag builds (None for a commit, a branch, a fork)."""
    m = _RELEASE_TAG.match(word.strip())
    return m.group(1) if m else None


def is_dev(exact: str | None) -> bool:
    return bool(_DEV.search(exact or "")) and try_parse(exact) is not None


def checkout_line(text: str) -> int | None:
    """The line of a `git clone …/vllm` that a build in place (`pip install -e .`) follows; None when none."""
    got = _checkout(text)
    return _line(text, got) if got is not None else None


def _line(text: str, got) -> int:
    return text.count("\n", 0, got[0].start()) + 1


def _checkout(text: str):
    """(the `git clone …/vllm` match, the build in place after it), None when there is none."""
    m = next((m for m in _CLONE.finditer(text) if not _commented(text, m.start())), None)
    build = next((i for i in _IN_PLACE.finditer(text, m.end()) if not _commented(text, i.start())), None) if m else None
    return (m, build) if build is not None else None


_RELEASE_REF = re.compile("^" + _TAG + "$")


def checkout_release(text: str, got=None) -> str | None:
    """The release a checkout of vllm-project/vllm built in place is: `git clone --depth 1 --branch v0.10.0
    https://github.com/vllm-project/vllm.git` (or the clone then `git checkout v0.10.0`) and `pip install -e .`
    builds the code of the v0.10.0 tag, that release, not a development build (eval79
    yorelog/vllm-docker-multi-cuda-version). None for a branch, a commit, a fork or no ref."""
    got = got or _checkout(text)
    ref = framework_git.clone_ref(text, got[0].start(), got[1].start()) if got is not None else None
    if ref is None or f"{ref[0]}/{ref[1]}".lower() != "vllm-project/vllm":
        return None
    m = _RELEASE_REF.match(ref[2])
    return m.group(1) if m else None


_TARGET = re.compile(r"\bVLLM_TARGET_DEVICE\s*[= ]\s*[\"']?(\w+)")


def _target(text: str, got) -> str:
    """The VLLM_TARGET_DEVICE the checkout is built with (on the build's line, or set before it: `ENV`, `export`):
    `empty` builds no kernels and requires only requirements/common.txt, no torch (setup.py get_requirements,
    0.11.0:549); "" where the file does not say."""
    end = text.find("\n", got[1].end())
    found = [m.group(1).lower() for m in _TARGET.finditer(text, 0, len(text) if end < 0 else end)
             if not _commented(text, m.start())]
    return found[-1] if found else ""


def _commented(text: str, at: int) -> bool:
    """Whether offset `at` lies in a `#` comment (a Dockerfile's or a script's prerequisites written as
    prose: `#   git clone …/vllm.git` tells the reader, not the build)."""
    head = text[text.rfind("\n", 0, at) + 1:at]
    return head.lstrip().startswith("#") or " #" in head or "\t#" in head


def release_of(exact: str | None, known: list, newest: str) -> str:
    """The release a development build leads to when known, else the newest: `0.11.1.dev123` → 0.11.1;
    a line no release took (`0.16.1.dev45`: setuptools-scm's next patch after the v0.16.0 tag, while
    main's next release was 0.17.0) → the first known release from it on."""
    v = try_parse(exact or "")
    if v is None or not re.search(r"\.?dev\d*", exact or ""):
        return newest
    later = _from(v, known)
    return str(later) if later is not None else newest


def _from(v, known: list):
    """The first known final release at or after a development version's own release number."""
    base = try_parse(v.public)
    later = [k for k in known if base is not None and k >= base and try_parse(str(k)) is not None]
    return min(later) if later else None


def git_pin(rel: str, line: int, word: str, kind: str, pin_type):
    """A bare `git+https://…/vllm@<ref>` word of a pip command, as the vllm pin it installs; a
    framework's repository as that framework's pin (engine/scan/framework_git.py)."""
    if (tag := release_tag(word)) is not None:  # a release's own tag: that release, as an exact pin
        return pin_type(rel, line, word, f"=={tag}", kind, tag, "vllm")
    if is_git_url(word):
        return pin_type(rel, line, word, "", kind, None, "vllm", source="fork" if fork_source.is_fork_url(word) else "git")
    return framework_git.pin(rel, line, word, kind, pin_type)


def in_text(rel: str, text: str, pin_type, shell: bool, raw: str | None = None) -> list:
    """vLLM built from a checkout (Dockerfile, notebook or shell script), and in a shell script the git
    URLs its pip lines install (a Dockerfile's and a notebook's are read with their RUN lines). `raw`: the
    file as written, when `text` has its variables filled in: the pin quotes the file's own line."""
    out = framework_git.clone_pins(rel, text, "dockerfile", pin_type) if "clone" in text else []
    if "vllm" not in text.lower() and "git+" not in text:
        return out
    if (got := _checkout(text)) is not None:  # one scan for the clone's line and its ref
        n = _line(text, got)
        shown = (raw if raw is not None else text).splitlines()[n - 1].strip()[:120]
        if (tag := checkout_release(text, got)) is not None:  # a release's tag: that release, as an exact pin
            out.append(pin_type(rel, n, shown, f"=={tag}", "checkout", tag, "vllm", target=_target(text, got)))
        else:
            out.append(pin_type(rel, n, shown, "", "checkout", None, "vllm", source="checkout", target=_target(text, got)))
    for n, line in enumerate(text.splitlines(), 1) if shell else ():
        if "install" in line and "git+" in line:
            out += [p for w in line.split() if (p := git_pin(rel, n, w.strip("'\""), "dockerfile", pin_type)) is not None]
    return out



def newer_than_releases(choice, known: list) -> bool:
    """Whether the build may hold code newer than every known release (a commit, a nightly, a
    development version no known release follows): then an option no release has may be its own."""
    pin = choice.pin
    if pin is None or pin.source != "dev":
        return True
    v = try_parse(pin.exact or "")
    return v is None or _from(v, known) is None


def dev_span(choice, known: list) -> list | None:
    """The releases a development build lies between (span_of), None for another build."""
    pin = choice.pin
    return span_of(pin.exact, known) if pin is not None and pin.source == "dev" else None


def span_of(exact: str | None, known: list) -> list | None:
    """The releases a development version lies between: the last release before its own release number
    and the first from it on (`0.11.1.dev123`: 0.11.0 and 0.11.1; `0.16.1.dev45`: 0.16.0 and 0.17.0),
    sorted; None when no known release follows it."""
    v = try_parse(exact or "")
    later = _from(v, known) if v is not None else None
    if v is None or later is None:
        return None
    base = try_parse(v.public)
    older = [k for k in known if k < base]
    if re.search(r"\d(?:a|b|rc)\d*\.?dev", exact or "", re.I):
        # a development build after a release candidate (`0.16.0rc2.dev367`) is main's code after the release
        # branch was cut as often as the branch's own: it may hold what only the next minor release has
        # (kika/qwen-hotaisle's wheel runs --language-model-only, which 0.17.0 brought)
        nxt = [k for k in known if k.release[:2] > later.release[:2]]
        later = min(nxt) if nxt else later
    return ([max(older)] if older else []) + [later]
