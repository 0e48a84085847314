"""The imports of vLLM's own modules (`from vllm.entrypoints.openai.serving_chat import
OpenAIServingChat`, `import vllm.worker.worker`) in the project's code that a Python launch file
runs. Serving wrappers and RL scripts reach past vLLM's documented surface, and a release that
moves or renames a module makes Python raise ImportError before any engine is built.

Two kinds, read statically (never imported):
  - at start: the launch file, and every module of the project it imports at module level (with the
    `__init__` of each package on the way), their module-level imports that nothing guards — not
    under `try` (a fallback), not under `if` (a version or platform gate), never `TYPE_CHECKING`;
  - later: an import at the top of a function or method body of those files (it runs when the
    function is called: a request handler, a lazily built engine), again not under `try` or `if`.

Only `vllm.` submodules are collected: `from vllm import LLM` is vLLM's public surface, which the
option checks judge already. The launch file's folder is where Python looks first (`python
app.py`), then the project root (`python -m pkg.app`)."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from vllm_kb.engine.scan import import_fallbacks
from vllm_kb.engine.scan.framework_source import Trees, loaded, parse_or_empty, unguarded


@dataclass(frozen=True)
class ProjectImport:
    module: str
    name: str | None  # None for `import vllm.x.y`
    file: str  # relative to the audited tree
    line: int
    at_start: bool  # runs when the launch file loads, not when a function is called

    @property
    def spelled(self) -> str:
        return f"from {self.module} import {self.name}" if self.name else f"import {self.module}"


def _vllm_sub(module: str | None) -> bool:
    return (module or "").startswith("vllm.")


def _records(node, path: str, at_start: bool):
    if isinstance(node, ast.ImportFrom) and not node.level and _vllm_sub(node.module):
        for a in node.names:
            if a.name != "*":
                yield ProjectImport(node.module or "", a.name, path, node.lineno, at_start)
    elif isinstance(node, ast.Import):
        for a in node.names:
            if _vllm_sub(a.name):
                yield ProjectImport(a.name, None, path, node.lineno, at_start)


def _function_imports(body, path: str):
    """Imports at the top of function bodies (nested defs and classes included), not under if/try."""
    for s in body:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for t in s.body:
                yield from _records(t, path, False)
                if isinstance(t, (ast.With, ast.AsyncWith)):
                    for u in t.body:
                        yield from _records(u, path, False)
            yield from _function_imports(s.body, path)
        elif isinstance(s, ast.ClassDef):
            yield from _function_imports(s.body, path)


_TEXTS = frozenset({"sh", "bash", "zsh", "py", "ipynb", "md", "rst", "txt", "yaml", "yml", "json", "toml", "cfg",
                    "slurm", "sbatch", "job", "mk", "bat", "ps1", "dockerfile", "makefile", "procfile"})


def _text(rel: str) -> bool:
    name = rel.rsplit("/", 1)[-1]
    return "." not in name or name.rsplit(".", 1)[-1].lower() in _TEXTS


class Launches:
    """The modules each Python launch file of one audit loads. The sites of a file come one after
    the other, so its answer is kept until another file asks; a module several launch files load
    (a package's `__init__`) is parsed once while it is among the last PARSED parsed."""

    PARSED = 16

    def __init__(self, files: list[str], read):
        self.py = {f for f in files if f.endswith(".py")}
        self.read = read
        self.last: tuple[str, list[tuple[str, ast.Module]]] | None = None
        self.trees: dict[str, ast.Module] = {}
        self.stubs: dict[str, ast.Module] = {}
        self.files_all = files
        self.given: dict[tuple[str, ...], bool] = {}
        self.moves: list | None = None

    def fallbacks(self) -> list:
        """The project's own try/except moves of vLLM modules (engine/scan/import_fallbacks.py), read once."""
        if self.moves is None:
            self.moves = import_fallbacks.fallbacks(self.files_all, self.read)
        return self.moves

    def tree(self, rel: str) -> ast.Module:
        """The tree of one project file, from the last PARSED parsed (a launch file `files` has just read)."""
        return self._parse(rel)

    def _parse(self, rel: str) -> ast.Module:
        tree = self.trees.pop(rel, None)
        if tree is None:
            tree = parse_or_empty(self.read(rel) or "")
            if len(self.trees) >= self.PARSED:
                del self.trees[next(iter(self.trees))]
        self.trees[rel] = tree  # the most recent last
        return tree

    def passes(self, flags: tuple[str, ...], where: str) -> bool:
        """Whether any file of the project but `where` (the file that defines the option) spells
        one of `flags` as a word: a script, a config, a README command. Read only for a guarded
        call the release breaks, so the walk over the tree is rare; a word in prose counts too,
        which errs toward the call running."""
        if flags not in self.given:
            rx = re.compile("|".join(rf"(?<![\w-]){re.escape(f)}(?![\w-])" for f in flags))
            self.given[flags] = any(rel != where and _text(rel) and rx.search(self.read(rel) or "")
                                    for rel in self.files_all)
        return self.given[flags]

    def files(self, launch: str) -> list[tuple[str, ast.Module]]:
        """(path, tree) of the launch file and every project module it loads at module level."""
        if self.last is None or self.last[0] != launch:
            self.last = (launch, self._files(launch))
        return self.last[1]

    def reached(self, launch: str) -> set[str]:
        """The paths `files(launch)` gives, walked over each module's unguarded imports alone: those are
        kept for every module, so a package that every launch file loads is parsed once however large
        (VLMEvalKit: hundreds of modules under one `__init__`, beyond the last PARSED trees)."""
        return {rel for rel, _ in self._files(launch, self._imports)}

    def _imports(self, rel: str) -> ast.Module:
        stub = self.stubs.get(rel)
        if stub is None:
            tree = self.trees.get(rel) or parse_or_empty(self.read(rel) or "")
            # `loaded` reads nothing else of a module
            body: list[ast.stmt] = [s for s in unguarded(tree.body) if isinstance(s, (ast.Import, ast.ImportFrom))]
            stub = self.stubs[rel] = ast.Module(body=body, type_ignores=[])
        return stub

    def _files(self, launch: str, parse=None) -> list[tuple[str, ast.Module]]:
        if not launch.endswith(".py"):
            return []
        folder = str(PurePosixPath(launch).parent)
        folder = "" if folder == "." else folder
        roots = [folder] + ([""] if folder else [])
        if any((f"{root}/vllm/__init__.py" if root else "vllm/__init__.py") in self.py for root in roots):
            return []  # the project carries vLLM's own sources there: its imports are of that copy
        out: list[tuple[str, ast.Module]] = []
        seen: set[str] = set()
        for root in roots:
            tree = Trees(root, _Under(root, self.py), self.read, parse or self._parse)
            entry = launch[len(root) + 1:] if root else launch
            if entry not in tree:
                continue
            for path in loaded(tree, entry):
                rel = f"{root}/{path}" if root else path
                if rel not in seen:
                    seen.add(rel)
                    out.append((rel, tree[path]))
        return out


class _Under:
    """The project's .py files under one folder, as paths inside it."""

    def __init__(self, root: str, py: set[str]):
        self.prefix, self.py = (root + "/" if root else ""), py

    def __contains__(self, path) -> bool:
        return self.prefix + path in self.py


def launch_files(launch: str, files: list[str], read) -> list[tuple[str, ast.Module]]:
    """(path, tree) of the launch file and every project module it loads at module level."""
    return Launches(files, read).files(launch)


def for_launch(launch: str, files: list[str], read) -> list[ProjectImport]:
    """The vLLM-submodule imports the Python launch file `launch` runs, those at start first."""
    return imports_of(launch_files(launch, files, read))


def imports_of(parsed: list[tuple[str, ast.Module]]) -> list[ProjectImport]:
    """The vLLM-submodule imports of a launch file's modules (Launches.files), those at start first."""
    start: dict[tuple, ProjectImport] = {}
    later: dict[tuple, ProjectImport] = {}
    for rel, module in parsed:
        for s in unguarded(module.body):
            for imp in _records(s, rel, True):
                start.setdefault((imp.module, imp.name), imp)
        for imp in _function_imports(module.body, rel):
            later.setdefault((imp.module, imp.name), imp)
    return list(start.values()) + [imp for key, imp in later.items() if key not in start]
