"""What a Python script does when it is imported, for the spawn check (knowledge/checks/L.yaml,
spawn-main-guard): a process started with `spawn` re-imports the main module, so an engine built
at module level — outside `if __name__ == "__main__":` and outside any function, or inside a
function the module calls at import — is built again in the child, and Python stops it with
"An attempt has been made to start a new process before the current process has finished its
bootstrapping phase". vLLM itself switches to spawn when CUDA is already initialised in the
parent (from 0.6.3), so the script's own CUDA use before the engine matters too (J3,
worker-multiproc-method): a fork after CUDA is touched stops the workers with "Cannot re-initialize
CUDA in forked subprocess"."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan.python_scope import is_main_guard, walk
from vllm_kb.engine.scan.python_values import _walk_no_defs

# torch.cuda functions that initialise CUDA in the calling process (torch's _lazy_init), which
# vLLM's cuda_is_initialized() (torch.cuda.is_initialized(), 0.6.3 multiproc_gpu_executor.py:125)
# sees, so from 0.6.3 it switches to spawn by itself; device_count() reads NVML and does neither.
_CUDA_INIT = frozenset({"set_device", "synchronize", "get_device_properties", "mem_get_info", "init", "current_device",
                        "memory_allocated", "max_memory_allocated", "manual_seed", "manual_seed_all", "get_device_name",
                        "get_device_capability", "empty_cache", "reset_peak_memory_stats", "Stream", "Event",
                        "is_bf16_supported"})
# Probes that do not initialise CUDA but poison fork: torch.cuda.is_available() asks the CUDA runtime
# for the device count, and torch registers its fork handler then (torch/csrc/cuda/Module.cpp
# poison_fork: "a stub cuda implementation has some working functions (e.g. device_count)"), so a
# forked child fails on its first CUDA call while torch.cuda.is_initialized() stays False and
# vLLM's switch to spawn does not fire. vLLM 0.8.4 env_override.py sets PYTORCH_NVML_BASED_CUDA_CHECK=1
# at `import vllm` for this reason ("avoids unintentional cuda initialization from
# torch.cuda.is_available()"). transformers' is_torch_cuda_available() is that call.
_CUDA_PROBE_ATTR = frozenset({"is_available"})
_CUDA_PROBE_NAMES = frozenset({"is_torch_cuda_available"})
# transformers.utils helpers that initialise CUDA (is_bf16_supported → current_device)
_CUDA_INIT_NAMES = frozenset({"is_torch_bf16_gpu_available", "is_torch_bf16_available_on_device"})
# calls that build a vLLM engine: in V0 (every release the fork check covers) its driver worker runs
# in the calling process and initialises CUDA there, so a second engine forks after CUDA is up
_BUILDS_ATTR = frozenset({"from_engine_args", "from_vllm_config"})
# calls that set up torch.distributed in the calling process under a multi-process launcher
# (`accelerate launch --num_processes N`, `torchrun --nproc_per_node N`): accelerate's PartialState
# (and the Accelerator that builds one) calls init_process_group when the launcher started several
# ranks; deepspeed.init_distributed and init_process_group itself do so directly
_DIST_INIT = frozenset({"init_process_group", "PartialState", "Accelerator", "init_distributed"})


def _calls_of(stmts: list[ast.stmt]) -> set[str]:
    out = set()
    for stmt in stmts:
        for node in _walk_no_defs(stmt):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                out.add(node.func.id)
    return out


def _is_cuda(value) -> bool:
    return isinstance(value, str) and (value == "cuda" or value.startswith("cuda:") or value == "auto")


def _probes_cuda(node: ast.AST) -> bool:
    """torch.cuda.is_available() / is_torch_cuda_available(): fork is poisoned, CUDA not initialised."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    if isinstance(f, ast.Attribute):
        return (f.attr in _CUDA_PROBE_ATTR and isinstance(f.value, ast.Attribute) and f.value.attr == "cuda") \
            or f.attr in _CUDA_PROBE_NAMES
    return isinstance(f, ast.Name) and f.id in _CUDA_PROBE_NAMES


def _builds_engine(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    return (isinstance(f, ast.Name) and f.id == "LLM") or (isinstance(f, ast.Attribute) and f.attr in _BUILDS_ATTR)


def _inits_dist(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    return name in _DIST_INIT


def _touches_cuda(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    if isinstance(f, ast.Name) and f.id in _CUDA_INIT_NAMES or isinstance(f, ast.Attribute) and f.attr in _CUDA_INIT_NAMES:
        return True
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
        self._defs = sorted(((n.lineno, getattr(n, "end_lineno", n.lineno) or n.lineno, id(n)) for n in walk(tree)
                             if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), key=lambda d: (d[0], -d[1]))
        calls = [n for n in walk(tree) if isinstance(n, ast.Call)]
        # (line, scope, kind): "init" (torch's lazy init, seen by vLLM's own switch), "probe" (fork
        # poisoned only), "engine" (an engine built earlier in the process)
        kinds = [(n, "init" if _touches_cuda(n) else "probe" if _probes_cuda(n) else "engine" if _builds_engine(n)
                  else "dist" if _inits_dist(n) else None) for n in calls]
        self.touches = sorted(((n.lineno, self._scope(n.lineno), k) for n, k in kinds if k), key=lambda t: t[0])
        # only a script that joins a world asks who calls the engine's function (dist_before):
        # a function's id → the name its callers use (`f(...)`, `self.f(...)`; a class's __init__ → `C(...)`)
        self._names: dict[int, str] = {}
        self._callers: dict[str, list[int]] = {}
        if any(k == "dist" for _, _, k in self.touches):
            for n in walk(tree):
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self._names.setdefault(id(n), n.name)
                elif isinstance(n, ast.ClassDef):
                    for item in n.body:
                        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == "__init__":
                            self._names[id(item)] = n.name
            for n in calls:
                name = n.func.id if isinstance(n.func, ast.Name) else n.func.attr \
                    if isinstance(n.func, ast.Attribute) else None
                if name:
                    self._callers.setdefault(name, []).append(n.lineno)

    def _scope(self, line: int) -> int | None:
        inner = None
        for a, b, ident in self._defs:
            if a <= line <= b:
                inner = ident
        return inner

    def kinds_before(self, line: int) -> set[str]:
        """How CUDA is touched earlier in the same function, or at module level, than `line`."""
        if not self.touches:
            return set()
        scope = self._scope(line)
        return {k for at, sc, k in self.touches if at < line and sc in (None, scope)}

    def dist_before(self, line: int, depth: int = 3) -> bool:
        """torch.distributed is set up before `line` runs: earlier in its function or at module level,
        or before a call, in the same module, of the function (or class) that holds `line` — an
        evaluation script's main() joins the launcher's world, then builds the class whose
        __init__ builds the engine. Followed `depth` callers deep, by name."""
        if "dist" in self.kinds_before(line):
            return True
        scope = self._scope(line)
        if depth <= 0 or scope is None or scope not in self._names:
            return False
        return any(self.dist_before(at, depth - 1) for at in self._callers.get(self._names[scope], ())
                   if self._scope(at) != scope)

    def before(self, line: int) -> bool:
        """CUDA is touched earlier in the same function, or at module level, than `line`."""
        return bool(self.kinds_before(line) - {"dist"})


def reimported(tree: ast.Module, stem: str) -> int | None:
    """The line where the module hands its own import string to an ASGI server (`uvicorn.run(
    "<this module>:app")`): the server imports the file again under its own name, so an engine built
    at module level is built a second time in the same process, after the first one set up CUDA."""
    for node in walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "run"):
            continue
        target = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "app"), None)
        if isinstance(target, ast.Constant) and isinstance(target.value, str) \
                and target.value.split(":", 1)[0] == stem and ":" in target.value:
            return node.lineno
    return None


def cuda_facts(order: "CudaOrder", first: int, at_import: bool, tree: ast.Module, rel: str) -> dict:
    """`cuda_first`: CUDA is touched before the engine at `first` is built; `cuda_init_first`: by a
    call that initialises it (torch's lazy init or an earlier engine), which vLLM 0.6.3+ sees;
    `dist_first`: the script sets up torch.distributed (init_process_group, accelerate's
    PartialState/Accelerator) before it."""
    kinds = order.kinds_before(first)
    if at_import and reimported(tree, rel.rsplit("/", 1)[-1].removesuffix(".py")) is not None:
        kinds.add("engine")
    out = {"cuda_first": bool(kinds - {"dist"}), "cuda_init_first": bool(kinds & {"init", "engine"})}
    if order.dist_before(first):
        out["dist_first"] = True  # torch.distributed set up by the script before the engine
    return out
