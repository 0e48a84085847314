#!/usr/bin/env python3
"""Build knowledge/vllm/attn_selector.yaml: for every release whose CUDA selector validates the
backends (vllm/platforms/cuda.py `get_valid_backends`, 0.11.1+), the candidates it tries for MLA
and for other models and what each candidate accepts, so that engine/check/startup_selector.py
can say where *every* candidate refuses the model ("No valid attention backend found").

What a backend accepts is read by evaluating its own classmethods (with the base class's
defaults: `supports_head_size` / `get_supported_head_sizes`, `supported_dtypes`,
`supported_kv_cache_dtypes`, `supports_compute_capability`, `is_mla`, `is_sparse`,
`supports_sink`) over a grid of values with a small evaluator of the Python those methods are
written in; a method it cannot evaluate (runtime probes, imports of kernels) gives `null`, which
the check reads as "accepts": an unread rule never makes a refusal. `supports_combination` only
adds refusals and is left out for the same reason. The candidates are every backend the MLA or
the non-MLA branch of `_get_backend_priorities` can return on a GPU of each major version (both
branches of a test that depends on more than the GPU: a superset). `forced_mla`: 0.11.1-0.12.0 set
VLLM_ATTENTION_BACKEND=CUTLASS_MLA for every MLA model on compute capability 10.0
(check_and_update_config), so the selector validates that one backend alone.

Run: python tools/vllm_attn_selector.py --source /work/sdists/src -o knowledge/vllm/attn_selector.yaml
"""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

VERSION_DIR = re.compile(r"\d+(\.\d+)+$")
HEADS = sorted(set(range(8, 1025, 8)) | {40, 72, 80, 88, 100, 104, 112, 120, 136, 144, 160, 176, 200, 576})
DTYPES = ["float16", "bfloat16", "float32"]
KVS = ["auto", "bfloat16", "fp8", "fp8_e4m3", "fp8_e5m2", "fp8_ds_mla", "fp8_inc", "nvfp4"]
CCS = [7.0, 7.5, 8.0, 8.6, 8.7, 8.9, 9.0, 10.0, 10.3, 11.0, 12.0, 12.1]
RAISE = "No valid attention backend found for"


def vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


class Unknown(Exception):
    """The evaluator met something it does not model."""


class Cap:
    """DeviceCapability(major, minor) with its comparisons and to_int()."""

    def __init__(self, major: int, minor: int):
        self.major, self.minor = major, minor

    def key(self):
        return (self.major, self.minor)


class Klass:
    def __init__(self, name: str, node: ast.ClassDef, module: "Module", bases: list["Klass"]):
        self.name, self.node, self.module, self.bases = name, node, module, bases

    def lookup(self, attr: str):
        for b in self.mro():
            for st in b.node.body:
                if isinstance(st, ast.FunctionDef) and st.name == attr:
                    return ("fn", st, b)
                if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.target.id == attr and st.value:
                    return ("val", st.value, b)
                if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == attr for t in st.targets):
                    return ("val", st.value, b)
        raise Unknown(attr)

    def mro(self):
        out, todo = [], [self]
        while todo:
            k = todo.pop(0)
            if k not in out:
                out.append(k)
                todo.extend(k.bases)
        return out


class Module:
    def __init__(self, root: Path, dotted: str):
        self.root, self.dotted = root, dotted
        path = root / (dotted.replace(".", "/") + ".py")
        self.path = path
        self.tree = ast.parse(path.read_text(encoding="utf-8", errors="replace")) if path.is_file() else ast.Module(body=[], type_ignores=[])
        self.imports: dict[str, str] = {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    self.imports[a.asname or a.name] = f"{node.module}.{a.name}"


class World:
    """The classes of one release, loaded on demand."""

    def __init__(self, root: Path):
        self.root, self.mods, self.classes = root, {}, {}

    def module(self, dotted: str) -> Module:
        if dotted not in self.mods:
            self.mods[dotted] = Module(self.root, dotted)
        return self.mods[dotted]

    def klass(self, qual: str, depth: int = 0) -> Klass | None:
        if qual in self.classes or depth > 8:
            return self.classes.get(qual)
        mod_name, _, name = qual.rpartition(".")
        mod = self.module(mod_name)
        node = next((n for n in mod.tree.body if isinstance(n, ast.ClassDef) and n.name == name), None)
        if node is None:
            self.classes[qual] = None
            return None
        bases = []
        for b in node.bases:
            bname = b.id if isinstance(b, ast.Name) else None
            if bname in ("ABC", "Generic", None, "object"):
                continue
            target = mod.imports.get(bname, f"{mod_name}.{bname}")
            k = self.klass(target, depth + 1)
            if k is not None:
                bases.append(k)
        k = Klass(name, node, mod, bases)
        self.classes[qual] = k
        return k


def _ev(node: ast.AST, env: dict, k: Klass):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        out = []
        for e in node.elts:
            if isinstance(e, ast.Starred):
                out.extend(_ev(e.value, env, k))
            else:
                out.append(_ev(e, env, k))
        return out
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        if node.id in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[node.id]
        raise Unknown(node.id)
    if isinstance(node, ast.Attribute):
        if isinstance(node.value, ast.Name) and node.value.id == "torch":
            return node.attr  # torch.bfloat16 → "bfloat16"
        if isinstance(node.value, ast.Name) and node.value.id == "AttentionType":
            return node.attr.lower()
        base = _ev(node.value, env, k)
        if isinstance(base, Klass):
            kind, val, owner = base.lookup(node.attr)
            return _ev(val, {}, owner) if kind == "val" else ("method", val, base)
        if isinstance(base, Cap) and node.attr in ("major", "minor"):
            return getattr(base, node.attr)
        raise Unknown(ast.unparse(node))
    if isinstance(node, ast.BoolOp):
        vals = None
        for v in node.values:
            vals = _ev(v, env, k)
            if isinstance(node.op, ast.And) and not vals:
                return vals
            if isinstance(node.op, ast.Or) and vals:
                return vals
        return vals
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return not _ev(node.operand, env, k)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_ev(node.operand, env, k)
    if isinstance(node, ast.BinOp):
        a, b = _ev(node.left, env, k), _ev(node.right, env, k)
        ops = {ast.Mod: lambda: a % b, ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
               ast.FloorDiv: lambda: a // b}
        if type(node.op) in ops and not isinstance(a, (Cap, Klass)) and not isinstance(b, (Cap, Klass)):
            return ops[type(node.op)]()
        raise Unknown(ast.unparse(node))
    if isinstance(node, ast.IfExp):
        return _ev(node.body if _ev(node.test, env, k) else node.orelse, env, k)
    if isinstance(node, ast.Compare):
        left = _ev(node.left, env, k)
        for op, right_node in zip(node.ops, node.comparators):
            right = _ev(right_node, env, k)
            if isinstance(left, Cap) or isinstance(right, Cap):
                if not (isinstance(left, Cap) and isinstance(right, Cap)):
                    raise Unknown("capability compared with a number")
                lv, rv = left.key(), right.key()
            else:
                lv, rv = left, right
            ok = {ast.Eq: lambda: lv == rv, ast.NotEq: lambda: lv != rv, ast.Lt: lambda: lv < rv, ast.LtE: lambda: lv <= rv,
                  ast.Gt: lambda: lv > rv, ast.GtE: lambda: lv >= rv, ast.In: lambda: lv in rv, ast.NotIn: lambda: lv not in rv,
                  ast.Is: lambda: lv is rv, ast.IsNot: lambda: lv is not rv}.get(type(op))
            if ok is None or not ok():
                return False
            left = right
        return True
    if isinstance(node, ast.Call):
        f = node.func
        args = [_ev(a, env, k) for a in node.args]
        if isinstance(f, ast.Name) and f.id == "DeviceCapability":
            kw = {x.arg: _ev(x.value, env, k) for x in node.keywords}
            vals = args + [kw.get("major"), kw.get("minor", 0)][len(args):]
            return Cap(int(vals[0]), int(vals[1] or 0))
        if isinstance(f, ast.Name) and f.id in ("len", "bool", "int", "set", "list", "tuple"):
            return {"len": len, "bool": bool, "int": int, "set": set, "list": list, "tuple": tuple}[f.id](*args)
        if isinstance(f, ast.Attribute) and f.attr == "to_int" and not node.args:
            c = _ev(f.value, env, k)
            if isinstance(c, Cap):
                return c.major * 10 + c.minor
        if isinstance(f, ast.Attribute) and f.attr == "startswith":
            s = _ev(f.value, env, k)
            if isinstance(s, str):
                return s.startswith(*args)
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("cls", "self") and f.value.id in env:
            kind, fn, owner = env[f.value.id].lookup(f.attr)
            if kind == "fn":
                return call(env[f.value.id], fn, args)
        raise Unknown(ast.unparse(node))
    raise Unknown(type(node).__name__)


def _exec(body: list[ast.stmt], env: dict, k: Klass):
    for st in body:
        if isinstance(st, ast.Return):
            return ("ret", _ev(st.value, env, k) if st.value is not None else None)
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
            continue
        if isinstance(st, (ast.Import, ast.ImportFrom, ast.Pass)):
            continue
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            env[st.targets[0].id] = _ev(st.value, env, k)
            continue
        if isinstance(st, ast.If):
            r = _exec(st.body if _ev(st.test, env, k) else st.orelse, env, k)
            if r is not None:
                return r
            continue
        raise Unknown(type(st).__name__)
    return None


def call(k: Klass, fn: ast.FunctionDef, args: list):
    params = [a.arg for a in fn.args.args]
    decos = {d.id if isinstance(d, ast.Name) else getattr(d, "attr", "") for d in fn.decorator_list}
    env: dict = {}
    if "staticmethod" not in decos:
        env[params[0]] = k
        params = params[1:]
    defaults = fn.args.defaults
    for i, p in enumerate(params):
        if i < len(args):
            env[p] = args[i]
        elif i >= len(params) - len(defaults):
            env[p] = ast.literal_eval(defaults[i - (len(params) - len(defaults))])
    r = _exec(fn.body, env, k)
    return r[1] if r else None


def probe(k: Klass, method: str, *args):
    try:
        kind, fn, _owner = k.lookup(method)
        return call(k, fn, list(args)) if kind == "fn" else None
    except (Unknown, RecursionError, TypeError, ValueError, AttributeError, IndexError, KeyError):
        return None


def spans(values: list[int]) -> str:
    """Head sizes as "8-256/8,576" (a run of equal steps as first-last/step)."""
    out, i = [], 0
    while i < len(values):
        j = i
        step = values[i + 1] - values[i] if i + 1 < len(values) else 0
        while j + 1 < len(values) and values[j + 1] - values[j] == step and step:
            j += 1
        if j - i >= 2:
            out.append(f"{values[i]}-{values[j]}/{step}")
            i = j + 1
        else:
            out.append(str(values[i]))
            i += 1
    return ",".join(out)


def grid(k: Klass, method: str, values: list, conv=lambda v: v):
    """The values the method accepts, or None where any one could not be evaluated."""
    got = [probe(k, method, conv(v)) for v in values]
    if any(g is None for g in got):
        return None
    return [v for v, g in zip(values, got) if g]


def backend_facts(world: World, qual: str) -> dict | None:
    k = world.klass(qual)
    if k is None:
        return None
    heads = grid(k, "supports_head_size", HEADS)
    caps = grid(k, "supports_compute_capability", CCS, lambda c: Cap(int(c), round(c * 10) % 10))
    out = {"class": qual, "file": str(k.module.path.relative_to(world.root)), "line": k.node.lineno,
           "head_sizes": None if heads is None else ("any" if heads == HEADS else spans(heads)),
           "dtypes": grid(k, "supports_dtype", DTYPES), "kv_dtypes": grid(k, "supports_kv_cache_dtype", KVS),
           "cc": caps, "mla": probe(k, "is_mla"), "sparse": probe(k, "is_sparse"), "sink": probe(k, "supports_sink")}
    return out


def _enum_names(node: ast.AST) -> list[str]:
    out = []
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in ("AttentionBackendEnum", "_Backend") \
                and n.attr.isupper() and n.attr not in out:
            out.append(n.attr)
    return out


MAJORS = [7, 8, 9, 10, 11, 12]


def _test(node: ast.AST, major: int):
    """A branch test about the GPU's major version: True/False, None where it depends on more."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and ast.unparse(node.left) == "device_capability.major":
        try:
            right = ast.literal_eval(node.comparators[0])
        except ValueError:
            return None
        op = node.ops[0]
        if isinstance(op, ast.Eq):
            return major == right
        if isinstance(op, ast.NotEq):
            return major != right
        if isinstance(op, ast.In):
            return major in right
        return None
    if isinstance(node, ast.BoolOp):
        vals = [_test(v, major) for v in node.values]
        if isinstance(node.op, ast.And):
            return False if False in vals else (True if all(v is True for v in vals) else None)
        return True if True in vals else (False if all(v is False for v in vals) else None)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        v = _test(node.operand, major)
        return None if v is None else not v
    return None


def _names_for(body: list[ast.stmt], major: int) -> list[str]:
    """Every backend the statements can return on a GPU of that major version (a superset where a
    test depends on more than the GPU: both branches)."""
    out: list[str] = []
    for st in body:
        if isinstance(st, ast.If):
            t = _test(st.test, major)
            parts = ([st.body] if t is not False else []) + ([st.orelse] if t is not True else [])
            for part in parts:
                out += [n for n in _names_for(part, major) if n not in out]
        else:
            out += [n for n in _enum_names(st) if n not in out]
    return out


def candidates(cuda: ast.Module) -> tuple[dict, dict] | None:
    """{major: [backend …]} for MLA and for other models, from _get_backend_priorities."""
    fn = next((n for n in ast.walk(cuda) if isinstance(n, ast.FunctionDef) and n.name == "_get_backend_priorities"), None)
    if fn is None:
        return None
    top = next((s for s in fn.body if isinstance(s, ast.If) and ast.unparse(s.test) == "use_mla"), None)
    if top is None:
        return None
    return ({m: _names_for(top.body, m) for m in MAJORS}, {m: _names_for(top.orelse, m) for m in MAJORS})


def registry(root: Path) -> dict[str, str]:
    for rel in ("vllm/v1/attention/backends/registry.py", "vllm/attention/backends/registry.py"):
        p = root / rel
        if p.is_file():
            tree = ast.parse(p.read_text(encoding="utf-8"))
            cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "AttentionBackendEnum")
            out = {}
            for st in cls.body:
                if isinstance(st, ast.Assign) and isinstance(st.targets[0], ast.Name):
                    try:
                        v = ast.literal_eval(st.value)
                    except ValueError:
                        continue
                    if isinstance(v, str) and v:
                        out[st.targets[0].id] = v
            return out
    return {}


def reason_texts(root: Path) -> dict[str, str]:
    """validate_configuration's words per test: supports_head_size → "head_size not supported" …"""
    for rel in ("vllm/v1/attention/backend.py", "vllm/attention/backends/abstract.py"):
        p = root / rel
        if not p.is_file():
            continue
        tree = ast.parse(p.read_text(encoding="utf-8"))
        fn = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "validate_configuration"), None)
        if fn is None:
            continue
        out = {}
        for n in ast.walk(fn):
            if isinstance(n, ast.If):
                names = [c.func.attr for c in ast.walk(n.test) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)]
                texts = [c.args[0].value for c in ast.walk(n) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
                         and c.func.attr == "append" and c.args and isinstance(c.args[0], ast.Constant)]
                if names and texts:
                    key = names[0]
                    if key in ("is_mla", "is_sparse"):
                        out[key], out["not_" + key] = texts[0], texts[-1]
                    else:
                        out.setdefault(key, texts[0])
        return out
    return {}


def scan(root: Path) -> dict | None:
    cuda_p = root / "vllm/platforms/cuda.py"
    if not cuda_p.is_file():
        return None
    text = cuda_p.read_text(encoding="utf-8")
    if "def get_valid_backends" not in text or RAISE not in text:
        return None
    cands = candidates(ast.parse(text))
    if cands is None:
        return None
    reg, world = registry(root), World(root)
    line = next(i + 1 for i, s in enumerate(text.splitlines()) if RAISE in s)
    forced = None
    m = re.search(r"is_device_capability\(100\)(?P<cond>[^\n]*):\n(?:[^\n]*\n){0,5}?\s*envs\.VLLM_ATTENTION_BACKEND = \"CUTLASS_MLA\"", text)
    if m and "use_sparse" not in m.group("cond"):
        forced = {"cc": [10.0], "backend": "CUTLASS_MLA", "line": text[:m.end()].count("\n") + 1}
    backends = {}
    for name in sorted({n for c in cands for names in c.values() for n in names}):
        if name in reg:
            facts = backend_facts(world, reg[name])
            if facts:
                backends[name] = facts
    return {"raise_line": line, "mla": {m: [c for c in v if c in backends] for m, v in cands[0].items()},
            "other": {m: [c for c in v if c in backends] for m, v in cands[1].items()},
            "forced_mla": forced, "reasons": reason_texts(root), "backends": backends}


def build(sources: list[Path]) -> dict:
    found = {d.name: d for s in sources for d in s.iterdir() if d.is_dir() and VERSION_DIR.fullmatch(d.name)}
    releases, spans_out = [], []
    for v in sorted(found, key=vkey):
        row = scan(found[v])
        if row is None:
            continue
        releases.append(v)
        same = {k: x for k, x in row.items() if k != "raise_line"}
        for b in same["backends"].values():
            b.pop("line", None)
        if spans_out and spans_out[-1]["_same"] == json.dumps(same, sort_keys=True):
            spans_out[-1]["last"], spans_out[-1]["last_line"] = v, row["raise_line"]
            continue
        spans_out.append({"first": v, "last": v, "line": row["raise_line"], "last_line": row["raise_line"], **same,
                          "_same": json.dumps(same, sort_keys=True)})
    for s in spans_out:
        s.pop("_same")
    return {"version": 1, "releases": releases, "spans": spans_out}


HEADER = """\
# The CUDA attention selector of each release that validates its backends (0.11.1+): the
# candidates it tries per GPU major version for MLA models (`mla`) and for the others (`other`), and what each backend
# accepts (head sizes as first-last/step runs, dtypes, KV-cache dtypes, compute capabilities, MLA,
# sparse, attention sinks; null: not evaluable statically, read as "accepts"). `line`/`last_line`:
# the "No valid attention backend found" raise in vllm/platforms/cuda.py of the span's first and
# last release. `forced_mla`: the backend check_and_update_config forces for MLA models there.
# GENERATED by tools/vllm_attn_selector.py from the unpacked releases — do not edit by hand.
"""


def dump(data: dict) -> str:
    import yaml
    return HEADER + yaml.safe_dump(data, sort_keys=False, width=140, default_flow_style=None)


def main() -> None:
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from vllm_architectures import table_main
    table_main(__doc__.splitlines()[0], build, dump)


if __name__ == "__main__":
    main()
