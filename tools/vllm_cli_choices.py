#!/usr/bin/env python3
"""Build knowledge/vllm/cli_choices.yaml: the values each release's command line (`vllm serve`,
`python -m vllm.entrypoints.openai.api_server`) lets argparse accept for a flag with `choices=`.

The command line and the engine do not always agree. Before 0.8.5 most flags listed their choices
by hand in EngineArgs.add_cli_args, and a list could lag behind the engine's own enum: 0.5.4's
`--load-format` offered auto … bitsandbytes while LoadFormat already had `sharded_state`, so
`LLM(load_format="sharded_state")` loaded and `vllm serve --load-format sharded_state` stopped
with "argument --load-format: invalid choice". The catalog (knowledge/vllm/catalog.json) keeps the
engine's allowed values; this table keeps argparse's, per release, for the launches that go
through it. It is read with the same small interpreter as the catalog
(tools/catalog_extract/flags.py: the add_argument calls that build the serve parser). A list with
an entry the interpreter could not work out is left out: a partial list would refuse good values.

Usage:
  python tools/vllm_cli_choices.py --source /work/sdists/src -o knowledge/vllm/cli_choices.yaml
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from catalog_extract.flags import cli_flags, engine_args  # noqa: E402
from catalog_extract.interp import Interp  # noqa: E402
from catalog_extract.sources import Source  # noqa: E402

VERSION_DIR = re.compile(r"\d+(\.\d+)+$")
FIRST = (0, 4, 0)  # the catalog's first release
# where a release's add_argument calls for the serve parser live
FILES = ("vllm/engine/arg_utils.py", "vllm/entrypoints/openai/cli_args.py", "vllm/entrypoints/cli/serve.py")


def vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v))


def _line(root: Path, flag: str) -> tuple[str, int] | None:
    for rel in FILES:
        f = root / rel
        if f.is_file():
            for i, text in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
                if f'"{flag}"' in text or f"'{flag}'" in text:
                    return rel, i
    return None


def scan(root: Path) -> dict[str, dict]:
    """dest → {flag, choices, file, line} of one release."""
    it = Interp(Source(root))
    flags, _, choices = cli_flags(it, engine_args(it))
    out = {}
    for flag, values in choices.items():
        if not flag.startswith("--") or flag not in flags:
            continue
        raw = [v for v in values if isinstance(v, (str, int)) and not isinstance(v, bool)]
        if not raw or len(raw) != len(values):
            continue  # a value the interpreter could not work out, or None: not a list argparse holds to
        where = _line(root, flag)
        if where is None:
            continue  # built somewhere this table does not cite
        dest = flags[flag]["dest"]
        out[dest] = {"flag": flag, "choices": list(dict.fromkeys(raw)), "file": where[0], "line": where[1]}
    return out


def build(source: Path) -> dict:
    dirs = sorted((d for d in source.iterdir() if VERSION_DIR.fullmatch(d.name) and (d / "vllm").is_dir()
                   and vkey(d.name) >= FIRST), key=lambda d: vkey(d.name))
    rows = [(d.name, scan(d)) for d in dirs]
    table: dict[str, list[dict]] = {}
    for dest in sorted({k for _, s in rows for k in s}):
        spans: list[dict] = []
        for i, (v, s) in enumerate(rows):
            got = s.get(dest)
            last = spans[-1] if spans else None
            if got and last and last["to"] == rows[i - 1][0] and last["choices"] == got["choices"] and last["flag"] == got["flag"]:
                last["to"] = v
            elif got:
                spans.append({"from": v, "to": v, "flag": got["flag"], "choices": got["choices"],
                              "source": {"release": v, "file": got["file"], "line": got["line"]}})
        table[dest] = spans
    return {"releases": [v for v, _ in rows], "args": table}


def dump(data: dict) -> str:
    lines = [
        "# The values argparse accepts for a `vllm serve` / api_server flag with `choices=`, per release",
        "# (tools/vllm_cli_choices.py; do not edit by hand). A value outside the list stops the launch with",
        "# \"argument --flag: invalid choice\", even where the engine (LLM(), EngineArgs) takes it.",
        "# Each span: from/to (releases, inclusive), the flag, its choices, and where the list is written.",
        "version: 1",
        "releases: " + json.dumps(data["releases"]),
        "args:" + ("" if data["args"] else " {}"),
    ]
    for dest, spans in data["args"].items():
        lines.append(f"  {dest}:")
        for s in spans:
            src = s["source"]
            lines.append(f'    - {{from: "{s["from"]}", to: "{s["to"]}", flag: "{s["flag"]}", choices: {json.dumps(s["choices"])}, '
                         f'source: {{release: "{src["release"]}", file: "{src["file"]}", line: {src["line"]}}}}}')
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", type=Path, required=True)
    ap.add_argument("-o", "--out", type=Path, required=True)
    a = ap.parse_args()
    a.out.write_text(dump(build(a.source)), encoding="utf-8")


if __name__ == "__main__":
    main()
