"""The command-line options a shell script gives a project Python file that builds vLLM from its own
argparse options: `python -m openrlhf.cli.batch_inference --tp_size 4 --max_num_seqs 64
--enable_prefix_caching` runs a module whose `LLM(tensor_parallel_size=args.tp_size, …)` the Python
scanner reads at the options' defaults (`default of --tp_size`). Each command that runs a project
file (`python x.py …`, `python -m pkg.mod …`, `torchrun …/accelerate launch …/deepspeed … x.py …`) is
noted while the scripts are walked (`note`); after the whole tree is read, a site's setting written
as `NS.dest` whose `dest` one of the file's own `add_argument` calls declares takes the value the
commands give (`carry`): argparse's rules for the option (exact or unique-prefix long option,
`--opt=v`, store_true/store_false, the option's `type`). Commands that disagree, or a value the
option's `type` cannot convert, make it unknown; an option no command gives keeps its default.
ZetangForward/MyRLHF train_iterative_dpo_llama.sh (eval75)."""
from __future__ import annotations

import ast
import re
from pathlib import PurePosixPath

from vllm_kb.engine.scan.cli_args import coerce
from vllm_kb.engine.scan.context import parse_python
from vllm_kb.engine.scan.launchers import _PYTHON

KEY = "flags:"  # ctx.entry_env holds these records under KEY + the launched file (merged across processes)
_LAUNCHERS = {"torchrun": ("--nproc_per_node", "--nproc-per-node", "--nnodes", "--master_port", "--master-port",
                           "--master_addr", "--master-addr", "--node_rank", "--node-rank", "--rdzv_endpoint",
                           "--rdzv-endpoint", "--rdzv_backend", "--rdzv-backend", "--rdzv_id", "--rdzv-id"),
              "deepspeed": ("--num_gpus", "--num-gpus", "--num_nodes", "--num-nodes", "--master_port",
                            "--master-port", "--hostfile", "--include", "--exclude", "--master_addr")}
_TYPES = {"int": int, "float": float, "str": str}
# `args.tp`, and as a subprocess argv writes it: `str(args.tp)`, `f"{args.tp}"`
_REF = re.compile(r"""^\s*(?:(?:str|int|float)\(\s*|f(?P<q>["'])\{)?([A-Za-z_]\w*)\.([A-Za-z_]\w*)(?:\s*\)|\}(?P=q))?\s*$""")


def _launched(vals: list) -> tuple[str, str, int] | None:
    """("py", path, first argument) or ("m", module, first argument) of a command that runs Python."""
    if not vals or vals[0] is None:
        return None
    base = vals[0].rsplit("/", 1)[-1]
    k = 1
    if base == "accelerate":
        if len(vals) < 2 or vals[1] != "launch":
            return None
        k = 2
    elif base not in _LAUNCHERS and not _PYTHON.match(base):
        return None
    takes = _LAUNCHERS.get(base, ())
    while k < len(vals):
        v = vals[k]
        if v is None:
            return None  # an unknown word before the script: it may be the script, or take it
        if v == "-m" and _PYTHON.match(base):
            return ("m", vals[k + 1], k + 2) if k + 1 < len(vals) and vals[k + 1] else None
        if not v.startswith("-"):
            return ("py", v, k + 1) if v.endswith(".py") else None
        if v in takes or (base == "accelerate" and "=" not in v and k + 1 < len(vals)
                          and not (vals[k + 1] or "-").startswith("-")):
            k += 2  # a launcher's option and its value
            continue
        k += 1
    return None


def note(ctx, rel: str, words: list, start: int, line: int) -> None:
    """Record the options the command at `rel:line` (its program at word `start`) gives the project
    Python file it runs."""
    vals = [w.value for w in words[start:]]
    got = _launched(vals)
    if got is None:
        return
    kind, name, first = got
    if kind == "m":
        from vllm_kb.engine.scan.hydra_entry import module_file

        target = module_file(ctx, rel, name)
    else:
        target = ctx.resolve_ref(rel, name.lstrip("/") if name.startswith("/") else name)
    if target is None:
        return
    args = [(w.value, w.raw, w.line) for w in words[start + first:]]
    ctx.entry_env.setdefault(KEY + target, []).append({"file": rel, "line": line, "args": args})


def options(tree: ast.Module) -> dict[str, dict]:
    """The file's `add_argument` calls: each long option → {dest, action, type, nargs}."""
    out: dict[str, dict] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument"):
            continue
        flags = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if not flags or not all(f.startswith("-") for f in flags):
            continue
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        long = [f for f in flags if f.startswith("--")]
        d, a = kw.get("dest"), kw.get("action")
        dest = d.value if isinstance(d, ast.Constant) else (long[0] if long else flags[0]).lstrip("-").replace("-", "_")
        action = a.value if isinstance(a, ast.Constant) else None
        t = kw.get("type")
        typ = _TYPES.get(t.id) if isinstance(t, ast.Name) else (str if t is None else None)
        nargs = "nargs" in kw
        for f in flags:
            out[f] = {"dest": dest, "action": action, "type": typ, "nargs": nargs}
    return out


def given(args: list[tuple], opts: dict[str, dict]) -> dict[str, tuple]:
    """dest → ("value", v, raw, line) or ("unknown", why) for the options a command line gives, by
    argparse's rules (the last one given wins)."""
    out: dict[str, tuple] = {}
    longs = [f for f in opts if f.startswith("--")]
    k = 0
    while k < len(args):
        val, raw, line = args[k]
        k += 1
        if val is None or not val.startswith("-") or val == "-":
            continue
        flag, eq, inline = val.partition("=")
        opt = opts.get(flag)
        if opt is None and flag.startswith("--"):
            hits = {opts[f]["dest"] for f in longs if f.startswith(flag)}
            opt = next(opts[f] for f in longs if f.startswith(flag)) if len(hits) == 1 else None
        if opt is None:
            continue
        dest, action = opt["dest"], opt["action"]
        if action in ("store_true", "store_false"):
            out[dest] = ("value", action == "store_true", val, line)
            continue
        if action not in (None, "store") or opt["nargs"]:
            out[dest] = ("unknown", f"{flag} is read with action={action}" if action else f"{flag} takes several values")
            continue
        if eq:
            text, shown = inline, val
        elif k < len(args):
            text, shown, line = args[k][0], args[k][1], args[k][2]
            k += 1
        else:
            continue  # argparse stops: "expected one argument"
        if text is None:
            out[dest] = ("unknown", f"{flag} {shown}")
            continue
        if opt["type"] is None:
            out[dest] = ("unknown", f"{flag} {text} is converted by the script's own type")
            continue
        try:
            out[dest] = ("value", opt["type"](text), f"{flag} {shown}", line)
        except ValueError:
            out[dest] = ("unknown", f"{flag} {text} is no {opt['type'].__name__}")
    return out


def carry(sites: list, ctx) -> None:
    """Give each site of a launched Python file the option values its launching commands pass, for
    the settings it reads from the file's own argparse namespace."""
    for site in sites:
        runs = ctx.entry_env.get(KEY + site.file)
        if not runs or not site.file.endswith(".py") or not site.syntax.startswith("python"):
            continue
        text = ctx.read(site.file)
        try:
            tree = parse_python(text or "", site.file)
        except (SyntaxError, ValueError):
            continue
        opts = options(tree)
        if not opts:
            continue
        dests = {o["dest"] for o in opts.values()}
        each = [given(r["args"], opts) for r in runs]
        named = [s for s in list(site.settings.values()) + ([site.model] if site.model is not None else [])]
        for s in named:
            m = _REF.match(s.raw or "")
            if s.file != site.file or m is None or m.group(2) in ("self", "cls") or m.group(3) not in dests:
                continue
            _apply(s, m.group(3), each, runs)
            if s.syntax == "python-argv" and isinstance(s.value, str) and (e := ctx.catalog.arg(s.name)) is not None:
                s.value = coerce(s.value, e.field("type", e.last) or "str")  # a word of the argv: vLLM's parser types it


def _apply(s, dest: str, each: list[dict], runs: list[dict]) -> None:
    outcomes = {repr(g.get(dest, ("default",))[:2]) for g in each}
    where = ", ".join(f"{r['file']}:{r['line']}" for r in runs[:3])
    if len(outcomes) > 1:
        s.value, s.resolved = None, False
        s.note = f"the commands at {where} give `{dest}` different values"
        return
    got = each[0].get(dest)
    if got is None:
        return  # no command gives it: the option's default, as read
    if got[0] == "unknown":
        s.value, s.resolved, s.note = None, False, f"{got[1]} at {runs[0]['file']}:{runs[0]['line']}"
        return
    s.value, s.resolved = got[1], True
    s.note = f"{got[2]} at {runs[0]['file']}:{got[3] or runs[0]['line']}, which runs {PurePosixPath(s.file).name}"
