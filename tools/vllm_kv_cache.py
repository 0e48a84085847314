#!/usr/bin/env python3
"""Build knowledge/vllm/kv_cache.yaml: per vLLM release, GPU generation and model kind (MLA or
not), whether the attention backend vLLM picks *by itself* refuses an FP8 KV cache, with the line
that raises and a fix that works in that release. Read from the unpacked releases:

* the refusals in each backend's `__init__` (`raise NotImplementedError("<X> with FP8 KV cache not
  yet supported")`, FlexAttention's "does not support quantized kv-cache"), V0 and V1;
* from 0.11.1, the selector's candidates (the backends `_get_backend_priorities` names for MLA and
  for other models in vllm/platforms/cuda.py), each backend's `supported_kv_cache_dtypes` and
  `supports_compute_capability` (a `return` of `True`, `capability >= DeviceCapability(a, b)`
  [`and capability <= ...`], `capability.major == n` / `in [...]`; anything else counts as "runs",
  so an unread rule never makes a refusal): no candidate that takes the dtype on that GPU →
  "No valid attention backend found"; only Triton left and e4m3 below sm89 → Triton's fp8e4nv;
* before 0.11.1 the selector is code, not data: early_outcome says what it does, and every text
  it uses must be found in that release or the release gets no row. No row: no known refusal.
Run: python tools/vllm_kv_cache.py --source /work/sdists/src [--check]
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

import yaml

OUT = Path(__file__).resolve().parent.parent / "knowledge" / "vllm" / "kv_cache.yaml"
GPUS = [7.0, 7.5, 8.0, 8.6, 8.9, 9.0, 10.0, 12.0]
KVS = ["fp8", "fp8_e4m3", "fp8_e5m2"]
E4M3 = {"fp8", "fp8_e4m3"}
V1ENV = ["unset", "1"]
VERSION_DIR = re.compile(r"\d+(\.\d+)+$")
V1B, V0B = "vllm/v1/attention/backends", "vllm/attention/backends"


def vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def find(root: Path, rel: str, needle: str) -> int | None:
    """The line of `rel` where `needle` starts (an implicit string concatenation joined)."""
    f = root / rel
    if not f.is_file():
        return None
    lines = f.read_text(errors="replace").splitlines()
    hit = next((i + 1 for i, line in enumerate(lines) if needle in line), None)
    for i in range(len(lines) - 1) if hit is None else ():
        if needle in re.sub(r"[\"']\s*$", "", lines[i]) + re.sub(r"^\s*[f]?[\"']", "", lines[i + 1]):
            return i + 1
    return hit


def refusal(root: Path, rel: str) -> tuple[str, int] | None:
    """The FP8 KV refusal raised in a backend module: (text, line)."""
    f = root / rel
    if not f.is_file():
        return None
    try:
        tree = ast.parse(f.read_text(errors="replace"))
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
            a = node.exc.args[0]
            if isinstance(a, ast.Constant) and isinstance(a.value, str) and (
                    "FP8 KV cache not yet supported" in a.value or "does not support quantized kv-cache" in a.value):
                return a.value, a.lineno
    return None


# --- 0.11.1+: candidates and what each backend takes -----------------------------------------

def _cc_rule(fn: ast.FunctionDef):
    rets = [r for r in ast.walk(fn) if isinstance(r, ast.Return)]
    if len(rets) != 1:
        return None
    e = rets[0].value

    def cap(n):
        if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "DeviceCapability" and len(n.args) == 2:
            return n.args[0].value + n.args[1].value / 10
        return None

    def one(n):
        if isinstance(n, ast.Constant) and n.value is True:
            return lambda c: True
        if isinstance(n, ast.Compare) and len(n.ops) == 1:
            left, op, right = n.left, n.ops[0], n.comparators[0]
            if isinstance(left, ast.Attribute) and left.attr == "major":
                vals = [x.value for x in right.elts] if isinstance(right, (ast.List, ast.Tuple, ast.Set)) else [getattr(right, "value", None)]
                if isinstance(op, ast.Eq):
                    return lambda c: int(c) == vals[0]
                if isinstance(op, ast.In):
                    return lambda c: int(c) in vals
            b = cap(right)
            if b is not None and isinstance(op, ast.GtE):
                return lambda c: c >= b
            if b is not None and isinstance(op, ast.LtE):
                return lambda c: c <= b
        if isinstance(n, ast.BoolOp) and isinstance(n.op, ast.And):
            parts = [one(x) for x in n.values]
            if all(parts):
                return lambda c: all(p(c) for p in parts)
        return None
    return one(e)


OTHER_PLATFORMS = re.compile(r"rocm|aiter|xpu|cpu|tpu|hpu|pallas|ipex")


def _kv_rule(fn: ast.FunctionDef):
    """A `supports_kv_cache_dtype` override as a function of the dtype (True/False, or "fa": what
    flash_attn_supports_fp8() says — FA3, Hopper); "unread" for anything else."""
    arg = fn.args.args[-1].arg

    def val(e, kv):
        if isinstance(e, ast.Constant):
            return e.value
        if isinstance(e, ast.Compare) and len(e.ops) == 1 and getattr(e.left, "id", "") == arg:
            if isinstance(e.ops[0], ast.Is):
                return False
            if isinstance(e.ops[0], ast.In) and isinstance(e.comparators[0], (ast.List, ast.Tuple)):
                return kv in [x.value for x in e.comparators[0].elts]
        if isinstance(e, ast.Call):
            f = e.func
            if isinstance(f, ast.Attribute) and f.attr == "startswith" and getattr(f.value, "id", "") == arg:
                return kv.startswith(e.args[0].value)
            name = getattr(f, "id", "")
            if name == "is_quantized_kv_cache":
                return kv.startswith("fp8")
            if name == "flash_attn_supports_fp8":
                return "fa"
        raise ValueError

    def run(body, kv):
        for st in body:
            if isinstance(st, ast.Return):
                return val(st.value, kv)
            if isinstance(st, ast.If):
                if val(st.test, kv):
                    return run(st.body, kv)
                if st.orelse:
                    return run(st.orelse, kv)
                continue
            if isinstance(st, ast.Expr):
                continue
            raise ValueError
        raise ValueError
    try:
        return {k: run(fn.body, k) for k in KVS}
    except (ValueError, AttributeError, IndexError):
        return "unread"


def backends(root: Path) -> dict[str, dict]:
    """get_name() → {kv: [dtypes] | {dtype: verdict} | "unread", cc: rule | "unread" | None, file}."""
    out: dict[str, dict] = {}
    base_kv: list[str] | None = ["auto"]
    for f in sorted((root / V1B).rglob("*.py")) + sorted((root / "vllm/attention/backends").rglob("abstract.py")):
        if OTHER_PLATFORMS.search(f.name):
            continue
        tree = ast.parse(f.read_text(errors="replace"))
        for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
            name, kv, cc = None, None, None
            for s in cls.body:
                if isinstance(s, (ast.AnnAssign, ast.Assign)):
                    t = s.target if isinstance(s, ast.AnnAssign) else s.targets[0]
                    if getattr(t, "id", "") == "supported_kv_cache_dtypes" and isinstance(s.value, ast.List):
                        kv = [e.value for e in s.value.elts if isinstance(e, ast.Constant)]
                if isinstance(s, ast.FunctionDef):
                    if s.name == "get_name":
                        r = [x for x in ast.walk(s) if isinstance(x, ast.Return)]
                        if r and isinstance(r[0].value, ast.Constant):
                            name = r[0].value.value
                    elif s.name == "supports_compute_capability":
                        cc = _cc_rule(s) or "unread"
                    elif s.name == "supports_kv_cache_dtype":
                        kv = _kv_rule(s)
            if cls.name == "AttentionBackend" and kv is not None:
                base_kv = kv
            if name and (name not in out or out[name]["common"]):  # a shared base class takes a default's name
                out[name] = {"kv": kv, "cc": cc, "file": str(f.relative_to(root)), "common": "Common" in cls.name}
    return {n: {**b, "kv": base_kv if b["kv"] is None else b["kv"]} for n, b in out.items()}


def candidates(root: Path) -> dict[bool, list[str]] | None:
    f = root / "vllm/platforms/cuda.py"
    tree = ast.parse(f.read_text(errors="replace"))
    fn = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_get_backend_priorities"), None)
    if fn is None:
        return None
    top = next(s for s in fn.body if isinstance(s, ast.If) and "use_mla" in ast.unparse(s.test))

    def names(nodes):
        return sorted({n.attr for s in nodes for n in ast.walk(s) if isinstance(n, ast.Attribute)
                       and getattr(n.value, "id", "") in ("AttentionBackendEnum", "_Backend") and "SPARSE" not in n.attr})
    return {True: names(top.body), False: names(top.orelse)}


def no_valid_line(root: Path) -> int | None:
    return find(root, "vllm/platforms/cuda.py", "No valid attention backend found for")


def selector_outcome(root: Path, bk: dict, cand: dict, mla: bool, cc: float, kv: str):
    def takes(b):
        if b not in bk:
            return True
        x = bk[b]
        if x["cc"] not in (None, "unread") and not x["cc"](cc):
            return False
        if isinstance(x["kv"], dict):
            got = x["kv"][kv]
            return int(cc) == 9 if got == "fa" else bool(got)
        return x["kv"] == "unread" or kv in x["kv"]
    ok = [b for b in cand[mla] if takes(b)]
    if not ok:
        line = no_valid_line(root)
        return line and ("(selector)", "No valid attention backend found for cuda with {config}. Reasons: {reasons}.",
                         "vllm/platforms/cuda.py", line, "auto")
    if not mla and set(ok) <= {"TRITON_ATTN", "FLEX_ATTENTION"} and "TRITON_ATTN" in ok and kv in E4M3 and cc < 8.9:
        if find(root, "vllm/v1/attention/backends/triton_attn.py", "native FP8 (fp8e4nv)"):
            return None  # 0.24+: Triton's own guard (L8's rule for it)
        return ("TRITON_ATTN", "type fp8e4nv not supported in this architecture. The supported fp8 dtypes are ('fp8e4b15', 'fp8e5')",
                bk["TRITON_ATTN"]["file"], find(root, bk["TRITON_ATTN"]["file"], "supported_kv_cache_dtypes") or 1, "auto")
    return None


# --- before 0.11.1: the selector as code -----------------------------------------------------

def _v1_line(root: Path):
    return find(root, "vllm/engine/arg_utils.py", "VLLM_USE_V1=1 is not supported with")


def early_outcome(root: Path, v: tuple, mla: bool, cc: float, kv: str, env: str, forced: bool = False):
    """0.8.0–0.11.0. V1's oracle (EngineArgs._is_v1_supported_oracle, from 0.10.0 through
    CudaPlatform.is_kv_cache_dtype_supported) keeps an FP8 KV cache on V1 only with FlashAttention 3
    on Hopper (0.8.2+), also on Blackwell (0.10.x), and for MLA models assuming FlashMLA (0.10.2+);
    else it falls back to V0 — or raises with VLLM_USE_V1=1 — until V0 is gone (0.11.0)."""
    v1only = v >= (0, 11, 0)
    if forced and v >= (0, 10, 2):
        return None  # the oracle asks the forced backend itself: not read here
    if v < (0, 8, 2):
        on_v1 = False
    elif v < (0, 10, 2):
        # a VLLM_ATTENTION_BACKEND other than FLASH_ATTN_VLLM_V1 means "not FlashAttention"
        on_v1 = (int(cc) == 9 and not forced) or (v >= (0, 10, 0) and cc == 10.0)
    else:
        on_v1 = mla or int(cc) == 9 or cc == 10.0
    if forced and (on_v1 or env != "1"):
        return None  # the forced backend decides: L13 and L8's other rules
    if not on_v1 and not v1only:
        if env == "1":
            line = _v1_line(root)
            fix = "auto" if mla else "unset_v1"
            return line and ("V1 engine", "VLLM_USE_V1=1 is not supported with {feature_name}.", "vllm/engine/arg_utils.py", line, fix)
        if not mla:
            return None  # V0 runs an FP8 cache with its paged-attention kernels
        rel = f"{V0B}/flashmla.py" if int(cc) == 9 else f"{V0B}/triton_mla.py"
        r = refusal(root, rel)
        return r and ("FLASHMLA" if "flashmla" in rel else "TRITON_MLA", r[0], rel, r[1], "auto")
    if mla:
        if v < (0, 10, 2):
            # every V1 MLA backend of these releases refuses
            mods = [p for p in (root / V1B / "mla").glob("*.py") if p.name not in ("common.py", "__init__.py")
                    and "sparse" not in p.name and not OTHER_PLATFORMS.search(p.name)]
            if not mods or not all(refusal(root, str(p.relative_to(root))) for p in mods):
                return None
            rel = f"{V1B}/mla/flashmla.py" if int(cc) == 9 else f"{V1B}/mla/triton_mla.py"
        else:
            if int(cc) in (9, 10):
                return None  # FlashMLA / CUTLASS MLA take it (Blackwell's block-size choice left unread)
            rel = f"{V1B}/mla/triton_mla.py"
        r = refusal(root, rel)
        return r and ("FLASHMLA" if "flashmla" in rel else "TRITON_MLA", r[0], rel, r[1], "auto")
    if v1only and v < (0, 11, 1):
        if cc < 8.0:
            rel = f"{V1B}/flex_attention.py"
            r = refusal(root, rel)
            return r and ("FLEX_ATTENTION", r[0], rel, r[1], "auto")
        if int(cc) != 9 and cc != 10.0 and kv in E4M3 and cc < 8.9:
            line = find(root, "vllm/platforms/cuda.py", "use_fp8_kv_cache) and not cls.is_device_capability(90)")
            return line and ("TRITON_ATTN", "type fp8e4nv not supported in this architecture. The supported fp8 dtypes are ('fp8e4b15', 'fp8e5')",
                             "vllm/platforms/cuda.py", line, "auto")
    return None


def release_table(root: Path, ver: str) -> dict:
    v = vkey(ver)
    out = {}
    if v < (0, 8, 0):
        return out
    bk = cand = None
    if v >= (0, 11, 1):
        bk, cand = backends(root), candidates(root)
        if cand is None:
            return out
    for mla in (True, False):
        for cc in GPUS:
            for kv in KVS:
                for env in V1ENV:
                    for forced in (False, True):
                        if bk:
                            got = None if forced else selector_outcome(root, bk, cand, mla, cc, kv)
                        else:
                            got = early_outcome(root, v, mla, cc, kv, env, forced)
                        if got:
                            out[(mla, cc, kv, env, forced)] = got
    return out


def _entries(cells: set) -> frozenset:
    """(cc, kv, env) cells → rows' (kvs, env, ccs): the same GPUs for both VLLM_USE_V1 states is
    `any`; dtypes with the same GPUs share a row."""
    per: dict[tuple, frozenset] = {}
    for kv in KVS:
        by_env = {e: frozenset(c for c, k, ee in cells if k == kv and ee == e) for e in V1ENV}
        if by_env["unset"] == by_env["1"]:
            if by_env["1"]:
                per[(kv, "any")] = by_env["1"]
        else:
            per.update({(kv, e): ccs for e, ccs in by_env.items() if ccs})
    merged: dict[tuple, list] = {}
    for (kv, env), ccs in per.items():
        merged.setdefault((env, ccs), []).append(kv)
    return frozenset((tuple(kvs), env, ccs) for (env, ccs), kvs in merged.items())


def build(src: Path) -> dict:
    releases = sorted((p.name for p in src.iterdir() if VERSION_DIR.match(p.name)), key=vkey)
    per = {r: release_table(src / r, r) for r in releases}
    groups: dict[tuple, dict] = {}
    for r in releases:
        cells: dict[tuple, set] = {}
        for (mla, cc, kv, env, forced), (backend, text, file, line, fix) in per[r].items():
            cells.setdefault((mla, backend, text, fix, forced), set()).add((cc, kv, env))
            groups.setdefault((mla, backend, text, fix, forced), {}).setdefault(r, {})["line"] = (file, line)
        for key, cs in cells.items():
            for e in _entries(cs):
                groups[key][r].setdefault("entries", set()).add(e)
    rows = []
    for key, g in groups.items():
        entries = {e for r in g for e in g[r]["entries"]}
        for e in entries:
            run: list[str] = []
            for r in releases + [None]:
                if r in g and e in g[r]["entries"]:
                    run.append(r)
                    continue
                if run:
                    rows.append(_row(key, e, run, g, releases))
                    run = []
    rows.sort(key=lambda x: (vkey(x["first"]), not x["mla"], x["backend"], x["kv"]))
    for x in rows:
        del x["first"]
    return {"version": 1, "releases": [releases[0], releases[-1]], "gpus": GPUS, "rows": rows}


def _row(key, entry, run, g, releases):
    mla, backend, text, fix, forced = key
    kvs, env, ccs = entry
    nxt = releases.index(run[-1]) + 1
    spec = f">={run[0]}" + (f",<{releases[nxt]}" if nxt < len(releases) else "")
    src = [{"release": r, "file": g[r]["line"][0], "line": g[r]["line"][1]} for r in dict.fromkeys([run[0], run[-1]])]
    return {"first": run[0], "vllm": spec, "mla": mla, "backend": backend, "cc": sorted(ccs), "kv": list(kvs),
            "v1_env": env, "backend_env": "set" if forced else "unset", "text": text, "fix": fix, "source": src}


HEADER = """# Whether the attention backend vLLM picks by itself refuses an FP8 KV cache, per release, GPU
# compute capability (cc) and model kind (mla: DeepSeek-style latent attention): `text` is what vLLM
# raises, `source` the line in the first and last release of the row, `fix` the --kv-cache-dtype that
# works there (auto: drop it) or unset_v1 (drop VLLM_USE_V1=1; V0 runs the cache). `v1_env`: the row
# holds with VLLM_USE_V1 unset, set to 1, or either; `backend_env`: with VLLM_ATTENTION_BACKEND (other
# than FLASH_ATTN_VLLM_V1) set or not — a forced backend is otherwise judged by L13. Read by engine/check/startup_kv.py for L8.
# GENERATED by tools/vllm_kv_cache.py from the unpacked releases — do not edit by hand.
"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", type=Path, default=Path("/work/sdists/src"))
    ap.add_argument("--check", action="store_true", help="exit 1 when the committed table differs")
    a = ap.parse_args(argv)
    data = build(a.source)
    text = HEADER + yaml.safe_dump(data, sort_keys=False, width=200, allow_unicode=True)
    if a.check:
        same = OUT.is_file() and yaml.safe_load(OUT.read_text()) == yaml.safe_load(text)
        print("kv_cache.yaml is current" if same else "kv_cache.yaml differs from the sources")
        return 0 if same else 1
    OUT.write_text(text)
    print(f"wrote {OUT} ({len(data['rows'])} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
