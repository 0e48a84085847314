"""The vLLM (and framework) requirements of setup.py and setup.cfg, and the release of a project that
is itself a framework's source (a fork that keeps verl's name, an OpenRLHF checkout)."""
from __future__ import annotations

import ast
import re
from pathlib import PurePosixPath

from vllm_kb.engine.scan.context import ScanContext, parse_python
from vllm_kb.engine.scan.python_scope import walk
from vllm_kb.engine.scan.requirement import PACKAGES, Pin, from_requirement, package_name


def setup_py(rel: str, text: str, ctx: ScanContext | None = None) -> list[Pin]:
    tree = parse_python(text, rel)
    out = []
    own = _own_package(tree, rel, ctx)
    # extras_require={"vllm": [...]}: a key names an extra, it is no requirement; nor is the
    # project's own metadata (setup(name="verl") of a fork: its release is `own`)
    keys = {id(k) for node in walk(tree) if isinstance(node, ast.Dict) for k in node.keys if k is not None}
    keys |= {id(kw.value) for node in walk(tree) if isinstance(node, ast.Call) for kw in node.keywords
             if kw.arg in ("name", "version", "description", "author", "url", "license", "python_requires")}
    # entry points (`"vllm = pkg.plugin:VllmPlugin"`, ramalama), package data and classifiers hold
    # strings that read like requirements and install nothing
    keys |= {id(n) for node in walk(tree) if isinstance(node, ast.Call) for kw in node.keywords
             if kw.arg in _NOT_REQUIREMENTS for n in ast.walk(kw.value)}
    if own is not None:
        keys.add(id(own[1]))
    extra = _extras(tree)
    table = _tables(tree)
    reach = _install_strings(tree)
    for node in walk(tree):
        if id(node) in keys or reach is not None and id(node) not in reach:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip()[:1].isalpha():
            p = from_requirement(rel, node.lineno, node.value, "setup")
            if p and id(node) in table:
                group = table[id(node)]  # None: a table entry no install takes
                if group is not None:
                    p.group = group
                    out.append(p)
            elif p:
                p.group = extra.get(id(node), "")
                out.append(p)
    return out + ([own[0]] if own is not None and own[0] is not None else [])


_INSTALL_KEYWORDS = ("install_requires", "extras_require", "setup_requires", "tests_require")


def _install_strings(tree) -> set[int] | None:
    """id() of every node the setup() call's install lists are made of, following the names they are
    built from (`REQUIRES = [...]`, `REQUIRES.append(...)`, `extras["x"] = ...`) and the file's own functions
    they call; None where the file calls no setup(). A string elsewhere in setup.py installs nothing:
    MindSpeed-RL verl_npu/setup.py:156 `os.path.join(path, "vllm")` looks for an installed vLLM to patch."""
    calls = [n for n in walk(tree) if isinstance(n, ast.Call)
             and getattr(n.func, "id", getattr(n.func, "attr", None)) == "setup"]
    if not calls:
        return None
    values: dict[str, list[ast.AST]] = {}
    for node in walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                name = t.value if isinstance(t, ast.Subscript) else t
                if isinstance(name, ast.Name) and node.value is not None:
                    values.setdefault(name.id, []).append(node.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.attr in ("append", "extend", "insert", "update"):
            values.setdefault(node.func.value.id, []).append(node)
        elif isinstance(node, ast.FunctionDef):
            values.setdefault(node.name + "()", []).extend(node.body)
    todo: list[ast.AST] = [kw.value for c in calls for kw in c.keywords if kw.arg in _INSTALL_KEYWORDS or kw.arg is None]
    seen: set[str] = set()
    out: set[int] = set()
    while todo:
        for n in ast.walk(todo.pop()):
            out.add(id(n))
            key = n.id if isinstance(n, ast.Name) else n.func.id + "()" \
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) else None
            if key is not None and key not in seen:
                seen.add(key)
                todo.extend(values.get(key, []))
    return out


_NOT_REQUIREMENTS = frozenset({"entry_points", "package_data", "data_files", "classifiers", "scripts", "packages",
                               "py_modules", "package_dir", "keywords", "exclude_package_data"})


def _extras(tree) -> dict[int, str]:
    """id(string constant) → the extra it is listed under, in `extras_require={"sglang": [...]}` or
    `{"sglang": SGLANG_REQUIRES}` with `SGLANG_REQUIRES = [...]` (verl's setup.py): only an install
    that names the extra installs it (engine/scan/extra_groups.py)."""
    lists = {t.id: node.value for node in walk(tree) if isinstance(node, ast.Assign) and isinstance(node.value, ast.List)
             for t in node.targets if isinstance(t, ast.Name)}
    base = {id(kw.value) for node in walk(tree) if isinstance(node, ast.Call) for kw in node.keywords
            if kw.arg == "install_requires"}
    base |= {id(v) for n, v in lists.items() if any(isinstance(node, ast.Call) and any(
        kw.arg == "install_requires" and isinstance(kw.value, ast.Name) and kw.value.id == n for kw in node.keywords)
        for node in walk(tree))}
    out: dict[int, str] = {}
    for node in walk(tree):
        if not isinstance(node, ast.Dict) or not node.keys:
            continue
        named = []
        for k, v in zip(node.keys, node.values):
            if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
                break
            got = lists.get(v.id) if isinstance(v, ast.Name) else v
            if not isinstance(got, ast.List):
                break
            named.append((k.value, got))
        else:  # every value a list of requirements: a table of extras
            for name, v in named:
                if id(v) not in base:  # `"all": install_requires`: installed anyway
                    out.update({id(e): name for e in v.elts if isinstance(e, ast.Constant)})
    return out


def _tables(tree) -> dict[int, str | None]:
    """id(string) → "" (installed), the extra's name, or None (never installed) for the strings of a
    lookup table: the Hugging Face layout (open-r1, R1-V, VLM-R1) lists every pin in `_deps`, turns it
    into `deps = {name: pin for … in _deps}` and installs only what `deps["trl"]` or
    `deps_list("lighteval")` names in install_requires or an extra; the rest of the table installs
    nothing (R1-V's `"vllm==0.6.6.post1"` while setup.sh installs 0.7.2)."""
    iters = {n.iter.id for n in walk(tree) if isinstance(n, ast.comprehension | ast.For) and isinstance(n.iter, ast.Name)}
    lists = {t.id: node.value for node in walk(tree) if isinstance(node, ast.Assign)
             and isinstance(node.value, ast.List) for t in node.targets if isinstance(t, ast.Name) and t.id in iters}
    if not lists:
        return {}
    named: dict[str, list] = {}  # a Name → the expressions assigned to it
    for node in walk(tree):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    named.setdefault(t.id, []).append(node.value)
    call_kw = {kw.arg: kw.value for node in walk(tree) if isinstance(node, ast.Call)
               and getattr(node.func, "id", getattr(node.func, "attr", None)) == "setup" for kw in node.keywords}
    used: dict[str, str] = {}  # package → "" or the extra that names it
    keys: list = []  # the `"trl"` of `deps["trl"]`: a key into the table, no requirement of its own

    def names(expr, group: str, seen: set) -> None:
        for n in walk(expr) if isinstance(expr, ast.AST) else ():
            if isinstance(n, ast.Name) and n.id not in seen and n.id not in lists:
                seen.add(n.id)
                for v in named.get(n.id, []):
                    names(v, group, seen)
            key = n.slice if isinstance(n, ast.Subscript) else None
            args = n.args if isinstance(n, ast.Call) else [key] if key is not None else []
            for a in args:
                if isinstance(a, ast.Constant) and isinstance(a.value, str):
                    pkg = package_name(a.value)
                    keys.append((a, pkg))
                    if used.get(pkg) != "":
                        used[pkg] = group

    names(call_kw.get("install_requires"), "", set())
    extras = call_kw.get("extras_require")
    for e in [extras] + (named.get(extras.id, []) if isinstance(extras, ast.Name) else []):
        if isinstance(e, ast.Dict):
            for k, v in zip(e.keys, e.values):
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    names(v, k.value, set())
    if isinstance(extras, ast.Name):  # extras["eval"] = deps_list("lighteval", "math-verify")
        for node in walk(tree):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == extras.id \
                            and isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str):
                        names(node.value, t.slice.value, set())
    out: dict[int, str | None] = {}
    table: set[str] = set()
    for lst in lists.values():
        for e in lst.elts:
            if isinstance(e, ast.Constant) and isinstance(e.value, str):
                head = re.match(r"\s*([A-Za-z0-9][\w.-]*)", e.value)
                if head:
                    table.add(package_name(head.group(1)))
                out[id(e)] = used.get(package_name(head.group(1))) if head else None
    out.update({id(a): None for a, pkg in keys if pkg in table})
    return out


def _own_package(tree, rel: str, ctx) -> tuple[Pin | None, ast.AST] | None:
    """A project that is itself a framework release — a fork that keeps the framework's name, as
    Search-R1 and TinyZero keep verl's `setup(name="verl", version=…)`: that release drives vLLM
    here. The version is the literal, or the `<name>/version/version` file verl's setup.py reads."""
    for node in walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "setup"):
            continue
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        name = kw.get("name")
        if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
            return _version_txt(rel, node, ctx)
        pkg, label = package_name(name.value), name.value
        if pkg not in PACKAGES and (inner := _only_package(kw.get("packages"))) in PACKAGES and ctx is not None \
                and f"{_base(rel)}{inner}/version/version" in ctx.file_set():
            # RAGEN's `setup(name='verl-core', version=__version__, packages=find_packages(include=['verl']))`
            # installs its vendored verl under another distribution name: the package is verl's
            pkg = label = str(inner)
        if pkg not in PACKAGES or pkg == "vllm":
            return None
        version = kw.get("version")
        v = version.value if isinstance(version, ast.Constant) and isinstance(version.value, str) else None
        if v is None and ctx is not None:
            path = f"{PurePosixPath(rel).parent.as_posix()}/{label}/version/version".removeprefix("./")
            got = ctx.read(path) if path in ctx.file_set() else None
            v = got.strip() if got and re.fullmatch(r"\s*\d+(\.\d+)*\S*\s*", got) else None
        if v is None and ctx is not None:
            v = _version_py(tree, rel, ctx)
        if not v:
            return None, name
        return Pin(rel, node.lineno, f"{label} {v} (this project)", f"=={v}", "setup", v, pkg, own=True), name
    return None


def _base(rel: str) -> str:
    folder = PurePosixPath(rel).parent.as_posix()
    return "" if folder in ("", ".") else folder + "/"


def _only_package(node) -> str | None:
    """The one package `packages=find_packages(include=['verl'])` or `packages=['verl']` names."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "find_packages":
        node = next((k.value for k in node.keywords if k.arg == "include"), None)
    if isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) == 1 and isinstance(node.elts[0], ast.Constant) \
            and isinstance(node.elts[0].value, str) and re.fullmatch(r"\w+", node.elts[0].value):
        return node.elts[0].value
    return None


_DUNDER = re.compile(r"""^__version__\s*=\s*["'](\d+(?:\.\d+)+[\w.+-]*)["']""", re.M)


def _version_py(tree, rel: str, ctx) -> str | None:
    """The `__version__` of the version file setup.py names (ms-swift: `version_file = 'swift/version.py'`,
    read by its get_version()): a checkout of ms-swift 3.3.0.dev0 is that release's code."""
    folder = PurePosixPath(rel).parent.as_posix()
    for node in walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.endswith("version.py") \
                and re.fullmatch(r"[\w./-]+", node.value):
            path = f"{folder}/{node.value}".removeprefix("./").lstrip("/") if folder not in ("", ".") else node.value
            m = _DUNDER.search(ctx.read(path) or "") if path in ctx.file_set() else None
            if m:
                return m.group(1)
    return None


def _version_txt(rel: str, node, ctx) -> tuple[Pin | None, ast.AST] | None:
    """An OpenRLHF checkout: setup.py names the package through a function (openrlhf or
    openrlhf-nightly) and reads `version.txt` ("0.3.0.github" in 0.3.0); the checkout is that release."""
    if ctx is None:
        return None
    folder = PurePosixPath(rel).parent.as_posix()
    base = "" if folder in ("", ".") else folder + "/"
    if f"{base}openrlhf/__init__.py" not in ctx.file_set() or f"{base}version.txt" not in ctx.file_set():
        return None
    m = re.match(r"\s*(\d+(?:\.\d+)+(?:\.post\d+)?)", ctx.read(f"{base}version.txt") or "")
    if not m:
        return None
    v = m.group(1)
    return Pin(rel, node.lineno, f"openrlhf {v} (this project)", f"=={v}", "setup", v, "openrlhf", own=True), node


def setup_cfg(rel: str, text: str) -> list[Pin]:
    """The requirements under [options] install_requires and [options.extras_require]; the other
    lists of names (isort's known_third_party in the same file) name no install."""
    out = []
    section, key = "", ""
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not raw.startswith((" ", "\t")):
            if line.startswith("["):
                section, key = line.strip("[]").strip().lower(), ""
            elif line and not line.startswith(("#", ";")):
                key = line.split("=", 1)[0].split(":", 1)[0].strip().lower()
            continue
        if not (section == "options" and key == "install_requires" or section == "options.extras_require"):
            continue
        p = from_requirement(rel, n, line, "setup")
        if p:
            out.append(p)
    return out
