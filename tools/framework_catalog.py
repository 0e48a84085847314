#!/usr/bin/env python3
"""Build knowledge/frameworks/catalog.json: which vLLM-facing keys each RL / fine-tuning
framework release has, and their defaults, read from the released wheels with `ast` (and PyYAML
for verl's Hydra configs). Never imports the frameworks.

  TRL           dataclass fields of trl/trainer/*_config.py (GRPOConfig, RLOOConfig, …) and of
                trl/scripts/vllm_serve.py (`serve.` + field: the `trl vllm-serve` flags)
  LLaMA-Factory dataclass fields of llamafactory/hparams/*.py (llmtuner/ for its first release)
  ms-swift      dataclass fields of swift/**/*arg*.py
  OpenRLHF      add_argument flags of openrlhf/cli/train_ppo_ray.py (`--vllm.num_engines` → vllm.num_engines)
  verl          the rollout config: actor_rollout_ref.* of verl/trainer/config/_generated_ppo_trainer.yaml
                (the resolved config, 0.6+), rollout/rollout.yaml (0.5+, under actor_rollout_ref.rollout.)
                and ppo_trainer.yaml.

Per release also a few features the knowledge states: TRL's `trl vllm-serve` exec'ing `vllm serve`
(serve.execs_vllm: trl/scripts/vllm_serve.py calls os.execve on vllm.entrypoints.cli.main) and
the flags it always adds (serve.adds_weight_transfer_config).

Only keys that concern vLLM are kept: those knowledge/frameworks/<id>.yaml names (key or alias)
and any whose name contains `vllm`. Pre-releases (rc, dev) are skipped.

Usage:
  python tools/framework_catalog.py --wheels DIR [-o knowledge/frameworks/catalog.json]
  (DIR holds <dist>-<version>-*.whl as `pip download <dist>==<version> --no-deps` leaves them)
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_catalog import merge  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DISTS = {"trl": ("trl",), "llamafactory": ("llamafactory", "llmtuner"), "ms-swift": ("ms_swift",),
         "openrlhf": ("openrlhf",), "verl": ("verl",)}
FINAL = re.compile(r"^\d+(\.\d+)*(\.post\d+)?$")


def _literal(node):
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return None


def _field_default(value):
    """A dataclass field's default: `= x`, `field(default=x)`, `field(default_factory=list)`."""
    if value is None:
        return None
    if isinstance(value, ast.Call) and ast.unparse(value.func).endswith("field"):
        kw = {k.arg: k.value for k in value.keywords}
        if "default" in kw:
            return _literal(kw["default"])
        fac = kw.get("default_factory")
        if fac is not None:
            text = ast.unparse(fac)
            return [] if text == "list" else {} if text == "dict" else None
        return None
    return _literal(value)


# ms-swift keeps same-named fields with other meanings in its web UI, app, export and eval
# argument classes (port 7860 for the web UI): only the classes that reach vLLM count.
SKIP_CLASSES = re.compile(r"Webui|WebUI|App|Export|Eval|Sampling|Merge|Pt|Sft|Train(?!er)")


def _tree(text: str) -> ast.Module:
    try:
        return ast.parse(text)
    except SyntaxError:
        return ast.Module(body=[], type_ignores=[])


def dataclass_fields(text: str) -> dict[str, object]:
    out = {}
    for cls in ast.walk(_tree(text)):
        if not isinstance(cls, ast.ClassDef) or SKIP_CLASSES.search(cls.name):
            continue
        for st in cls.body:
            if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
                out.setdefault(st.target.id, _field_default(st.value))
    return out


def argparse_flags(text: str) -> dict[str, object]:
    out = {}
    for node in ast.walk(_tree(text)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
            names = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.startswith("--")]
            if not names:
                continue
            kw = {k.arg: k.value for k in node.keywords}
            action = _literal(kw["action"]) if "action" in kw else None
            default = _literal(kw["default"]) if "default" in kw else (False if action == "store_true" else None)
            out.setdefault(names[0][2:], default)
    return out


def _flatten(data, prefix: str, out: dict) -> None:
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(k, str) and not k.startswith("_"):
                _flatten(v, f"{prefix}{k}.", out) if isinstance(v, dict) else out.setdefault(f"{prefix}{k}", v)


def verl_keys(z: zipfile.ZipFile) -> dict[str, object]:
    out: dict[str, object] = {}
    names = set(z.namelist())
    for path, prefix in (("verl/trainer/config/_generated_ppo_trainer.yaml", ""),
                         ("verl/trainer/config/rollout/rollout.yaml", "actor_rollout_ref.rollout."),
                         ("verl/trainer/config/ppo_trainer.yaml", "")):
        if path in names:
            try:
                data = yaml.safe_load(z.read(path).decode("utf-8", "replace")) or {}
            except yaml.YAMLError:
                continue
            flat: dict[str, object] = {}
            _flatten(data, prefix, flat)
            for k, v in flat.items():
                if k.startswith("actor_rollout_ref.") and not (isinstance(v, str) and v.startswith("${")):
                    out.setdefault(k, v)
    # 0.6+: RolloutConfig's own fields are keys too, set with `+actor_rollout_ref.rollout.X=…`
    if "verl/workers/config/rollout.py" in names:
        for k, v in _class_fields(z.read("verl/workers/config/rollout.py").decode("utf-8", "replace"), "RolloutConfig").items():
            out.setdefault(f"actor_rollout_ref.rollout.{k}", v)
    return out


def _class_fields(text: str, name: str) -> dict[str, object]:
    for cls in ast.walk(_tree(text)):
        if isinstance(cls, ast.ClassDef) and cls.name == name:
            return {st.target.id: _field_default(st.value) for st in cls.body
                    if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and not st.target.id.startswith("_")}
    return {}


def features(fid: str, whl: Path) -> dict[str, object]:
    if fid != "trl":
        return {}
    with zipfile.ZipFile(whl) as z:
        if "trl/scripts/vllm_serve.py" not in z.namelist():
            return {}
        text = z.read("trl/scripts/vllm_serve.py").decode("utf-8", "replace")
    return {"serve.execs_vllm": {"value": "os.execve" in text and "vllm.entrypoints.cli.main" in text},
            "serve.adds_weight_transfer_config": {"value": "--weight-transfer-config" in text}}


def wheel_keys(fid: str, whl: Path) -> dict[str, object]:
    with zipfile.ZipFile(whl) as z:
        if fid == "verl":
            return verl_keys(z)
        out: dict[str, object] = {}
        for member in sorted(z.namelist()):
            if not member.endswith(".py"):
                continue
            name = re.sub(r"^[^/]+\.data/purelib/", "", member)  # compiled wheels keep sources there
            if fid == "trl" and re.fullmatch(r"trl/trainer/\w+_config\.py", name):
                out.update({k: v for k, v in dataclass_fields(z.read(member).decode("utf-8", "replace")).items() if k not in out})
            elif fid == "trl" and name == "trl/scripts/vllm_serve.py":
                for k, v in dataclass_fields(z.read(member).decode("utf-8", "replace")).items():
                    out.setdefault(f"serve.{k}", v)
            elif fid == "llamafactory" and re.fullmatch(r"(llamafactory|llmtuner)/hparams/\w+\.py", name):
                out.update({k: v for k, v in dataclass_fields(z.read(member).decode("utf-8", "replace")).items() if k not in out})
            elif fid == "ms-swift" and name.startswith("swift/") and "/megatron/" not in name and re.search(r"arg", name.rsplit("/", 1)[-1]):
                out.update({k: v for k, v in dataclass_fields(z.read(member).decode("utf-8", "replace")).items() if k not in out})
            elif fid == "openrlhf" and name == "openrlhf/cli/train_ppo_ray.py":
                out.update(argparse_flags(z.read(member).decode("utf-8", "replace")))
        return out


def wanted(fid: str) -> set[str]:
    doc = yaml.safe_load((ROOT / "knowledge" / "frameworks" / f"{fid}.yaml").read_text())
    names = set()
    for k in doc.get("keys", []):
        names.add(k["key"])
        names.update(k.get("aliases", []))
    names.update(f"serve.{a}" for a in (doc.get("serve") or {}).get("args", []))
    return names


def build(wheels: Path) -> dict:
    out = {"format": 1, "frameworks": {}}
    for fid, dists in DISTS.items():
        keep = wanted(fid)
        snaps = {}
        for whl in sorted(wheels.glob("*.whl")):
            m = re.match(r"^([A-Za-z0-9_]+)-([^-]+)-", whl.name)
            if not m or m.group(1) not in dists or not FINAL.match(m.group(2)):
                continue
            keys = wheel_keys(fid, whl)
            snaps[m.group(2)] = {"keys": {k: {"default": _jsonable(v)} for k, v in keys.items() if k in keep or "vllm" in k.lower()},
                                 "features": features(fid, whl)}
        if not snaps:
            continue
        merged = merge(snaps, sections=("keys", "features"))
        out["frameworks"][fid] = {"releases": merged["versions"], "keys": merged.get("keys", {}),
                                  "features": merged.get("features", {})}
    return out


def _jsonable(v):
    try:
        json.dumps(v)
        return v
    except TypeError:
        return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wheels", type=Path, required=True)
    ap.add_argument("-o", "--output", type=Path, default=ROOT / "knowledge" / "frameworks" / "catalog.json")
    ns = ap.parse_args(argv)
    cat = build(ns.wheels)
    ns.output.write_text(json.dumps(cat, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n")
    print(f"{ns.output}: " + ", ".join(f"{f} {len(d['releases'])} releases / {len(d['keys'])} keys" for f, d in cat["frameworks"].items()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
