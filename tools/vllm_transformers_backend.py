"""Writes knowledge/vllm/transformers_backend.yaml: what vLLM's Transformers-backend fallback (the
class an architecture vLLM does not implement runs as, 0.7.2+) can run, per vLLM release, and which
transformers model types it cannot, read from the sources (never imported).

vLLM side, from each release's sdist (vllm/model_executor/models/transformers.py, from 0.12.0 the
transformers/ package, and models/registry.py):
- `fallback`: the releases with the backend; `classes`: when each wrapper class is registered
  (TransformersForCausalLM; the MoE and multimodal variants from 0.11.1);
- `compat_gate`: the registry asks the transformers class `is_backend_compatible()`
  (`_supports_attention_backend`) and returns no class when it says no;
- `gate_attention_backend`: the gate is the class's `_supports_attention_backend` alone (0.8.3-0.29.0;
  0.7.2-0.8.2 read `_supports_flex_attn` unless the class has `supports_backend`, 0.30.0+ also take a
  class whose module uses the attention interface, `_can_set_attn_implementation()`);
- `one_head_size`: the backend builds every decoder layer's Attention from one whole-model head size
  (`model_config.get_head_size()`); from 0.28.0 each layer's own geometry
  (`model_arch_config[i]`), so a model whose layers differ in head size fits only from there;
- `layer_refusal`: the release raises for a layer that does not go through transformers' attention
  interface (a linear-attention / state-space mixer), with the file, line and words;
- `mm_features_passthrough`: the multimodal wrapper (TransformersForMultimodalLM, 0.10.0+) hands on
  what the transformers model's `get_image_features` returns unchanged unless it is a tensor; from
  0.15.0 it takes the first item of a tuple (`isinstance(vision_embeddings, tuple)`). A pair there
  is not one embedding per image, and the engine's check of the dummy image's embeddings
  (`sanity_check_mm_encoder_outputs`) stops the memory profiling.

transformers side, from the wheels (transformers/models/<type>/):
- `linear_layers`: model types whose modeling module defines a non-attention token mixer
  (linear attention, gated delta net, Mamba mixer, short convolution), the first wheel that has it;
- `mixed_head_dim`: model types whose configuration declares a second head size for some layers
  (`global_head_dim`), the first wheel that has it;
- `mm_tuple_features`: model types whose base model's `get_image_features` returns a tuple on every
  path (Qwen3-VL's image embeddings and deepstack features, 4.57.0), the first wheel that has it
  (the 5.x wheels return an output object instead; vLLM 0.12.0-0.14.1 require transformers<5);
- `no_attention_backend`: model types with a causal-LM or conditional-generation class whose module
  never sets `_supports_attention_backend = True` in any wheel read (so is_backend_compatible() says
  no), the first wheel that has the type.

    python tools/vllm_transformers_backend.py SRC_DIR WHEEL_DIR          # SRC_DIR/<release>/vllm/...
    python tools/vllm_transformers_backend.py --check SRC_DIR WHEEL_DIR
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
import zipfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "knowledge" / "vllm" / "transformers_backend.yaml"
_WHEEL = re.compile(r"transformers-(\d+\.\d+\.\d+)-py3-none-any\.whl$")
_RELEASE = re.compile(r"^\d+\.\d+\.\d+(\.\d+|\.post\d+)?$")
_WRAPPERS = ("TransformersForCausalLM", "TransformersMoEForCausalLM", "TransformersMultiModalForCausalLM",
             "TransformersMultiModalMoEForCausalLM")
_REFUSAL = "does not dispatch through the Transformers"
# a token mixer that is not attention: the class names transformers gives them
# the class attribute is_backend_compatible() returns; a generative class; the module's own base
# class straight from PreTrainedModel (one imported from another model's module may carry the flag)
_BACKEND_FLAG = re.compile(r"_supports_attention_backend\s*=\s*True")
_GENERATIVE = re.compile(r"^class \w+(?:ForCausalLM|ForConditionalGeneration)\(", re.M)
_OWN_BASE = re.compile(r"^class \w+PreTrainedModel\(PreTrainedModel\)", re.M)
_MIXER = re.compile(r"^class (\w*(?:LinearAttention|GatedDeltaNet|DeltaNet|MambaMixer|Mamba2Mixer|ShortConv)\w*)\(",
                    re.M)


def _key(v: str) -> tuple:
    return tuple(int(x) if x.isdigit() else -1 for x in re.split(r"\.post|\.", v))


def _spans(flags: list[tuple[str, bool]]) -> list[list[str]]:
    out: list[list[str]] = []
    prev = False
    for v, on in flags:
        if on and prev:
            out[-1][1] = v
        elif on:
            out.append([v, v])
        prev = on
    return out


def _backend(root: Path) -> list[Path]:
    models = root / "vllm" / "model_executor" / "models"
    pkg = models / "transformers"
    if pkg.is_dir():
        return sorted(pkg.rglob("*.py"))
    return [models / "transformers.py"] if (models / "transformers.py").is_file() else []


def vllm_side(src: Path) -> dict:
    rows = []
    for d in sorted((p for p in src.iterdir() if _RELEASE.match(p.name)), key=lambda p: _key(p.name)):
        files = _backend(d)
        if not files:
            rows.append((d.name, None))
            continue
        text = {f: f.read_text(encoding="utf-8") for f in files}
        reg = (d / "vllm" / "model_executor" / "models" / "registry.py").read_text(encoding="utf-8")
        loader = d / "vllm" / "model_executor" / "model_loader" / "utils.py"
        gate_text = reg + (loader.read_text(encoding="utf-8") if loader.is_file() else "")
        joined = "\n".join(text.values())
        refusal = None
        for f, t in text.items():
            for n, line in enumerate(t.splitlines(), 1):
                if _REFUSAL in line:
                    refusal = {"file": str(f.relative_to(d)), "line": n - 1}  # the raise is the line above
        rows.append((d.name, {
            "classes": {c for c in _WRAPPERS if f'"{c}"' in reg},
            "gate": "is_backend_compatible()" in gate_text,
            # 0.7.2-0.8.2 ask `_supports_flex_attn` unless the class has `supports_backend`; later
            # releases also take a class whose module uses the attention interface (transformers
            # `_can_set_attn_implementation()`, a reading of its source)
            "gate_backend": "is_backend_compatible()" in gate_text and "_supports_flex_attn" not in gate_text
                            and "_can_set_attn_implementation" not in gate_text,
            "one_head": ("get_head_size()" in joined or "head_size=config.head_dim" in joined) and "model_arch_config[i]" not in joined,
            "refusal": refusal,
            "mm_pass": "vision_embeddings = self.model.get_image_features(" in joined
                       and "isinstance(vision_embeddings, tuple)" not in joined,
        }))
    have = [(v, r) for v, r in rows if r is not None]
    out: dict = {"vllm_scanned": [v for v, _ in rows], "fallback": _spans([(v, r is not None) for v, r in rows])}
    out["classes"] = {c: _spans([(v, r is not None and c in r["classes"]) for v, r in rows]) for c in _WRAPPERS}
    out["compat_gate"] = _spans([(v, bool(r and r["gate"])) for v, r in rows])
    out["gate_attention_backend"] = _spans([(v, bool(r and r["gate_backend"])) for v, r in rows])
    out["one_head_size"] = _spans([(v, bool(r and r["one_head"])) for v, r in rows])
    out["layer_refusal"] = _spans([(v, bool(r and r["refusal"])) for v, r in rows])
    out["mm_features_passthrough"] = _spans([(v, bool(r and r["mm_pass"])) for v, r in rows])
    last = next((v for v, r in reversed(have) if r["refusal"]), None)
    if last:
        out["layer_refusal_at"] = {"release": last, **dict(have)[last]["refusal"]}
    return out


def transformers_side(wheels: list[Path]) -> dict:
    found = []
    for w in wheels:
        m = _WHEEL.search(w.name)
        if m:
            found.append((m.group(1), w))
    found.sort(key=lambda x: _key(x[0]))
    linear: dict[str, str] = {}
    mixed: dict[str, str] = {}
    pairs: dict[str, str] = {}
    unflagged: dict[str, str] = {}
    flagged: set[str] = set()
    for v, w in found:
        with zipfile.ZipFile(w) as z:
            for name in z.namelist():
                m = re.fullmatch(r"transformers/models/(\w+)/(modeling|configuration)_\w+\.py", name)
                if not m:
                    continue
                kind, src = m.group(2), z.read(name).decode("utf-8", "replace")
                if kind == "modeling" and _MIXER.search(src):
                    linear.setdefault(m.group(1), v)
                if kind == "configuration" and re.search(r"\bglobal_head_dim\b", src):
                    mixed.setdefault(m.group(1), v)
                if kind == "modeling" and "def get_image_features" in src and _tuple_features(src):
                    pairs.setdefault(m.group(1), v)
                if kind == "modeling" and m.group(1) != "auto":
                    if _BACKEND_FLAG.search(src):
                        flagged.add(m.group(1))
                    elif _GENERATIVE.search(src) and _OWN_BASE.search(src):
                        unflagged.setdefault(m.group(1), v)
    return {"transformers_scanned": [v for v, _ in found], "linear_layers": dict(sorted(linear.items())),
            "mixed_head_dim": dict(sorted(mixed.items())), "mm_tuple_features": dict(sorted(pairs.items())),
            "no_attention_backend": dict(sorted((t, v) for t, v in unflagged.items() if t not in flagged))}


def _tuple_features(src: str) -> bool:
    """A class of the module whose `get_image_features` returns a tuple literal on every path."""
    try:
        tree = ast.parse(src)
    except SyntaxError:
        return False
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        for fn in cls.body:
            if isinstance(fn, ast.FunctionDef) and fn.name == "get_image_features":
                rets = [r for r in ast.walk(fn) if isinstance(r, ast.Return)]
                if rets and all(isinstance(r.value, ast.Tuple) for r in rets):
                    return True
    return False


def _flow(spans: list[list[str]]) -> str:
    return "[" + ", ".join(f'["{a}", "{b}"]' for a, b in spans) + "]"


def render(vs: dict, ts: dict) -> str:
    lines = [
        "# What vLLM's Transformers-backend fallback (an architecture vLLM does not implement, 0.7.2+) can run:",
        "# per vLLM release the wrapper classes, the is_backend_compatible() gate (and where it is the class's",
        "# _supports_attention_backend alone), whether every decoder layer's Attention takes one whole-model",
        "# head size (before 0.28.0) and the refusal of a layer that is not",
        "# attention, and whether the multimodal wrapper hands on a tuple from get_image_features unchanged;",
        "# per transformers model type, a non-attention token mixer (linear attention, gated delta net, Mamba,",
        "# short convolution), a second head size (global_head_dim), image features returned as a tuple or no",
        "# _supports_attention_backend in any wheel read, from the first wheel that has it. GENERATED by",
        "# tools/vllm_transformers_backend.py from vLLM's sdists and the transformers wheels. Do not edit by hand.",
        "version: 1",
        "vllm_scanned: [" + ", ".join(f'"{v}"' for v in vs["vllm_scanned"]) + "]",
        f"fallback: {_flow(vs['fallback'])}",
        "classes:",
        *[f"  {c}: {_flow(s)}" for c, s in vs["classes"].items()],
        f"compat_gate: {_flow(vs['compat_gate'])}",
        f"gate_attention_backend: {_flow(vs['gate_attention_backend'])}",
        f"one_head_size: {_flow(vs['one_head_size'])}",
        f"layer_refusal: {_flow(vs['layer_refusal'])}",
    ]
    if "layer_refusal_at" in vs:
        at = vs["layer_refusal_at"]
        lines.append(f'layer_refusal_at: {{release: "{at["release"]}", file: {at["file"]}, line: {at["line"]}}}')
    lines.append(f"mm_features_passthrough: {_flow(vs['mm_features_passthrough'])}")
    lines.append("transformers_scanned: [" + ", ".join(f'"{v}"' for v in ts["transformers_scanned"]) + "]")
    for key in ("linear_layers", "mixed_head_dim", "mm_tuple_features", "no_attention_backend"):
        lines += [f"{key}:", *(f'  {t}: "{v}"' for t, v in ts[key].items())]
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src", type=Path, help="a folder of unpacked vLLM sdists, one per release")
    ap.add_argument("wheels", type=Path, help="a folder of transformers wheels")
    ap.add_argument("--check", action="store_true", help="fail when the committed table differs")
    args = ap.parse_args()
    text = render(vllm_side(args.src), transformers_side(sorted(args.wheels.glob("transformers-*.whl"))))
    stale = not OUT.is_file() or OUT.read_text(encoding="utf-8") != text
    if not args.check:
        OUT.write_text(text, encoding="utf-8")
    print(f"{OUT}: " + ("stale: run tools/vllm_transformers_backend.py" if args.check and stale else
                        "up to date" if args.check else "written"))
    return int(args.check and stale)


if __name__ == "__main__":
    sys.exit(main())
