"""What the files of a project say, as observations for the triggers of knowledge/triggers.yaml
(engine/advise/detect.py): imports, dependency pins, launch sites, keys and environment
variables, read without running anything (ast, the safe YAML loader, tomllib, the shell lexer).
Text in comments, docstrings, echo strings and Markdown is never an observation."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from vllm_kb.engine.scan import pins as pins_mod
from vllm_kb.engine.scan import python_scope, scripts, shell, shell_expand
from vllm_kb.engine.scan.context import parse_python
from vllm_kb.engine.scan.deploy import helm_chart
from vllm_kb.engine.scan.project import Scan
from vllm_kb.engine.scan.project_files import head_if_script
from vllm_kb.engine.scan.yaml_docs import load_docs as _load_yaml_docs
from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.kb.tomlread import toml



@dataclass(frozen=True)
class Observation:
    kind: str  # import | pin | site | key | env
    name: str
    file: str
    line: int
    what: str  # as written, for the evidence line
    vllm_context: bool = False
    extras: tuple[str, ...] = ()
    framework: str = ""
    mode: str = ""
    syntax: str = ""
    tool: str = ""  # a site's deployment tool (production-stack, kserve, ray-serve, modal …)

    def facts(self) -> dict[str, Any]:
        return {"obs": {"kind": self.kind, "name": self.name, "file": self.file, "line": self.line,
                        "vllm_context": self.vllm_context, "extras": list(self.extras),
                        "framework": self.framework, "mode": self.mode, "syntax": self.syntax, "tool": self.tool}}

    def signature(self) -> tuple:
        """Everything a trigger may look at except where: equal signatures get one evaluation."""
        return (self.kind, self.name, self.vllm_context, self.extras, self.framework, self.mode, self.syntax, self.tool)


# "vllm" as a word of its own: vllm, vllm_mode, vllm/vllm-openai, vllm.entrypoints — not
# vllm-flash-attn or myvllmtools.
_VLLM_NAME = re.compile(r"(?<![a-z0-9])vllm(?![a-z0-9-])", re.I)
# A value that names vLLM: the backend name, the image, the module, the program.
_VLLM_VALUE = re.compile(r"^vllm(?:$|[/.:\s])|vllm serve|vllm\.entrypoints|vllm/vllm-openai", re.I)
_ENV_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=")
_PRINTERS = frozenset({"echo", "printf", "logger", "cat", "print"})


NAMES_VLLM = re.compile("vllm", re.I)


def collect(sc: Scan) -> list[Observation]:
    out: list[Observation] = pin_observations(sc.pins) + site_observations(sc.sites)
    for rel in sc.files:
        out += file_observations(sc, rel)
    seen: set[tuple] = set()
    unique = []
    for ob in out:  # a site's env and the script's own assignment are one observation
        k = (ob.kind, ob.name, ob.file, ob.line)
        if k not in seen:
            seen.add(k)
            unique.append(ob)
    return unique


def pin_observations(pins) -> list[Observation]:
    return [Observation("pin", p.package, p.file, p.line, p.text, extras=tuple(p.extras)) for p in pins]


def site_observations(sites) -> list[Observation]:
    out = []
    for s in sites:
        out.append(Observation("site", s.kind, s.file, s.line, f"{s.kind} ({s.tool})" if s.tool else s.kind,
                               framework=s.framework, mode=s.mode, syntax=s.syntax, tool=s.tool or ""))
        for name, st in s.env.items():
            out.append(Observation("env", name, getattr(st, "file", None) or s.file, st.line or s.line, name))
    return out


def observed(rel: str) -> bool:
    """Whether a file is read for observations at all (by its name)."""
    p = PurePosixPath(rel)
    suffix = p.suffix.lower()
    return suffix in (".py", ".yaml", ".yml", ".json", ".toml", ".env") or p.name == ".env" or \
        suffix in scripts.SHELL_SUFFIXES or suffix == ""


def file_observations(sc: Scan, rel: str) -> list[Observation]:
    p = PurePosixPath(rel)
    suffix = p.suffix.lower()
    if suffix == ".py":
        return _python(sc, rel)
    if suffix in (".yaml", ".yml", ".json"):
        return _yaml(sc, rel)
    if suffix == ".toml":
        return _toml(sc, rel)
    if p.name == ".env" or suffix == ".env":
        return _dotenv(sc, rel)
    if suffix in scripts.SHELL_SUFFIXES or (suffix == "" and head_if_script(sc.ctx, rel) is not None):
        return _shell(sc, rel)
    return []


def _text(sc: Scan, rel: str) -> str | None:
    return sc.ctx.read(rel)  # cached by the site scan; unreadable files are already reported


def _python(sc: Scan, rel: str) -> list[Observation]:
    text = _text(sc, rel)
    if text is None:
        return []
    try:
        tree = parse_python(text, rel)
    except (SyntaxError, ValueError, RecursionError):
        return []  # scan_project already reported it
    out: list[Observation] = []
    keys: list[tuple[str, int]] = []
    context = False
    # ast.walk's order without its generic field iteration (a third of `detect --all`); the
    # context and operator leaves it leaves out are none of the nodes read here
    for node in python_scope.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out.append(Observation("import", a.name, rel, node.lineno, f"import {a.name}"))
                context |= a.name.split(".")[0] == "vllm"
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = ", ".join(a.name for a in node.names[:4]) + (", …" if len(node.names) > 4 else "")
            out.append(Observation("import", node.module, rel, node.lineno, f"from {node.module} import {names}"))
            context |= node.module.split(".")[0] == "vllm"
        elif isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg:
                    keys.append((kw.arg, kw.value.lineno if hasattr(kw.value, "lineno") else node.lineno))
                    context |= bool(_VLLM_NAME.search(kw.arg)) or _names_vllm_value(kw.value)
        elif isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values):
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    keys.append((k.value, k.lineno))
                    context |= bool(_VLLM_NAME.search(k.value)) or _names_vllm_value(v)
        elif isinstance(node, ast.Assign) and _names_vllm_value(node.value):
            context = True
    out += [Observation("key", k, rel, line, k, vllm_context=context) for k, line in keys]
    return out


def _names_vllm_value(node) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(_VLLM_VALUE.search(node.value))


def _yaml(sc: Scan, rel: str) -> list[Observation]:
    if pins_mod.is_pin_file(rel):
        return []
    text = _text(sc, rel)
    if text is None:
        return []
    if helm_chart.is_template(sc.ctx, rel, text):  # Go-template actions: the text the chart renders, never a YAML error
        try:
            docs = yamlio.load_all(helm_chart.render(sc.ctx, rel, text))
        except (yamlio.YamlError, RecursionError):
            docs = []  # the scan reports a template it cannot render
    else:
        docs = _load_yaml_docs(sc.ctx, rel, text) if not sc.ctx.was_skipped(rel) else []
    found: list[tuple[str, int]] = []
    env: list[tuple[str, int]] = []
    context = False
    for doc in docs:
        for path, key, value in _walk(doc.data, ()):
            line = doc.line_of(path)
            if key is not None:
                found.append((key, line))
                context |= bool(_VLLM_NAME.search(key))
                if key.startswith("VLLM_"):
                    env.append((key, line))
            if isinstance(value, str):
                context |= bool(_VLLM_VALUE.search(value))
                m = re.match(r"^(VLLM_[A-Z0-9_]+)=", value)
                if m:
                    env.append((m.group(1), line))
            if key == "name" and isinstance(value, str) and value.startswith("VLLM_"):
                env.append((value, line))
    out = [Observation("key", _last(k), rel, line, k, vllm_context=context) for k, line in found]
    out += [Observation("env", n, rel, line, n) for n, line in env]
    return out


def _walk(data, path):
    """(path, key, value) for every mapping entry and list item, depth first."""
    stack = [(path, data)]
    while stack:
        p, node = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                if isinstance(k, str):
                    yield p + (k,), k, v
                    stack.append((p + (k,), v))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield p + (i,), None, v
                stack.append((p + (i,), v))


def _last(key: str) -> str:
    """`vllm.num_engines` and `actor_rollout_ref.rollout.gpu_memory_utilization` are read by
    their last component; dashes count as underscores."""
    return key.lstrip("+~").rsplit(".", 1)[-1].replace("-", "_")


def _toml(sc: Scan, rel: str) -> list[Observation]:
    text = _text(sc, rel)
    if text is None:
        return []
    try:
        data = toml().loads(text)
    except (toml().TOMLDecodeError, RecursionError):
        if not sc.ctx.was_skipped(rel):
            sc.ctx.skip(rel, "parse-error", detail="invalid TOML")
        return []
    lines = text.splitlines()
    found, context = [], False
    for _path, key, value in _walk(data, ()):
        if key is not None:
            found.append(key)
            context |= bool(_VLLM_NAME.search(key))
        if isinstance(value, str):
            context |= bool(_VLLM_VALUE.search(value))
    return [Observation("key", _last(k), rel, _toml_line(lines, k), k, vllm_context=context) for k in found]


def _toml_line(lines: list[str], key: str) -> int:
    pat = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=")
    for i, ln in enumerate(lines, 1):
        if pat.match(ln):
            return i
    return 1


def _dotenv(sc: Scan, rel: str) -> list[Observation]:
    text = _text(sc, rel)
    if text is None:
        return []
    out = []
    for i, ln in enumerate(text.splitlines(), 1):
        m = _ENV_LINE.match(ln)
        if m and not ln.lstrip().startswith("#"):
            out.append(Observation("env", m.group(1), rel, i, m.group(1)))
    return out


def _shell(sc: Scan, rel: str) -> list[Observation]:
    text = _text(sc, rel)
    if text is None or not scripts.is_shell(rel, text):
        return []
    try:
        commands = shell.parse(text)
    except shell.ShellSyntaxError:
        return []  # reported by the site scan when it matters
    out: list[Observation] = []
    keys: list[tuple[str, int, str]] = []
    context = False
    for cmd in commands:
        words = list(cmd.words)
        while words and (a := shell_expand.split_assignment(words[0])) is not None:
            out += _assignment(rel, a, words[0].line)
            context |= bool(_VLLM_NAME.search(words[0].literal))
            words.pop(0)
        if not words:
            continue
        prog = PurePosixPath(words[0].literal).name
        if prog in _PRINTERS:
            continue
        if prog in ("export", "declare", "local", "readonly"):
            for w in words[1:]:
                if (a := shell_expand.split_assignment(w)) is not None:
                    out += _assignment(rel, a, w.line)
            continue
        for w in words:
            lit = w.literal
            context |= bool(_VLLM_NAME.search(lit)) and (lit.startswith("-") or "=" in lit or _VLLM_VALUE.search(lit) is not None)
            if lit.startswith("--") and len(lit) > 2:
                name = lit[2:].split("=", 1)[0]
                keys.append((name, w.line, lit.split("=", 1)[0]))
            elif "=" in lit and re.match(r"^[+~]{0,2}[A-Za-z_][\w.]*=", lit):
                name = lit.split("=", 1)[0]
                keys.append((name, w.line, name))
    out += [Observation("key", _last(n), rel, line, shown, vllm_context=context or "vllm" in n.lower()) for n, line, shown in keys]
    return out


def _assignment(rel: str, a, line: int) -> list[Observation]:
    name = a[0]
    return [Observation("env", name, rel, line, name)] if name.isupper() else []


