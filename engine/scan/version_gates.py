"""The vLLM releases under which the project loads one of its own modules, where every import of it
sits under a test of the installed vLLM version. RLinf's rlinf/workers/rollout/vllm/__init__.py:36-45
(https://github.com/RLinf/RLinf, a3816b59) reads `package_version = get_version("vllm")` and imports
rlinf.hybrid_engines.vllm.vllm_0_8_5.executor only when `package_version >= parse("0.8.5") and
package_version < parse("0.9.0")`: that module's `from vllm.executor…` imports never run on 0.23.0, so
an import of it that 0.23.0 lacks is no failure there (eval113).

Read conservatively: a gate is known only when every import of the module (or of a package above it)
in the project stands in the body of an `if`/`elif` whose test is an `and` of comparisons of one name
bound to vLLM's version with version literals; an import anywhere else, an `else:` branch, an `or`, a
name the audit cannot tie to vLLM — no gate, and the module is judged as before. An `elif` also needs
the earlier tests false, so its own test is a superset of when it runs: a release outside it never
loads the module. The `else:` of a single comparison runs exactly where the comparison fails
(RUCAIBox VERL-STILL's vllm_rollout/__init__.py:28-33 imports vllm_rollout_spmd only in the `else:` of
`package_version <= '0.6.3'`). A comparison of the bare version string with a bare literal is Python's
string order ('0.10.0' <= '0.6.3' holds), so such a gate is decided by that order, as Python decides it."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, try_parse

_INLINE = re.compile(r"""version\(\s*["']vllm["']\s*\)|vllm\.__version__""")
_FLIP = {ast.GtE: "<=", ast.Gt: "<", ast.LtE: ">=", ast.Lt: ">", ast.Eq: "==", ast.NotEq: "!="}
_OPS = {ast.GtE: ">=", ast.Gt: ">", ast.LtE: "<=", ast.Lt: "<", ast.Eq: "==", ast.NotEq: "!="}
_NEGATED = {">=": "<", ">": "<=", "<=": ">", "<": ">=", "==": "!=", "!=": "=="}
_STR_OPS = {">=": str.__ge__, ">": str.__gt__, "<=": str.__le__, "<": str.__lt__, "==": str.__eq__, "!=": str.__ne__}


@dataclass(frozen=True)
class Gate:
    """The releases a module loads under: `spec` (">=0.8.5,<0.9.0"); `lexical`: compared as strings,
    as Python compares a bare `version("vllm")` with a bare literal; `at`: file:line of the test."""
    spec: str
    lexical: bool = False
    at: str = ""

    def holds(self, release: str) -> bool:
        if not self.lexical:
            return SpecifierSet(self.spec).contains(release)
        parts = [p.strip() for p in self.spec.split(",") if p.strip()]
        ops = [(p[:2] if p[:2] in _STR_OPS else p[:1], p) for p in parts]
        return all(_STR_OPS[op](release, p[len(op):]) for op, p in ops)

    def __str__(self) -> str:
        return ("str" if self.lexical else "") + self.spec

    @staticmethod
    def parse(text: str) -> Gate:
        return Gate(text[3:], True) if text.startswith("str") else Gate(text)


def parse_or_empty(text: str) -> ast.Module:
    """The module's tree, or an empty one where it does not parse (the readers of project code skip it)."""
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return ast.Module(body=[], type_ignores=[])


def module_name(rel: str) -> str:
    mod = rel[:-3].replace("/", ".")
    return mod[:-9] if mod.endswith(".__init__") else mod


def _literal(node: ast.AST) -> tuple[str, bool] | None:
    """A version literal and whether it is a bare string: "0.9.0" (bare), parse("0.9.0"), Version("0.9.0")."""
    bare = not isinstance(node, ast.Call)
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        node = node.args[0]
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and try_parse(node.value) is not None:
        return node.value, bare
    return None


def vllm_names(module: ast.Module) -> set[str]:
    """Module-level names bound to vLLM's version: an assignment whose value names vLLM (`vllm.__version__`,
    `version("vllm")`) or a name bound to the string "vllm" (`get_version(package_name)`)."""
    literal = {t.id for s in module.body if isinstance(s, ast.Assign) and isinstance(s.value, ast.Constant)
               and s.value.value == "vllm" for t in s.targets if isinstance(t, ast.Name)}
    out = set()
    for s in module.body:
        if not isinstance(s, ast.Assign) or isinstance(s.value, ast.Constant):
            continue
        said = any((isinstance(n, ast.Constant) and n.value == "vllm") or (isinstance(n, ast.Name) and n.id in literal)
                   or (isinstance(n, ast.Name) and n.id == "vllm") for n in ast.walk(s.value))
        if said and any(k in ast.unparse(s.value).lower() for k in ("version", "__version__")):
            out |= {t.id for t in s.targets if isinstance(t, ast.Name)}
    return out


def _reads_version(node: ast.AST, names: set[str], inline: bool) -> bool:
    """A name bound to vLLM's version, or (`inline`) the version read where it is compared:
    `parse_version(version("vllm"))`, `Version(vllm.__version__)`."""
    if isinstance(node, ast.Name):
        return node.id in names
    return inline and _INLINE.search(ast.unparse(node)) is not None


def _spec(test: ast.AST, names: set[str], at: str = "", inline: bool = False) -> Gate | None:
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    specs, bare = [], set()
    for p in parts:
        if not (isinstance(p, ast.Compare) and len(p.ops) == 1 and type(p.ops[0]) in _OPS):
            return None
        left, right, op = p.left, p.comparators[0], type(p.ops[0])
        if _reads_version(left, names, inline) and (v := _literal(right)):
            specs.append(f"{_OPS[op]}{v[0]}")
        elif _reads_version(right, names, inline) and (v := _literal(left)):
            specs.append(f"{_FLIP[op]}{v[0]}")
        else:
            return None
        bare.add(v[1])
    if not specs or len(bare) != 1:  # a bare literal beside a parsed one: no order the audit can name
        return None
    try:
        SpecifierSet(",".join(specs))
    except InvalidSpecifier:
        return None
    return Gate(",".join(specs), bare.pop(), at)


def release_test(test: ast.AST, names: set[str]) -> str | None:
    """The specifier a framework adapter's module-level `if` holds under (framework_source.gated, for
    tools/framework_vllm_imports.py): one comparison of vLLM's version, read inline or through a name
    bound to it, with a parsed version literal. A bare string comparison is lexical ("0.10.1" < "0.9"),
    and an `and` of several is not read there: neither is a gate of the table."""
    gate = None if isinstance(test, ast.BoolOp) else _spec(test, names, inline=True)
    return gate.spec if gate is not None and not gate.lexical else None


def negated(spec: str) -> str:
    """The specifier the `else:` of one comparison runs under."""
    return _negate(Gate(spec)).spec  # type: ignore[union-attr]


def _negate(gate: Gate) -> Gate | None:
    """The `else:` of a single comparison: where it fails."""
    if "," in gate.spec:
        return None  # the else of an `and` is an `or`: no one range
    op = gate.spec[:2] if gate.spec[:2] in _NEGATED else gate.spec[:1]
    return Gate(_NEGATED[op] + gate.spec[len(op):], gate.lexical, gate.at)


def _imported(node: ast.AST, path: str, target: str) -> bool:
    """Whether the import statement loads `target` (the module itself or a package holding it loads it
    only when it names the module: `from pkg import executor`)."""
    if isinstance(node, ast.Import):
        return any(a.name == target or a.name.startswith(target + ".") for a in node.names)
    if isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            pkg = module_name(path).split(".")
            if not path.endswith("__init__.py"):
                pkg = pkg[:-1]
            pkg = pkg[: len(pkg) - (node.level - 1)]
            base = ".".join(pkg + ([base] if base else []))
        return _names(base, target) or any(_names(f"{base}.{a.name}", target) for a in node.names)
    return False


def _names(mod: str, target: str) -> bool:
    """Whether `mod` is `target`, a module inside it, or it spelled from a package root below the audited
    folder (`verl.workers.x` for VERL-STILL/verl/workers/x.py): an import the audit may not overlook."""
    return bool(mod) and (mod == target or mod.startswith(target + ".") or target.endswith("." + mod))


def _walk(body, path: str, target: str, names: set[str], gate: Gate | None, out: list):
    for s in body:
        if isinstance(s, (ast.Import, ast.ImportFrom)):
            if _imported(s, path, target):
                out.append(gate)
        elif isinstance(s, ast.If):
            spec = _spec(s.test, names, f"{path}:{s.lineno}") if names else None
            _walk(s.body, path, target, names, spec if spec is not None else gate, out)
            other = _negate(spec) if spec is not None else None
            _walk(s.orelse, path, target, names, other if other is not None else gate, out)
        else:
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(s, field, None)
                if isinstance(inner, list):
                    _walk(inner, path, target, names, gate, out)


def gates(rel: str, files: list[str], read) -> list[Gate] | None:
    """The version ranges under which the project imports the module at `rel`; None where some import
    of it is not under such a test, or nothing in the project imports it by name."""
    target = module_name(rel)
    short = target.rsplit(".", 1)[-1]
    found: list = []
    for other in files:
        if other == rel or not other.endswith(".py"):
            continue
        text = read(other) or ""
        if short not in text:
            continue
        tree = parse_or_empty(text)
        _walk(tree.body, other, target, vllm_names(tree), None, found)
    if not found or any(g is None for g in found):
        return None
    return found


def outside(release: str, ranges: list[Gate] | None) -> bool:
    """The judged release is one under which the project never loads the module."""
    return bool(ranges) and try_parse(str(release)) is not None and not any(r.holds(str(release)) for r in ranges or ())

