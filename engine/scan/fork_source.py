"""vLLM run from a fork's source tree inside the project: a git submodule (`.gitmodules` naming a
repository called vllm), or a vendored copy of vLLM's package beside its setup files (the walk skips
it, engine/scan/walk.py is_vllm_source). A research fork adds options stock vLLM never had
(pgimenes/adaserve: the pgimenes/vllm submodule's `--num-parallel-layers`, `enable_dynamic_resharding`,
vllm/engine/arg_utils.py of that fork), so judging them against PyPI's releases called four working
launches "vLLM has no option" (eval90). The submodule is a build from source — a fork's, whose
commit names no release — and the options its own arg_utils.py defines, when the tree is there,
are the fork's, not unknown ones."""
from __future__ import annotations

import re
from pathlib import Path

from vllm_kb.engine.scan import pip_lines

_SECTION = re.compile(r'^\s*\[submodule\s+"([^"]*)"\]\s*$')
_KEY = re.compile(r"^\s*(path|url)\s*=\s*(\S+)\s*$")
# a repository named vllm on any host: its owner decides whether it is vLLM's own or a fork
_VLLM_URL = re.compile(r"(?:^|[/:])([\w.-]+)/vllm(?:\.git)?/?$", re.I)
_OPTION = re.compile(r"""["'](--[a-z0-9][\w-]*)["']""", re.I)
_FIELD = re.compile(r"^    ([a-z_][a-z0-9_]*)\s*:", re.M)
_ARG_FILES = ("vllm/engine/arg_utils.py", "vllm/entrypoints/openai/cli_args.py")


def submodules(root: Path) -> list[tuple[int, str, str, bool]]:
    """(line, path, url, fork) of each submodule whose repository is named vllm: `fork` unless the
    owner is vllm-project."""
    try:
        text = (root / ".gitmodules").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    out: list[dict[str, str]] = []
    cur: dict[str, str] | None = None
    for n, line in enumerate(text.splitlines(), 1):
        if _SECTION.match(line):
            cur = {"line": str(n), "path": "", "url": ""}
            out.append(cur)
        elif cur is not None and (k := _KEY.match(line)):
            cur[k.group(1)] = k.group(2)
            if k.group(1) == "url":
                cur["line"] = str(n)
    found: list[tuple[int, str, str, bool]] = []
    for d in out:
        if m := _VLLM_URL.search(d["url"]):
            found.append((int(d["line"]), d["path"], d["url"], m.group(1).lower() != "vllm-project"))
    return found


def is_fork_url(word: str) -> bool:
    """A git URL of a repository named vllm whose owner is not vllm-project (`git+https://github.com/x/vllm@main`)."""
    w = re.sub(r"^(?:vllm\s*@\s*)?git\+", "", word.strip()).split("#", 1)[0]
    rest = w.partition("://")[2] or w
    if "@" in rest.split("/", 1)[0]:  # user@host
        rest = rest.split("@", 1)[1]
    m = _VLLM_URL.search(rest.split("@", 1)[0])
    return m is not None and m.group(1).lower() != "vllm-project"


def pins(ctx, scripts: list[str], pin_type) -> list:
    """A vLLM submodule as the vllm pin it builds: source `fork` (another owner's repository) or
    `checkout` (vllm-project's, at a commit the checkout does not name). vLLM's own repository as a
    submodule is a build only where one of the project's `scripts` installs from it: projects keep it
    to read vLLM's examples and install vLLM from PyPI or an image (eval89 llm_vlm_memo)."""
    return [pin_type(".gitmodules", line, f"url = {url}", "", "checkout", None, "vllm", source="fork" if fork else "checkout")
            for line, path, url, fork in submodules(ctx.root) if fork or _installed_from(ctx, scripts, path)]


def _installed_from(ctx, scripts: list[str], path: str) -> bool:
    """Whether a script installs the folder `path`: `pip install -e vllm`, `./vllm`, `vllm/` (a bare
    `vllm` is PyPI's package), or `pip install .` after `cd vllm` on the same command line."""
    folder = path.strip("./")
    cd = re.compile(rf"\bcd\s+(?:\./)?{re.escape(folder)}/?(?:\s|$|;|&)")
    for rel in scripts:
        text = ctx.read(rel)
        if not text or folder not in text:
            continue
        docker = rel.rpartition("/")[2].lower().startswith(("dockerfile", "containerfile"))
        for _, _, logical, words in pip_lines.pip_commands(text if docker else pip_lines.as_run(text)):
            for k, w in enumerate(words):
                target = w.split("[", 1)[0]
                editable = k > 0 and words[k - 1] in ("-e", "--editable")
                if target.strip("/").removeprefix("./") == folder and (editable or target != folder or "/" in folder):
                    return True
                if target in (".", "./") and cd.search(logical):
                    return True
    return False


def options(root: Path, folders: list[str]) -> dict[str, str]:
    """{canonical option name: the tree that defines it} from the argument definitions of each vLLM
    source tree in the project (the submodules' paths and the vendored copies the walk skipped)."""
    trees = list(dict.fromkeys([*folders, *(p for _l, p, _u, _f in submodules(root) if p)]))
    out: dict[str, str] = {}
    for tree in trees:
        for rel in _ARG_FILES:
            try:
                text = (root / tree / rel).read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            names = [m.group(1) for m in _OPTION.finditer(text)]
            if rel.endswith("arg_utils.py") and (c := text.find("class EngineArgs")) >= 0:
                end = text.find("\nclass ", c + 1)
                names += [m.group(1) for m in _FIELD.finditer(text, c, end if end > 0 else len(text))]
            for name in names:
                out.setdefault(name.lstrip("-").lower().replace("_", "-"), tree)
    return out
