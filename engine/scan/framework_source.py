"""A framework's own source inside the audited tree — a vendored copy, a checkout of its git main
installed with `pip install -e .`, a research fork that carries verl — and the `from vllm… import X`
statements its vLLM adapter runs when it loads. What runs is that copy at its commit, not a
release: verl's main of 17 November 2025 declared vllm>=0.8.5 but imported
`process_weights_after_loading`, which vLLM has only from 0.9.0 (verl #4202). The imports are held
against the pinned vLLM by engine/check/framework_copy.py.

What counts as run on load (tools/framework_vllm_imports.py reads the released wheels the same way):
  - the adapter's entry modules (ENTRIES) and every module of the copy they import at module
    level, with the `__init__` of each package on the way (Python runs them first);
  - of those modules, the imports at module level that nothing guards: not under `try` (the
    framework falls back) — unless each handler of the try raises (no fallback) —, not under `if
    TYPE_CHECKING` or any other `if` (a version or platform gate decides it) — except
    `if is_vllm_available()`-style tests, which hold wherever vLLM is.

Found once per project: only the files under a copy's root are indexed, and only the modules the
entry reaches are parsed."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Callable, Container

from vllm_kb.engine.kb import compat
from vllm_kb.engine.scan import verl_rollout, version_gates
from vllm_kb.engine.scan.version_gates import parse_or_empty  # noqa: F401  (read from here by the copies' readers)

# entry modules of each framework's vLLM path, with the entry they serve (engine/check/framework_imports.py)
ENTRIES = {
    "trl": [("trl/trainer/grpo_trainer.py", "trainer"), ("trl/scripts/vllm_serve.py", "trl vllm-serve")],
    "verl": [("verl/workers/rollout/vllm_rollout/__init__.py", "rollout"),
             ("verl/workers/rollout/vllm_rollout/vllm_async_server.py", "async"),
             # EasyR1, a fork that keeps the package name: its one rollout module (no verl release has this path)
             ("verl/workers/rollout/vllm_rollout_spmd.py", "rollout")],
    "openrlhf": [("openrlhf/trainer/ray/vllm_engine.py", "rollout"), ("openrlhf/trainer/ray/vllm_worker_wrap.py", "rollout")],
    "llamafactory": [("llamafactory/chat/vllm_engine.py", "rollout")],
    "ms-swift": [("swift/llm/infer/infer_engine/vllm_engine.py", "rollout"), ("swift/llm/utils/vllm_utils.py", "rollout")],
}
AVAILABLE = re.compile(r"is_vllm_available|_vllm_available|vllm_available")


@dataclass(frozen=True)
class SourceImport:
    entry: str  # the ENTRIES entry whose load runs it
    module: str
    name: str | None  # None for `import vllm.x.y`
    file: str  # relative to the audited tree
    line: int

    @property
    def spelled(self) -> str:
        return f"{self.module}.{self.name}" if self.name else self.module


@dataclass(frozen=True)
class SourceCopy:
    framework: str
    root: str  # the folder that holds the package folder ("" for the tree's root)
    imports: tuple[SourceImport, ...]
    # who runs the imports, as a message names it; "" for the copy in the tree
    label: str = ""
    # a git branch installed at some unknown time: its newest known commit stands for it (a P1 at most)
    moving: bool = False
    version: str | None = None  # the version file of the commit, where known
    ref: str = ""  # how it is installed, for the release a message names ("git main", "git e2d45b00e5")
    facts: tuple[tuple[str, str], ...] = ()  # what the copy's code does, for knowledge rules (framework.source)
    # the engine calls a git commit's package makes (engine_kwargs.yaml's row shape); None: not read
    kwargs: tuple[dict, ...] | None = None
    # the vLLM range a git commit's own setup declares (git_history.json `declared`); None: not read
    declared: str | None = None
    # the known breaks (compat.yaml `in_code`) whose cause this copy's code does not hold
    cleared: frozenset[str] = frozenset()

    @property
    def package(self) -> str:
        pkg = ENTRIES[self.framework][0][0].split("/")[0]
        return f"{self.root}/{pkg}" if self.root else pkg


class Trees:
    """path inside the copy → ast, parsed on first use (a copy holds far more modules than its
    vLLM path loads)."""

    def __init__(self, root: str, paths: Container[str], read, parse: Callable[[str], ast.Module] | None = None):
        self.root, self.paths, self.read = root, paths, read
        self.parse = parse or self._parse
        self.parsed: dict[str, ast.Module] = {}

    def __contains__(self, path) -> bool:
        return path in self.paths

    def __getitem__(self, path):
        if path not in self.parsed:
            self.parsed[path] = self.parse(f"{self.root}/{path}" if self.root else path)
        return self.parsed[path]

    def _parse(self, rel: str) -> ast.Module:
        return parse_or_empty(self.read(rel) or "")


def copies(files: list[str], read) -> list[SourceCopy]:
    """The framework copies in the tree whose vLLM adapter is there, with the vLLM imports it runs."""
    tails = [(fid, tail) for fid, entries in ENTRIES.items() for tail, _ in entries]
    roots: dict[tuple[str, str], None] = {}
    for rel in files:
        if rel.endswith(".py"):
            for fid, tail in tails:
                if rel == tail or rel.endswith("/" + tail):
                    roots[(fid, rel[: len(rel) - len(tail)].rstrip("/"))] = None
    out = []
    for fid, root in roots:
        prefix = root + "/" if root else ""
        inside = {rel[len(prefix):] for rel in files if rel.startswith(prefix) and rel.endswith(".py")}
        trees = Trees(root, inside, read)
        got: dict[tuple[str, str], SourceImport] = {}
        for entry_file, entry in ENTRIES[fid]:
            if entry_file not in trees:
                continue
            for path, line, mod, name in vllm_imports(trees, loaded(trees, entry_file)):
                imp = SourceImport(entry, mod, name, prefix + path, line)
                got.setdefault((entry, imp.spelled), imp)
        facts = tuple(sorted(verl_rollout.eager_assert(trees).items())) if fid == "verl" else \
            tuple(sorted(_openrlhf_facts(trees).items())) if fid == "openrlhf" else ()
        cleared = compat.not_in_code(fid, lambda path: read(prefix + path) if path in inside else None)
        out.append(SourceCopy(fid, root, tuple(got.values()), facts=facts, cleared=cleared))
    return out


def _openrlhf_facts(trees) -> dict[str, str]:
    """{"async_sleep": "yes"|"no"}: whether the copy's train_ppo_ray.py asserts the vLLM sleep switch off
    in async training (0.8.5+ :503 `assert not args.vllm_enable_sleep`; a fork may have dropped it, as
    async pipelines that sleep their engines do); {} where the copy has no such entry point."""
    path = "openrlhf/cli/train_ppo_ray.py"
    if path not in trees:
        return {}
    for node in ast.walk(trees[path]):
        if isinstance(node, ast.Assert) and "enable_sleep" in ast.unparse(node.test):
            return {"async_sleep": "yes"}
    return {"async_sleep": "no"}


def unguarded(body):
    """Module-level statements that always run (see the module docstring)."""
    for s in body:
        if isinstance(s, ast.If):
            if AVAILABLE.search(ast.unparse(s.test)):
                yield from unguarded(s.body)
        elif isinstance(s, ast.Try) and s.handlers and all(_raises(h.body) for h in s.handlers):
            yield from unguarded(s.body)  # no fallback: a failed import still stops the load
        elif not isinstance(s, (ast.Try, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield s


def gated(body, gate: tuple[str, ...] = (), names_only: bool = False, names: frozenset[str] = frozenset()):
    """(statement, gates, names_only) of the module-level statements that run whenever the vLLM release
    meets every specifier in `gates`: unguarded() plus the branches of vLLM release gates (an import only
    the releases it names run: lm-eval 0.4.11 imports resolve_hf_chat_template from 0.8.3 on) and the
    bodies of a `try` that catches only ModuleNotFoundError (`names_only`): a missing module is caught,
    a name missing from a module that is there (ImportError) is not (lm-eval 0.4.9's get_open_port). The gates
    are read by version_gates.release_test; `names`: the module's names bound to vLLM's version."""
    for s in body:
        if isinstance(s, ast.If) and not AVAILABLE.search(ast.unparse(s.test)) and (g := version_gates.release_test(s.test, set(names))):
            yield from gated(s.body, gate + (g,), names_only, names)
            yield from gated(s.orelse, gate + (version_gates.negated(g),), names_only, names)
        elif isinstance(s, ast.If) and AVAILABLE.search(ast.unparse(s.test)):
            yield from gated(s.body, gate, names_only, names)
        elif isinstance(s, ast.Try) and s.handlers and all(_raises(h.body) for h in s.handlers):
            yield from gated(s.body, gate, names_only, names)
        elif isinstance(s, ast.Try) and s.handlers and all(_catches_missing_module_only(h) for h in s.handlers):
            yield from gated(s.body, gate, True, names)
        elif not isinstance(s, (ast.If, ast.Try, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield s, gate, names_only


def _catches_missing_module_only(handler) -> bool:
    """`except ModuleNotFoundError:` (alone or in a tuple of it): ImportError's other cases pass through."""
    t = handler.type
    names = [t] if isinstance(t, ast.Name) else list(t.elts) if isinstance(t, ast.Tuple) else []
    return bool(names) and all(isinstance(n, ast.Name) and n.id == "ModuleNotFoundError" for n in names)


def _raises(body) -> bool:
    """Whether a handler always raises: a `raise` among its statements, or a nested try whose body
    imports another engine and whose every handler raises (Ray Serve LLM 2.5x tries SGLang's protocol
    models, raises "Neither vLLM nor SGLang is installed" when that fails too, then builds stubs)."""
    for s in body:
        if isinstance(s, ast.Raise):
            return True
        if isinstance(s, ast.Try) and s.handlers and all(_raises(h.body) for h in s.handlers) and \
                not any(isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "vllm" for b in s.body for n in ast.walk(b)):
            return True
    return False


def _module_of(path: str) -> str:
    mod = path[:-3].replace("/", ".")
    return mod[:-9] if mod.endswith(".__init__") else mod


def _path_of(mod: str, trees) -> str | None:
    for cand in (mod.replace(".", "/") + ".py", mod.replace(".", "/") + "/__init__.py"):
        if cand in trees:
            return cand
    return None


def _absolute(path: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    pkg = _module_of(path).split(".")
    if not path.endswith("__init__.py"):
        pkg = pkg[:-1]
    pkg = pkg[: len(pkg) - (node.level - 1)]
    return ".".join(pkg + ([node.module] if node.module else []))


def loaded(trees, entry: str) -> list[str]:
    """The package's files that loading `entry` runs, entry first."""
    seen, todo = [], [entry]
    while todo:
        path = todo.pop(0)
        if path in seen or path not in trees:
            continue
        seen.append(path)
        parts = _module_of(path).split(".")
        targets = [".".join(parts[:i]) for i in range(1, len(parts))]  # the packages above it
        for s in unguarded(trees[path].body):
            if isinstance(s, ast.Import):
                targets += [a.name for a in s.names]
            elif isinstance(s, ast.ImportFrom):
                base = _absolute(path, s)
                targets += [base] + [f"{base}.{a.name}" for a in s.names]
        for mod in targets:
            p = _path_of(mod, trees)
            if p and p not in seen:
                todo.append(p)
    return seen


def vllm_imports(trees, files: list[str], gates: bool = False):
    """(file, line, module, name) of each unguarded vLLM import in `files`; name None for `import vllm.x`.
    `gates`: also those under a vLLM release gate or a ModuleNotFoundError-only try (gated()), each with the
    specifiers it runs under and whether only a missing name fails it as fifth and sixth items."""
    for path in files:
        walk = gated(trees[path].body, names=frozenset(version_gates.vllm_names(trees[path]))) if gates else ((x, (), False) for x in unguarded(trees[path].body))
        for s, gate, names_only in walk:
            for got in _imports_of(path, s):
                yield (*got, gate, names_only) if gates else got


def _imports_of(path: str, s):
    if isinstance(s, ast.ImportFrom) and not s.level and (s.module or "").split(".")[0] == "vllm":
        for a in s.names:
            yield path, s.lineno, s.module, a.name
    elif isinstance(s, ast.Import):
        for a in s.names:
            if a.name.startswith("vllm."):
                yield path, s.lineno, a.name, None
