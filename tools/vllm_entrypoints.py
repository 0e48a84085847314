#!/usr/bin/env python3
"""Build knowledge/vllm/entrypoints.yaml: the options vLLM's demo server refuses although its OpenAI
server takes them, per release.

`python -m vllm.entrypoints.api_server` (the demo server, vllm/entrypoints/api_server.py, 0.1 …
0.24) builds its own argparse parser in its `__main__` block: a few `parser.add_argument(...)`
(--host, --port, the SSL files, later --root-path and --log-level) and then
`AsyncEngineArgs.add_cli_args(parser)` — the engine's options, never the OpenAI server's
(vllm/entrypoints/openai/cli_args.py `make_arg_parser`, in vllm/entrypoints/openai/api_server.py
before 0.4). argparse then stops the launch with "api_server.py: error: unrecognized arguments:
--api-key" for `--api-key`, `--served-model-name`, `--chat-template` … .

Per release this reads, with ast and the plain text of the sources:
  own      the demo parser's option strings (api_server.py, every `add_argument` call);
  openai   the OpenAI server's option strings: the literal `add_argument` strings of cli_args.py (or
           openai/api_server.py), and where the server's options are a dataclass (FrontendArgs,
           0.10+) its annotated fields as `--field-name`;
  engine   what AsyncEngineArgs.add_cli_args could add: the option strings and the identifiers of
           vllm/engine/arg_utils.py (its dataclass fields become `--field-name` from 0.10).
A server option is listed as refused in a release when it is not `own`, not an engine option string,
its dest is no identifier of arg_utils.py, and it abbreviates no option the demo parser has (argparse
accepts a unique prefix): every doubt keeps it off the list.

Releases before 0.4.1 are not in /work/sdists/src: unpack them the same way (PyPI sdists, *.py only)
into another folder and pass it with a second --source.

Usage:
  python tools/vllm_entrypoints.py --source /work/sdists/src [--source /tmp/old/src] -o knowledge/vllm/entrypoints.yaml
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_architectures import VERSION_DIR, sp, spans, table_main, vkey  # noqa: E402

DEMO = "vllm/entrypoints/api_server.py"
SERVERS = ("vllm/entrypoints/openai/cli_args.py", "vllm/entrypoints/openai/api_server.py")
ENGINE = "vllm/engine/arg_utils.py"
_WORD = re.compile(r"[A-Za-z_]\w*")
_FLAG = re.compile(r"""["'](--[a-z0-9][a-z0-9-]*)["']""")


def _tree(path: Path) -> ast.Module | None:
    try:
        return ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return None


def option_strings(tree: ast.AST) -> set[str]:
    """The `--long` option strings of every `….add_argument(...)` call."""
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "add_argument":
            out |= {a.value for a in n.args if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.startswith("--")}
    return out


def frontend_fields(tree: ast.AST) -> set[str]:
    """`--field-name` of each annotated field of the OpenAI server's options dataclass."""
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.ClassDef) and n.name.endswith("FrontendArgs"):
            out |= {"--" + st.target.id.replace("_", "-") for st in n.body
                    if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and not st.target.id.startswith("_")}
    return out


def scan(root: Path) -> dict | None:
    """{own, engine_adds, refused} of one release; None without the demo server."""
    demo = _tree(root / DEMO)
    if demo is None:
        return None
    server = next((t for t in (_tree(root / p) for p in SERVERS if (root / p).exists()) if t is not None and option_strings(t) | frontend_fields(t)), None)
    if server is None:
        return None
    own = option_strings(demo)
    if "add_cli_args" not in ast.unparse(demo):
        return None  # not the parser described above
    engine_text = (root / ENGINE).read_text(encoding="utf-8") if (root / ENGINE).exists() else ""
    engine_flags = set(_FLAG.findall(engine_text))
    words = set(_WORD.findall(engine_text))
    # what the demo parser may accept: its own options, the engine's option strings and each identifier
    # of arg_utils.py as a flag (a dataclass field becomes one)
    accepted = own | engine_flags | {"--" + w.replace("_", "-") for w in words}
    refused = set()
    for flag in option_strings(server) | frontend_fields(server):
        dest = flag[2:].replace("-", "_")
        if flag in accepted or dest in words:
            continue
        if any(a.startswith(flag) for a in accepted):
            continue  # an abbreviation argparse would expand
        refused.add(flag)
    return {"own": own, "refused": refused}


def build(sources: list[Path]) -> dict:
    found = {d.name: d for source in sources for d in source.iterdir() if VERSION_DIR.fullmatch(d.name) and (d / DEMO).exists()}
    dirs = sorted(found.values(), key=lambda d: vkey(d.name))
    rows = [(d.name, scan(d)) for d in dirs]
    rows = [(v, s) for v, s in rows if s is not None]
    releases = [v for v, _ in rows]
    # the first scanned release after the last demo server that has no vllm/entrypoints/api_server.py
    later = sorted((d.name for source in sources for d in source.iterdir() if VERSION_DIR.fullmatch(d.name)
                    and (d / "vllm").is_dir() and not (d / DEMO).exists() and vkey(d.name) > vkey(releases[-1])), key=vkey)

    def table(key: str) -> dict:
        names = sorted(set().union(*(s[key] for _, s in rows)))
        return {n: spans([n in s[key] for _, s in rows], releases) for n in names}
    return {"releases": releases, "removed_in": later[0] if later else None, "own": table("own"), "refused": table("refused")}


def dump(data: dict) -> str:
    lines = [
        "# The options vLLM's demo server (`python -m vllm.entrypoints.api_server`) refuses although the OpenAI",
        "# server (`python -m vllm.entrypoints.openai.api_server`, `vllm serve`) takes them, built by",
        "# tools/vllm_entrypoints.py from each release's vllm/entrypoints/api_server.py (its own add_argument",
        "# calls, then AsyncEngineArgs.add_cli_args), vllm/entrypoints/openai/cli_args.py (openai/api_server.py",
        "# before 0.4) and vllm/engine/arg_utils.py. Do not edit.",
        "#   own: the demo parser's own options → spans of scanned releases",
        "#   refused: OpenAI-server options the demo parser lacks → spans (argparse: \"unrecognized arguments\")",
        "version: 1",
        "module: vllm.entrypoints.api_server",
        f"file: {DEMO}",
        "releases: [" + ", ".join(f'"{r}"' for r in data["releases"]) + "]",
    ]
    if data["removed_in"]:
        lines.append(f'removed_in: "{data["removed_in"]}"  # the first release without {DEMO} ("No module named …")')
    for key in ("own", "refused"):
        lines.append(f"{key}:" + ("" if data[key] else " {}"))
        lines += [f'  "{n}": {sp(s)}' for n, s in data[key].items()]
    return "\n".join(lines) + "\n"


def main() -> None:
    table_main(__doc__, build, dump)


if __name__ == "__main__":
    main()
