"""A framework's own vLLM version gate, read from a copy of its source inside the audited tree.

Research forks (TinyZero, Logic-RL, PRIME, rllm, Search-R1 …) carry early verl in the repository,
and a LLaMA-Factory checkout installed with `pip install -e .` runs the gate of its commit, not of
a release: the gate a dev build runs changed from commit to commit (0.9.1.dev0 asked for
vllm<=0.6.4, then <=0.6.3, <=0.6.2, <=0.6.3 and <0.6.4 within five weeks). The copy in the tree
says which one it is, so it is read rather than the release's row in compat.yaml:

- verl: the dispatch in `verl/third_party/vllm/__init__.py` (`package_version == '0.6.3'`,
  `vs.parse(package_version) >= vs.parse('0.7.0')`), whose `else` raises "vllm version X not
  supported …";
- LLaMA-Factory: `require_version("vllm…")` / `check_version("vllm…")` in `hparams/parser.py`
  (transformers' require_version raises "… is required for a normal functioning of this module,
  but found vllm==X."; check_version is skipped under DISABLE_VERSION_CHECK=1 unless mandatory);
- OpenRLHF: `assert version.parse(vllm.__version__) >= …, "OpenRLHF only supports …"` in
  `openrlhf/trainer/ray/vllm_engine.py`.

Only the files with those path tails are read, once per project."""
from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from vllm_kb.engine.kb.versions import try_parse

# framework id → (tail of the file that holds the gate, tail of the package folder)
GATE_FILES = (
    ("verl", "verl/third_party/vllm/__init__.py", "verl"),
    ("llamafactory", "llamafactory/hparams/parser.py", "llamafactory"),
    ("llamafactory", "llmtuner/hparams/parser.py", "llmtuner"),
    ("openrlhf", "openrlhf/trainer/ray/vllm_engine.py", "openrlhf"),
)
_VER = r"\d+(?:\.\d+)+(?:(?:\.post|\.dev|rc)\d+)*"


@dataclass(frozen=True)
class Gate:
    framework: str
    root: str  # the folder that holds the package folder ("" for the tree's root)
    file: str  # the gate's file, relative to the audited tree
    line: int
    alternatives: tuple[str, ...]  # specifier sets; the gate passes when one of them holds
    text: str  # the framework's words, {vllm} for the installed release
    version: str | None  # the copy's own version, when its version file says it
    bypass_env: str = ""  # an environment variable that skips the gate (LLaMA-Factory's check_version)
    package: str = ""  # the package folder, relative to the audited tree

    def allows(self, vllm: str) -> bool:
        from vllm_kb.engine.kb import versions

        return any(versions.contains(spec, vllm) for spec in self.alternatives)

    def message(self, vllm: str) -> str:
        return self.text.replace("{vllm}", vllm)

    def where(self) -> str:
        return f"{self.file}:{self.line}"


def gates(files: list[str], read) -> list[Gate]:
    """The vendored gates in the tree: `files` the project's files, `read` a file's text."""
    out = []
    have = frozenset(files)
    for rel in files:
        for fid, tail, pkg in GATE_FILES:
            if rel == tail or rel.endswith("/" + tail):
                text = read(rel)
                if not text or "vllm" not in text:
                    continue
                root = rel[: len(rel) - len(tail)].rstrip("/")
                got = _READERS[fid](rel, text)
                if got is not None:
                    line, alts, words, bypass = got
                    out.append(Gate(fid, root, rel, line, tuple(alts), words, _own_version(fid, root, pkg, read, have), bypass,
                                    f"{root}/{pkg}" if root else pkg))
    return out


class _Copy(Protocol):
    framework: str
    root: str


_C = TypeVar("_C", bound=_Copy)


def for_site(found: Sequence[_C], site_file: str, fid: str) -> _C | None:
    """The gate that governs a site: the copy whose folder holds the site's file most closely, or
    the only copy of that framework in the tree."""
    mine = [g for g in found if g.framework == fid]
    inside = [g for g in mine if not g.root or site_file.startswith(g.root + "/")]
    if inside:
        return max(inside, key=lambda g: len(g.root))
    return mine[0] if len(mine) == 1 else None


def lacks_module(found: Sequence[_C], site_file: str, fid: str, module: str | None, files) -> str | None:
    """The root of the copy for_site gives a launch of `python -m <module>` when that copy has no such
    module: the launch runs another checkout of the framework, not this copy, so neither the copy's gate,
    its rollout code nor its pins are the launch's. rllm's scripts/pipeline/*.sh run
    verl.trainer.main_ppo_async / main_ppo_pipeline, which its verl/ copy lacks (README: they need
    agentica-project/verl-pipeline, a repository of its own)."""
    copy = for_site(found, site_file, fid) if module else None
    if copy is None or module is None:
        return None
    prefix = copy.root + "/" if copy.root else ""
    path = prefix + module.replace(".", "/")
    if path + ".py" in files or path + "/__main__.py" in files:
        return None
    # only where the copy holds the module's package (its verl/trainer/ with main_ppo.py beside): a copy cut
    # down to its rollout, or a package the tree does not carry, says nothing of which module runs
    package = path.rpartition("/")[0] + "/"
    return copy.root if any(f.startswith(package) and f.endswith(".py") for f in files) else None


def _verl(rel: str, text: str):
    """The if/elif chain on the installed release whose final `else` raises "… not supported".
    Every branch is read (`==`, `.startswith`, `or`, `>=`/`<`, `in [...]`); a branch on a missing
    vLLM (`package_version is None`) or on Ascend (`is_npu_available`) is passed over on a GPU. A
    chain with a test that cannot be read makes no claim: honouring only the branches read called
    every vLLM but 0.5.4 unsupported under verl 0.4.x's `elif … or package_version.startswith("0.6.3")`
    (cogrpo_verl, eval68)."""
    tree = _parse(text)
    if tree is None:
        return None
    names = _version_names(tree)
    inner = {id(n.orelse[0]) for n in ast.walk(tree) if isinstance(n, ast.If) and len(n.orelse) == 1}
    for node in ast.walk(tree):
        if not isinstance(node, ast.If) or id(node) in inner:
            continue
        alts: list[str] = []
        read = True
        branch: ast.If | None = node
        final: list[ast.stmt] = []
        while branch is not None:
            test = _branch_test(branch.test, names)
            if test is None:
                # `else: if not is_sglang_available(): raise …` (verl 0.3–0.4, 0.9) is the refusal itself
                final = [branch] if alts and _refuses(text, branch.body) else []
                read = bool(final)
                break
            if test and any(isinstance(s, ast.Raise) for s in branch.body):
                read = False  # a range refused before the else: not the shape read here
                break
            alts += test
            rest = branch.orelse
            branch = rest[0] if len(rest) == 1 and isinstance(rest[0], ast.If) else None
            final = [] if branch is not None else rest
        if not alts:
            continue
        if not read:
            return None
        raises = _refuses(text, final)
        if raises:
            return raises[0].lineno, alts, _words(raises[0]) or "vllm version {vllm} not supported", ""
    return None


def _refuses(text: str, stmts: list) -> list:
    return [r for stmt in stmts for r in ast.walk(stmt) if isinstance(r, ast.Raise)
            and "not supported" in (ast.get_source_segment(text, r) or "")]


def _version_names(tree: ast.Module) -> frozenset[str]:
    """The names that hold the installed vLLM release: verl's `package_version`, and any name a copy
    assigns from a call on the distribution "vllm" (`version("vllm")`, `get_version(package_name)` with
    `package_name = 'vllm'`) or from `vllm.__version__` (StepSearch #10's copy tests `vllm_version`;
    verl 0.2's own `vllm_version` is a label it assigns from string constants and is not one)."""
    vllm_names = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)
                  and n.value.value == "vllm" for t in n.targets if isinstance(t, ast.Name)}

    def installed(v) -> bool:
        if isinstance(v, ast.Attribute):
            return v.attr == "__version__" and isinstance(v.value, ast.Name) and v.value.id == "vllm"
        return isinstance(v, ast.Call) and len(v.args) == 1 and (
            (isinstance(v.args[0], ast.Constant) and v.args[0].value == "vllm")
            or (isinstance(v.args[0], ast.Name) and v.args[0].id in vllm_names))

    got = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and installed(n.value)
           for t in n.targets if isinstance(t, ast.Name)}
    return frozenset(got | {"package_version", "vllm_version_installed"})


def _branch_test(test, names: frozenset[str] = frozenset({"package_version"})) -> list[str] | None:
    """The specifiers under which a branch is taken; [] for a branch never taken on an installed
    GPU vLLM (`package_version is None`, `is_npu_available`); None for a test not read."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and _is_version(test.left, names) \
            and isinstance(test.ops[0], ast.Is) and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None:
        return []
    if isinstance(test, (ast.Name, ast.Call)) and _callee(test) == "is_npu_available":
        return []
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        parts = [_branch_test(v, names) for v in test.values]
        return None if any(p is None for p in parts) else [s for p in parts for s in p or ()]
    one = _version_test(test, names)
    return one or None


def _callee(node) -> str:
    node = node.func if isinstance(node, ast.Call) else node
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def _version_test(test, names: frozenset[str] = frozenset({"package_version"})) -> list[str]:
    """`package_version == '0.6.3'` → [">=0.6.3,<0.6.3.post1"] (the string test refuses 0.6.3.post1, which a
    plain "==0.6.3" here would take: verl #245); `vs.parse(package_version) >= vs.parse('0.7.0')`
    → [">=0.7.0"] (a local label dropped: a range takes none); `package_version.startswith('0.6.3')`
    → ["==0.6.3.*"]; `… in [vs.parse('0.5.4'), vs.parse('0.6.3')]` → one each; [] for any other test."""
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr == "startswith" \
            and _is_version(test.func.value, names) and len(test.args) == 1:
        v = _literal_version(test.args[0])
        return [f"=={v.rstrip('.')}.*"] if v and re.fullmatch(r"\d+(?:\.\d+)*\.?", v) else []
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and _is_version(test.left, names)):
        return []
    if isinstance(test.ops[0], ast.In) and isinstance(test.comparators[0], (ast.List, ast.Tuple, ast.Set)):
        vs = [_literal_version(e) for e in test.comparators[0].elts]
        return [] if not vs or None in vs else [s for v in vs for s in _version_test(
            ast.Compare(ast.Name("package_version"), [ast.Eq()], [ast.Constant(v)]), names)]
    v = _literal_version(test.comparators[0])
    op = {ast.Eq: "==", ast.GtE: ">=", ast.Gt: ">", ast.Lt: "<", ast.LtE: "<=", ast.NotEq: "!="}.get(type(test.ops[0]))
    if v and op == "==":
        plain = v.split("+")[0]  # `== "0.6.3+rocm624"`: that local build alone
        return [f">={v},<{plain}.post1" if re.fullmatch(r"\d+(?:\.\d+)+", plain) else "==" + v]
    if v and op:
        return [op + v.split("+")[0]]
    return []


def _llamafactory(rel: str, text: str):
    for m in re.finditer(r"\b(require_version|check_version)\(\s*[\"']vllm\s*((?:[<>=!]=?\s*" + _VER + r"\s*,?\s*)+)[\"']([^)]*)\)", text):
        spec = re.sub(r"\s+", "", m.group(2)).rstrip(",")
        line = text.count("\n", 0, m.start()) + 1
        bypass = "DISABLE_VERSION_CHECK" if m.group(1) == "check_version" and "mandatory=True" not in m.group(3).replace(" ", "") else ""
        return line, [spec], f"vllm{spec} is required for a normal functioning of this module, but found vllm=={{vllm}}.", bypass
    return None


def _openrlhf(rel: str, text: str):
    m = re.search(r"assert\s+version\.parse\(\s*vllm\.__version__\s*\)\s*(>=|>)\s*version\.parse\(\s*[\"'](" + _VER
                  + r")[\"']\s*\)\s*,\s*[\"']([^\"']*only supports[^\"']*)[\"']", text)
    if not m:
        return None
    return text.count("\n", 0, m.start()) + 1, [m.group(1) + m.group(2)], m.group(3), ""


_READERS = {"verl": _verl, "llamafactory": _llamafactory, "openrlhf": _openrlhf}


def _parse(text: str):
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None


def _is_version(node, names: frozenset[str]) -> bool:
    """A name that holds the installed release (`package_version`), `vllm.__version__`, or either under
    `vs.parse(…)`."""
    if isinstance(node, ast.Call) and node.args:
        node = node.args[0]
    if isinstance(node, ast.Attribute):
        return node.attr == "__version__" and isinstance(node.value, ast.Name) and node.value.id == "vllm"
    return isinstance(node, ast.Name) and node.id in names


def _literal_version(node) -> str | None:
    if isinstance(node, ast.Call) and node.args:
        node = node.args[0]
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and try_parse(node.value.split("+")[0]) is not None:
        return node.value
    return None


def _words(node: ast.Raise) -> str:
    """The raised message, its f-string holes written as {vllm}."""
    exc = node.exc
    if isinstance(exc, ast.Call) and exc.args:
        parts = []
        msg = exc.args[0]
        for v in (msg.values if isinstance(msg, ast.JoinedStr) else [msg]):
            if isinstance(v, ast.Constant) and isinstance(v.value, str):
                parts.append(v.value)
            elif isinstance(v, ast.FormattedValue):
                parts.append("{vllm}")
        return "".join(parts).strip()
    return ""


def _own_version(fid: str, root: str, pkg: str, read, files) -> str | None:
    """The copy's version: verl's `verl/version/version`, LLaMA-Factory's `extras/env.py` VERSION
    (`llmtuner/__init__.py` `__version__` before the rename)."""
    base = f"{root}/{pkg}" if root else pkg
    path, pattern = {
        "verl": (f"{base}/version/version", r"^\s*(" + _VER + r")\s*$"),
        "llamafactory": ((f"{base}/extras/env.py" if pkg == "llamafactory" else f"{base}/__init__.py"),
                         r"(?:VERSION|__version__)\s*=\s*[\"'](" + _VER + r")[\"']"),
    }.get(fid, ("", ""))
    if not path or path not in files:
        return None
    m = re.search(pattern, read(path) or "", re.M)
    return m.group(1) if m else None
