"""Does a project use vLLM, and where is the evidence? Observations are read without running
anything (ast, the safe YAML loader, tomllib, the shell lexer); knowledge/triggers.yaml decides
which of them count."""
from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from vllm_kb.engine.kb import cel, resources
from vllm_kb.engine.scan.project import Scan, _head_if_script, _load_yaml_docs, scan_project
from vllm_kb.engine.kb.errors import KnowledgeError, Problem
from vllm_kb.engine.kb.knowledge import Text, load_yaml
from vllm_kb.engine.scan import pins as pins_mod
from vllm_kb.engine.scan import scripts, shell, shell_expand
from vllm_kb.engine.scan.context import parse_python

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


@dataclass(frozen=True)
class Trigger:
    id: str
    name: str
    title: Text
    when: cel.Predicate


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

    def facts(self) -> dict[str, Any]:
        return {"obs": {"kind": self.kind, "name": self.name, "file": self.file, "line": self.line,
                        "vllm_context": self.vllm_context, "extras": list(self.extras),
                        "framework": self.framework, "mode": self.mode, "syntax": self.syntax}}

    def signature(self) -> tuple:
        """Everything a trigger may look at except where: equal signatures get one evaluation."""
        return (self.kind, self.name, self.vllm_context, self.extras, self.framework, self.mode, self.syntax)


@dataclass(frozen=True)
class Evidence:
    trigger: Trigger
    obs: Observation


@dataclass
class Detection:
    root: Path
    used: bool
    evidence: list[Evidence]
    scan: Scan
    observations: int = 0
    triggers: list[Trigger] = field(default_factory=list)


def load_triggers() -> list[Trigger]:
    doc = load_yaml("triggers.yaml")
    name = resources.display_name("knowledge", "triggers.yaml")
    from vllm_kb.engine.kb import schemas

    errs = schemas.errors("triggers", doc.data)
    if errs:
        raise KnowledgeError([Problem(name, "", schemas.json_path(p), m) for p, m in errs])
    out, seen = [], set()
    for i, raw in enumerate(doc.data["triggers"]):
        if raw["id"] in seen:
            raise KnowledgeError([Problem(name, raw["id"], f"triggers[{i}].id", "duplicate trigger id")])
        seen.add(raw["id"])
        try:
            pred = cel.compile(raw["when"])
        except cel.CelSyntaxError as e:
            raise KnowledgeError([Problem(name, raw["id"], f"triggers[{i}].when", f"CEL syntax error: {e}")]) from None
        out.append(Trigger(raw["id"], raw["name"], Text.of(raw["title"]), pred))
    return out


def detect(path: str | Path, *, triggers: list[Trigger] | None = None) -> Detection:
    return detect_scan(scan_project(path), triggers=triggers)


def detect_scan(sc: Scan, *, triggers: list[Trigger] | None = None) -> Detection:
    """The triggers over a project already read (an agent hook reads only the files it touched)."""
    triggers = triggers if triggers is not None else load_triggers()
    observations = collect(sc)
    cache: dict[tuple, list[Trigger]] = {}
    evidence = []
    for ob in observations:
        sig = ob.signature()
        if sig not in cache:
            act = cel.Activation(ob.facts())
            cache[sig] = [t for t in triggers if t.when.evaluate(act).value is True]
        evidence += [Evidence(t, ob) for t in cache[sig]]
    order = {t.id: i for i, t in enumerate(triggers)}
    evidence.sort(key=lambda e: (order[e.trigger.id], e.obs.file, e.obs.line, e.obs.name))
    return Detection(sc.root, bool(evidence), evidence, sc, len(observations), triggers)


# -- observations ---------------------------------------------------------------------------

# "vllm" as a word of its own: vllm, vllm_mode, vllm/vllm-openai, vllm.entrypoints — not
# vllm-flash-attn or myvllmtools.
_VLLM_NAME = re.compile(r"(?<![a-z0-9])vllm(?![a-z0-9-])", re.I)
# A value that names vLLM: the backend name, the image, the module, the program.
_VLLM_VALUE = re.compile(r"^vllm(?:$|[/.:\s])|vllm serve|vllm\.entrypoints|vllm/vllm-openai", re.I)
_ENV_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=")
_PRINTERS = frozenset({"echo", "printf", "logger", "cat", "print"})


def collect(sc: Scan) -> list[Observation]:
    out: list[Observation] = []
    for p in sc.pins:
        out.append(Observation("pin", p.package, p.file, p.line, p.text, extras=tuple(p.extras)))
    for s in sc.sites:
        out.append(Observation("site", s.kind, s.file, s.line, s.kind, framework=s.framework, mode=s.mode, syntax=s.syntax))
        for name, st in s.env.items():
            out.append(Observation("env", name, getattr(st, "file", None) or s.file, st.line or s.line, name))
    for rel in sc.files:
        p = PurePosixPath(rel)
        suffix = p.suffix.lower()
        if suffix == ".py":
            out += _python(sc, rel)
        elif suffix in (".yaml", ".yml", ".json"):
            out += _yaml(sc, rel)
        elif suffix == ".toml":
            out += _toml(sc, rel)
        elif p.name == ".env" or suffix == ".env":
            out += _dotenv(sc, rel)
        elif suffix in scripts.SHELL_SUFFIXES or (suffix == "" and _head_if_script(sc.ctx, rel) is not None):
            out += _shell(sc, rel)
    seen: set[tuple] = set()
    unique = []
    for ob in out:  # a site's env and the script's own assignment are one observation
        k = (ob.kind, ob.name, ob.file, ob.line)
        if k not in seen:
            seen.add(k)
            unique.append(ob)
    return unique


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
    for node in ast.walk(tree):
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
    docs = _load_yaml_docs(sc.ctx, rel, text) if rel not in _skipped(sc) else []
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


def _skipped(sc: Scan) -> set[str]:
    return {s.file for s in sc.ctx.skipped}


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
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        if rel not in _skipped(sc):
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


# -- what a person or an agent reads --------------------------------------------------------

def record(det: Detection, lang: str) -> dict[str, Any]:
    """The detection as plain data (JSON output, MCP tool), texts in `lang`."""
    from vllm_kb.engine.kb.knowledge import load

    kb = load()
    by_trigger: dict[str, list[Evidence]] = {}
    for e in det.evidence:
        by_trigger.setdefault(e.trigger.id, []).append(e)
    from vllm_kb.engine.kb.redact import redact

    return redact({
        "root": str(det.root),
        "used": det.used,
        "summary": kb.t("detect.used" if det.used else "detect.not_used", lang, n=len(det.evidence)),
        "triggers": [
            {"id": t.id, "name": t.name, "title": t.title(lang),
             "evidence": [{"file": e.obs.file, "line": e.obs.line, "kind": e.obs.kind, "what": e.obs.what}
                          for e in by_trigger[t.id]]}
            for t in det.triggers if t.id in by_trigger
        ],
        "sites": [{"id": s.id, "kind": s.kind, "mode": s.mode, "framework": s.framework, "syntax": s.syntax}
                  for s in det.scan.sites],
        "files_scanned": len(det.scan.files),
        "observations": det.observations,
        "skipped": [{"file": s.file, "line": s.line, "code": s.code,
                     "reason": kb.t(f"skip.{s.code}", lang) + (f": {s.detail}" if s.detail else "")} for s in det.scan.ctx.skipped],
    })
