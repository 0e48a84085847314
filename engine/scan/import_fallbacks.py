"""Where the project's own code already knows a vLLM module moved: a `try:` that imports a name from
one vLLM module and an `except ImportError` (ModuleNotFoundError, Exception, bare) that imports the
same name from another (PipelineRL pipelinerl/vllm1.py:35-38: `vllm.entrypoints.openai.tool_parsers`,
then `vllm.tool_parsers`). Another import of the project that still names the old path, unguarded,
is best fixed the same way (check L139) rather than by a pin of another vLLM release, which may cross
the torch the project builds against."""
from __future__ import annotations

import ast
from dataclasses import dataclass

from vllm_kb.engine.scan.framework_source import parse_or_empty

_CAUGHT = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


@dataclass(frozen=True)
class Fallback:
    old: str  # the module the try imports from: vllm.entrypoints.openai.tool_parsers
    new: str  # the one the handler imports the same name from: vllm.tool_parsers
    file: str
    line: int  # the handler's import

    def moved(self, module: str) -> str | None:
        """`module` under the new path where it lies under the old one (a submodule keeps its tail)."""
        if module == self.old or module.startswith(self.old + "."):
            return self.new + module[len(self.old):]
        return None


def fallbacks(files: list[str], read) -> list[Fallback]:
    """Every such pair in the project's .py files (a file is parsed only when its text holds two
    `from vllm.` imports and an `except`)."""
    out: list[Fallback] = []
    for rel in files:
        if not rel.endswith(".py"):
            continue
        text = read(rel) or ""
        if text.count("from vllm.") < 2 or "except" not in text:
            continue
        for node in ast.walk(parse_or_empty(text)):
            if isinstance(node, ast.Try):
                out += _pairs(node, rel)
    return out


def _pairs(node: ast.Try, rel: str) -> list[Fallback]:
    tried = {a.name: s.module for s in node.body if isinstance(s, ast.ImportFrom) and not s.level
             and (s.module or "").startswith("vllm.") for a in s.names}
    out = []
    for h in node.handlers:
        if h.type is not None and not (isinstance(h.type, ast.Name) and h.type.id in _CAUGHT) and not (
                isinstance(h.type, ast.Tuple) and any(isinstance(e, ast.Name) and e.id in _CAUGHT for e in h.type.elts)):
            continue
        for s in h.body:
            if isinstance(s, ast.ImportFrom) and not s.level and (s.module or "").startswith("vllm."):
                for a in s.names:
                    old = tried.get(a.name)
                    if old and s.module and old != s.module:
                        out.append(Fallback(old, s.module, rel, s.lineno))
    return out
