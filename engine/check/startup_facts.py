"""The `startup` facts the launch checks of the model, the GPU and memory (knowledge/checks/L.yaml,
L1–L29) read: what vLLM will resolve at start-up from the settings, the checkpoint and the GPU —
the tensor-parallel size that splits the heads, the dtype `--dtype auto` becomes, the quantization
method and the compute capability it needs, the context length the release derives, whether
chunked prefill is on, the attention backend a site forces. Each value is present only when the
facts it rests on are known, so a check that needs it is `unknown` rather than guessed. The
tables (minimum capabilities, accepted quantization pairs, float16-unsafe models, backend needs)
are knowledge/vllm/startup.yaml."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.check.memory.runtime import human_int, runtime
from vllm_kb.engine.check.startup_act_dtype import act_dtype_facts
from vllm_kb.engine.check.startup_arch import arch_facts, mistral_format
from vllm_kb.engine.check.startup_fallback import fallback_facts
from vllm_kb.engine.check.transformers_fit import tf_admits_type
from vllm_kb.engine.check.startup_attn import attn_facts
from vllm_kb.engine.check.startup_block import block_facts
from vllm_kb.engine.check.startup_bnb import bnb_facts
from vllm_kb.engine.check.startup_build import build_facts
from vllm_kb.engine.check.startup_drafter import drafter_arch, eagle3_target
from vllm_kb.engine.check.startup_dual_chunk import dual_chunk_facts
from vllm_kb.engine.check.startup_draft import draft_facts, forced_v1_refusal, mm_refused_draft, refused_draft
from vllm_kb.engine.check.startup_kv import kv_facts
from vllm_kb.engine.check.startup_lora_vocab import lora_vocab_facts
from vllm_kb.engine.check.startup_mamba import mamba_spec_facts
from vllm_kb.engine.check.startup_mm_chunk import mm_chunk_facts
from vllm_kb.engine.check.startup_modelcap import model_kernel_facts
from vllm_kb.engine.check.startup_paged import paged_facts
from vllm_kb.engine.check.startup_prefix_prefill import prefix_prefill_facts
from vllm_kb.engine.check.startup_quant import quant_facts
from vllm_kb.engine.check.startup_quant_tp import alignment_facts
from vllm_kb.engine.check.startup_release_bugs import model_bug_facts, release_bug_facts, runtime_bug_facts
from vllm_kb.engine.check.startup_selector import fp8_cache_on_triton, selector_facts
from vllm_kb.engine.check.startup_version import version_facts
from vllm_kb.engine.check.startup_vision import vision_split, vision_unsplit
from vllm_kb.engine.check.startup_spec import spec_facts
from vllm_kb.engine.check.startup_spec_tokens import spec_tokens_facts
from vllm_kb.engine.check.startup_task import task_facts
from vllm_kb.engine.check.startup_tokenizer_files import tokenizer_file_facts
from vllm_kb.engine.check.startup_vocab import vocab_facts
from vllm_kb.engine.check.startup_eplb import eplb_facts
from vllm_kb.engine.check.startup_window import flag_caps_window, release_turns_window_off, window_rope_facts
from vllm_kb.engine.kb.catalog import Catalog
from vllm_kb.engine.kb.dependency_pins import requires
from vllm_kb.engine.kb.knowledge import Knowledge
from vllm_kb.engine.kb.models import head_dim, model_facts
from vllm_kb.engine.kb.versions import SpecifierSet, Version, try_parse

_TP_LIMIT = 64


def _int(v) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def since(version: str | None, release: str) -> bool:
    v = try_parse(version) if version else None
    return v is None or not v < Version(release)


def startup_facts(facts: dict, kb: Knowledge, cat: Catalog, version: str) -> dict[str, Any]:
    table = kb.doc("vllm", "startup.yaml").data
    model, engine, env = facts.get("model") or {}, facts.get("engine") or {}, facts.get("env") or {}
    gpu = facts.get("gpu") or {}
    out: dict[str, Any] = {"v1": (facts.get("vllm") or {}).get("engine", "v1" if runtime(version, env).v1 else "v0") == "v1"}
    split = vision_split(model, engine, kb.doc("vllm", "vision_tp.yaml").data, version)
    # the vision heads count for TP only where this release splits them (no fallback, no data mode)
    out.update(_parallel(model if split else {k: v for k, v in model.items() if k != "vision_num_heads"}, engine, gpu))
    heads_model = model if split else {k: v for k, v in model.items() if k != "vision_num_heads"}
    unsplit = vision_unsplit(model, engine, kb.doc("vllm", "vision_tp.yaml").data, version, out.get("tp"))
    if unsplit:
        out["tp_vision_unsplit"] = unsplit
    # the site's own release: the catalog looks up releases older than it as its oldest
    out.update(vocab_facts(model, engine, kb.doc("vllm", "vocab_padding.yaml").data,
                           str((facts.get("vllm") or {}).get("version") or version),
                           lambda t: all(divides_heads(heads_model, t).values()), _int(gpu.get("count"))))
    if "dtype" not in (facts.get("site") or {}).get("unread", ()):  # `$DTYPE`, or a wrapper's choice: not `auto`
        out.update(_dtype(model, engine, gpu, version, table))
    out.update(quant_facts(facts, table, cat, version))
    out.update(act_dtype_facts(facts, table, version, out))
    out.update(eplb_facts(model, engine, version))
    ep = cat.engine_arg("enable_expert_parallel")
    out.update(alignment_facts(facts, kb.doc("vllm", "quant_alignment.yaml").data, table, out, version,
                               lambda t: all(divides_heads(heads_model, t).values()), bool(ep and ep.exists(version)),
                               kb.doc("models.yaml").data.get("publishers")))
    out.update(_lengths(model, engine, env, facts, version, out["v1"]))
    out.update(mm_chunk_facts(model, engine, facts.get("passed") or {}, str((facts.get("vllm") or {}).get("version") or version),
                              out["v1"], out.get("max_len"), out.get("chunked_prefill")))
    out.update(window_rope_facts(model, engine, table, version))
    out.update(_backend(facts, table, cat, version))
    out.update(prefix_prefill_facts(facts, str((facts.get("vllm") or {}).get("version") or version), out["v1"],
                                    out.get("max_len"), out.get("backend")))
    selector = kb.doc("vllm", "attn_selector.yaml").data
    out.update(attn_facts(facts, kb.doc("vllm", "attention_refusals.yaml").data, version, out.get("backend"), out, selector))
    out.update(kv_facts(facts, kv_table(kb), version, out.get("backend")))
    out.update(selector_facts(facts, selector, version, out))
    out.update(block_facts(facts, version, out))
    out.update(_env_backend_refused(facts, selector, version, out))
    out.update(paged_facts(facts, kb.doc("vllm", "paged_head_sizes.yaml").data, selector, version, out))
    if "kv_refused" not in out and (kv_facts({**facts, "engine": {**engine, "kv_cache_dtype": "fp8"}}, kv_table(kb), version,
                                             out.get("backend")) or fp8_cache_on_triton(facts, selector, version, out)):
        out["fp8_kv_refused"] = True  # what B3/F4 would propose stops the launch here (L8)
    # the class vLLM builds: under config_format=mistral params.json's, not config.json's (L21, L22, L60, kernels)
    built = mistral_format(model, engine)
    out.update(arch_facts(built, kb.doc("vllm", "architectures.yaml").data, version,
                           _transformers_classes(kb) if model.get("auto_map") is not None else None))
    if out.get("arch_fallback") in ("text", "transformers"):
        release = str((facts.get("vllm") or {}).get("version") or version)
        out.update(fallback_facts(built, kb.doc("vllm", "transformers_backend.yaml").data, release, engine,
                                  tf_admits_type(kb.doc("vllm", "model_types.yaml").data, built.get("model_type"), release)))
    out.update(task_facts(built, engine, kb.doc("vllm", "runners.yaml").data, kb.doc("vllm", "architectures.yaml").data,
                          str((facts.get("vllm") or {}).get("version") or version), (facts.get("site") or {}).get("syntax")))
    out.update(model_kernel_facts(out.get("arch", model.get("architecture")), facts.get("gpu") or {},
                                  kb.doc("vllm", "model_kernels.yaml").data, str((facts.get("vllm") or {}).get("version") or version)))
    if out.get("arch_registered"):
        out.update(version_facts(model, kb.doc("vllm", "model_versions.yaml").data, version))
    if out.get("arch_registered") and ("quant_bnb_prequant" in out or "bitsandbytes" in (engine.get("quantization"), engine.get("load_format"))):
        out.update(bnb_facts(built, kb.doc("vllm", "bnb_support.yaml").data, version))
    vllm = facts.get("vllm") or {}  # the release itself, not the catalog's nearest (0.9.2 is not 0.9.1)
    if engine.get("enable_lora") is True:
        out.update(lora_vocab_facts({**model, "architecture": out.get("arch", model.get("architecture"))},
                                    kb.doc("vllm", "lora_vocab.yaml").data, vllm.get("version") or version,
                                    _int(engine.get("lora_extra_vocab_size")) or 256))
    out.update(spec_facts(engine, facts.get("passed") or {}, out, vllm.get("version") or version))
    out.update(spec_tokens_facts(engine, kb.models, vllm.get("version") or version, model))
    out.update(tokenizer_file_facts(model, engine))
    out.update(dual_chunk_facts(model, out.get("arch", model.get("architecture")), kb.doc("vllm", "dual_chunk.yaml").data,
                                str(vllm.get("version") or version).partition("+")[0], out, gpu, env))
    out.update(release_bug_facts(model, engine, kb.doc("vllm", "release_bugs.yaml").data, vllm.get("version") or version))
    if "release_bug" not in out:
        out.update(model_bug_facts(out.get("arch", built.get("architecture")), engine, kb.doc("vllm", "release_bugs.yaml").data,
                                   vllm.get("version") or version, model))
    out.update(runtime_bug_facts(engine, env, gpu, kb.doc("vllm", "release_bugs.yaml").data, vllm.get("version") or version))
    out.update(draft_facts(engine, model, kb.models, vllm.get("version") or version))
    if (refused := refused_draft(engine, vllm.get("version") or version)) is not None:
        out["spec_refused_draft"] = refused
    if (mm := mm_refused_draft(engine, model, vllm.get("version") or version)) is not None:
        out["spec_draft_mm_refused"] = mm
    if forced_v1_refusal(engine, facts.get("env") or {}, cat.feature("spec_decode.v1_methods", version), vllm.get("version") or version):
        out["spec_forced_v1_refused"] = True
    spec_table, release = kb.doc("vllm", "spec_decode.yaml").data, vllm.get("version") or version
    out.update(drafter_arch(engine, {**model, "architecture": out.get("arch", model.get("architecture"))}, lambda name: model_facts(name, kb.models, []), kb.doc("vllm", "architectures.yaml").data,
                            spec_table, release))
    out.update(eagle3_target(engine, model, spec_table, release, out.get("arch") if out.get("arch_registered") else None))
    out.update(mamba_spec_facts(engine, model, out.get("arch", model.get("architecture")), out["v1"],
                                kb.doc("vllm", "mamba_spec.yaml").data, vllm.get("version") or version))
    out.update(build_facts(facts, kb.doc("vllm", "cuda_builds.yaml").data, vllm.get("version") or version,
                           vllm.get("basis")))
    return out


def _transformers_classes(kb: Knowledge) -> dict:
    """transformers' model classes (knowledge/vllm/transformers_classes.yaml), the wheels read, and
    the release that first maps each model type (model_types.yaml), for the fallback's look-up."""
    classes = kb.doc("vllm", "transformers_classes.yaml").data or {}
    return {"classes": frozenset(classes.get("classes") or ()), "scanned": classes.get("transformers_scanned") or ["0"],
            "first": (kb.doc("vllm", "model_types.yaml").data or {}).get("transformers_first") or {}}


def kv_table(kb: Knowledge) -> dict:
    try:
        return kb.doc("vllm", "kv_cache.yaml").data
    except FileNotFoundError:
        return {}


# --- tensor parallelism -------------------------------------------------------------------

def divides_heads(model: dict, tp: int) -> dict[str, bool]:
    """Each of vLLM's rules for splitting heads over `tp` ranks, where the heads are known:
    query heads evenly (ModelConfig.verify_with_parallel_config), KV heads evenly or replicated a
    whole number of times (QKVParallelLinear → divide()), the vision tower's heads evenly."""
    out = {}
    heads = _int(model.get("num_attention_heads"))
    if heads:
        out["heads"] = heads % tp == 0
    kv = _int(model.get("num_key_value_heads"))
    if kv and not model.get("kv_lora_rank"):
        out["kv"] = (tp % kv == 0) if tp >= kv else (kv % tp == 0)
    vision = _int(model.get("vision_num_heads"))
    if vision and model.get("multimodal", True):
        out["vision"] = vision % tp == 0
    return out


# FlashAttentionBackend.get_supported_head_sizes() of the V1 engine (0.6.4–0.11.0)
FLASH_ATTN_HEAD_SIZES = frozenset({32, 64, 96, 128, 160, 192, 224, 256})


def _parallel(model: dict, engine: dict, gpu: dict) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if model.get("hidden_size") and model.get("num_attention_heads") and not model.get("kv_lora_rank"):
        out["head_size"] = head_dim(model)
        out["head_size_fa_ok"] = out["head_size"] in FLASH_ATTN_HEAD_SIZES
    if "tensor_parallel_size" not in engine:
        return out  # written but unreadable (`--tensor-parallel-size $TP`): the split is unknown
    tp = _int(engine.get("tensor_parallel_size")) or 1
    out["tp"] = tp
    rules = divides_heads(model, tp)
    if not rules:
        return out
    out.update({f"tp_{k}_ok": v for k, v in rules.items()})
    if all(rules.values()):
        return out
    # the nearest TP that satisfies every rule vLLM applies: the smallest above the asked one when
    # the GPUs the site has allow it (each GPU then holds less than was planned, so the memory
    # still fits), else the largest below
    count = _int(gpu.get("count"))
    up = [t for t in range(tp + 1, min(count or tp, _TP_LIMIT) + 1) if all(divides_heads(model, t).values())]
    cap = min(tp, count or tp, _TP_LIMIT)
    out["tp_fit"] = up[0] if up else next(t for t in range(cap, 0, -1) if all(divides_heads(model, t).values()))
    return out


# --- dtype --------------------------------------------------------------------------------

_EXPLICIT = {"half": "float16", "float16": "float16", "bfloat16": "bfloat16", "float": "float32", "float32": "float32"}


def window_capped(model: dict, table: dict, version: str, flag_off: bool = False) -> dict:
    """The model as the release sizes it: V0 releases that cannot run interleaved sliding-window
    attention turn it off and cap the context to the window, and so does --disable-sliding-window
    (`flag_off`) from 0.4.3 (knowledge/vllm/startup.yaml lengths)."""
    if not release_turns_window_off(model, table, version) and not (flag_off and flag_caps_window(model, table, version)):
        return model
    window, limit = model["sliding_window_size"], _int(model.get("max_context"))
    return {**model, "max_context": window, "max_len_key": "sliding_window"} if limit and limit > window else model


def float16_unsupported(table: dict, version: str) -> list[str]:
    for row in table["dtype"]["float16_unsupported"]:
        if SpecifierSet(row["vllm"]).contains(version):
            return list(row["model_types"])
    return []


# a framework whose code picks the dtype from the GPU and the checkpoint (knowledge/frameworks `fixed`)
DEVICE_PICKED = "infer_optim_dtype"


def _torch_emulates_bf16(release: str | None) -> bool:
    """Whether every torch the vLLM release requires is 2.3 or later, whose
    torch.cuda.is_bf16_supported() answers True on any CUDA GPU that can hold a bfloat16 tensor
    (pytorch#115924, first in 2.3.0; 2.2.2 still says False on a V100: pytorch#124996)."""
    spec = (requires(str(release)).get("torch") or {}).get("spec") if release else None
    m = re.fullmatch(r"\s*(==|>=)\s*(\d+\.\d+)(\.\d+)?\s*", spec or "")
    return m is not None and Version(m.group(2)) >= Version("2.3")


def device_picked_dtype(fixed: dict, model: dict | None, gpu: dict | None, release: str | None = None) -> dict:
    """The framework's own arguments with LLaMA-Factory 0.7's infer_optim_dtype resolved: bfloat16
    for a bfloat16 checkpoint where transformers' is_torch_bf16_gpu_available() says so, else float16;
    a checkpoint whose torch_dtype is unknown leaves vLLM's auto, which picks the same. That helper
    asks torch.cuda.is_bf16_supported(), which from torch 2.3 (vLLM 0.4.2's pin) says yes on a V100
    or T4 too, so the GPU is asked only under an older torch (an unknown GPU taken to have it)."""
    if fixed.get("dtype") != DEVICE_PICKED:
        return fixed
    cc, ckpt = (gpu or {}).get("compute_capability"), (model or {}).get("torch_dtype")
    has_bf16 = cc is None or cc >= 8.0 or _torch_emulates_bf16(release)
    picked = "auto" if not ckpt else "bfloat16" if ckpt == "bfloat16" and has_bf16 else "float16"
    return {**fixed, "dtype": picked}


def _dtype(model: dict, engine: dict, gpu: dict, version: str, table: dict) -> dict[str, Any]:
    """The dtype vLLM runs the model in (ModelConfig._get_and_verify_dtype): an explicit --dtype
    as given; `auto` keeps the checkpoint's torch_dtype (float32 → float16) up to 0.8.x, and from
    0.9.0 falls back to what the GPU supports (bfloat16 needs capability 8.0; 0.9.1+ never picks
    float16 for the models it calls numerically unstable in it)."""
    out: dict[str, Any] = {}
    unsafe = model.get("model_type") in float16_unsupported(table, version)
    if model.get("model_type"):
        out["float16_unsafe"] = unsafe
    asked = str(engine.get("dtype") or "auto").strip().lower().removeprefix("torch.")
    if asked in _EXPLICIT:
        return {**out, "dtype": _EXPLICIT[asked], "dtype_explicit": True}
    if asked != "auto":
        return out
    ckpt = model.get("torch_dtype")
    if not ckpt:
        return out
    out["dtype_explicit"] = False
    if not since(version, "0.9.0"):
        out["dtype"] = "float16" if ckpt == "float32" else ckpt
        return out
    cc = gpu.get("compute_capability")
    if cc is None:
        return out
    supported = ["bfloat16", "float16", "float32"] if cc >= 8.0 else ["float16", "float32"]
    if since(version, "0.9.1") and unsafe:
        supported.remove("float16")
    out["dtype"] = supported[0] if ckpt == "float32" or ckpt not in supported else ckpt
    return out


# --- lengths and the scheduler ------------------------------------------------------------

def _lengths(model: dict, engine: dict, env: dict, facts: dict, version: str, v1: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    limit = _int(model.get("max_context"))
    if limit:
        out["max_len_limit"] = limit
        out["max_len_key"] = model.get("max_len_key") or "max_position_embeddings"
        if model.get("max_context_family"):
            out["max_len_family"] = True
        elif _local_copy(str(model.get("name") or "")) and model.get("arch_source") != "config.json":
            # a local folder whose config.json is not read: the limit is the upload's, and a local
            # copy is where users add rope_scaling (L14 says P1)
            out["max_len_unread"] = True
    # vLLM 0.4.0+ accepts a max_model_len above the derived length up to the config's own
    # model_max_length (_get_and_verify_max_len; vllm#3727 for Command-R); the derived length never
    # exceeds it, so a larger value is refused even where the derived one is unknown
    override = _int(model.get("model_max_length"))
    if override and since(version, "0.4.0"):
        out["max_len_override"] = override
        if not limit:
            out["max_len_limit"], out["max_len_key"] = override, "model_max_length"
    given = human_int(engine.get("max_model_len"))
    if given and given > 0:
        out["max_len"] = given
    elif limit:
        out["max_len"] = limit
    out["long_len_allowed"] = (since(version, "0.5.4")
                               and str(env.get("VLLM_ALLOW_LONG_MAX_MODEL_LEN", "")).strip().lower() in ("1", "true"))
    # only a value the project or its framework passes: the one vLLM picks itself is kept ≥ max_model_len without
    # chunked prefill (and capped at max_num_seqs × max_model_len), so it never trips L17
    mnbt = human_int((facts.get("passed") or facts.get("args") or {}).get("max_num_batched_tokens"))
    if mnbt:
        out["max_num_batched_tokens"] = mnbt
    chunked = _chunked_prefill(engine, version, v1, out.get("max_len"), bool((facts.get("site") or {}).get("pooling")))
    if chunked is not None:
        out["chunked_prefill"] = chunked
    return out


def _local_copy(name: str) -> bool:
    """A folder of the user's own (not a Hugging Face cache snapshot, not a single GGUF file, which
    are the upload as published)."""
    low = name.lower()
    return (name.startswith(("/", "./", "../", "~")) and not low.endswith(".gguf")
            and not any(k in low for k in ("/huggingface/", "models--", "/hub/")))


def _chunked_prefill(engine: dict, version: str, v1: bool, max_len: int | None, pooling: bool) -> bool | None:
    """Whether vLLM runs with chunked prefill: V1 always for generative models up to 0.11.0 (it
    overrides the flag), as set from 0.11.1; V0 as set, else on by itself above a 32K context
    (0.5.3+, when nothing in the way) — that case is left undecided."""
    asked = engine.get("enable_chunked_prefill")
    asked = asked if isinstance(asked, bool) else None
    if v1 and not pooling and not since(version, "0.11.1"):
        return True
    if v1:
        return asked if asked is not None else not pooling
    if asked is not None:
        return asked
    if max_len is None:
        return None
    if max_len > 32768 and since(version, "0.5.3"):
        return None
    return False


# --- attention backend --------------------------------------------------------------------

def _env_backend_refused(facts: dict, selector: dict, version: str, startup: dict) -> dict[str, Any]:
    """startup.env_backend_refused: the backend VLLM_ATTENTION_BACKEND names is one the selector
    would refuse for this model on this GPU if it were forced with --attention-backend (0.13+,
    where F2 proposes that move): the move must not be proposed then."""
    name = (facts.get("env") or {}).get("VLLM_ATTENTION_BACKEND")
    if not isinstance(name, str) or not name.strip() or (facts.get("engine") or {}).get("attention_backend") \
            or not since(version, "0.13.0"):
        return {}
    got = selector_facts(facts, selector, version, {**startup, "backend": name.strip()})
    return {"env_backend_refused": True} if got.get("attn_forced_invalid") else {}


def _backend(facts: dict, table: dict, cat: Catalog, version: str) -> dict[str, Any]:
    """The attention backend a site forces: `--attention-backend` (0.13+), else the
    VLLM_ATTENTION_BACKEND variable in the releases that read it (0.4.2–0.14.x)."""
    engine, env, gpu = facts.get("engine") or {}, facts.get("env") or {}, facts.get("gpu") or {}
    name = engine.get("attention_backend") if since(version, "0.13.0") else None
    if not name and since(version, "0.4.2") and not since(version, "0.15.0"):
        name = env.get("VLLM_ATTENTION_BACKEND")
    if not isinstance(name, str) or not name.strip():
        return {}
    name = name.strip()
    out: dict[str, Any] = {"backend": name}
    e = cat.enum("attention_backends")
    if e is not None and e.exists(version):
        out["backend_known"] = name in (e.field("values", version) or [])
    need = table["attention"]["backends"].get(name)
    cc = gpu.get("compute_capability")
    if need is not None and cc is not None:
        ok = cc >= need["min"] if "min" in need else True
        if "majors" in need:
            ok = ok and int(cc) in need["majors"]
        out["backend_gpu_ok"] = ok
    return out
