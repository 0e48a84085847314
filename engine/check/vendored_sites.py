"""Launch sites inside a framework copy vendored in the tree that are not the user's launch.

A project that vendors a framework (DBMing/TFGame carries verl 0.2.0.dev under `verl/`, with
`vllm<=0.6.3`) brings two kinds of `LLM(...)` call that its runs never reach as written:

- a module the package's `__init__.py` imports only under a vLLM version test: verl's
  `vllm_rollout/__init__.py` (0.2.0.dev … 0.4.1) imports `vllm_rollout_spmd` only when
  `package_version <= '0.6.3'` is false, so that module's `LLM(enable_sleep_mode=True)` never runs on
  0.6.3 or older. Where no release the site may run imports the module (and no other file of the copy
  imports it by name), its P0 and P1 are capped at P2 with a note;
- the copy's own upstream tests (`<copy>/tests/`): a failure there is the framework's test against
  another vLLM, not the project's launch, so a P0 is a P1.

The version test is evaluated as Python evaluates it: `package_version <= '0.6.3'` compares strings,
`vs.parse(package_version) >= vs.parse('0.7.0')` compares versions."""
from __future__ import annotations

import ast
import re
from functools import lru_cache

from vllm_kb.engine.check.lowered import lower, note
from vllm_kb.engine.kb.knowledge import Knowledge, Text
from vllm_kb.engine.kb.versions import try_parse
from vllm_kb.engine.scan.python_scope import imports_submodule

_NAMES = ("package_version", "vllm_version", "vllm_version_installed", "__version__")
_OPS = {ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b,
        ast.GtE: lambda a, b: a >= b, ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b}


def roots(ctx) -> list[str]:
    """The folders of the framework copies in the tree (non-empty: the project is not the framework itself)."""
    found = {c.root for c in getattr(ctx, "framework_copies", []) or []} | {g.root for g in getattr(ctx, "vendored", []) or []}
    return sorted((r for r in found if r), key=len, reverse=True)


def settle(results: list, findings: list, site_file: str, ctx, releases: list[str], kb: Knowledge) -> None:
    """Caps the priorities of a site inside a vendored copy (see the module's text)."""
    root = next((r for r in roots(ctx) if site_file.startswith(r + "/")), None)
    if root is None:
        return
    if site_file.startswith(root + "/tests/"):
        _cap(results, findings, ("P0",), "P1", note(kb, "priority.vendored_tests", root=root))
        return
    gate = _gated_off(site_file, ctx, releases)
    if gate is not None:
        _cap(results, findings, ("P0", "P1"), "P2",
             note(kb, "priority.vendored_gated", file=gate[0], test=gate[1], releases=_span(releases)))


def _span(releases: list[str]) -> str:
    return releases[0] if len(releases) == 1 else f"{releases[0]} … {releases[-1]}"


def _cap(results, findings, levels, to, why: Text) -> None:
    for r in results:
        if r.priority in levels:
            lower(r, to, why)
    for f in findings:
        if getattr(f, "priority", None) in levels:
            lower(f, to, why, unsafe=False)


def _gated_off(site_file: str, ctx, releases: list[str]) -> tuple[str, str] | None:
    """(the `__init__.py`, its test) when the site's module is imported only under a version test that
    no release in `releases` passes, and no other module of the tree imports it by name."""
    folder, _, base = site_file.rpartition("/")
    if not base.endswith(".py") or not releases:
        return None
    mod = base[:-3]
    init = f"{folder}/__init__.py"
    got = _branches(ctx.read(init) or "", mod)
    if got is None:
        return None
    tests, taken_when = got
    if any(taken_when(str(v)) for v in releases):
        return None
    word = re.compile(r"(?:from|import)\s+[\w.]*\b" + re.escape(mod) + r"\b")
    for rel in ctx.files:
        if rel.endswith(".py") and rel not in (init, site_file) and "/tests/" not in "/" + rel:
            if mod in (text := ctx.read(rel) or "") and word.search(text):
                return None
    return init, tests


def _branches(text: str, mod: str):
    """(the test's source, a function version → whether `mod` is imported) when `mod` is imported
    only inside the arms of an if on the installed vLLM's version; None otherwise."""
    tree = _parse(text)
    if tree is None:
        return None
    for node in tree.body:
        if isinstance(node, ast.If) and _evaluable(node.test) and imports_submodule(node, mod):
            if any(imports_submodule(n, mod) for n in tree.body if n is not node):
                return None
            return ast.unparse(node.test), lambda v, n=node: _taken(n, mod, v)
    return None


def _taken(node: ast.If, mod: str, version: str) -> bool:
    arm = node.body if _eval(node.test, version) else node.orelse
    for stmt in arm:
        if isinstance(stmt, ast.If) and _evaluable(stmt.test):
            if _taken(stmt, mod, version):
                return True
        elif imports_submodule(stmt, mod):
            return True
    return False


def _evaluable(test) -> bool:
    return (isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _OPS
            and _side(test.left) is not None and _side(test.comparators[0]) is not None
            and "version" in (_side(test.left), _side(test.comparators[0])))


def _side(node):
    """"version" for the installed release (a name, or parse(name)); the literal for a string; None otherwise."""
    parsed = isinstance(node, ast.Call) and len(node.args) == 1
    inner = node.args[0] if parsed else node
    if isinstance(inner, ast.Name) and inner.id in _NAMES:
        return "version"
    if isinstance(inner, ast.Constant) and isinstance(inner.value, str) and try_parse(inner.value) is not None:
        return inner.value
    return None


def _eval(test, version: str) -> bool:
    left, right = test.left, test.comparators[0]
    a = version if _side(left) == "version" else _side(left)
    b = version if _side(right) == "version" else _side(right)
    if isinstance(left, ast.Call) or isinstance(right, ast.Call):  # vs.parse(...): versions, not strings
        a, b = try_parse(a), try_parse(b)
    return bool(_OPS[type(test.ops[0])](a, b))


@lru_cache(maxsize=64)
def _parse(text: str):
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
