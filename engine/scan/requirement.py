"""One requirement as a project writes it (`vllm==0.6.3`, `trl[vllm]>=0.18`, a wheel URL) read as a
Pin: the record every pin reader (engine/scan/pins.py, setup_pins.py, install_pins.py) returns
and the audit settles a site's release from."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from vllm_kb.engine.kb import dependency_pins
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet
from vllm_kb.engine.scan import framework_git, source_pins


# What changes an audit: vLLM, the frameworks that drive it, its plugins, transformers (reads the config), torch & co.
# Serving packages that start vLLM themselves (engine/check/host_compat.py): read for the site they start, not listed as the project's
# what pip reads with -r: requirements*.txt/.in, and a `requirements*.lock` — rye's locks (`requirements.lock`,
# `requirements-dev.lock`) and a `pip freeze` kept under that name (terrense/SFT_RLHF-DPO_GRPO-'s
# docs/requirements.vllm.lock, the frozen venv its serve scripts run: vllm==0.24.0, eval75)
REQUIREMENTS_SUFFIXES = (".txt", ".in", ".lock")
HOST_PACKAGES = ("fschat", "xinference", "ray", "ai-dynamo", "lighteval", "lm-eval", "openllm", "unsloth-zoo", "kserve", "huggingfaceserver", "smolagents")
PACKAGES = ("vllm", "trl", "verl", "openrlhf", "llamafactory", "ms-swift", "easyr1", "nemo-rl", "skyrl", "sglang", "vllm-omni", "lmcache", "transformers",
            "evalscope",  # the release decides the server `evalscope perf --api local_vllm` starts (scan/evalscope_launch.py)
            "bitsandbytes",  # its release against the floor vLLM's BitsAndBytes code checks (L20)
            "paddlex",  # a general plugin whose registered function imports vLLM model files (knowledge/vllm/plugins.yaml call_imports)
            *dependency_pins.PACKAGES, *HOST_PACKAGES)
# A package name must end at an operator, `[`, `@`, `;` or the end (vllm, not vllm-flash-attn).
_REQ = re.compile(r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)(?P<extras>\[[^\]]*\])?(?=\s*(?:$|[<>=!~;@(]))\s*(?:@\s*(?P<url>\S+)|(?P<spec>[^;#@]*))(?:;.*)?$", re.I)
# a wheel's version, with the pre-release, development and local parts a nightly or commit wheel carries
# (`vllm-0.16.1.dev45+g0123456-cp38-abi3-…whl`; `%2B` is a URL's `+`)
_WHEEL_VERSION = re.compile(r"[A-Za-z0-9_.]+-(\d+(?:\.\d+)+(?:\.post\d+)?(?:rc\d+)?(?:\.dev\d*)?(?:\+[a-z0-9.]+)?)-", re.I)
_BARE_WHEEL = re.compile(r"^(?:\S*/)?vllm-\d[^/\s]*\.whl$", re.I)


# a package published under an earlier name: LLaMA-Factory was `llmtuner` on PyPI up to 0.7.1 (the
# release published under both names), and its releases number on
_RENAMED = {"llmtuner": "llamafactory"}


def package_name(name: str) -> str:
    norm = re.sub(r"[-_.]+", "-", name).lower()
    return _RENAMED.get(norm, norm)

# Where a pin comes from decides which wins inside one folder: the lock file saw what was installed.
RANK = {"lock": 0, "requirements": 1, "pyproject": 2, "setup": 3, "conda": 4, "dockerfile": 5}


@dataclass
class Pin:
    file: str
    line: int
    text: str  # as written, e.g. "vllm==0.6.3"
    spec: str  # specifier part, e.g. "==0.6.3"
    kind: str  # lock | requirements | pyproject | setup | conda
    exact: str | None = None
    package: str = "vllm"
    extras: tuple[str, ...] = ()  # trl[vllm]: the framework pulls vLLM in
    above: bool = False  # from a folder above the audited one (its repository's), applying to all of it
    own: bool = False  # the project is this package's own source (a fork that keeps its name)
    source: str = ""  # git | checkout | nightly | dev: vLLM built from its sources (engine/scan/source_pins.py)
    via: str = ""  # a range read from another package's pin beside it (engine/scan/extra_pins.py torch_ranges)
    installed_in: str | None = None  # the folder of a Dockerfile that copies this file in and installs it
    included_in: str | None = None  # the folder of a requirements file that reads this one with -r/-c (scan/req_chains.py)
    no_deps: bool = False  # its file is installed with `pip install --no-deps -r`: no resolver joins its pins
    envs: frozenset = frozenset()  # the environments the project's instructions install its file into (scan/install_envs.py)
    file_vllm: str | None = None  # the vLLM release its own file pins exactly (a torch pin's own install)
    replaces: tuple = ()  # (file:line, text) of the folder's pin that a later install on a launch's path replaces
    last_install: bool = False  # a setup script's pin installed after the project's own install (scan/script_installs.py)
    group: str = ""  # the pyproject optional-dependencies group (extra) it is listed in (scan/extra_groups.py)
    unnamed_extra: str = ""  # the optional extra that alone holds this vLLM pin, which no install names (extra_groups.mark_unnamed)
    within: str = ""  # a vendored copy's range narrowed by the project's root floor, named here (scan/pin_scope.py)
    rival: str = ""  # a root pin judging a copy that is a project of its own: the release the copy pins (scan/sub_projects.py)
    for_copy: str | None = None  # …and that copy's folder, whose files it judges
    target: str = ""  # the VLLM_TARGET_DEVICE a checkout is built for (scan/source_pins.py); "" where not said

    @property
    def folder(self) -> str:
        if self.above:
            return ""
        if self.installed_in is not None:
            return self.installed_in
        if self.included_in is not None:
            return self.included_in
        if self.for_copy is not None:
            return self.for_copy
        p = PurePosixPath(self.file).parent.as_posix()
        return "" if p == "." else p


# what pip reads after a requirement on its line, not part of it: a continuation backslash and the per-requirement
# options (`vllm==0.8.5 \\` then `    --hash=sha256:…`, pip-compile --generate-hashes; `--config-settings`)
_TRAILER = re.compile(r"\s+(?:\\\s*$|--?[A-Za-z].*$)")


def from_requirement(rel: str, line: int, req: str, kind: str) -> Pin | None:
    if " -" in req or req.rstrip().endswith("\\"):
        req = _TRAILER.sub("", req.rstrip(), count=1)
    if _BARE_WHEEL.match(req.strip()):  # `pip install https://wheels.vllm.ai/<commit>/vllm-….whl`, kept as written
        p = from_requirement(rel, line, f"vllm @ {req.strip()}", kind)
        if p is not None:
            p.text = req.strip()
        return p
    m = _REQ.match(req)
    if not m or package_name(m["name"]) not in PACKAGES:
        return None
    pkg = package_name(m["name"])
    extras = tuple(sorted(package_name(x) for x in (m["extras"] or "[]")[1:-1].split(",") if x.strip()))
    if m["url"] and pkg == "vllm" and (tag := source_pins.release_tag(req)) is not None:
        return Pin(rel, line, req.strip(), f"=={tag}", kind, tag, pkg, extras)  # a release's tag: that release
    if m["url"]:
        wm = _WHEEL_VERSION.search(m["url"].rsplit("/", 1)[-1].replace("%2B", "+").replace("%2b", "+"))
        version = wm.group(1) if wm else None
        source = "git" if pkg == "vllm" and source_pins.is_git_url(req) else \
            "dev" if pkg == "vllm" and source_pins.is_dev(version) else ""
        return framework_git.pin(rel, line, req, kind, Pin, extras) or Pin(rel, line, req.strip(), f"=={version}" if version else "", kind,
                   version, pkg, extras, source=source)
    spec = (m["spec"] or "").strip().strip("()").strip()
    p = make_pin(rel, line, req.strip(), spec, kind)
    p.package, p.extras = pkg, extras
    p.source = "dev" if pkg == "vllm" and source_pins.is_dev(p.exact) else ""
    return p


def make_pin(rel: str, line: int, text: str, spec: str, kind: str) -> Pin:
    try:
        exact = SpecifierSet(spec).exact
    except InvalidSpecifier:
        exact = None
    return Pin(rel, line, text, spec, kind, exact)


def line_of(text: str, needle: str) -> int:
    return next((n for n, raw in enumerate(text.splitlines(), 1) if needle in raw), 1)
