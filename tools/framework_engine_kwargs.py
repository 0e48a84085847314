#!/usr/bin/env python3
"""Build knowledge/frameworks/engine_kwargs.yaml: per framework release, the engine arguments its
vLLM adapter passes to vLLM, read with `ast` from the released wheels (never imported).

What counts as passing an argument:
  - a keyword of a call to vLLM's `LLM`, `EngineArgs` or `AsyncEngineArgs` (by name or attribute,
    or through a local name bound to one of them: `engine_cls = AsyncEngineArgs if … else EngineArgs`);
  - a key of the mapping spread into such a call (`**engine_args`): the dict literal or `dict(…)`
    it was built from in the same function, `engine_args["k"] = …`, `.update(…)`, `.setdefault("k", …)`;
  - when the spread mapping is the enclosing function's own `**kwargs` (OpenRLHF's LLMRayActor
    forwards its keywords to `vllm.LLM`), the keywords of every call of that function or class in
    the package (`Cls(…)`, `Cls.remote(…)`, `Cls.options(…).remote(…)`), less its named parameters
    and the keys it pops;
  - a `--flag` string inside a function that also holds the string "serve" (an argv for
    `vllm serve`), as its dest (`--max-model-len` → max_model_len).

A key set under an `if` of its own (between the assignment and the call) carries that test as
`condition`; a test about vLLM itself (its version, a signature's parameters, hasattr) makes it
`guarded`: the framework passes it only to a vLLM that takes it, so it is never held against one.

A call in a module the package imports only under a test of the vLLM version (verl 0.2 … 0.4.1's
rollout package takes vllm_rollout_spmd.py only for a vLLM after 0.6.3) carries that test as the
row's `gate`, with any test of its own.

Consecutive releases whose adapter passes the same arguments from the same place share one row.
Pre-releases (dev, rc) are skipped.

Usage: python tools/framework_engine_kwargs.py --wheels DIR [-o knowledge/frameworks/engine_kwargs.yaml]
(DIR holds <dist>-<version>-*.whl as `pip download <dist>==<version> --no-deps` leaves them)
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
import zipfile
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from framework_kwargs_flow import _conditions, _dict_keys, _enclosing, _forwarded, _name, _parents, _self_kwargs, handed_in, instance_keys, returned_keys  # noqa: E402
from vllm_catalog import vkey  # noqa: E402

from vllm_kb.engine.check.framework_kwargs import gate_holds  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# the RL and fine-tuning frameworks, and the evaluation harnesses that build vLLM's engine themselves
DISTS = {"trl": "trl", "verl": "verl", "openrlhf": "openrlhf", "llamafactory": "llamafactory", "ms-swift": "ms_swift",
         "lighteval": "lighteval", "lm_eval": "lm_eval", "openllm": "openllm", "unsloth_zoo": "unsloth_zoo",
         # the serving platforms that build vLLM's engine for the user
         "xinference": "xinference"}
ENGINE = {"LLM", "EngineArgs", "AsyncEngineArgs"}
FINAL = re.compile(r"^\d+(\.\d+)*(\.post\d+)?$")
GUARD = re.compile(r"version|parameters|signature|hasattr|fields|__init__|is_vllm|vllm_ge|vllm_version|Version\(", re.I)
FLAG = re.compile(r"^--[a-z][a-z0-9]*(-[a-z0-9]+)+$|^--[a-z]{3,}$")
# TRL's entry points differ: `trl vllm-serve` (scripts/vllm_serve.py) and the colocated trainers
ENTRY = [("trl", re.compile(r"scripts/vllm_serve\.py$"), "trl vllm-serve"), ("trl", re.compile(r"."), "colocate"),
         ("openrlhf", re.compile(r"cli/batch_inference\.py$"), "batch_inference"),
         # verl's rollout server: loaded in rollout.mode async (the default from 0.7.0)
         ("verl", re.compile(r"vllm_rollout/vllm_async_server\.py$"), "async"),
         # Xinference: a language model's engine (model/llm/vllm) on every launch; an embedding or rerank
         # model's (model/<type>/vllm) only for that --model-type; bundled third-party code and tests never
         ("xinference", re.compile(r"^xinference/model/llm/"), None),
         ("xinference", re.compile(r"^xinference/model/(embedding|rerank)/"), "model_type"),
         ("xinference", re.compile(r"."), "never")]


def _engine_names(tree: ast.AST) -> tuple[set[str], set[str]]:
    """(names bound to vLLM's engine classes, names bound to the vllm module). Only what is
    imported from vLLM itself counts: verl's bundled copies (third_party/vllm/vllm_v_0_6_3/)
    build their own EngineArgs for the one release they were written for. Also local names bound
    to an engine class (`engine_cls = AsyncEngineArgs if … else EngineArgs`)."""
    names, modules = set(), set()
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom) and n.level == 0 and (n.module or "").split(".")[0] == "vllm":
            names |= {a.asname or a.name for a in n.names if a.name in ENGINE}
        elif isinstance(n, ast.Import):
            modules |= {a.asname or a.name for a in n.names if a.name == "vllm"}
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            if any(isinstance(x, ast.Name) and x.id in names for x in ast.walk(n.value)) and not isinstance(n.value, ast.Call):
                names.add(n.targets[0].id)
    return names, modules


def _filtered(fn, var: str) -> bool:
    """The function drops the keys vLLM's signature lacks before the call (unsloth_zoo from 2025.3:
    `good_keys = inspect.signature(EngineArgs).parameters` … `del engine_args[key]`)."""
    text = ast.unparse(fn)
    return "signature(" in text and (f"del {var}[" in text or f"{var}.pop(" in text)


def _is_engine_call(n: ast.Call, names: set[str], modules: set[str]) -> bool:
    f = n.func
    if isinstance(f, ast.Name):
        return f.id in names
    return isinstance(f, ast.Attribute) and f.attr in ENGINE and isinstance(f.value, ast.Name) and f.value.id in modules


def _argv_dict(fn, parents) -> dict[str, dict]:
    """The keys of a mapping the function turns into `--key value` flags (verl ≥ 0.7:
    `["serve", path] + build_cli_args_from_config(args)`, which skips None and False values): a key
    set to a literal other than None/False, or to a call (json.dumps(…)), is always passed; one set
    from the framework's config may be None, so it carries that as its condition."""
    out: dict[str, dict] = {}
    for call in ast.walk(fn):
        if not (isinstance(call, ast.Call) and "cli_args" in (_name(call.func) or "") and call.args and isinstance(call.args[0], ast.Name)):
            continue
        var = call.args[0].id
        values = {}
        for n in ast.walk(fn):
            if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == var for t in n.targets) and isinstance(n.value, ast.Dict):
                values.update({k.value: v for k, v in zip(n.value.keys, n.value.values) if isinstance(k, ast.Constant)})
        for key, info in _dict_keys(fn, var, call.lineno, call, parents).items():
            v = values.get(key)
            always = isinstance(v, ast.Call) or (isinstance(v, ast.Constant) and v.value not in (None, False))
            if not always:
                info["tests"] = list(info.get("tests") or []) + [f"{ast.unparse(v) if v is not None else key} is not None/False"]
            out[key] = info
    return out


def _entry(fid: str, path: str) -> str | None:
    for f, rx, name in ENTRY:
        if f == fid and rx.search(path):
            # "model_type": the row holds for the model type its folder names (model_type:embedding)
            return f"model_type:{path.split('/')[2]}" if name == "model_type" else name
    return None


def _call_gate(call, fn, parents) -> dict:
    """`gate` of a call the package makes only for some vLLM releases — the tests it sits under that
    are tests of the vLLM version alone (Xinference 2.1.0: `LLM(…, task="embed")` in the `else` of
    `if VLLM_VERSION >= version.parse("0.13.0")`); a test mixing the version with anything else
    leaves the call as reachable."""
    tests = [w for w in _conditions(call, fn, parents) if GUARD.search(w) and gate_holds(w, "0.1.0") is not None]
    return {"gate": _all(tests)[:200]} if tests else {}


def _all(tests: list[str]) -> str:
    """The tests joined with `and`, each parenthesised when there are several."""
    return " and ".join(f"({w})" if len(tests) > 1 else w for w in tests)


def _joined(*gates: str | None) -> dict:
    """`gate` of a call under its module's gate and its own: both must hold."""
    got = [g for g in gates if g]
    return {"gate": _all(got)} if got else {}


def _finish(kwargs: dict[str, dict]) -> dict[str, dict]:
    out = {}
    for k, info in sorted(kwargs.items()):
        when = [w for w in info.get("tests") or [] if w]
        row: dict = {"line": info["line"]}
        tests = [w for w in when if GUARD.search(w)]
        # a test of the vLLM version the audit can evaluate as the package's code does (a string
        # comparison included) is kept as the argument's `gate`; any other test about vLLM guards it
        if tests and all(gate_holds(w, "0.1.0") is not None for w in tests):
            row["gate"] = " and ".join(f"({w})" if len(tests) > 1 else w for w in tests)[:200]
            when = [w for w in when if w not in tests]
        elif tests:
            row["guarded"] = True
            when = []
        if when:
            row["condition"] = " and ".join(when)[:160]
        out[k] = row
    return out


def _imported_file(path: str, node: ast.AST) -> str | None:
    """The package file an import names (`from .vllm_rollout_spmd import …` in its folder, or
    `from verl.workers… import …`), None where it is no module of the package's own."""
    if isinstance(node, ast.ImportFrom) and node.module:
        base = "/".join(path.split("/")[:-node.level]) + "/" if node.level else ""
        return base + node.module.replace(".", "/") + ".py"
    return None


def module_gates(trees: dict[str, ast.AST]) -> dict[str, str]:
    """file → the test of the vLLM version under which the package imports it, where every import
    of it sits under the same such test: verl's rollout package picks its module by the installed
    vLLM (verl/workers/rollout/vllm_rollout/__init__.py, 0.2 … 0.4.1: the customized rollout up to
    0.6.3, vllm_rollout_spmd.py after), so the spmd module's calls never run with an older vLLM."""
    seen: dict[str, set[str | None]] = {}
    for path, tree in trees.items():
        parents = _parents(tree)
        for n in ast.walk(tree):
            if isinstance(n, ast.Import):
                for a in n.names:
                    seen.setdefault(a.name.replace(".", "/") + ".py", set()).add(None)
            target = _imported_file(path, n)
            if target is None:
                continue
            fn = _enclosing(n, parents, (ast.FunctionDef, ast.AsyncFunctionDef)) or tree
            tests = [w for w in _conditions(n, fn, parents) if GUARD.search(w) and gate_holds(w, "0.1.0") is not None]
            seen.setdefault(target, set()).add(_all(tests) or None)
    return {f: next(iter(g)) for f, g in seen.items() if len(g) == 1 and None not in g}


def calls_in(fid: str, trees: dict[str, ast.AST]) -> list[dict]:
    """Every engine call (and serve argv) in one release's package."""
    out = []
    all_parents = {path: _parents(tree) for path, tree in trees.items()}
    gates = module_gates(trees)
    for path, tree in trees.items():
        parents = all_parents[path]
        names, modules = _engine_names(tree)
        for n in ast.walk(tree):
            if isinstance(n, ast.Call) and _is_engine_call(n, names, modules):
                fn = _enclosing(n, parents, (ast.FunctionDef, ast.AsyncFunctionDef)) or tree
                kwargs = {kw.arg: {"line": kw.value.lineno} for kw in n.keywords if kw.arg}
                for kw in n.keywords:
                    if kw.arg is not None:
                        continue
                    src, var, line = fn, None, n.lineno
                    if isinstance(kw.value, ast.Name):
                        var = kw.value.id
                        for k, v in handed_in(fn, parents, var, n).items():
                            kwargs.setdefault(k, v)
                    elif isinstance(kw.value, ast.Attribute) and isinstance(kw.value.value, ast.Name) and kw.value.value.id == "self":
                        src, var = _self_kwargs(fn, parents, kw.value.attr)
                        line = 10**9
                        if var is None:  # keys set on other paths: the call's own tests go with each
                            own = _conditions(n, fn, parents)
                            for k, v in returned_keys(fn, parents, kw.value.attr).items():
                                kwargs.setdefault(k, v)
                            for k, v in instance_keys(fn, parents, kw.value.attr).items():
                                kwargs.setdefault(k, {**v, "tests": own + list(v.get("tests") or [])})
                    if var is None or src is None:
                        continue
                    got = _dict_keys(src, var, line, n, parents) if src is not tree else {}
                    if src is not tree and _filtered(src, var):  # only what vLLM's signature has reaches it
                        got = {k: {**v, "tests": list(v.get("tests") or []) + ["signature filter"]} for k, v in got.items()}
                    if isinstance(src, (ast.FunctionDef, ast.AsyncFunctionDef)) and src.args.kwarg is not None and src.args.kwarg.arg == var:
                        _forwarded(trees, all_parents, src, var, parents, got)
                    for k, v in got.items():
                        kwargs.setdefault(k, v)
                if kwargs:
                    out.append({"file": path, "line": n.lineno, "call": _name(n.func) if _name(n.func) in ENGINE else "EngineArgs",
                                "entry": _entry(fid, path), **_joined(gates.get(path), _call_gate(n, fn, parents).get("gate")),
                                "kwargs": _finish(kwargs)})
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            consts = [c for c in ast.walk(fn) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
            if not any(c.value == "serve" for c in consts) or "vllm" not in ast.unparse(fn):
                continue
            flags = {c.value[2:].replace("-", "_"): {"line": c.lineno, "tests": _conditions(c, fn, parents)}
                     for c in consts if FLAG.match(c.value)}
            flags.update({k: v for k, v in _argv_dict(fn, parents).items() if k not in flags})
            if flags:
                out.append({"file": path, "line": fn.lineno, "call": "vllm serve", "entry": _entry(fid, path), "kwargs": _finish(flags)})
    return out


def read_wheel(path: Path) -> dict[str, ast.AST]:
    trees = {}
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if not name.endswith(".py") or ".dist-info" in name:
                continue
            text = z.read(name).decode("utf-8", "replace")
            if "vllm" not in text:
                continue
            try:
                # binary wheels (OpenRLHF) keep the package under <dist>.data/purelib/
                trees[re.sub(r"^[^/]+\.data/(?:pure|plat)lib/", "", name)] = ast.parse(text)
            except SyntaxError:
                continue
    return trees


def _signature(calls: list[dict]) -> str:
    return yaml.safe_dump([{k: v for k, v in c.items() if k != "line"} | {"kwargs": sorted(c["kwargs"])} for c in calls], sort_keys=True)


def final_wheels(wheels: Path, dist: str) -> dict[str, Path]:
    """version → wheel of each final release of `dist` in the folder."""
    found = {}
    for w in wheels.glob(f"{dist}-*.whl"):
        version = w.name[len(dist) + 1:].split("-")[0]
        if FINAL.match(version):
            found[version] = w
    return found


def build(wheels: Path) -> dict:
    rows = []
    for fid, dist in DISTS.items():
        found = final_wheels(wheels, dist)
        runs: list[tuple[list[str], list[dict]]] = []
        for version in sorted(found, key=vkey):
            calls = sorted(calls_in(fid, read_wheel(found[version])), key=lambda c: (c["file"], c["line"]))
            if runs and _signature(runs[-1][1]) == _signature(calls):
                runs[-1][0].append(version)
            else:
                runs.append(([version], calls))
        for versions, calls in runs:
            rel = f"=={versions[0]}" if len(versions) == 1 else f">={versions[0]},<={versions[-1]}"
            for c in calls:
                if c["entry"] == "never":  # bundled third-party code, tests: no launch reaches it
                    continue
                rows.append({"framework": fid, "releases": rel, "call": c["call"], **({"entry": c["entry"]} if c["entry"] else {}), **({"gate": c["gate"]} if c.get("gate") else {}),
                             "source": f"{dist.replace('_', '-')}=={versions[0]} {c['file']}:{c['line']}", "kwargs": c["kwargs"]})
    return {"version": 1, "rows": rows}


HEADER = """\
# Engine arguments each framework release's vLLM adapter passes to vLLM (LLM(…), EngineArgs,
# AsyncEngineArgs, a `vllm serve` argv), read from the released wheels by
# tools/framework_engine_kwargs.py — do not edit by hand, re-run the tool. `source` names the
# first release of the row's range and the call's file:line in it; per argument: the line that
# sets it, `condition` for an `if` of its own, `guarded` when that `if` asks vLLM whether it takes it.
"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wheels", type=Path, required=True)
    ap.add_argument("-o", "--out", type=Path, default=ROOT / "knowledge" / "frameworks" / "engine_kwargs.yaml")
    args = ap.parse_args(argv)
    data = build(args.wheels)
    # a framework with no wheel in the folder keeps the rows it has (refresh one framework at a time)
    built = {r["framework"] for r in data["rows"]}
    if args.out.is_file():  # in the place its old rows held, so a refresh diffs as what changed
        old = (yaml.safe_load(args.out.read_text(encoding="utf-8")) or {}).get("rows") or []
        fresh, rows = data["rows"], []
        for r in old:
            if r["framework"] not in built:
                rows.append(r)
            elif not any(x["framework"] == r["framework"] for x in rows):
                rows += [x for x in fresh if x["framework"] == r["framework"]]
        data["rows"] = rows + [x for x in fresh if not any(y["framework"] == x["framework"] for y in old)]
    args.out.write_text(HEADER + yaml.safe_dump(data, sort_keys=False, width=140, default_flow_style=None), encoding="utf-8")
    print(f"{len(data['rows'])} rows → {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
