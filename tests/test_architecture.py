"""The tree shows the pipeline and keeps it: imports flow one way (import-linter), no import
circle anywhere (tools/ included), no module over 400 lines, every package shipped, every stage
named in docs/architecture.md."""
from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from fnmatch import fnmatch
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_DIRS = {"engine": "vllm_kb.engine", "cli": "vllm_kb.cli", "mcp_server": "vllm_kb.mcp_server",
                "skill": "vllm_kb.skill", "knowledge": "vllm_kb.knowledge", "schema": "vllm_kb.schema"}
MAX_LINES = 400


def _sources() -> list[Path]:
    out = []
    for top in ("engine", "cli", "mcp_server", "skill", "tools", "benchmarks"):
        out += sorted((ROOT / top).rglob("*.py"))
    return [p for p in out if "__pycache__" not in p.parts]


def test_import_contracts_hold():
    if shutil.which("lint-imports") is None and not Path(sys.executable).with_name("lint-imports").exists():
        pytest.fail("import-linter is a test dependency (pip install -e '.[test]')")
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "lint_imports.py")], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "broken" not in run.stdout.split("Contracts:")[-1].replace("0 broken", "")


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_over_400_lines(path: Path):
    n = len(path.read_text(encoding="utf-8").splitlines())
    assert n <= MAX_LINES, f"{path.relative_to(ROOT)} has {n} lines; split it along its meaning"


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT)
    if rel.parts[0] in PACKAGE_DIRS:
        parts = [PACKAGE_DIRS[rel.parts[0]], *rel.with_suffix("").parts[1:]]
    else:  # tools/ and benchmarks/ run as scripts with their own folder on sys.path
        parts = list(rel.with_suffix("").parts[1:])
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _runtime_nodes(tree: ast.AST):
    """Every node but those under `if TYPE_CHECKING:` (annotations only, as import-linter's
    exclude_type_checking_imports)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Name) and child.test.id == "TYPE_CHECKING":
                todo.extend(child.orelse)
                continue
            todo.append(child)


def _graph() -> dict[str, set[str]]:
    """Module → modules it imports, over every source file (imports inside functions too)."""
    files = {_module_name(p): p for p in _sources()}
    graph: dict[str, set[str]] = {m: set() for m in files}
    for mod, path in files.items():
        pkg = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = pkg.split(".")[: len(pkg.split(".")) - (node.level - 1)]
                    base = ".".join(up + ([node.module] if node.module else []))
                names = [base] + [f"{base}.{a.name}" for a in node.names]
            for name in names:
                if name in files and name != mod:
                    graph[mod].add(name)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state and (found := visit(n)):
                return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def _without_parents(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """A module importing its own package's `__init__` (or the reverse re-export) is not a
    circle between modules; import-linter judges packages, this test judges files."""
    return {m: {n for n in ns if not (m.startswith(n + ".") or n.startswith(m + "."))} for m, ns in graph.items()}


def test_no_import_circle_anywhere():
    cycle = _cycle(_without_parents(_graph()))
    assert cycle is None, "import circle: " + " → ".join(cycle)


def test_cycle_finder_finds_one():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


# rendered at `skill install` from the templates, not shipped as files
NOT_SHIPPED = ("skill/vllm-optimization",)


def test_every_package_is_shipped():
    """Every folder of code (an __init__.py) or of data (files read through importlib.resources)
    is a package in pyproject.toml, and every data file matches its package-data globs."""
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(setup["packages"])
    on_disk: set[str] = set()
    unshipped = []
    for top, name in PACKAGE_DIRS.items():
        for folder in [ROOT / top, *sorted(p for p in (ROOT / top).rglob("*") if p.is_dir())]:
            rel = folder.relative_to(ROOT)
            if "__pycache__" in rel.parts or any(rel.as_posix().startswith(n) for n in NOT_SHIPPED):
                continue
            files = [f for f in folder.iterdir() if f.is_file() and f.suffix not in (".pyc",)]
            if not files:
                continue
            pkg = ".".join([name, *folder.relative_to(ROOT / top).parts])
            on_disk.add(pkg)
            globs = setup["package-data"].get(pkg, [])
            unshipped += [f"{rel}/{f.name}" for f in files if f.suffix != ".py" and not any(fnmatch(f.name, g) for g in globs)]
    assert on_disk == listed, f"not shipped: {sorted(on_disk - listed)}; listed but absent: {sorted(listed - on_disk)}"
    assert not unshipped, f"data files no package-data glob ships: {unshipped}"


def _stages() -> list[str]:
    return sorted(p.name for p in (ROOT / "engine").iterdir() if p.is_dir() and (p / "__init__.py").exists())


def test_every_stage_is_drawn_and_described():
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert "```mermaid" in doc
    for stage in _stages():
        assert f"engine/{stage}/" in doc, f"docs/architecture.md does not name the stage engine/{stage}/"
        init = (ROOT / "engine" / stage / "__init__.py").read_text(encoding="utf-8")
        assert ast.get_docstring(ast.parse(init)), f"engine/{stage}/__init__.py says nothing of what it holds"


def test_stages_are_the_layers_of_the_contract():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c["layers"] for c in cfg if c["type"] == "layers")
    named = {part.strip() for layer in layers for part in layer.split("|")}
    for stage in _stages():
        assert f"vllm_kb.engine.{stage}" in named, f"engine/{stage}/ is in no layer of the import contract"
