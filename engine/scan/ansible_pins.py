"""vLLM installed by an Ansible task: the pip module (`pip: name=vllm==0.9.2`, `ansible.builtin.pip:
{name: [vllm==0.9.2]}`, `{name: vllm, version: 0.9.2}`) or a shell/command task's `pip install
vllm==X` / `pip install …/vllm-0.16.0rc2-….whl`. The host the playbook installs on is where the
launches it starts or the scripts beside it run, so each install is read as a setup script's line
is (kind `dockerfile`: one install command), a pin of the playbook's folder; two installs that
disagree are left to the folder's pin rules (engine/scan/pins.py), never guessed between. A role's
tasks (`roles/R/tasks/main.yml`) install for the whole role: the scripts and units its `files/` and
`templates/` put on the host run that release, so the pin is the role folder's."""
from __future__ import annotations

import re
import shlex
from typing import Any, Iterator

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan import pip_lines
from vllm_kb.engine.scan.requirement import Pin, from_requirement

_PIP = {"pip", "ansible.builtin.pip", "ansible.legacy.pip"}
_SHELL = {"shell", "command", "raw", "ansible.builtin.shell", "ansible.builtin.command", "ansible.builtin.raw",
          "ansible.legacy.shell", "ansible.legacy.command"}


_TASK = re.compile(r"^\s*(?:-\s+)?(?:ansible\.(?:builtin|legacy)\.)?(?:pip|shell|command|raw):", re.M)


def could_be(text: str) -> bool:
    """The cheap test before the file is parsed: a pip or shell task."""
    return _TASK.search(text) is not None


def is_playbook(data: Any) -> bool:
    """A playbook or a tasks file: a list of plays or tasks (mappings)."""
    return isinstance(data, list) and bool(data) and all(isinstance(x, dict) for x in data)


def pins(ctx, rel: str, text: str) -> list[Pin]:
    """The vLLM (and other tracked packages) the file's pip and shell tasks install (a scanner: the
    context is what every scanner is handed)."""
    try:
        docs = yamlio.load_all(text)
    except yamlio.YamlError:
        return []
    lines = text.splitlines()
    out: list[Pin] = []
    for doc in docs:
        if not is_playbook(doc.data):
            continue
        templated = False  # an install of a path the play computes (`uv pip install {{ wheel.files[0].path }}`)
        for path, key, value in _tasks(doc.data, ()):
            start = doc.line_of(path + (key,))
            for word in _pip_words(value) if key in _PIP else _shell_words(value):
                templated = templated or word.startswith("{{")
                p = from_requirement(rel, _line_of(lines, start, word), word, "dockerfile")
                if p is not None:
                    p.installed_in = _role(rel)
                    out.append(p)
        if templated and not any(p.package == "vllm" for p in out):
            out += _copied_wheels(rel, doc, lines)
    return out


_COPY = {"copy", "ansible.builtin.copy", "ansible.legacy.copy"}


def _copied_wheels(rel: str, doc, lines: list[str]) -> list[Pin]:
    """The vLLM wheel a copy task puts on the host, where the play installs a path it computes
    (a `find` of `vllm-*.whl`, then `pip install {{ … }}`): kika/qwen-hotaisle's setup.yml copies
    vllm-0.16.0rc2.dev367+g98b0205c3…whl and installs what it finds. One wheel only: two say nothing."""
    found = []
    for path, key, value in _tasks(doc.data, (), _COPY):
        src = value.get("src") if isinstance(value, dict) else None
        if isinstance(src, str) and (p := from_requirement(rel, _line_of(lines, doc.line_of(path + (key,)), src), src, "dockerfile")):
            if p.package == "vllm":
                p.installed_in = _role(rel)
                found.append(p)
    return found if len({p.exact for p in found}) == 1 else []


_ROLE = re.compile(r"^((?:.*/)?roles/[^/]+)/(?:tasks|handlers)/")


def _role(rel: str) -> str | None:
    """The role folder of a role's tasks or handlers file (`deploy/roles/vllm/tasks/main.yml`:
    deploy/roles/vllm), else None (the file's own folder)."""
    m = _ROLE.match(rel)
    return m.group(1) if m else None


def agreed(pins: list[Pin]) -> list[Pin]:
    """The project's pins less the playbooks' vLLM installs when those name more than one release:
    which playbook set up the host is not in the project (as two setup scripts that disagree)."""
    mine = [p for p in pins if p.package == "vllm" and p.kind == "dockerfile" and p.file.lower().endswith((".yml", ".yaml"))]
    if len({p.exact or p.text for p in mine}) < 2:
        return pins
    return [p for p in pins if p not in mine]


def _tasks(data: Any, path: tuple, modules: Any = None) -> Iterator[tuple[tuple, str, Any]]:
    """(path of the task, module key, its value) for every pip and shell task (or of `modules`), at
    any depth (plays' tasks, blocks, handlers)."""
    if isinstance(data, dict):
        for k, v in data.items():
            if k in _PIP or k in _SHELL if modules is None else k in modules:
                yield path, k, v
            elif isinstance(v, (dict, list)):
                yield from _tasks(v, path + (k,), modules)
    elif isinstance(data, list):
        for i, x in enumerate(data):
            yield from _tasks(x, path + (i,), modules)


def _pip_words(value: Any) -> list[str]:
    """The requirements a pip task installs: `name` (a list, or a comma-separated string), with
    `version` for a lone bare name."""
    if isinstance(value, str):  # `name=vllm==0.9.2 state=present`
        try:
            pairs = dict(w.split("=", 1) for w in shlex.split(value) if "=" in w)
        except ValueError:
            return []
        value = pairs
    if not isinstance(value, dict):
        return []
    names = value.get("name")
    names = [str(n) for n in names] if isinstance(names, list) else str(names).split(",") if names is not None else []
    names = [n.strip() for n in names if n and n.strip()]
    version = value.get("version")
    if version is not None and len(names) == 1 and names[0].replace("-", "_").isidentifier():
        return [f"{names[0]}=={version}"]
    return names


def _shell_words(value: Any) -> list[str]:
    cmd = value.get("cmd") if isinstance(value, dict) else value
    if isinstance(value, dict) and isinstance(value.get("argv"), list):
        cmd = shlex.join(str(x) for x in value["argv"])
    if not isinstance(cmd, str) or "install" not in cmd:
        return []
    return [w for _, _, _, words in pip_lines.pip_commands(pip_lines.as_run(cmd)) for w in pip_lines.requirement_words(words)]


def _line_of(lines: list[str], start: int, word: str) -> int:
    bare = word.split("==", 1)[0]
    for n in range(max(start, 1), len(lines) + 1):
        if word in lines[n - 1] or bare in lines[n - 1]:
            return n
    return start
