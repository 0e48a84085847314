#!/usr/bin/env python3
"""Build knowledge/frameworks/accepted_args.json: per framework release and per parser (the
command or config class that reads the keys), the vLLM-facing keys its argument parser accepts —
read from the released wheels with `ast` (PyYAML for verl's Hydra config), never importing them.

A key a release's parser does not accept stops the launch before vLLM starts:
  ms-swift      HfArgumentParser over the command's argument dataclass (with its bases):
                `ValueError: remaining_argv: [...]` (swift/llm/argument/base_args, parse_args)
  TRL           HfArgumentParser / the config dataclass: `ValueError: Some specified arguments are not
                used by the HfArgumentParser: [...]`, or `TypeError: GRPOConfig.__init__() got an
                unexpected keyword argument '...'`
  LLaMA-Factory HfArgumentParser over all hparams dataclasses: the same HfArgumentParser error
  OpenRLHF      argparse of openrlhf/cli/train_ppo_ray.py: `error: unrecognized arguments: ...`
  verl          Hydra's struct config (actor_rollout_ref.rollout.* of the trainer's YAML): `Could not
                override '...'. ... Key '...' is not in struct` (a key without the `+` prefix)

Parsers: ms-swift commands (infer, deploy, rollout, rlhf, sft, app, eval: the root argument
class of each, fields of its bases included); TRL config classes (GRPOConfig, …) and `vllm-serve`
(trl/scripts/vllm_serve.py ScriptArguments); LLaMA-Factory `*`; OpenRLHF `train_ppo_ray`; verl
`train`. Kept: keys whose name holds `vllm`, the keys knowledge/frameworks/<id>.yaml names, and
every `trl vllm-serve` / verl rollout key. Pre-releases are skipped. Spans are [first, last] over
the releases read (`releases`), inclusive.

Usage:
  python tools/framework_args.py --wheels DIR [-o knowledge/frameworks/accepted_args.json]
"""
from __future__ import annotations

import argparse
import ast
import json
import re
import sys
import zipfile
from pathlib import Path

import yaml
from packaging.version import Version

sys.path.insert(0, str(Path(__file__).resolve().parent))
from framework_catalog import DISTS, FINAL, wanted  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SWIFT_ROOTS = {"infer": ("InferArguments",), "deploy": ("DeployArguments",), "rollout": ("RolloutArguments",),
               "rlhf": ("RLHFArguments",), "sft": ("TrainArguments", "SftArguments"), "app": ("AppArguments",),
               "eval": ("EvalArguments",)}


def _tree(text: str) -> ast.Module:
    try:
        return ast.parse(text)
    except SyntaxError:
        return ast.Module(body=[], type_ignores=[])


def classes(texts: list[str]) -> dict[str, list[tuple[list[str], set[str]]]]:
    """Every class: name → [(base names, own annotated fields)] (a name defined twice keeps both)."""
    out: dict[str, list[tuple[list[str], set[str]]]] = {}
    for text in texts:
        for node in ast.walk(_tree(text)):
            if not isinstance(node, ast.ClassDef):
                continue
            bases = [ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases]
            fields = {st.target.id for st in node.body if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name)
                      and not st.target.id.startswith("_")}
            out.setdefault(node.name, []).append((bases, fields))
    return out


def fields_of(name: str, table: dict, seen: set[str] | None = None) -> set[str] | None:
    """The fields of a class with those of its bases (the ones defined in the same package)."""
    seen = seen if seen is not None else set()
    if name not in table or name in seen:
        return None
    seen.add(name)
    out: set[str] = set()
    for bases, own in table[name]:
        out |= own
        for b in bases:
            out |= fields_of(b, table, seen) or set()
    return out


def option_names(text: str) -> set[str]:
    """Every `--name` an argparse parser adds (aliases included), without the dashes."""
    out = set()
    for node in ast.walk(_tree(text)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
            out |= {a.value[2:] for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.startswith("--")}
    return out


def _sources(z: zipfile.ZipFile, pattern: str) -> dict[str, str]:
    out = {}
    for member in z.namelist():
        name = re.sub(r"^[^/]+\.data/purelib/", "", member)
        if member.endswith(".py") and re.fullmatch(pattern, name):
            out[name] = z.read(member).decode("utf-8", "replace")
    return out


def _verl_keys(z: zipfile.ZipFile) -> set[str]:
    names = set(z.namelist())
    out: set[str] = set()
    for path, prefix in (("verl/trainer/config/_generated_ppo_trainer.yaml", ""),
                         ("verl/trainer/config/rollout/rollout.yaml", "actor_rollout_ref.rollout."),
                         ("verl/trainer/config/ppo_trainer.yaml", "")):
        if path not in names:
            continue
        try:
            data = yaml.safe_load(z.read(path).decode("utf-8", "replace")) or {}
        except yaml.YAMLError:
            continue
        stack = [(data, prefix)]
        while stack:
            node, pre = stack.pop()
            if isinstance(node, dict):
                for k, v in node.items():
                    if isinstance(k, str) and not k.startswith("_"):
                        out.add(f"{pre}{k}")
                        if isinstance(v, dict):
                            stack.append((v, f"{pre}{k}."))
    return {k for k in out if k.startswith("actor_rollout_ref.rollout.")}


def parsers(fid: str, whl: Path) -> dict[str, set[str]]:
    """parser → the keys it accepts, in one wheel."""
    with zipfile.ZipFile(whl) as z:
        if fid == "verl":
            return {"train": _verl_keys(z)}
        if fid == "openrlhf":
            src = _sources(z, r"openrlhf/cli/train_ppo_ray\.py")
            return {"train_ppo_ray": option_names(next(iter(src.values())))} if src else {}
        if fid == "llamafactory":
            table = classes(list(_sources(z, r"(llamafactory|llmtuner)/hparams/\w+\.py").values()))
            return {"*": {f for entries in table.values() for _, own in entries for f in own}}
        if fid == "trl":
            out = {}
            table = classes(list(_sources(z, r"trl/trainer/\w+_config\.py").values()))
            for name in table:
                if name.endswith("Config") and (got := fields_of(name, table)) and any("vllm" in f for f in got):
                    out[name] = got
            serve = classes(list(_sources(z, r"trl/scripts/vllm_serve\.py").values()))
            if "ScriptArguments" in serve:
                out["vllm-serve"] = fields_of("ScriptArguments", serve) or set()
            return out
        # ms-swift
        table = classes([t for n, t in _sources(z, r"swift/.+\.py").items() if "/megatron/" not in n])
        out = {}
        for command, roots in SWIFT_ROOTS.items():
            got = next((f for r in roots if (f := fields_of(r, table)) is not None), None)
            if got is not None:
                out[command] = got
        return out


def _keep(fid: str, parser: str, key: str, named: set[str]) -> bool:
    return "vllm" in key.lower() or key in named or (fid == "trl" and parser == "vllm-serve") or fid == "verl"


def build(wheels: Path) -> dict:
    out: dict = {"format": 1, "frameworks": {}}
    for fid, dists in DISTS.items():
        named = {n for n in wanted(fid) if not n.startswith("serve.")}
        snaps: dict[str, dict[str, set[str]]] = {}
        for whl in sorted(wheels.glob("*.whl")):
            m = re.match(r"^([A-Za-z0-9_]+)-([^-]+)-", whl.name)
            if not m or m.group(1) not in dists or not FINAL.match(m.group(2)):
                continue
            snaps[m.group(2)] = {p: {k for k in keys if _keep(fid, p, k, named)} for p, keys in parsers(fid, whl).items()}
        order = sorted(snaps, key=Version)
        table: dict[str, dict[str, list[list[str]]]] = {}
        for parser in sorted({p for s in snaps.values() for p in s}):
            keys = sorted({k for s in snaps.values() for k in s.get(parser, ())})
            spans: dict[str, list[list[str]]] = {}
            for key in keys:
                runs: list[list[str]] = []
                prev = False
                for v in order:
                    has = key in snaps[v].get(parser, ())
                    if has and not prev:
                        runs.append([v, v])
                    elif has:
                        runs[-1][1] = v
                    prev = has
                spans[key] = runs
            table[parser] = {"releases": [v for v in order if parser in snaps[v]], "keys": spans}
        out["frameworks"][fid] = {"parsers": table}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wheels", type=Path, required=True)
    ap.add_argument("-o", "--output", type=Path, default=ROOT / "knowledge" / "frameworks" / "accepted_args.json")
    a = ap.parse_args(argv)
    data = build(a.wheels)
    a.output.write_text(json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
