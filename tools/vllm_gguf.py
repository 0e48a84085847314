"""Writes knowledge/vllm/gguf.yaml: which GGUF `general.architecture` values each transformers
release reads, and where vLLM hands a GGUF file to transformers, per release.

vLLM (0.5.5 … 0.23.0, the releases whose model loader has GGUFModelLoader) reads a GGUF file's
model config through transformers (`AutoConfig.from_pretrained(folder, gguf_file=name)` in
vllm/transformers_utils/config.py get_config). transformers' `load_gguf_checkpoint`
(transformers/modeling_gguf_pytorch_utils.py) refuses an architecture outside
GGUF_SUPPORTED_ARCHITECTURES — the keys of one of GGUF_TO_TRANSFORMERS_MAPPING's tables, "tensors"
until 4.46, "config" after — unless its own renames (`qwen2moe` → `qwen2_moe`, …) reach a key where
the refusal tests the renamed name too. Both sides are read with ast, never imported:

    python tools/vllm_gguf.py --sdists /work/sdists/src WHEEL [WHEEL ...]
    python tools/vllm_gguf.py --check --sdists /work/sdists/src WHEEL [WHEEL ...]

WHEEL: transformers wheels (`pip download transformers==X --no-deps`), the last patch release of
each minor release from 4.41 (the first with GGUF) on; an architecture is recorded at the minor
release (X.Y.0) of the first wheel that reads it.

`arch_of_model_type` is what a GGUF file of a model_type says in general.architecture when the
file itself cannot be read: vLLM's own GGUF loader renames (`_get_gguf_weights_map`, every
release) plus the names llama.cpp's convert_hf_to_gguf.py writes for the model types below
(LLAMA_CPP): an audit infers the architecture from a model name only through this table.
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

OUT = Path(__file__).resolve().parents[1] / "knowledge" / "vllm" / "gguf.yaml"
_WHEEL = re.compile(r"transformers-(\d+)\.(\d+)\.(\d+)-py3-none-any\.whl$")
_NOT_ARCH = {"general", "tokenizer", "tokenizer_config", "ignore"}

# general.architecture as llama.cpp's convert_hf_to_gguf.py writes it (ggml-org/llama.cpp,
# `model_arch = gguf.MODEL_ARCH.X` of the class registered for the HF architecture, named by
# gguf-py/gguf/constants.py MODEL_ARCH_NAMES), for the model types people serve as GGUF; Mistral
# and Mixtral checkpoints are written as `llama`, OLMo 3 (Olmo3ForCausalLM, registered on the same
# Olmo2Model class) as `olmo2`. A model type missing here is not inferred.
LLAMA_CPP = {
    "llama": "llama", "mistral": "llama", "mixtral": "llama", "qwen2": "qwen2", "qwen3": "qwen3",
    "gemma": "gemma", "gemma2": "gemma2", "gemma3": "gemma3", "phi3": "phi3", "falcon": "falcon",
    "starcoder2": "starcoder2", "gpt2": "gpt2", "bloom": "bloom", "stablelm": "stablelm",
    "nemotron": "nemotron", "mamba": "mamba", "olmo2": "olmo2", "olmo3": "olmo2", "glm4": "glm4", "chatglm": "chatglm",
    "gpt_oss": "gpt-oss", "llama4": "llama4", "qwen3_vl": "qwen3vl", "qwen3_vl_moe": "qwen3vlmoe",
    "exaone": "exaone", "granite": "granite", "internlm2": "internlm2",
    # Ernie4_5ForCausalLM / Ernie4_5_MoeForCausalLM → MODEL_ARCH.ERNIE4_5 "ernie4_5" / ERNIE4_5_MOE "ernie4_5-moe"
    # (gguf-py constants.py; PaddlePaddle/ERNIE#1389 quotes transformers refusing "ernie4_5-moe")
    "ernie4_5": "ernie4_5", "ernie4_5_moe": "ernie4_5-moe",
    # Qwen3NextForCausalLM → MODEL_ARCH.QWEN3NEXT, "qwen3next" (llama.cpp conversion/qwen.py and
    # gguf-py constants.py, late 2025; vLLM #30023 quotes transformers refusing "qwen3next")
    "qwen3_next": "qwen3next",
}


def _keys(node: ast.AST) -> list[str]:
    return [k.value for k in getattr(node, "keys", []) if isinstance(k, ast.Constant) and isinstance(k.value, str)]


def _assigns(tree: ast.Module) -> dict[str, ast.AST]:
    return {t.id: n.value for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}


def transformers_accepts(utils_src: str, ggml_src: str) -> tuple[set[str], str]:
    """The general.architecture values one transformers release reads, and its refusal's wording."""
    utils, ggml = ast.parse(utils_src), ast.parse(ggml_src)
    names = {**_assigns(ggml), **_assigns(utils)}
    table = None
    sup = names.get("GGUF_SUPPORTED_ARCHITECTURES")
    for sub in ast.walk(sup) if sup is not None else []:
        if isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Constant):
            table = sub.slice.value
    mapping = names.get("GGUF_TO_TRANSFORMERS_MAPPING")
    target = None
    for k, v in zip(getattr(mapping, "keys", []), getattr(mapping, "values", [])):
        if isinstance(k, ast.Constant) and k.value == table:
            target = names.get(v.id) if isinstance(v, ast.Name) else v
    if target is None:
        raise SystemExit(f"no GGUF_TO_TRANSFORMERS_MAPPING[{table!r}] found")
    keys = set(_keys(target)) - _NOT_ARCH
    renames: dict[str, str] = {}
    wording, tests_renamed = "", False
    for fn in ast.walk(utils):
        if not (isinstance(fn, ast.FunctionDef) and fn.name == "load_gguf_checkpoint"):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.If):
                tests = node.test.values if isinstance(node.test, ast.BoolOp) else [node.test]
                srcs = [t.left.value for t in tests if isinstance(t, ast.Compare) and isinstance(t.left, ast.Constant)
                        and isinstance(t.ops[0], ast.In) and isinstance(t.comparators[0], ast.Name)
                        and t.comparators[0].id == "architecture"]
                for st in node.body if srcs else []:
                    if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "updated_architecture" for t in st.targets) \
                            and isinstance(st.value, ast.Constant):
                        renames.update(dict.fromkeys(srcs, st.value.value))
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args \
                    and isinstance(node.exc.args[0], ast.JoinedStr) and "not supported" in ast.unparse(node.exc.args[0]):
                wording = "".join(v.value if isinstance(v, ast.Constant) else "{architecture}" for v in node.exc.args[0].values)
            if isinstance(node, ast.If) and "GGUF_SUPPORTED_ARCHITECTURES" in ast.unparse(node.test):
                tests_renamed = "updated_architecture" in ast.unparse(node.test)
    accepted = set(keys)
    if tests_renamed:  # "mistral" needs the model's name too; the others are the architecture itself
        accepted |= {src for src, dst in renames.items() if dst in keys and src != "llama"}
    return accepted, wording


def read_transformers(wheels: list[Path]) -> tuple[list[str], dict[str, str], list[dict]]:
    rows = []
    for w in wheels:
        m = _WHEEL.search(w.name)
        if not m:
            raise SystemExit(f"not a transformers wheel: {w}")
        with zipfile.ZipFile(w) as z:
            if "transformers/modeling_gguf_pytorch_utils.py" not in z.namelist():
                continue
            acc, wording = transformers_accepts(z.read("transformers/modeling_gguf_pytorch_utils.py").decode(),
                                                z.read("transformers/integrations/ggml.py").decode())
        rows.append(((int(m[1]), int(m[2]), int(m[3])), acc, wording))
    rows.sort(key=lambda r: r[0])
    first: dict[str, str] = {}
    wordings: list[dict] = []
    for (a, b, _c), acc, wording in rows:
        for arch in sorted(acc):
            first.setdefault(arch, f"{a}.{b}.0")
        if not wordings or wordings[-1]["text"] != wording:
            wordings.append({"text": wording, "since": f"{a}.{b}.0"})
    scanned = [f"{a}.{b}.{c}" for (a, b, c), _acc, _w in rows]
    return scanned, first, wordings


def classes_of(wheel: Path) -> dict[str, set[str]]:
    """Generating model class → its model_types from transformers' Auto mappings (MODEL_*_MAPPING_NAMES) of one wheel."""
    with zipfile.ZipFile(wheel) as z:
        tree = ast.parse(z.read("transformers/models/auto/modeling_auto.py").decode("utf-8"))
    out: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and re.fullmatch(r"MODEL_\w*MAPPING_NAMES", t.id)
                                                for t in node.targets):
            for sub in ast.walk(node.value):
                if isinstance(sub, ast.Tuple) and len(sub.elts) == 2 and isinstance(sub.elts[0], ast.Constant) \
                        and isinstance(sub.elts[1], ast.Constant) and isinstance(sub.elts[1].value, str) \
                        and re.search(r"For(CausalLM|ConditionalGeneration)$", sub.elts[1].value):
                    out.setdefault(sub.elts[1].value, set()).add(sub.elts[0].value)
    return out


def arch_by_class(classes: dict[str, set[str]], arch_of: dict[str, str]) -> dict[str, str]:
    """A class several model types share (LlamaForCausalLM) counts for the type it is named after."""
    out = {}
    for cls, types in sorted(classes.items()):
        archs = {arch_of[t] for t in types if t in arch_of}
        own = [t for t in types if t.replace("_", "") == re.split(r"For[A-Z]", cls)[0].lower()]
        if len(archs) == 1:
            out[cls] = archs.pop()
        elif len(own) == 1 and own[0] in arch_of:
            out[cls] = arch_of[own[0]]
    return out


def _release_key(v: str) -> tuple:
    return tuple(int(x) if x.isdigit() else -1 for x in re.split(r"[.]|post", v) if x != "")


def _releases(sdists: Path) -> list[str]:
    return sorted((p.name for p in sdists.iterdir() if re.fullmatch(r"\d+\.\d+\.\d+(\.\w+)?", p.name)), key=_release_key)


def _line(path: Path, pattern: str) -> int | None:
    try:
        for i, text in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if re.search(pattern, text):
                return i
    except OSError:
        return None
    return None


def _loader_renames(src: str) -> dict[str, str]:
    """`if model_type == "a": model_type = "b"` and `if model_type in (…): model_type = …` in the GGUF loader."""
    out: dict[str, str] = {}
    for node in ast.walk(ast.parse(src)):
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare) and isinstance(node.test.left, ast.Name)
                and node.test.left.id == "model_type"):
            continue
        comp = node.test.comparators[0]
        srcs = [comp.value] if isinstance(comp, ast.Constant) else [e.value for e in getattr(comp, "elts", []) if isinstance(e, ast.Constant)]
        for st in node.body:
            if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "model_type" for t in st.targets):
                for s in srcs:
                    if isinstance(st.value, ast.Constant):
                        out[s] = st.value.value
                    elif ast.unparse(st.value) == "model_type.replace('_', '')":
                        out[s] = s.replace("_", "")
    return out


def read_vllm(sdists: Path) -> dict:
    gguf, hf_config_path, preread, renames = [], None, None, {}
    config_lines: dict[str, dict] = {}
    for rel in _releases(sdists):
        root = sdists / rel / "vllm"
        loader = root / "model_executor" / "model_loader" / "gguf_loader.py"
        if not loader.exists():
            loader = root / "model_executor" / "model_loader" / "loader.py"
        text = loader.read_text(encoding="utf-8", errors="replace") if loader.exists() else ""
        if "class GGUFModelLoader" not in text:
            continue
        gguf.append(rel)
        renames.update(_loader_renames(text))
        args = (root / "engine" / "arg_utils.py").read_text(encoding="utf-8", errors="replace")
        if hf_config_path is None and "hf_config_path" in args:
            hf_config_path = rel
        cfg = root / "transformers_utils" / "config.py"
        if preread is None and "maybe_override_with_speculators(" in args and "gguf_file" in cfg.read_text(encoding="utf-8", errors="replace").split("def maybe_override_with_speculators", 1)[-1].split("\ndef ", 1)[0]:
            preread = rel
        line = _line(cfg, r'kwargs\["gguf_file"\] = ')
        if line:
            config_lines[rel] = {"file": "vllm/transformers_utils/config.py", "line": line}
    spans, prev = [], None  # the get_config line, one entry per run of releases where it stays put
    for rel in gguf:
        cur = config_lines.get(rel)
        if cur and cur != prev:
            spans.append({"release": rel, **cur})
        prev = cur
    return {"releases": [gguf[0], gguf[-1]], "hf_config_path_since": hf_config_path, "preread_since": preread,
            "loader_renames": dict(sorted(renames.items())), "get_config": spans}


def render(scanned: list[str], first: dict[str, str], wordings: list[dict], vllm: dict, classes: dict[str, set[str]]) -> str:
    arch_of = dict(sorted({**LLAMA_CPP, **vllm["loader_renames"]}.items()))
    by_class = arch_by_class(classes, arch_of)
    out = [
        "# GGUF: which general.architecture values each transformers release reads (load_gguf_checkpoint's",
        "# GGUF_SUPPORTED_ARCHITECTURES, with the renames its refusal also tests), and where each vLLM release",
        "# hands a GGUF file to transformers. Built by tools/vllm_gguf.py from transformers wheels and vLLM's",
        "# sdists. Do not edit by hand.",
        "version: 1",
        f"transformers_scanned: [{', '.join(f'{v!r}' for v in scanned)}]".replace("'", '"'),
        "# the first transformers minor release that reads each architecture",
        "transformers_first:",
        *(f'  "{a}": "{v}"' for a, v in sorted(first.items())),
        "# transformers' refusal, from the minor release it was first worded so",
        "transformers_wording:",
        *(f'  - {{since: "{w["since"]}", text: "{w["text"]}"}}' for w in wordings),
        "vllm:",
        f'  releases: ["{vllm["releases"][0]}", "{vllm["releases"][1]}"]  # GGUFModelLoader',
        f'  hf_config_path_since: "{vllm["hf_config_path_since"]}"  # --hf-config-path: the config read elsewhere',
        f'  preread_since: "{vllm["preread_since"]}"  # maybe_override_with_speculators reads the GGUF before the config, whatever --hf-config-path says',
        "  get_config:  # kwargs[\"gguf_file\"] = …: the GGUF handed to transformers' AutoConfig",
        *(f'    - {{release: "{s["release"]}", file: {s["file"]}, line: {s["line"]}}}' for s in vllm["get_config"]),
        "# general.architecture of a GGUF file of each model_type (vLLM's loader renames + llama.cpp's names)",
        "arch_of_model_type:",
        *(f'  "{k}": "{v}"' for k, v in arch_of.items()),
        "# the same by the model class (config.json architectures[0]), through the newest wheel's Auto mappings",
        "arch_of_class:",
        *(f'  "{k}": "{v}"' for k, v in by_class.items()),
    ]
    return "\n".join(out) + "\n"


def arguments(doc: str) -> argparse.Namespace:
    """WHEEL … [--sdists DIR] [--check]: this tool's and tools/vllm_gguf_loader.py's command line."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("wheels", nargs="+", type=Path)
    ap.add_argument("--sdists", type=Path, default=Path("/work/sdists/src"))
    ap.add_argument("--check", action="store_true", help="fail when the table on disk differs")
    return ap.parse_args()


def write_or_check(out: Path, text: str, check: bool, tool: str) -> int:
    if check:
        if out.read_text(encoding="utf-8") != text:
            print(f"{out} is stale: run {tool}", file=sys.stderr)
            return 1
        return 0
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")
    return 0


def main() -> int:
    a = arguments(__doc__)
    newest = max(a.wheels, key=lambda w: tuple(int(x) for x in _WHEEL.search(w.name).groups()))
    text = render(*read_transformers(a.wheels), read_vllm(a.sdists), classes_of(newest))
    return write_or_check(OUT, text, a.check, "tools/vllm_gguf.py")


if __name__ == "__main__":
    raise SystemExit(main())
