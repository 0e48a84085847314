#!/usr/bin/env python3
"""Build knowledge/vllm/release_bugs.yaml: loader bugs of some releases that a later release fixed,
with the affected releases read from the sources rather than from memory.

Each bug below names the code that shows it (a function or method, looked up in the files it has
lived in) and the words its fix added (`fixed_by`). For every unpacked release the tool reads that
code with `ast`: a release whose code reads what the bug needs (`reads`) and lacks the fix is
affected, one whose code has the fix is fixed, one without the code is outside. The table then
says, per bug, the spans of affected releases, the first fixed release after them, the file and
line read in the last affected and the first fixed release, and the condition a launch must meet
(the load path and the checkpoint) — which the bug's own record gives, with its public reports.

Bugs:
  consolidated-default   the default loader reads every *.safetensors of a repository, Mistral's
                         own consolidated.safetensors beside the Hugging Face shards included, and
                         fails on its parameter names (vLLM #4989; fixed by #5005, which keeps only
                         the files model.safetensors.index.json names).
  consolidated-bnb       the BitsAndBytes loader did the same until it took that filter too (its
                         comment there: "For models like Mistral-7B-Instruct-v0.3 … Using both breaks").

Runtime bugs (`runtime_bugs`): a communicator or kernel a release sets up on the GPUs while the
engine starts, whose failure on some machines the release does not catch. Each names the code, what
it calls (`reads`) and the words of the later catch (`fixed_by`), the environment switch that turns
it on and the words that make that switch's default on (`default_on`, in vllm/envs.py), and the
table of GPUs and group sizes the code sets it up for (`sizes`, a dict literal whose keys are
compute capabilities and, inside, world sizes):
  symm-mem-allreduce-init
                         SymmMemCommunicator.__init__ calls torch's symmetric-memory rendezvous for
                         the tensor-parallel group without catching its failure (0.10.2 when asked
                         for; 0.11.0 by default, VLLM_ALLREDUCE_USE_SYMM_MEM=1): on machines where
                         the rendezvous fails the workers stop ("CUDA driver error: invalid device
                         ordinal", vLLM #26525); 0.11.1 catches it and falls back.

Model bugs (`model_bugs`): a model class of some releases that fails on every launch of its
architecture, which the next release's code fixed. Each names the method that shows it, the words
of the broken line (`reads`) and of the fixed one (`fixed_by`):
  glm4-0414-post-attention-norm
                         Glm4DecoderLayer.forward (GLM-4-0414, Glm4ForCausalLM) of 0.8.4 assigns
                         the (output, residual) pair the fused post-attention RMSNorm returns to
                         hidden_states and feeds it to the MLP: the profile run stops the engine
                         (vLLM #16818, #16687); #16618 unpacks the pair (0.8.5).
  qwen1-text-vl-processor
                         QWenVLProcessor.__init__ of 0.7.1-0.7.2 (QWenLMHeadModel registered as
                         multimodal) looks up the tokenizer's `<img>` token, which a text Qwen (v1)
                         tokenizer lacks: the engine stops with a KeyError while it is built
                         (xinference #2950). Qwen-VL shares the class and its tokenizer has the token,
                         so the row holds only where config.json has no `visual` (`config_lacks`);
                         0.7.3 splits Qwen-VL out and QWenLMHeadModel is text-only again.
  qwen2-5-vl-bnb-vision-qkv
                         Qwen2_5_VisionTransformer.load_weights of 0.7.2 reshapes every vision
                         qkv weight per head as it loads it; the BitsAndBytes loader hands it the
                         quantized, packed tensor, and loading asserts on the shapes (vLLM #12900,
                         `load: bitsandbytes`); 0.7.3 loads it whole and splits q/k/v at run time.
  qwen2-5-vl-vision-mlp-ignore
                         0.10.1 merges the Qwen2.5-VL vision MLP into one gate_up_proj layer, and
                         the class names no packed_modules_mapping for it: a compressed-tensors
                         ignore list that names the vision MLP's gate_proj/up_proj no longer
                         matches, so the vision MLP gets the quantized scheme (vLLM #23320,
                         `ignore_unfused`); 0.10.2 maps gate_up_proj back to its shards.
  deepseek-v2-pp-missing-layer, deepseek-v3-pp-missing-layer
                         DeepseekV2ForCausalLM.__init__ of 0.9.2 (and DeepseekV3ForCausalLM, its
                         subclass) walks self.model.layers for the MoE layers and asserts each is a
                         DeepseekV2DecoderLayer; under pipeline parallelism the layers of the other
                         stages are PPMissingLayer placeholders, so the class is never built
                         (vLLM #20647, `min_pp`); #20665 (0.10.0) skips the placeholders.
  llama4-pp-missing-layer, llama4-mm-pp-missing-layer
                         the same walk in Llama4ForCausalLM.set_moe_parameters of 0.11.1-0.11.2,
                         which __init__ calls; Llama4ForConditionalGeneration builds that class as
                         its language model. #28577 (0.12.0) skips the placeholders.
  qwen-vl-text-class     the mirror: from 0.7.3 QWenLMHeadModel.__init__ refuses a config.json with
                         `visual` (Qwen-VL) with a RuntimeError that asks for --hf-overrides
                         architectures QwenVLForConditionalGeneration (`config_has`); held through
                         0.23.0, the last release that registers QWenLMHeadModel (no fixed release).

Usage:
  python tools/vllm_release_bugs.py --source /work/sdists/src [--check]
"""
from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_architectures import VERSION_DIR, sp, spans, vkey, write_or_check  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "knowledge" / "vllm" / "release_bugs.yaml"
ML = "vllm/model_executor/model_loader/"

# Repositories that ship Mistral's consolidated.safetensors beside Hugging Face shards and their
# model.safetensors.index.json, each with the public file listing or report that shows it.
CONSOLIDATED_REPOS = [
    ("mistralai/Mistral-7B-Instruct-v0.3", "https://github.com/vllm-project/vllm/issues/4989"),
    ("mistralai/Mistral-7B-v0.3", "https://github.com/vllm-project/vllm/pull/5005"),
    ("mistralai/Mathstral-7B-v0.1", "https://github.com/vllm-project/vllm/issues/9595"),
    ("mistralai/Ministral-8B-Instruct-2410", "https://github.com/vllm-project/vllm/issues/9595"),
]

BUGS = [
    {"id": "consolidated-default",
     "code": [(ML + "default_loader.py", "DefaultModelLoader._prepare_weights"),
              (ML + "loader.py", "DefaultModelLoader._prepare_weights"),
              ("vllm/model_executor/weight_utils.py", "prepare_hf_model_weights")],
     "reads": "*.safetensors", "fixed_by": "filter_duplicate_safetensors_files",
     "load": "default", "checkpoint": "consolidated_and_shards",
     "error": "KeyError: 'layers.0.attention.wk.weight'",
     "fix": "https://github.com/vllm-project/vllm/pull/5005",
     "reports": ["https://github.com/vllm-project/vllm/issues/4989"]},
    {"id": "consolidated-bnb",
     "code": [(ML + "bitsandbytes_loader.py", "BitsAndBytesModelLoader._prepare_weights"),
              (ML + "loader.py", "BitsAndBytesModelLoader._prepare_weights")],
     "reads": "*.safetensors", "fixed_by": "filter_duplicate_safetensors_files",
     "load": "bitsandbytes", "checkpoint": "consolidated_and_shards",
     "error": None,
     "fix": None,
     # no public report isolates it (the BitsAndBytes KeyErrors of #9595/#10168 also hit Phi-3, which
     # has no consolidated file): the fix's own comment (0.8.1) names Mistral-7B-Instruct-v0.3
     "reports": []},
]


RUNTIME_BUGS = [
    {"id": "symm-mem-allreduce-init",
     "code": [("vllm/distributed/device_communicators/symm_mem.py", "SymmMemCommunicator.__init__")],
     "reads": "torch_symm_mem.rendezvous", "fixed_by": "except RuntimeError",
     "env": "VLLM_ALLREDUCE_USE_SYMM_MEM", "default_on": 'os.getenv("VLLM_ALLREDUCE_USE_SYMM_MEM", "1")',
     "sizes": ("vllm/distributed/device_communicators/all_reduce_utils.py", "SYMM_MEM_ALL_REDUCE_MAX_SIZES"),
     "group": "tp",
     "error": "RuntimeError: CUDA driver error: invalid device ordinal",
     "fix": None,  # the catch came with 0.11.1's code; no PR isolates it
     "reports": ["https://github.com/vllm-project/vllm/issues/26525",
                 "https://github.com/vllm-project/vllm/issues/24580",
                 "https://github.com/vllm-project/vllm/issues/26922"]},
]


def _pp_walk(archs: dict[str, str], code: list[tuple[str, str]], layer: str, fix: str, reports: list[str]) -> list[dict]:
    """Rows (id → class) of a model class whose construction walks self.model.layers asserting `layer` on each:
    only under pipeline parallelism (`min_pp`), where the other stages' layers are PPMissingLayer; the fix skips them.
    The first place of `code` the release has is read (a subclass's own __init__, else its base's)."""
    return [{"id": rid, "arch": arch, "min_pp": 2, "code": code, "reads": f"assert isinstance(layer, {layer})",
             "fixed_by": "isinstance(layer, PPMissingLayer)", "error": "AssertionError", "fix": fix, "reports": reports}
            for rid, arch in archs.items()]


MODEL_MARK = "# model_bugs:"
MODEL_BUGS = [
    {"id": "glm4-0414-post-attention-norm", "arch": "Glm4ForCausalLM",
     "code": [("vllm/model_executor/models/glm4.py", "Glm4DecoderLayer.forward")],
     "reads": "hidden_states = self.post_attention_layernorm(hidden_states, residual)",
     "fixed_by": "hidden_states, residual = self.post_attention_layernorm(",
     "error": "TypeError: linear(): argument 'input' (position 1) must be Tensor, not tuple",  # zai-org/GLM-4#742
     "fix": "https://github.com/vllm-project/vllm/pull/16618",
     "reports": ["https://github.com/vllm-project/vllm/issues/16818",
                 "https://github.com/vllm-project/vllm/issues/16687",
                 "https://github.com/zai-org/GLM-4/issues/742"]},
    {"id": "qwen1-text-vl-processor", "arch": "QWenLMHeadModel", "config_lacks": "visual",
     # 0.7.3 moved the processor to qwen_vl.py; its QWenLMHeadModel refuses a `visual` config, naming the VL class
     "code": [("vllm/model_executor/models/qwen.py", "QWenVLProcessor.__init__"),
              ("vllm/model_executor/models/qwen.py", "QWenLMHeadModel.__init__")],
     "reads": "special_tokens[IMG_START]",
     "fixed_by": "QwenVLForConditionalGeneration",
     "error": "KeyError: '<img>'",  # the report cuts the key off; IMG_START is "<img>" in qwen.py
     "fix": None,  # the split came with 0.7.3's code
     "reports": ["https://github.com/xorbitsai/inference/issues/2950"]},
    {"id": "seq-cls-2way-softmax-tp", "arch": "Qwen3ForSequenceClassification",
     # the original Qwen3-Reranker (and mxbai-rerank-v2) loaded as a classifier through hf_overrides: the score row is
     # built from two LM-head rows and copied whole into the score weight, which tensor parallelism splits
     "hf_overrides_any": {"method": "from_2_way_softmax", "is_original_qwen3_reranker": True}, "min_tp": 2,
     "code": [("vllm/model_executor/models/adapters.py", "load_weights_using_from_2_way_softmax")],
     "reads": "model.score.weight.data.copy_(weight)",
     "fixed_by": "weight_loader(param, score_weight)",
     "error": "The size of tensor a (2048) must match the size of tensor b (4096) at non-singleton dimension 1",  # 8B, TP 2
     "fix": "https://github.com/vllm-project/vllm/pull/20682",
     "reports": ["https://github.com/gpustack/gpustack/issues/2490", "https://github.com/vllm-project/vllm/issues/20670"]},
    {"id": "qwen2-5-vl-bnb-vision-qkv", "arch": "Qwen2_5_VLForConditionalGeneration", "load": "bitsandbytes",
     "code": [("vllm/model_executor/models/qwen2_5_vl.py", "Qwen2_5_VisionTransformer.load_weights")],
     "reads": "loaded_weight.view(3, visual_num_heads",
     # the fix lives in the attention layer: it loads qkv whole and splits it at run time
     "fixed_in": [("vllm/model_executor/models/qwen2_5_vl.py", "Qwen2_5_VisionAttention.split_qkv")],
     "fixed_by": "def split_qkv",
     "error": "AssertionError: param_data.shape == loaded_weight.shape",
     "fix": None,  # the change came with 0.7.3's code
     "reports": ["https://github.com/vllm-project/vllm/issues/12900"]},
    {"id": "qwen2-5-vl-vision-mlp-ignore", "arch": "Qwen2_5_VLForConditionalGeneration",
     "ignore_unfused": "visual.gate_up_proj",
     "code": [("vllm/model_executor/models/qwen2_5_vl.py", "Qwen2_5_VisionMLP.__init__")],
     "reads": "self.gate_up_proj = MergedColumnParallelLinear(",
     # the fix: the class maps the fused layer back to the names the checkpoint's ignore list uses
     "fixed_in": [("vllm/model_executor/models/qwen2_5_vl.py", "Qwen2_5_VLForConditionalGeneration")],
     "fixed_by": '"gate_up_proj": ["gate_proj", "up_proj"]',
     "error": "ValueError: Failed to find a kernel that can implement the WNA16 linear layer.",
     "fix": None,  # 0.10.2's class adds packed_modules_mapping
     "reports": ["https://github.com/vllm-project/vllm/issues/23320"]},
    # 0.9.2's MoE bookkeeping (EPLB) walks every decoder layer and asserts its class; on a pipeline rank the other
    # stages' layers are PPMissingLayer placeholders, so every launch with pipeline parallelism stops while the
    # class is built (vLLM #20647). DeepseekV3ForCausalLM subclasses it without an __init__ of its own (`pass`)
    *_pp_walk({"deepseek-v2-pp-missing-layer": "DeepseekV2ForCausalLM", "deepseek-v3-pp-missing-layer": "DeepseekV3ForCausalLM"},
              [("vllm/model_executor/models/deepseek_v2.py", "DeepseekV3ForCausalLM.__init__"),
               ("vllm/model_executor/models/deepseek_v2.py", "DeepseekV2ForCausalLM.__init__")],
              "DeepseekV2DecoderLayer", "https://github.com/vllm-project/vllm/pull/20665",
              ["https://github.com/vllm-project/vllm/issues/20647"]),
    # the same walk in Llama4ForCausalLM.set_moe_parameters (called from __init__) of 0.11.1-0.11.2; Llama 4's
    # multimodal class builds Llama4ForCausalLM as its language model (mllama4.py), so it breaks alike (PR #28577)
    *_pp_walk({"llama4-pp-missing-layer": "Llama4ForCausalLM", "llama4-mm-pp-missing-layer": "Llama4ForConditionalGeneration"},
              [("vllm/model_executor/models/llama4.py", "Llama4ForCausalLM.set_moe_parameters")],
              "Llama4DecoderLayer", "https://github.com/vllm-project/vllm/pull/28577",
              ["https://github.com/vllm-project/vllm/pull/28577"]),
    {"id": "qwen-vl-text-class", "arch": "QWenLMHeadModel", "config_has": "visual",
     # not a bug fixed later: the refusal stays until QWenLMHeadModel leaves vLLM (0.24.0)
     "code": [("vllm/model_executor/models/qwen.py", "QWenLMHeadModel.__init__")],
     "reads": "QwenVLForConditionalGeneration",  # the class the refusal names
     "fixed_by": None,  # the way out is hf_overrides, not a release
     "error": "you instantiated the text-only version of this model",
     "fix": None,
     "reports": []},
]


def build_models(dirs: dict[str, Path], releases: list[str]) -> list[dict]:
    rows = []
    for bug in MODEL_BUGS:
        per = [scan(dirs[v], bug) for v in releases]
        last = max((i for i, p in enumerate(per) if p and p[0] == "affected"), default=None)
        fixed = next((i for i, p in enumerate(per) if p and p[0] == "fixed" and (last is None or i > last)), None)
        rows.append({"id": bug["id"], "arch": bug["arch"], "config_lacks": bug.get("config_lacks"),
                     "config_has": bug.get("config_has"), "hf_overrides_any": bug.get("hf_overrides_any"),
                     "min_tp": bug.get("min_tp"), "min_pp": bug.get("min_pp"), "load": bug.get("load"), "ignore_unfused": bug.get("ignore_unfused"),
                     "affected": spans([p is not None and p[0] == "affected" for p in per], releases),
                     "fixed": releases[fixed] if fixed is not None else None,
                     "evidence": [{"release": releases[i], "file": per[i][1], "line": per[i][2]}  # type: ignore[index]
                                  for i in (last, fixed) if i is not None],
                     "error": bug["error"], "fix": bug["fix"], "reports": bug["reports"]})
    return rows


def _sizes(root: Path, where: tuple[str, str]) -> dict[str, list[int]] | None:
    """{compute capability: [world sizes]} of a module-level dict literal (values may be
    expressions: only the keys are read)."""
    f = root / where[0]
    if not f.is_file():
        return None
    for node in ast.parse(f.read_text(encoding="utf-8")).body:
        if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == where[1] for t in node.targets)
                and isinstance(node.value, ast.Dict)):
            out: dict[str, list[int]] = {}
            for k, v in zip(node.value.keys, node.value.values):
                if isinstance(k, ast.Constant) and isinstance(v, ast.Dict):
                    out[str(k.value)] = sorted(int(x.value) for x in v.keys if isinstance(x, ast.Constant))
            return out
    return None


def build_runtime(dirs: dict[str, Path], releases: list[str]) -> list[dict]:
    rows = []
    for bug in RUNTIME_BUGS:
        per = [scan(dirs[v], bug) for v in releases]
        affected = spans([p is not None and p[0] == "affected" for p in per], releases)
        on = spans([bug["default_on"] in ((dirs[v] / "vllm" / "envs.py").read_text(encoding="utf-8")
                                          if (dirs[v] / "vllm" / "envs.py").is_file() else "") for v in releases], releases)
        last = max((i for i, p in enumerate(per) if p and p[0] == "affected"), default=None)
        fixed = next((i for i, p in enumerate(per) if p and p[0] == "fixed" and (last is None or i > last)), None)
        sizes = {releases[i]: _sizes(dirs[releases[i]], bug["sizes"]) or {} for i, p in enumerate(per) if p and p[0] == "affected"}
        rows.append({"id": bug["id"], "env": bug["env"], "group": bug["group"], "affected": affected, "default_on": on,
                     "fixed": releases[fixed] if fixed is not None else None,
                     "sizes": sizes,
                     "evidence": [{"release": releases[i], "file": per[i][1], "line": per[i][2]}  # type: ignore[index]
                                  for i in (last, fixed) if i is not None],
                     "error": bug["error"], "fix": bug["fix"], "reports": bug["reports"]})
    return rows


def _code(root: Path, places: list[tuple[str, str]]) -> tuple[str, int, str] | None:
    """(file, line, source) of the first place the release has."""
    for rel, dotted in places:
        f = root / rel
        if not f.is_file():
            continue
        src = f.read_text(encoding="utf-8")
        try:
            body: list[ast.stmt] = ast.parse(src).body
        except SyntaxError:
            continue
        node: ast.AST | None = None
        for part in dotted.split("."):
            node = next((n for n in body if isinstance(n, (ast.ClassDef, ast.FunctionDef)) and n.name == part), None)
            if node is None:
                break
            body = node.body  # type: ignore[attr-defined]
        if node is not None:
            return rel, node.lineno, ast.get_source_segment(src, node) or ""  # type: ignore[attr-defined]
    return None


def scan(root: Path, bug: dict) -> tuple[str, str, int] | None:
    """("affected" | "fixed", file, line) of one release; None where it lacks the code or the code
    does not read what the bug needs."""
    found = _code(root, bug["code"])
    if found is None:
        return None
    rel, line, src = found
    fixed = _code(root, bug["fixed_in"]) if bug.get("fixed_in") else found  # where the fix lives, if elsewhere
    if bug.get("fixed_by") and fixed is not None and bug["fixed_by"] in fixed[2]:
        return "fixed", fixed[0], fixed[1]
    return ("affected", rel, line) if bug["reads"] in src else None


def build(sources: list[Path]) -> dict:
    dirs = {d.name: d for s in sources for d in s.iterdir() if VERSION_DIR.fullmatch(d.name) and (d / "vllm").is_dir()}
    releases = sorted(dirs, key=vkey)
    rows = []
    for bug in BUGS:
        per = [scan(dirs[v], bug) for v in releases]
        affected = spans([p is not None and p[0] == "affected" for p in per], releases)
        last = max((i for i, p in enumerate(per) if p and p[0] == "affected"), default=None)
        fixed = next((i for i, p in enumerate(per) if p and p[0] == "fixed" and (last is None or i > last)), None)
        row = {"id": bug["id"], "load": bug["load"], "checkpoint": bug["checkpoint"], "affected": affected,
               "fixed": releases[fixed] if fixed is not None else None,
               "evidence": [{"release": releases[i], "file": per[i][1], "line": per[i][2]}  # type: ignore[index]
                            for i in (last, fixed) if i is not None],
               "error": bug["error"], "fix": bug["fix"], "reports": bug["reports"]}
        rows.append(row)
    return {"releases": releases, "bugs": rows, "runtime_bugs": build_runtime(dirs, releases),
            "model_bugs": build_models(dirs, releases)}


def _q(s: str | None) -> str:
    return "null" if s is None else '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _row_tail(b: dict) -> list[str]:
    """The lines every kind of row ends with: the code read, what it prints, the fix and the reports."""
    return ["    evidence:",
            *(f"      - {{release: {_q(e['release'])}, file: {e['file']}, line: {e['line']}}}" for e in b["evidence"]),
            f"    error: {_q(b['error'])}", f"    fix: {_q(b['fix'])}",
            f"    reports: [{', '.join(_q(u) for u in b['reports'])}]"]


def dump(t: dict) -> str:
    out = ["# Loader bugs of some vLLM releases that a later release fixed, built by tools/vllm_release_bugs.py",
           "# from the unpacked sources (do not edit; the bugs and their reports are declared in the tool).",
           "#   affected: spans of scanned releases whose code reads the files the bug needs and lacks the fix",
           "#   fixed: the first scanned release with the fix after them; evidence: the code read (last",
           "#   affected, first fixed); load: the loader the launch goes through; checkpoint: what the",
           "#   repository must hold (consolidated_and_shards: a repository of consolidated_repos).",
           "version: 1",
           f"releases: [{', '.join(_q(v) for v in t['releases'])}]",
           "consolidated_repos:"]
    out += [f"  - {{repo: {r}, seen: {_q(u)}}}" for r, u in CONSOLIDATED_REPOS]
    out.append("bugs:")
    for b in t["bugs"]:
        out.append(f"  - id: {b['id']}")
        out.append(f"    load: {b['load']}")
        out.append(f"    checkpoint: {b['checkpoint']}")
        out.append(f"    affected: {sp(b['affected'])}")
        out.append(f"    fixed: {_q(b['fixed'])}")
        out += _row_tail(b)
    out += ["# affected: releases whose code sets the thing up without catching its failure; default_on: releases",
            "# whose envs.py turns `env` on by default; sizes: per affected release, the compute capabilities and",
            "# world sizes of the `group` the code sets it up for.",
            "runtime_bugs:"]
    for b in t["runtime_bugs"]:
        out.append(f"  - id: {b['id']}")
        out.append(f"    env: {b['env']}")
        out.append(f"    group: {b['group']}")
        out.append(f"    affected: {sp(b['affected'])}")
        out.append(f"    default_on: {sp(b['default_on'])}")
        out.append(f"    fixed: {_q(b['fixed'])}")
        out.append("    sizes:")
        for rel, caps in b["sizes"].items():
            out.append(f"      {_q(rel)}: {{{', '.join(f'{_q(c)}: [{chr(44).join(str(n) for n in ns)}]' for c, ns in caps.items())}}}")
        out += _row_tail(b)
    out += [MODEL_MARK + " a model class (`arch`) that fails on every launch in the affected releases; fixed:",
            "# the first scanned release whose code has the fix; config_lacks / config_has: only where config.json lacks / has that key;",
            "# hf_overrides_any: only where hf_overrides sets one of these (the class vLLM builds is then the override's), min_tp: from that TP;",
            "# min_pp: only from that pipeline-parallel size;",
            "# load: only through that loader; ignore_unfused: only where the checkpoint's ignore list names that fused layer's shards, not it.",
            "model_bugs:"]
    for b in t["model_bugs"]:
        out.append(f"  - id: {b['id']}")
        out.append(f"    arch: {b['arch']}")
        if b.get("config_lacks"):
            out.append(f"    config_lacks: {b['config_lacks']}")
        if b.get("config_has"):
            out.append(f"    config_has: {b['config_has']}")
        if b.get("hf_overrides_any"):
            out.append("    hf_overrides_any: {" + ", ".join(f"{k}: {json.dumps(v)}" for k, v in b["hf_overrides_any"].items()) + "}")
        if b.get("min_tp"):
            out.append(f"    min_tp: {b['min_tp']}")
        if b.get("min_pp"):
            out.append(f"    min_pp: {b['min_pp']}")
        if b.get("load"):
            out.append(f"    load: {b['load']}")
        if b.get("ignore_unfused"):
            out.append(f"    ignore_unfused: {b['ignore_unfused']}")
        out.append(f"    affected: {sp(b['affected'])}")
        out.append(f"    fixed: {_q(b['fixed'])}")
        out += _row_tail(b)
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", type=Path, action="append", default=None, help="a folder of unpacked releases (repeatable)")
    ap.add_argument("-o", "--output", type=Path, default=OUT)
    ap.add_argument("--check", action="store_true", help="exit 1 when the committed table differs from the sources")
    ap.add_argument("--models-only", action="store_true",
                    help="rebuild only model_bugs, keeping the committed table's other sections (sources that lack "
                         "the oldest releases cannot rebuild those)")
    a = ap.parse_args()
    text = dump(build(a.source or [Path("/work/sdists/src")]))
    if a.models_only:
        kept = a.output.read_text(encoding="utf-8") if a.output.is_file() else ""
        text = kept.split(MODEL_MARK, 1)[0] + MODEL_MARK + text.split(MODEL_MARK, 1)[1]
    return write_or_check(a.output, text, a.check)


if __name__ == "__main__":
    sys.exit(main())
