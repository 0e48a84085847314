"""Checkpoints that store fused projections (Phi-3's `qkv_proj` and `gate_up_proj` are one weight
each on disk) under the BitsAndBytes loader of releases that match weights by a fixed list of
module names (tools/vllm_bnb_support.py builds the table; this module holds the reading).

Up to 0.6.4 the loader picks the weights to quantize by substring against a list — the model
class's `default_bitsandbytes_target_modules` (0.6.3+) or the loader's own `default_target_modules`
— and then renames every quantized weight through the class's
`bitsandbytes_stacked_params_mapping` (`shard_name in name` → the fused name). A fused weight on
disk then fails one of two ways: no target names it, so it keeps `.weight` while the layer holds
`qweight` (KeyError: '…gate_up_proj.weight', vllm#9937 on 0.6.3.post1), or a target inside its
name (`up_proj` in `gate_up_proj`) quantizes it and the mapping renames it to a parameter that does
not exist (`gate_gate_up_proj`: "Parameter … not found in the model."). 0.6.5 derives the targets
from the model's own linear layers (`_get_bnb_target_modules`) and Phi-3 maps nothing.

Which weights a checkpoint stores fused is read from the classes themselves: a
`packed_modules_mapping` entry that maps a name to itself (`"gate_up_proj": ["gate_up_proj"]`),
in any release — the architecture's checkpoint does not change with the release that reads it."""
from __future__ import annotations

import ast
from pathlib import Path

TARGETS_FROM_MODEL = "_get_bnb_target_modules"
_LOADER_CLASS = "BitsAndBytesModelLoader"


def _literal(node: ast.AST | None):
    try:
        return ast.literal_eval(node) if node is not None else None
    except (ValueError, SyntaxError, TypeError):
        return None


def class_value(index: dict, find, bases, module: str, cls: str, attr: str, seen: set | None = None):
    """The literal a class (or the first base on the way) assigns to `attr` in its body; None
    where none does or the value is not a literal."""
    seen = set() if seen is None else seen
    found = find(index, module, cls)
    if found is None or found[0] + "." + cls in seen:
        return None
    module, node = found
    seen.add(module + "." + cls)
    for st in node.body:
        if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == attr for t in st.targets):
            return _literal(st.value)
        if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.target.id == attr:
            return _literal(st.value)
    for b in bases(node):
        got = class_value(index, find, bases, module, b, attr, seen)
        if got is not None:
            return got
    return None


def fused_on_disk(index: dict, find, bases, module: str, cls: str) -> set[str]:
    """The names the class's packed_modules_mapping maps to themselves: weights stored fused."""
    mapping = class_value(index, find, bases, module, cls, "packed_modules_mapping")
    if not isinstance(mapping, dict):
        return set()
    return {k for k, v in mapping.items() if isinstance(k, str) and isinstance(v, (list, tuple)) and list(v) == [k]}


def loader_targets(root: Path, loaders: tuple[str, ...]) -> list[str] | None:
    """The loader's own fixed target list, for a release whose loader matches by name; None where
    the loader derives the targets from the model (or has no such list)."""
    for rel in loaders:
        f = root / rel
        if not f.exists():
            continue
        text = f.read_text(encoding="utf-8")
        if _LOADER_CLASS not in text or TARGETS_FROM_MODEL in text:
            continue
        tree = ast.parse(text)
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == _LOADER_CLASS:
                for st in node.body:
                    if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "default_target_modules" for t in st.targets):
                        got = _literal(st.value)
                        return [str(x) for x in got] if isinstance(got, list) else None
    return None


def breaks(fused: set[str], targets: list[str], stacked: dict | None) -> bool:
    """Whether a fused weight of the checkpoint fails the name-matching loader (see the module doc)."""
    for name in sorted(fused):
        weight = f"model.layers.0.block.{name}.weight"
        if not any(t in weight for t in targets):
            return True  # left as `.weight`; the bnb layer holds `qweight`
        quant = weight.replace(".weight", ".qweight")
        for shard, target in (stacked or {}).items():
            if isinstance(shard, str) and shard in quant:
                packed = target[0] if isinstance(target, (list, tuple)) and target else None
                if not isinstance(packed, str) or quant.replace(shard, packed) != quant:
                    return True  # renamed to a parameter the model does not have
                break
    return False
