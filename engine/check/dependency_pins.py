"""The project's pins of torch and of the packages built against one torch (xformers,
vllm-flash-attn, flashinfer-python, torchvision, torchaudio) against what the pinned vLLM release
requires (knowledge/vllm/dependency_pins.yaml, read from each release's requirement files).

vLLM's wheels pin torch exactly: its kernels (vllm/_C.abi3.so) are compiled against that libtorch.
Where the two pins are installed by one pip command (one requirements file, one conda `pip:` list,
one `RUN pip install` of a Dockerfile) pip cannot satisfy both and stops ("ResolutionImpossible"):
nothing is installed, so nothing starts (`launch.dep_order == "same"`). Installed in two steps,
the last one wins: the other torch installed after vLLM leaves `_C` with symbols its libtorch
lacks ("undefined symbol" when vLLM is imported), vLLM installed after it replaces the project's
torch. A Dockerfile says which came later (`after`; a RUN before vLLM's changes nothing for vLLM);
files read apart say nothing about the order (`unknown`). A torch of the same minor release
(2.4.1 beside 2.4.0) keeps the symbols vLLM uses and is judged only where pip must resolve both.
"""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.kb import dependency_pins
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, try_parse
from vllm_kb.engine.scan import install_envs
from vllm_kb.engine.scan import pins as pins_mod
from vllm_kb.engine.scan import pip_lines
from vllm_kb.engine.kb.tomlread import toml


# pins that pip installs in one resolution when they share the file (a requirements file, a conda
# environment's pip list); a pyproject counts where both are in [project].dependencies
_ONE_INSTALL = ("requirements", "conda")


def dependency_facts(site, choice: Any, pins: list, read) -> dict[str, Any]:
    """launch.dep_* for the first pin (same install first) that vLLM's release does not accept;
    launch.dep_near for one that differs only where vLLM's kernels still load (the same minor torch
    installed apart); launch.dep_ok when every such pin agrees with it."""
    vpin = choice.pin
    if vpin is None or choice.basis not in ("pin", "image") or vpin.source:  # a source build has no wheel's pins
        return {}
    if vpin.target not in ("", "cuda"):
        # a checkout built for no device (vllm-ascend's base: VLLM_TARGET_DEVICE=empty) or another one has no
        # CUDA kernels and not the CUDA requirements' torch pin (setup.py get_requirements, 0.11.0:549)
        return {}
    req = dependency_pins.requires(choice.version)
    if not req:
        return {}
    folder = site.file.rpartition("/")[0]
    judged, out, near = False, None, None
    for p in pins:
        if p.package not in req or p.own or p.kind == "lock" or not _applies(p, folder, site, vpin) or not _on_linux(p.text):
            continue
        if _own_install(vpin, p) or _nearer_pin(p, folder, pins):
            continue
        want = req[p.package]["spec"]
        exact = _exact(want)
        if exact is None:
            continue
        judged = True
        if _accepts(p, exact):
            continue
        order = install_order(vpin, p, read)
        if order == "before":
            continue
        if order != "same" and not _breaks(p, exact):
            near = near or {"dep_near": True, "dep_package": p.package, "dep_pin": p.text, "dep_pin_at": f"{p.file}:{p.line}",
                            "dep_requires": want}
            continue
        got = {"dep_package": p.package, "dep_pin": p.text, "dep_pin_at": f"{p.file}:{p.line}", "dep_requires": want,
               "dep_requires_at": req[p.package]["at"], "dep_order": order, "dep_fix": "==" + exact}
        if out is None or (order == "same" and out["dep_order"] != "same"):
            out = got
    if out is not None:
        return out
    return near or ({"dep_ok": True} if judged else {})


def _own_install(vpin, p) -> bool:
    """A pin of another file installed apart from vLLM's: its file pins another vLLM release (the torch
    that one needs), or the project's instructions install the two files only into different
    environments (conda envs, venvs, images: engine/scan/install_envs.py)."""
    if p.file == vpin.file:  # one script's installs into two environments it activates in turn
        return install_envs.apart(p.envs, vpin.envs)
    if p.file_vllm is not None and (vpin.exact is None or try_parse(_public(p.file_vllm)) != try_parse(_public(vpin.exact))):
        return True
    return install_envs.apart(p.envs, vpin.envs)


def _nearer_pin(p, folder: str, pins: list) -> bool:
    """A setup script's pin in a folder above, where a folder nearer the site (a sub-project of its own) pins
    the same package: that one is the site's (kapilw25/multi_agent_alignment_drift: setup_env.sh's torch==2.5.1
    above literature/tulu_train, whose pyproject asks torch>=2.9.0,<2.10)."""
    if not p.file.endswith((".sh", ".bash")):
        return False
    return any(q.package == p.package and q.folder != p.folder and (not p.folder or q.folder.startswith(p.folder + "/"))
               and (folder == q.folder or folder.startswith(q.folder + "/")) for q in pins)


def _applies(p, folder: str, site, vpin) -> bool:
    """A pin of the site's folder or one above it, or of the file that pins the site's vLLM (the
    same build, wherever the site's own file is); inside a container only the image's own build."""
    if site.image and p.kind != "dockerfile":
        return False
    if vpin.kind == "pyproject" and vpin.folder and p.folder != vpin.folder and (not p.folder or vpin.folder.startswith(p.folder + "/")) \
            and p.file_vllm is None and p.file.endswith((".sh", ".bash")):
        return False  # a sub-project with its own pyproject pinning vLLM (its own environment), not a setup script's above it
    return p.above or not p.folder or folder == p.folder or folder.startswith(p.folder + "/") or p.file == vpin.file


# the platform vLLM's CUDA wheels are judged for (a pin marked for another one is not installed there)
_LINUX = {"platform_system": "Linux", "platform_machine": "x86_64", "sys_platform": "linux", "os_name": "posix"}
_CMP = re.compile(r"""(\w+)\s*(===|==|!=|~=|<=|>=|<|>|not\s+in|in)\s*['"]([^'"]*)['"]""")


def _on_linux(text: str) -> bool:
    """Whether a pin's environment marker holds on Linux x86_64 (a marker on anything else — the
    Python version — is taken to hold; one the audit cannot read, not to)."""
    if ";" not in text:
        return True
    marker = text.split(";", 1)[1].split(" #", 1)[0].strip()

    def one(m: re.Match) -> str:
        name, op, value = m.group(1), re.sub(r"\s+", " ", m.group(2)), m.group(3)
        if name not in _LINUX or op not in ("==", "!=", "in", "not in"):
            return "True"
        have = _LINUX[name]
        hit = {"==": have == value, "!=": have != value, "in": have in value, "not in": have not in value}[op]
        return str(hit)

    expr = _CMP.sub(one, marker)
    if not re.fullmatch(r"(?:\s|\(|\)|True|False|and|or|not)*", expr):
        return False
    return bool(eval(expr, {"__builtins__": {}}, {}))  # noqa: S307 — only True/False/and/or/not/() left


def _exact(spec: str) -> str | None:
    try:
        return SpecifierSet(spec).exact
    except InvalidSpecifier:
        return None


def _public(v: str | None) -> str | None:
    return v.split("+", 1)[0] if v else None


def _accepts(p, exact: str) -> bool:
    """Whether the project's pin allows vLLM's version (a local build `2.4.0+cu121` is 2.4.0 to pip)."""
    if not p.spec.strip():
        return True
    if p.exact and try_parse(_public(p.exact)) is not None and try_parse(exact) is not None:
        return try_parse(_public(p.exact)) == try_parse(exact)
    try:
        return SpecifierSet(p.spec).contains(exact)
    except InvalidSpecifier:
        return True  # a pin the audit cannot read claims nothing


def _breaks(p, exact: str) -> bool:
    """Installed apart from vLLM, whether the pinned release is built for another torch: torch (or
    torchvision, torchaudio) of another minor release, another xformers or vllm-flash-attn release."""
    mine = try_parse(_public(p.exact)) if p.exact else None
    want = try_parse(exact)
    if mine is None or want is None:
        return False
    if p.package in ("torch", "torchvision", "torchaudio"):  # their minor releases move together
        return mine.release[:2] != want.release[:2]
    # flashinfer compiles its kernels when first used: another release installed apart is no ABI break
    return p.package != "flashinfer-python" and mine != want


def install_order(vpin, p, read) -> str:
    """same | no_deps | after | before | unknown: how the pin is installed relative to vLLM's
    (no_deps: one `pip install --no-deps -r` of their file, each line installed as written)."""
    if vpin.kind == "image":
        return "after" if p.kind == "dockerfile" else "unknown"
    if vpin.file != p.file or (";" in p.text and _lines_naming(read(p.file) or "", p.package) > 1):
        return "unknown"  # lines for other interpreters (environment markers): which one pip takes is not known
    if p.kind in _ONE_INSTALL and vpin.kind == p.kind:
        # `pip install --no-deps -r FILE` installs each line as written: no resolver, so no ResolutionImpossible
        return "no_deps" if p.no_deps or vpin.no_deps else "same"
    if p.kind == "pyproject" and vpin.kind == "pyproject":
        return "same" if _both_in_dependencies(read(p.file) or "", vpin, p) else "unknown"
    if p.kind == "dockerfile" and vpin.kind == "dockerfile":
        cmds = pip_commands(read(p.file) or "")
        a, b = _command_of(cmds, vpin), _command_of(cmds, p)
        if a is None or b is None:
            return "unknown"
        return "same" if a == b else ("after" if b > a else "before")
    return "unknown"


def _both_in_dependencies(text: str, vpin, p) -> bool:
    try:
        doc = toml().loads(text)
    except (toml().TOMLDecodeError, ValueError, RecursionError):
        return False
    uv = (doc.get("tool") or {}).get("uv") or {}
    # uv's override-dependencies replace what vLLM itself requires of the package (the transformers 5 recipe)
    overridden = _names(uv.get("override-dependencies") if isinstance(uv, dict) else None)
    return {vpin.package, p.package} <= _names((doc.get("project") or {}).get("dependencies")) and p.package not in overridden


def _lines_naming(text: str, package: str) -> int:
    return sum(1 for line in text.splitlines() if (m := re.match(r"\s*[\"']?([A-Za-z0-9][A-Za-z0-9._-]*)", line))
               and pins_mod.package_name(m.group(1)) == package)


def _names(reqs) -> set[str]:
    return {pins_mod.package_name(m.group(0)) for d in reqs or [] if isinstance(d, str) if (m := re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", d))}


def pip_commands(text: str) -> list[tuple[int, int, frozenset[str]]]:
    """(first line, last line, words) of each `pip install` of a Dockerfile's RUN instructions, in order."""
    return [(first, last, frozenset(words)) for first, last, _, words in pip_lines.pip_commands(text)]


def _command_of(cmds, pin) -> int | None:
    for n, (first, last, words) in enumerate(cmds):
        if first <= pin.line <= last and pin.text in words:
            return n
    return None
