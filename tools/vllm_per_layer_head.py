"""Writes knowledge/vllm/transformers_per_layer.yaml: which vLLM releases read a model's head_dim as one
global value while they build the ModelConfig, and from which transformers release a model type's
config makes head_dim a per-layer attribute, whose global access raises
AmbiguousGlobalPerLayerAttributeError (a RuntimeError, so getattr's default does not catch it).
Read from the sources, never imported.

vLLM side, from each release's sdist (vllm/transformers_utils/model_arch_config_convertor.py, the
ModelArchConfigConvertor of 0.19.0+ that ModelConfig runs for every launch):
- `global_head_dim`: the releases whose convertor reads `head_dim` from hf_text_config in
  get_head_size (the base class's attribute read, or a model's own `getattr(..., "head_dim", 0)`)
  and never asks the config whether it is heterogeneous (`is_heterogeneous`: 0.28.0 builds the
  per-layer configs instead); `global_head_dim_at`: the read in the newest such release, and
  `per_layer_at`: the first release after it that asks.
- Releases without the convertor module are not judged (they also require transformers<5 or
  predate the model types below).

transformers side, from the wheels (transformers/models/<type>/configuration_<type>.py):
- `per_layer_head_dim`: the model types declared in a configuration module that builds
  `per_layer_config` with a `head_dim` override (Gemma 4's global_head_dim turned into per-layer
  head_dim, transformers 5.15.0), the first wheel read that does, when every later wheel read does too.

    python tools/vllm_per_layer_head.py SRC_DIR WHEEL_DIR          # SRC_DIR/<release>/vllm/...
    python tools/vllm_per_layer_head.py --check SRC_DIR WHEEL_DIR
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_gguf import write_or_check  # noqa: E402
from vllm_transformers_backend import _spans  # noqa: E402  (runs of releases with a flag set)

OUT = Path(__file__).resolve().parents[1] / "knowledge" / "vllm" / "transformers_per_layer.yaml"
_WHEEL = re.compile(r"transformers-(\d+\.\d+\.\d+)-py3-none-any\.whl$")
_RELEASE = re.compile(r"^\d+\.\d+\.\d+(\.\d+|\.post\d+)?$")
_CONVERTOR = "vllm/transformers_utils/model_arch_config_convertor.py"
# a configuration module that turns a layer's head_dim into a per-layer override
_OVERRIDE = re.compile(r"\w*overrides?\w*\s*(?::[^=\n]+)?=\s*\{\s*[\"']head_dim[\"']")
_MODEL_TYPE = re.compile(r"^\s+model_type\s*=\s*[\"'](\w+)[\"']", re.M)


def _key(v: str) -> tuple:
    return tuple(int(x) for x in re.findall(r"\d+", v))


def _reads_head_dim(fn: ast.FunctionDef) -> int | None:
    """The line where a get_head_size reads head_dim from self.hf_text_config (attribute or getattr)."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Attribute) and node.attr == "head_dim" and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "hf_text_config":
            return node.lineno
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" and len(node.args) >= 2 \
                and isinstance(node.args[0], ast.Attribute) and node.args[0].attr == "hf_text_config" \
                and isinstance(node.args[1], ast.Constant) and node.args[1].value == "head_dim":
            return node.lineno
    return None


def read_release(root: Path) -> dict | None:
    """{"global": line or None, "heterogeneous": line or None} for one release; None without the module."""
    path = root / _CONVERTOR
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8", errors="replace")
    tree = ast.parse(text)
    first_read = None
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "get_head_size"):
            line = _reads_head_dim(fn)
            # the Gemma 4 class's own read comes last in the file: the one a Gemma 4 launch runs
            if line is not None and (first_read is None or "Gemma4" in cls.name):
                first_read = line
    het = next((i for i, ln in enumerate(text.splitlines(), 1) if "is_heterogeneous" in ln), None)
    return {"global": first_read, "heterogeneous": het}


def read_wheel(path: Path) -> set[str]:
    """The model types whose configuration module makes head_dim a per-layer override."""
    out: set[str] = set()
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if not re.fullmatch(r"transformers/models/\w+/configuration_\w+\.py", name):
                continue
            text = z.read(name).decode("utf-8", "replace")
            if "per_layer_config" in text and _OVERRIDE.search(text):
                out |= set(_MODEL_TYPE.findall(text))
    return out


def build(src: Path, wheels: Path) -> str:
    releases = sorted((p.name for p in src.iterdir() if _RELEASE.match(p.name) and (p / "vllm").is_dir()), key=_key)
    read = {r: read_release(src / r) for r in releases}
    judged = [r for r in releases if read[r] is not None]
    flags = [(r, read[r]["global"] is not None and read[r]["heterogeneous"] is None) for r in judged]
    spans = _spans(flags)
    last = spans[-1][1] if spans else None
    after = next((r for r in judged if last and _key(r) > _key(last) and read[r]["heterogeneous"] is not None), None)
    files = sorted((p for p in wheels.iterdir() if _WHEEL.search(p.name)), key=lambda p: _key(_WHEEL.search(p.name).group(1)))
    scanned = [_WHEEL.search(p.name).group(1) for p in files]
    per_wheel = [read_wheel(p) for p in files]
    first: dict[str, str] = {}
    for t in sorted(set().union(*per_wheel)) if per_wheel else []:
        has = [t in w for w in per_wheel]
        i = has.index(True)
        if all(has[i:]):  # a type that later stops being per-layer names no floor
            first[t] = scanned[i]
    lines = [
        "# Which vLLM releases read a model's head_dim as one global value while they build the ModelConfig",
        "# (model_arch_config_convertor.py get_head_size, no is_heterogeneous), and from which transformers",
        "# release a model type's config makes head_dim a per-layer attribute, whose global access raises",
        "# AmbiguousGlobalPerLayerAttributeError (a RuntimeError: getattr's default does not catch it).",
        "# GENERATED by tools/vllm_per_layer_head.py from vLLM's sdists and the transformers wheels. Do not edit by hand.",
        "version: 1",
        "vllm_scanned: [" + ", ".join(f'"{r}"' for r in judged) + "]",
        "global_head_dim: [" + ", ".join(f'["{a}", "{b}"]' for a, b in spans) + "]",
    ]
    if last:
        lines.append(f'global_head_dim_at: {{release: "{last}", file: {_CONVERTOR}, line: {read[last]["global"]}}}')
    if after:
        lines.append(f'per_layer_at: {{release: "{after}", file: {_CONVERTOR}, line: {read[after]["heterogeneous"]}}}')
    lines.append("transformers_scanned: [" + ", ".join(f'"{v}"' for v in scanned) + "]")
    lines.append("per_layer_head_dim:")
    lines += [f'  {t}: "{v}"' for t, v in sorted(first.items())]
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed table instead of writing it")
    ap.add_argument("src", type=Path)
    ap.add_argument("wheels", type=Path)
    a = ap.parse_args()
    return write_or_check(OUT, build(a.src, a.wheels), a.check, "tools/vllm_per_layer_head.py")


if __name__ == "__main__":
    sys.exit(main())
