"""Architectures the project registers with vLLM itself (`ModelRegistry.register_model("Arch",
ModelClass)` or a "module:Class" string, in its own code or in the plugin its entry points load):
vLLM resolves the checkpoint's architecture against its registry, so a class the project adds
there is implemented whatever the release ships (vLLM docs: "Registering a model" — out-of-tree
models). Read once before the scan, like the project's LLM subclasses.

Where the project makes vLLM load code the audit cannot read or name a class from — a
`vllm.general_plugins` entry point whose module is not in the project, a line added to the `vllm`
console script (dots.ocr's README appends `from DotsOCR import modeling_dots_ocr_vllm` to it with
sed), or `register_model` with a computed name — any architecture may be registered: ANY maps to
where, and L21 then does not say vLLM refuses an architecture the release lacks."""
from __future__ import annotations

import ast
import re

from vllm_kb.engine.scan.context import parse_python, texts_with

ANY = "*"  # the key of a registration whose architecture the files do not name

# vLLM's console script (`which vllm`, $(which vllm), …/bin/vllm), edited in place by sed or appended
# to by echo/printf with a line that imports a module: the script imports it before vLLM parses the CLI
_SCRIPT = re.compile(r"`\s*which\s+vllm\s*`|\$\(\s*which\s+vllm\s*\)|\S*/bin/vllm\b")
_EDIT = re.compile(r"\b(?:sed|echo|printf)\b")
_SHELLISH = (".sh", ".bash", ".zsh", ".md", ".rst", "Dockerfile", ".dockerfile", ".yaml", ".yml", "Makefile")
_ENTRY = re.compile(r"=\s*['\"]?([A-Za-z_][\w.]*)\s*:\s*[A-Za-z_]\w*")


def index(ctx, files: list[str]) -> dict[str, str]:
    """Architecture name → where the project registers it (`file:line`); ANY → where it loads
    code that may register any."""
    out: dict[str, str] = {}
    for rel, text in texts_with(ctx, files, ".py", "register_model", "ModelRegistry"):
        try:
            tree = parse_python(text, rel)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            if not (isinstance(f, ast.Attribute) and f.attr == "register_model" and _is_registry(f.value)):
                continue
            first = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "model_arch"), None)
            if isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value:
                out.setdefault(first.value, f"{rel}:{node.lineno}")
            elif first is not None:
                out.setdefault(ANY, f"{rel}:{node.lineno}")
    where = _script_patch(ctx, files) or _foreign_plugin(ctx, files)
    if where:
        out.setdefault(ANY, where)
    return out


def _script_patch(ctx, files: list[str]) -> str | None:
    for rel, text in texts_with(ctx, files, _SHELLISH, "vllm", "import"):
        for m in _EDIT.finditer(text):
            cmd = _command(text, m.start())
            if "import" in cmd and _SCRIPT.search(cmd) and (
                    m.group(0) != "sed" or re.search(r"\s-\w*i", cmd)) and (m.group(0) == "sed" or ">>" in cmd):
                return f"{rel}:{text.count(chr(10), 0, m.start()) + 1}"
    return None


def _command(text: str, start: int) -> str:
    """The shell command from `start` to its end: an unquoted newline not escaped with a
    backslash, or `;`, `&&`, `|` outside quotes (a sed script may span lines inside its quotes)."""
    quote, i = "", start
    while i < len(text) and i - start < 2000:
        c = text[i]
        if c == "\\" and quote != "'":
            i += 2
            continue
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in "\n;|&":
            break
        i += 1
    return text[start:i]


def _foreign_plugin(ctx, files: list[str]) -> str | None:
    """A `vllm.general_plugins` entry point (pyproject.toml, setup.py, setup.cfg) whose module is
    not among the project's files: what it registers is unknown. One in the project is read by the
    register_model scan like any other file."""
    for rel, text in texts_with(ctx, files, ("pyproject.toml", "setup.py", "setup.cfg"), "vllm.general_plugins"):
        at = text.index("vllm.general_plugins")
        section = re.split(r"\n\s*\[|\]\s*[,}]", text[at:at + 2000])[0]
        modules = _ENTRY.findall(section)
        if any(not _in_project(mod, files) for mod in modules):
            return f"{rel}:{text.count(chr(10), 0, at) + 1}"
    return None


def _in_project(module: str, files: list[str]) -> bool:
    tails = (module.replace(".", "/") + ".py", module.replace(".", "/") + "/__init__.py")
    return any(f == t or f.endswith("/" + t) for f in files for t in tails)


def _is_registry(node: ast.AST) -> bool:
    """`ModelRegistry` or `vllm.ModelRegistry` / `vllm.model_executor.models.ModelRegistry`."""
    return (isinstance(node, ast.Attribute) and node.attr == "ModelRegistry") or (
        isinstance(node, ast.Name) and node.id == "ModelRegistry")
