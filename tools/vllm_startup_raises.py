#!/usr/bin/env python3
"""The refusals vLLM raises while it builds its configs from what a project states, release by release,
and which of them the knowledge already names.

For a spread of releases (/work/sdists/src/<version>) this reads with `ast` only the places where a
launch's own inputs are checked before any weight is loaded: vllm/config.py or vllm/config/*.py
(`__post_init__`, `__init__`, `verify_*`, `_verify_*`, `validate*`, `check*`, pydantic validators),
vllm/engine/arg_utils.py (`__post_init__`, `create_engine_config`, `create_*_config`,
`_is_v1_supported_oracle`, `_check_feature_supported`, `_set_default*`), vllm/platforms/cuda.py,
rocm.py, cpu.py, xpu.py and tpu.py (`check_and_update_config`, `get_attn_backend_cls`, `verify_*`),
the serve parser's validation (`validate_parsed_serve_args`), the API server's own argument checks
(`validate_api_server_args`, `setup_server`, `run_server`) and the attention selectors. Each `raise` of
ValueError, TypeError, NotImplementedError, AssertionError, KeyError or RuntimeError, each `assert … , "message"` and each
`parser.error(…)` with a message we can read is one row: its wording (f-string holes as `{}`), the
releases of the spread that hold it, the function, and the condition's inputs (the names and
`self.…` attributes of the enclosing `if` tests and of the assert). A row is covered when a check's
`error_text` or a decision-tree matcher (the wordings tools/vllm_error_texts.py collects) matches
it, holes matching any text.

Writes docs/startup-raises.md and tests/data/startup_raises.json (the rows without their `covered by`
column, so that the page can be rebuilt without the sdists). `--check` exits 1 when the committed page
differs from a fresh read; `--from-data` rebuilds it from the JSON instead of the sources, with the
`covered by` column as today's knowledge gives it (tests/test_startup_raises.py runs that: a check
that names a new wording must ship the page that shows it covered).
Run: python tools/vllm_startup_raises.py [--source /work/sdists/src] [--check] [--from-data]
"""
from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vllm_error_texts as vet  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "startup-raises.md"
DATA = ROOT / "tests" / "data" / "startup_raises.json"
SPREAD = ["0.6.6", "0.8.5", "0.10.1.1", "0.10.2", "0.11.0", "0.13.0", "0.17.1", "0.20.0", "0.25.0", "0.30.0", "0.34.0"]
EXCEPTIONS = {"ValueError", "TypeError", "NotImplementedError", "AssertionError", "KeyError", "RuntimeError"}
# the functions that run while configs are built (a config's other methods run later, per request)
CONFIG_FUNCS = re.compile(r"^(__post_init__|__init__|_?verify\w*|_?validate\w*|_?check\w*|try_verify\w*"
                          r"|get_and_verify\w*|_init_\w*|_set_\w*|from_cli\w*|create\w*|compute_hash_never)$")
PLATFORM_FUNCS = re.compile(r"^(check_and_update_config|get_attn_backend_cls|get_valid_backends|_?verify\w*|_?check\w*)$")
FILES = {
    # path glob → function-name pattern (None: every function of the file)
    "vllm/config.py": CONFIG_FUNCS,
    "vllm/config/*.py": CONFIG_FUNCS,
    "vllm/engine/arg_utils.py": re.compile(r"^(__post_init__|create_engine_config|create_\w+_config|_is_v1_supported_oracle"
                                           r"|_check_feature_supported|_set_default\w*|from_cli_args|_?verify\w*|_?validate\w*)$"),
    # each platform's own refusals (the CPU build, a ROCm, XPU or TPU image) while the configs are built
    **{f"vllm/platforms/{p}.py": PLATFORM_FUNCS for p in ("cuda", "rocm", "cpu", "xpu", "tpu")},
    "vllm/entrypoints/*/cli_args.py": re.compile(r"^(validate\w*|_?check\w*)$"),
    # the API server's own argument checks before the engine starts (tool/reasoning parser names: KeyError)
    "vllm/entrypoints/openai/api_server.py": re.compile(r"^(validate\w*|setup_server|run_server)$"),
    "vllm/entrypoints/launchers/launcher.py": re.compile(r"^(validate\w*|setup_server)$"),
    "vllm/attention/selector.py": None,
    "vllm/v1/attention/selector.py": None,
}


def _message(node: ast.AST | None, func: ast.AST) -> str | None:
    if node is None:
        return None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        node = node.func.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        node = node.left
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) \
            and any(isinstance(x, ast.Name) for x in (node.left, node.right)):
        # "Too large swap space. " + msg: the named part is said earlier in the function, and a
        # wording cut at the "+" would match no check's error_text
        parts = [_message(x, func) if isinstance(x, (ast.Name, ast.BinOp)) else vet._render(x)
                 for x in (node.left, node.right)]
        return vet.norm("".join(p if p is not None else "{}" for p in parts))
    if isinstance(node, ast.Name):  # msg = "..." earlier in the same function
        for n in ast.walk(func):
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                    and n.targets[0].id == node.id:
                s = _message(n.value, func)
                if s:
                    return s
        return None
    s = vet._render(node)
    return vet.norm(s) if s else None


def _dotted(n: ast.AST) -> str | None:
    parts = []
    while isinstance(n, ast.Attribute):
        parts.append(n.attr)
        n = n.value
    if not isinstance(n, ast.Name):
        return None
    parts.append(n.id)
    parts.reverse()
    if parts[0] in ("self", "cls", "args", "engine_args"):
        parts = parts[1:]
    return ".".join(parts) or None


_NOT_INPUTS = {"None", "True", "False", "isinstance", "len", "envs", "logger", "current_platform", "torch"}


def _inputs(tests: list[ast.AST]) -> list[str]:
    out: set[str] = set()
    for t in tests:
        inner = set()
        for n in ast.walk(t):
            if isinstance(n, ast.Attribute) and id(n) not in inner:
                d = _dotted(n)
                if d:
                    out.add(d)
                    inner.update(id(x) for x in ast.walk(n))
        for n in ast.walk(t):
            if isinstance(n, ast.Name) and id(n) not in inner and n.id not in _NOT_INPUTS and n.id not in dir(__builtins__):
                out.add(n.id)
    return sorted(x for x in out if x.split(".")[0] not in _NOT_INPUTS)


def _raises(func: ast.AST) -> list[tuple[int, str, str, list[str]]]:
    """(line, kind, wording, inputs) of each refusal in the function, with the tests of the ifs around it."""
    out = []

    def visit(n: ast.AST, tests: list[ast.AST]) -> None:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and n is not func:
            return  # a nested function runs later, if ever
        kind = msg = None
        here = tests
        if isinstance(n, ast.Raise) and n.exc is not None:
            call = n.exc
            name = call.func if isinstance(call, ast.Call) else call
            kind = name.id if isinstance(name, ast.Name) else getattr(name, "attr", None)
            if kind in EXCEPTIONS and isinstance(call, ast.Call) and call.args:
                msg = _message(call.args[0], func)
        elif isinstance(n, ast.Assert) and n.msg is not None:
            kind, msg, here = "assert", _message(n.msg, func), tests + [n.test]
        elif isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute) \
                and n.value.func.attr == "error" and "parser" in (_dotted(n.value.func.value) or "") and n.value.args:
            kind, msg = "parser.error", _message(n.value.args[0], func)
        if kind and msg and len(msg.replace("{}", "").strip()) >= 12:
            out.append((n.lineno, kind, msg, _inputs(here)))
        if isinstance(n, ast.If):
            for c in n.body:
                visit(c, tests + [n.test])
            for c in n.orelse:  # an else runs when the test fails: the same inputs decide it
                visit(c, tests + [n.test])
            return
        for c in ast.iter_child_nodes(n):
            visit(c, tests)

    visit(func, [])
    return out


def _functions(tree: ast.AST):
    def walk(n, cls):
        for c in ast.iter_child_nodes(n):
            if isinstance(c, ast.ClassDef):
                yield from walk(c, c.name)
            elif isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield cls, c
    yield from walk(tree, None)


def _validator(f: ast.AST) -> bool:
    return any("validator" in ast.unparse(d) for d in f.decorator_list)


def release_raises(src: Path) -> list[dict]:
    rows = []
    for pattern, funcs in FILES.items():
        for path in sorted(src.glob(pattern)):
            tree = ast.parse(path.read_text(errors="replace"))
            rel = str(path.relative_to(src))
            for cls, f in _functions(tree):
                if funcs is not None and not funcs.match(f.name) and not _validator(f):
                    continue
                for line, kind, msg, inputs in _raises(f):
                    rows.append({"file": rel, "line": line, "where": f"{cls + '.' if cls else ''}{f.name}",
                                 "kind": kind, "text": msg, "inputs": inputs})
    return rows


def _coverage() -> list[tuple[re.Pattern, str]]:
    out = []
    for w, claims in vet.wordings().items():
        who = sorted({c["where"].split(" error_text")[0].split(" ", 1)[-1] for c in claims})
        out.append((re.compile(vet._literal_rx(w, ".*?"), re.S), w, ", ".join(who)))
    return out


def covered_by(text: str, cov) -> str:
    hits = set()
    for rx, w, who in cov:
        if rx.search(text):
            hits.add(who)
        elif "{}" in text and len(text.replace("{}", "").strip()) >= 20 \
                and re.fullmatch(vet._literal_rx(text, ".+?"), w, re.S):
            hits.add(who)
    return "; ".join(sorted(hits))


def read(source: Path, releases: list[str]) -> list[dict]:
    """The rows of the releases' sources, one per refusal wording, without their coverage."""
    table: dict[tuple[str, str], dict] = {}
    for r in releases:
        for row in release_raises(source / r):
            key = (row["kind"], row["text"])
            e = table.setdefault(key, {**row, "releases": []})
            if r not in e["releases"]:
                e["releases"].append(r)
            e.update(file=row["file"], line=row["line"], where=row["where"], last=r,
                     inputs=sorted(set(e["inputs"]) | set(row["inputs"])))
    return sorted(table.values(), key=lambda e: (e["kind"], e["text"]))


def cover(rows: list[dict]) -> list[dict]:
    """The rows with the checks that name them today, uncovered first, the longest-lived first."""
    cov = _coverage()
    out = [{**e, "covered": covered_by(e["text"], cov)} for e in rows]
    return sorted(out, key=lambda e: (bool(e["covered"]), -len(e["releases"]), e["file"], e["text"]))


def build(source: Path, releases: list[str]) -> list[dict]:
    return cover(read(source, releases))


def data_text(rows: list[dict], releases: list[str]) -> str:
    keep = ("kind", "text", "releases", "file", "line", "where", "inputs")
    return json.dumps({"releases": releases, "rows": [{k: r[k] for k in keep} for r in rows]},
                      ensure_ascii=False, indent=0, sort_keys=True) + "\n"


def from_data(path: Path = DATA) -> str:
    """The page as the committed rows and today's knowledge give it (no sdists needed)."""
    d = json.loads(path.read_text(encoding="utf-8"))
    return render(cover(d["rows"]), d["releases"])


def _cell(s: str, n: int = 160) -> str:
    s = s.replace("|", "\\|").replace("`", "'")
    return s if len(s) <= n else s[: n - 1] + "…"


def render(rows: list[dict], releases: list[str]) -> str:
    n_cov = sum(1 for r in rows if r["covered"])
    out = [
        "# vLLM's start-up refusals and the knowledge that names them",
        "",
        "<!-- generated by tools/vllm_startup_raises.py from the unpacked sdists; edit the tool, then run it -->",
        "",
        f"Releases read: {', '.join(releases)}. Each row is one refusal wording (`{{}}` a placeholder) that vLLM raises",
        "while it builds its configs from a launch's own inputs (see the tool's docstring for the functions read). `releases`",
        "lists the releases of this spread that hold it; `where` is the file, line and function in the last of them;",
        "`inputs` the names the enclosing conditions read; `covered by` the checks whose `error_text` (or the",
        "decision-tree matchers) match it. Uncovered rows come first, the longest-lived first.",
        "",
        f"{len(rows)} wordings; {n_cov} covered, {len(rows) - n_cov} not.",
        "",
        "Rebuild from the sources (needs /work/sdists/src; also writes tests/data/startup_raises.json, the rows",
        "without their `covered by` column), or from that JSON and today's knowledge (what the tests check):",
        "",
        "<!-- doc-test: skip tool (needs the unpacked vLLM sdists) -->",
        "```bash",
        "python tools/vllm_startup_raises.py",
        "python tools/vllm_startup_raises.py --from-data --check",
        "```",
        "",
        "| raise | wording | releases | where | inputs | covered by |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        rel = r["releases"]
        span = rel[0] if len(rel) == 1 else (f"{rel[0]}–{rel[-1]}" if releases.index(rel[-1]) - releases.index(rel[0]) + 1 == len(rel)
                                             else ", ".join(rel))
        out.append(f"| {r['kind']} | {_cell(r['text'])} | {span} | `{r['file']}:{r['line']}` {r['where']} "
                   f"| {_cell(', '.join(r['inputs']), 120)} | {r['covered'] or 'none'} |")
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", type=Path, default=Path("/work/sdists/src"))
    ap.add_argument("--releases", default=",".join(SPREAD))
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--from-data", action="store_true", help=f"rebuild from {DATA.relative_to(ROOT)}, not the sources")
    a = ap.parse_args(argv)
    if a.from_data:
        text, data = from_data(), None
    else:
        releases = [r for r in a.releases.split(",") if (a.source / r / "vllm").is_dir()]
        rows = read(a.source, releases)
        text, data = render(cover(rows), releases), data_text(rows, releases)
    if a.check:
        same = OUT.is_file() and OUT.read_text(encoding="utf-8") == text
        same_data = data is None or (DATA.is_file() and DATA.read_text(encoding="utf-8") == data)
        print("docs/startup-raises.md is current" if same and same_data else "docs/startup-raises.md (or its data) differs")
        return 0 if same and same_data else 1
    OUT.write_text(text, encoding="utf-8")
    if data is not None:
        DATA.write_text(data, encoding="utf-8")
    print(f"wrote {OUT}" + (f" and {DATA}" if data is not None else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
