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
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from backend_probes import on_device  # noqa: E402
from backend_rules_eval import Cap, Klass, Raised, Unknown, World, call, probe  # noqa: E402

VERSION_DIR = re.compile(r"\d+(\.\d+)+$")
HEADS = sorted(set(range(8, 1025, 8)) | {40, 72, 80, 88, 100, 104, 112, 120, 136, 144, 160, 176, 200, 576})
DTYPES = ["float16", "bfloat16", "float32"]
KVS = ["auto", "bfloat16", "fp8", "fp8_e4m3", "fp8_e5m2", "fp8_ds_mla", "fp8_inc", "nvfp4"]
CCS = [7.0, 7.5, 8.0, 8.6, 8.7, 8.9, 9.0, 10.0, 10.3, 11.0, 12.0, 12.1]
RAISE = "No valid attention backend found for"


def vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


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


def _rule(k: Klass, method: str, values: list | None, conv=lambda v: v):
    """One rule on every GPU: the grid's answer where it does not depend on the device, else
    {compute capability: answer}, each answer kept only where a build with FlashAttention 4 and
    one without agree (None: not known there)."""
    def answer():
        return grid(k, method, values, conv) if values is not None else probe(k, method)
    per: dict[float, object] = {}
    for cc in CCS:
        major, minor = int(cc), round(cc * 10) % 10
        with on_device(major, minor, fa4=False):
            a = answer()
        with on_device(major, minor, fa4=True):
            b = answer()
        per[cc] = a if a == b else None
    firsts = list(per.values())
    return firsts[0] if all(v == firsts[0] for v in firsts) else per


def unhandled_kv(k: Klass) -> dict | None:
    """The FP8 cache dtypes a backend's own dtype helper (`get_fp8_dtype_for_flashattn` …) raises
    for: a cache the backend validates but cannot run (FlashAttention 0.11.1-0.21.x took any fp8*
    dtype on Hopper, vLLM #42587), with the helper and the line of its raise."""
    helper = next((st for b in k.mro() for st in b.node.body
                   if isinstance(st, ast.FunctionDef) and st.name.startswith("get_fp8_dtype_for_")), None)
    if helper is None:
        return None
    dtypes, line = [], None
    for kv in KVS:
        if not kv.startswith("fp8"):
            continue
        try:
            call(k, helper, [kv])
        except Raised as e:
            dtypes.append(kv)
            line = e.line
        except (Unknown, TypeError, ValueError, KeyError, AttributeError):
            return None
    return {"method": helper.name, "dtypes": dtypes, "line": line} if dtypes else None


def backend_facts(world: World, qual: str) -> dict | None:
    k = world.klass(qual)
    if k is None:
        return None
    caps = grid(k, "supports_compute_capability", CCS, lambda c: Cap(int(c), round(c * 10) % 10))

    def heads_of(got):
        return None if got is None else ("any" if got == HEADS else spans(got))
    heads = _rule(k, "supports_head_size", HEADS)
    out = {"class": qual, "file": str(k.module.path.relative_to(world.root)), "line": k.node.lineno,
           "head_sizes": {cc: heads_of(v) for cc, v in heads.items()} if isinstance(heads, dict) else heads_of(heads),
           "dtypes": _rule(k, "supports_dtype", DTYPES), "kv_dtypes": _rule(k, "supports_kv_cache_dtype", KVS),
           "cc": caps, "mla": probe(k, "is_mla"), "sparse": probe(k, "is_sparse"), "sink": _rule(k, "supports_sink", None)}
    fails = unhandled_kv(k)
    if fails:
        out["kv_unhandled"] = fails
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
    for facts in backends.values():
        facts.pop("line", None)
    return {"raise_line": line, "mla": {m: [c for c in v if c in backends] for m, v in cands[0].items()},
            "other": {m: [c for c in v if c in backends] for m, v in cands[1].items()},
            "forced_mla": forced, "reasons": reason_texts(root), "backends": backends}


def release_spans(sources: list[Path], scan, line_key: str = "line") -> tuple[list[str], list[dict]]:
    """(releases read, spans): consecutive releases whose scan() agrees but for the line of the
    raise (`line_key`) become one span with first/last and line/last_line."""
    found = {d.name: d for s in sources for d in s.iterdir() if d.is_dir() and VERSION_DIR.fullmatch(d.name)}
    releases: list[str] = []
    out: list[tuple[dict, str]] = []
    for v in sorted(found, key=vkey):
        row = scan(found[v])
        if row is None:
            continue
        releases.append(v)
        line = row.pop(line_key)
        same = json.dumps(row, sort_keys=True)
        if out and out[-1][1] == same:
            out[-1][0]["last"], out[-1][0]["last_line"] = v, line
            continue
        out.append(({"first": v, "last": v, "line": line, "last_line": line, **row}, same))
    return releases, [span for span, _ in out]


def build(sources: list[Path]) -> dict:
    releases, spans = release_spans(sources, scan, "raise_line")
    return {"version": 1, "releases": releases, "spans": spans}


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
