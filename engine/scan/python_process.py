"""What a Python script does when it is imported, for the spawn check (knowledge/checks/L.yaml,
spawn-main-guard): a process started with `spawn` re-imports the main module, so an engine built
at module level — outside `if __name__ == "__main__":` and outside any function, or inside a
function the module calls at import — is built again in the child, and Python stops it with
"An attempt has been made to start a new process before the current process has finished its
bootstrapping phase". vLLM itself switches to spawn when CUDA is already initialised in the
parent, so the script's own CUDA use before the engine matters too."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan.python_values import _walk_no_defs

# torch.cuda functions that initialise CUDA in the calling process (torch's _lazy_init);
# is_available() and device_count() do not.
_CUDA_INIT = frozenset({"set_device", "synchronize", "get_device_properties", "mem_get_info", "init", "current_device",
                        "memory_allocated", "max_memory_allocated", "manual_seed", "manual_seed_all", "get_device_name",
                        "get_device_capability", "empty_cache", "reset_peak_memory_stats", "Stream", "Event"})


def is_main_guard(stmt: ast.stmt) -> bool:
    """`if __name__ == "__main__":` (either operand order)."""
    if not isinstance(stmt, ast.If) or not isinstance(stmt.test, ast.Compare) or len(stmt.test.ops) != 1:
        return False
    if not isinstance(stmt.test.ops[0], ast.Eq):
        return False
    sides = [stmt.test.left, *stmt.test.comparators]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    consts = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return bool(names and consts)


def _calls_of(stmts: list[ast.stmt]) -> set[str]:
    out = set()
    for stmt in stmts:
        for node in _walk_no_defs(stmt):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                out.add(node.func.id)
    return out


def _is_cuda(value) -> bool:
    return isinstance(value, str) and (value == "cuda" or value.startswith("cuda:") or value == "auto")


def _touches_cuda(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    if isinstance(f, ast.Attribute):
        if f.attr == "cuda" and not node.args[1:]:
            return True  # tensor.cuda() / model.cuda()
        if f.attr in _CUDA_INIT and isinstance(f.value, ast.Attribute) and f.value.attr == "cuda":
            return True  # torch.cuda.set_device(…)
        if f.attr == "to" and node.args and isinstance(node.args[0], ast.Constant) and _is_cuda(node.args[0].value) \
                and node.args[0].value != "auto":
            return True
    for kw in node.keywords:
        if kw.arg in ("device", "device_map") and isinstance(kw.value, ast.Constant) and _is_cuda(kw.value.value):
            return True
    return False


class ImportTime:
    """Which statements a module runs when it is imported (or re-imported by a spawned child)."""

    def __init__(self, tree: ast.Module):
        top = [s for s in tree.body if not is_main_guard(s)]
        called = _calls_of(top)
        self.functions = {s.name: s for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
        self.at_import = [s for s in top if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
        # functions the module calls at import run then too (one level: `main()` with no guard)
        self.run_functions = {n for n in called if n in self.functions}
        self._nodes = {id(n) for s in self.at_import for n in _walk_no_defs(s)}
        for name in self.run_functions:
            for s in self.functions[name].body:
                self._nodes |= {id(n) for n in _walk_no_defs(s)}
        self.cuda_lines = sorted(
            n.lineno for s in self.at_import + [b for f in self.run_functions for b in self.functions[f].body]
            for n in _walk_no_defs(s) if _touches_cuda(n))

    def runs(self, node: ast.AST) -> bool:
        """The node is evaluated when the module is imported."""
        return id(node) in self._nodes

    def cuda_before(self, line: int) -> bool:
        return any(x < line for x in self.cuda_lines)


class CudaOrder:
    """Where a module initialises CUDA, by enclosing function, so a site can tell whether its
    process touched CUDA before building the engine (module level and the main guard count for
    every function; a touch in another function does not)."""

    def __init__(self, tree: ast.Module):
        # (first line, last line, id) of every function; sorted so nested ones come after
        self._defs = sorted(((n.lineno, getattr(n, "end_lineno", n.lineno) or n.lineno, id(n)) for n in ast.walk(tree)
                             if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), key=lambda d: (d[0], -d[1]))
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _touches_cuda(n)]
        self.touches = sorted(((n.lineno, self._scope(n.lineno)) for n in calls), key=lambda t: t[0])

    def _scope(self, line: int) -> int | None:
        inner = None
        for a, b, ident in self._defs:
            if a <= line <= b:
                inner = ident
        return inner

    def before(self, line: int) -> bool:
        """CUDA is touched earlier in the same function, or at module level, than `line`."""
        if not self.touches:
            return False
        scope = self._scope(line)
        return any(at < line and sc in (None, scope) for at, sc in self.touches)
