#!/usr/bin/env python3
"""knowledge/frameworks/swift_model_types.json: the model each ms-swift 2.x `--model_type` names.

ms-swift 2.0 … 2.6 name a model by a registry key (`swift infer --model_type qwen2-7b-instruct`),
resolved by swift/llm/utils/model.py: `class ModelType` holds the keys (`qwen2_7b_instruct =
'qwen2-7b-instruct'`) and `register_model(ModelType.qwen2_7b_instruct, 'qwen/Qwen2-7B-Instruct', …,
hf_model_id='Qwen/Qwen2-7B-Instruct')` the ModelScope id and the Hugging Face id. 3.0 replaced the
key by `--model <id>` (a 3.x `--model_type` is an architecture family such as `qwen2_5`, which no 2.x
key spells). Read with `ast` from each 2.x release tag of an ms-swift git clone; never imports it.
Each key keeps the ids of the newest release that registers it and the releases that have it.

Usage: python tools/swift_model_types.py --repo /path/to/ms-swift [-o knowledge/frameworks/swift_model_types.json]
"""
from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PATH = "swift/llm/utils/model.py"
TAG = re.compile(r"^v(2\.\d+\.\d+(?:\.post\d+)?)$")


def _key(v: str) -> tuple:
    return tuple(int(p) if p.isdigit() else -1 for p in re.split(r"[.]|post", v) if p)


def parse(text: str) -> dict[str, dict]:
    """model_type → {hf, ms} for one release's model.py."""
    tree = ast.parse(text)
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "ModelType":
            for item in node.body:
                if (isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name)
                        and isinstance(item.value, ast.Constant) and isinstance(item.value.value, str)):
                    names[item.targets[0].id] = item.value.value
    out: dict[str, dict] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "register_model"):
            continue
        if len(node.args) < 2:
            continue
        first, second = node.args[0], node.args[1]
        if isinstance(first, ast.Attribute) and isinstance(first.value, ast.Name) and first.value.id == "ModelType":
            mtype = names.get(first.attr)
        elif isinstance(first, ast.Constant) and isinstance(first.value, str):
            mtype = first.value
        else:
            continue
        ms = second.value if isinstance(second, ast.Constant) and isinstance(second.value, str) else None
        hf = next((k.value.value for k in node.keywords if k.arg == "hf_model_id"
                   and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)), None)
        if mtype and (ms or hf):
            out[mtype] = {"hf": hf, "ms": ms}
    return out


def releases(repo: Path) -> list[tuple[str, str]]:
    tags = subprocess.run(["git", "-C", str(repo), "tag"], capture_output=True, text=True, check=True).stdout.split()
    found = [(m.group(1), t) for t in tags if (m := TAG.match(t))]
    return sorted(found, key=lambda x: _key(x[0]))


def build(repo: Path) -> dict:
    table: dict[str, dict] = {}
    seen: list[str] = []
    for version, tag in releases(repo):
        show = subprocess.run(["git", "-C", str(repo), "show", f"{tag}:{PATH}"], capture_output=True, text=True)
        if show.returncode != 0:
            continue
        seen.append(version)
        for mtype, ids in parse(show.stdout).items():
            row = table.setdefault(mtype, {"first": version})
            row.update(ids)  # the newest release's ids
            row["last"] = version
    return {
        "format": 1,
        "source": f"ms-swift {seen[0]} … {seen[-1]} {PATH} (ModelType, register_model), read by tools/swift_model_types.py",
        "releases": seen,
        "model_types": {k: table[k] for k in sorted(table)},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", required=True, type=Path, help="an ms-swift git clone with its v2.* tags")
    ap.add_argument("-o", "--output", type=Path, default=ROOT / "knowledge" / "frameworks" / "swift_model_types.json")
    args = ap.parse_args(argv)
    data = build(args.repo)
    if not data["releases"]:
        print("no ms-swift 2.x release found", file=sys.stderr)
        return 1
    args.output.write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n", encoding="utf-8")
    print(f"{len(data['model_types'])} model types from {len(data['releases'])} releases → {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
