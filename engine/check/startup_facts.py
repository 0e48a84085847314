"""The `startup` facts the launch checks of the model, the GPU and memory (knowledge/checks/L.yaml,
L1–L29) read: what vLLM will resolve at start-up from the settings, the checkpoint and the GPU —
the tensor-parallel size that splits the heads, the dtype `--dtype auto` becomes, the quantization
method and the compute capability it needs, the context length the release derives, whether
chunked prefill is on, the attention backend a site forces. Each value is present only when the
facts it rests on are known, so a check that needs it is `unknown` rather than guessed. The
tables (minimum capabilities, accepted quantization pairs, float16-unsafe models, backend needs)
are knowledge/vllm/startup.yaml."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.memory.runtime import runtime, v1_certain
from vllm_kb.engine.check.startup_act_dtype import act_dtype_facts, cpu_quant_facts
from vllm_kb.engine.check.startup_awq_moe import awq_moe_facts
from vllm_kb.engine.check.startup_arch import arch_facts, mistral_format
from vllm_kb.engine.check.startup_fallback import fallback_facts
from vllm_kb.engine.check.transformers_fit import release_requires, tf_admits_type
from vllm_kb.engine.check.startup_attn import attn_facts
from vllm_kb.engine.check.startup_backend import backend_facts, env_backend_refused
from vllm_kb.engine.check.startup_block import block_facts
from vllm_kb.engine.check.startup_bnb import bnb_facts
from vllm_kb.engine.check.startup_build import build_facts
from vllm_kb.engine.check.startup_common import as_int
from vllm_kb.engine.check.startup_cudagraph import cudagraph_size_facts
from vllm_kb.engine.check.startup_dcp import dcp_facts
from vllm_kb.engine.check.startup_dp import dp_launch_facts, numa_facts
from vllm_kb.engine.check.draft_config import draft_lookup
from vllm_kb.engine.check.startup_drafter import drafter_arch, eagle3_target
from vllm_kb.engine.check.startup_dual_chunk import dual_chunk_facts
from vllm_kb.engine.check.startup_draft import draft_facts, forced_v1_refusal, mm_refused_draft, refused_draft
from vllm_kb.engine.check.startup_dtype import dtype_facts
from vllm_kb.engine.check.startup_kv import kv_facts
from vllm_kb.engine.check.startup_lengths import length_facts
from vllm_kb.engine.check.startup_lora_moe import lora_moe_facts
from vllm_kb.engine.check.startup_lora_vocab import lora_vocab_facts
from vllm_kb.engine.check.startup_mamba import mamba_spec_facts
from vllm_kb.engine.check.startup_mm_chunk import mm_chunk_facts
from vllm_kb.engine.check.startup_no_arch import no_arch_facts
from vllm_kb.engine.check.startup_modelcap import model_kernel_facts
from vllm_kb.engine.check.startup_paged import paged_facts
from vllm_kb.engine.check.startup_parallel import divides_heads, parallel_facts
from vllm_kb.engine.check.startup_prefix_prefill import prefix_prefill_facts, prefix_prefill_fp8_facts
from vllm_kb.engine.check.startup_quant import quant_facts
from vllm_kb.engine.check.startup_quant_group import group_guess
from vllm_kb.engine.check.startup_quant_tp import alignment_facts
from vllm_kb.engine.check.startup_release_bugs import (entrypoint_bug_facts, model_bug_facts, release_before_bug, release_bug_facts,
                                                       runtime_bug_facts)
from vllm_kb.engine.check.startup_selector import fp8_cache_on_triton, selector_facts
from vllm_kb.engine.check.startup_smem import smem_facts
from vllm_kb.engine.check.startup_version import version_facts
from vllm_kb.engine.check.startup_vision import vision_split, vision_unsplit
from vllm_kb.engine.check.startup_spec import spec_facts
from vllm_kb.engine.check.startup_spec_tokens import spec_tokens_facts
from vllm_kb.engine.check.startup_task import task_facts
from vllm_kb.engine.check.startup_tokenizer_files import params_file_facts, tokenizer_file_facts
from vllm_kb.engine.check.startup_vocab import vocab_facts
from vllm_kb.engine.check.startup_eplb import eplb_facts, eplb_moe_facts
from vllm_kb.engine.check.startup_window import window_rope_facts
from vllm_kb.engine.kb.catalog import Catalog
from vllm_kb.engine.kb.knowledge import Knowledge


def startup_facts(facts: dict, kb: Knowledge, cat: Catalog, version: str) -> dict[str, Any]:
    table = kb.doc("vllm", "startup.yaml").data
    model, engine, env = facts.get("model") or {}, facts.get("engine") or {}, facts.get("env") or {}
    gpu = facts.get("gpu") or {}
    out: dict[str, Any] = {"v1": (facts.get("vllm") or {}).get("engine", "v1" if runtime(version, env).v1 else "v0") == "v1"}
    # a P0 that rests on V1 needs it certain: 0.8-0.10 pick V0 by GPU and architecture
    out["v1_sure"] = out["v1"] and v1_certain(version, env, gpu.get("compute_capability"), model.get("architecture"),
                                                   facts)
    split = vision_split(model, engine, kb.doc("vllm", "vision_tp.yaml").data, version)
    # the vision heads count for TP only where this release splits them (no fallback, no data mode)
    out.update(parallel_facts(model if split else {k: v for k, v in model.items() if k != "vision_num_heads"}, engine, gpu))
    heads_model = model if split else {k: v for k, v in model.items() if k != "vision_num_heads"}
    unsplit = vision_unsplit(model, engine, kb.doc("vllm", "vision_tp.yaml").data, version, out.get("tp"))
    if unsplit:
        out["tp_vision_unsplit"] = unsplit
    # the site's own release: the catalog looks up releases older than it as its oldest
    out.update(vocab_facts(model, engine, kb.doc("vllm", "vocab_padding.yaml").data,
                           str((facts.get("vllm") or {}).get("version") or version),
                           lambda t: all(divides_heads(heads_model, t).values()), as_int(gpu.get("count"))))
    if "dtype" not in (facts.get("site") or {}).get("unread", ()):  # `$DTYPE`, or a wrapper's choice: not `auto`
        out.update(dtype_facts(model, engine, gpu, version, table))
    out.update(quant_facts(facts, table, cat, version))
    out.update(act_dtype_facts(facts, table, version, out))
    out.update(cpu_quant_facts(facts))
    out.update(awq_moe_facts(facts, table, version))
    out.update(eplb_facts(model, engine, version))
    out.update(dcp_facts(model, engine))
    unread = set((facts.get("site") or {}).get("unread", ()))
    out.update(dp_launch_facts(engine, str((facts.get("vllm") or {}).get("version") or version), unread))
    out.update(numa_facts(engine, str((facts.get("vllm") or {}).get("version") or version), unread))
    out.update(custom_ops_facts(facts.get("passed") or {}))
    out.update(pooler_facts(facts.get("passed") or {}))
    out.update(effort_map_facts(facts.get("passed") or {}))
    out.update(compile_mode_facts(facts.get("passed") or {}))
    out.update(cudagraph_size_facts(facts.get("passed") or {}, engine, (facts.get("site") or {}).get("platform")))
    ep = cat.engine_arg("enable_expert_parallel")
    out.update(alignment_facts(facts, kb.doc("vllm", "quant_alignment.yaml").data, table, out, version,
                               lambda t: all(divides_heads(heads_model, t).values()), bool(ep and ep.exists(version)),
                               kb.doc("models.yaml").data.get("publishers")))
    out.update(group_guess(facts, out))  # …and where the checkpoint's group size is not known (L75 at P1)
    out.update(length_facts(model, engine, env, facts, version, out["v1"]))
    out.update(smem_facts(model, engine, gpu, str((facts.get("vllm") or {}).get("version") or version), out.get("max_len")))
    out.update(mm_chunk_facts(model, engine, facts.get("passed") or {}, str((facts.get("vllm") or {}).get("version") or version),
                              out["v1"], out.get("max_len"), out.get("chunked_prefill")))
    out.update(window_rope_facts(model, engine, table, version))
    out.update(backend_facts(facts, table, cat, version))
    out.update(prefix_prefill_facts(facts, str((facts.get("vllm") or {}).get("version") or version), out["v1"],
                                    out.get("max_len"), out.get("backend")))
    out.update(prefix_prefill_fp8_facts(facts, str((facts.get("vllm") or {}).get("version") or version), out["v1"],
                                        out.get("max_len"), out.get("backend")))  # …on an fp8 KV cache below SM 8.9 (L8)
    selector = kb.doc("vllm", "attn_selector.yaml").data
    out.update(attn_facts(facts, kb.doc("vllm", "attention_refusals.yaml").data, version, out.get("backend"), out, selector))
    out.update(kv_facts(facts, kv_table(kb), version, out.get("backend")))
    out.update(selector_facts(facts, selector, version, out))
    out.update(block_facts(facts, version, out))
    out.update(env_backend_refused(facts, selector, version, out))
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
        types = kb.doc("vllm", "model_types.yaml").data
        out.update(fallback_facts(built, kb.doc("vllm", "transformers_backend.yaml").data, release, engine,
                                  tf_admits_type(types, built.get("model_type"), release)))
        if out.get("arch_fallback_fails") == "no_type":  # what the reason names: the type's first transformers, the release's range
            out.update(arch_tf_since=types["transformers_first"][built["model_type"]],
                       arch_tf_requires=release_requires(types.get("vllm_requires") or {}, release))
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
                                    as_int(engine.get("lora_extra_vocab_size")) or 256))
        out.update(lora_moe_facts(model, out.get("arch", model.get("architecture")), kb.doc("vllm", "lora_moe.yaml").data,
                                  vllm.get("version") or version))
    if engine.get("enable_eplb") is True:  # a MoE class without the MixtureOfExperts interface (L19)
        out.update(eplb_moe_facts(model, out.get("arch", model.get("architecture")), engine,
                                  kb.doc("vllm", "eplb_moe.yaml").data, vllm.get("version") or version))
    out.update(spec_facts(engine, facts.get("passed") or {}, out, vllm.get("version") or version))
    drafts = draft_lookup(facts, kb)  # a draft's own config.json where read, else its name's catalog entry
    out.update(spec_tokens_facts(engine, drafts, vllm.get("version") or version, model))
    out.update(tokenizer_file_facts(model, engine))
    out.update(params_file_facts(model, engine))  # --config-format mistral on a quantized re-upload (L165)
    out.update(dual_chunk_facts(model, out.get("arch", model.get("architecture")), kb.doc("vllm", "dual_chunk.yaml").data,
                                str(vllm.get("version") or version).partition("+")[0], out, gpu, env))
    out.update(no_arch_facts(model, engine, kb.doc("vllm", "no_architectures.yaml").data, vllm.get("version") or version))
    out.update(release_bug_facts(model, engine, kb.doc("vllm", "release_bugs.yaml").data, vllm.get("version") or version))
    if "release_bug" not in out:
        out.update(model_bug_facts(out.get("arch", built.get("architecture")), engine, kb.doc("vllm", "release_bugs.yaml").data,
                                   vllm.get("version") or version, model, out.get("arch_fallback")))
        out.update(release_before_bug(out, kb.doc("vllm", "release_bugs.yaml").data, kb.doc("vllm", "architectures.yaml").data,
                                      vllm.get("version") or version, facts.get("passed") or {}, cat))
    out.update(runtime_bug_facts(engine, env, gpu, kb.doc("vllm", "release_bugs.yaml").data, vllm.get("version") or version,
                                 facts.get("site") or {}))
    if "runtime_bug" not in out:
        out.update(entrypoint_bug_facts(facts.get("site") or {}, kb.doc("vllm", "release_bugs.yaml").data, vllm.get("version") or version))
    out.update(draft_facts(engine, model, kb.models, vllm.get("version") or version, drafts))
    spec = engine.get("speculative_config")
    draft_of = drafts(spec.get("model")) if isinstance(spec, dict) and isinstance(spec.get("model"), str) else None
    if (refused := refused_draft(engine, vllm.get("version") or version, draft_of, model)) is not None:
        out["spec_refused_draft"] = refused
    if (mm := mm_refused_draft(engine, model, vllm.get("version") or version)) is not None:
        out["spec_draft_mm_refused"] = mm
    if forced_v1_refusal(engine, facts.get("env") or {}, cat.feature("spec_decode.v1_methods", version), vllm.get("version") or version):
        out["spec_forced_v1_refused"] = True
    spec_table, release = kb.doc("vllm", "spec_decode.yaml").data, vllm.get("version") or version
    out.update(drafter_arch(engine, {**model, "architecture": out.get("arch", model.get("architecture"))}, drafts, kb.doc("vllm", "architectures.yaml").data,
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


def custom_ops_facts(passed: dict) -> dict[str, Any]:
    """The compilation_config custom_ops entries vLLM's CompilationConfig refuses (L190):
    `custom_ops_bad`, not 'all' or 'none', nor '+name' / '-name' (0.11.0+); `custom_ops_base_modes`,
    more than one 'all'/'none' (0.6.5+); `custom_ops_conflict`, ops both enabled and disabled (0.27.0+).
    Only a list of strings is judged."""
    ops = (passed.get("compilation_config") or {}).get("custom_ops") if isinstance(passed.get("compilation_config"), dict) else None
    if not isinstance(ops, list) or not all(isinstance(op, str) for op in ops):
        return {}
    out: dict[str, Any] = {}
    if bad := [op for op in ops if not (op in ("all", "none") or (op[:1] in ("+", "-") and len(op) >= 2))]:
        out["custom_ops_bad"] = bad
    if len(base := [op for op in ops if op in ("all", "none")]) > 1:
        out["custom_ops_base_modes"] = base
    if conflict := sorted({op[1:] for op in ops if op[:1] == "+"} & {op[1:] for op in ops if op[:1] == "-"}):
        out["custom_ops_conflict"] = conflict
    return out


def pooler_facts(passed: dict) -> dict[str, Any]:
    """`pooler_refused`: the pooler_config pairs and values PoolerConfig.__post_init__ refuses, in the
    order it meets them (vllm/config/pooler.py 0.20.0:121-162; L257): both logit_bias and logit_mean,
    both logit_scale and logit_sigma, a zero logit_scale (these three 0.20.0-0.22.1), a zero
    logit_sigma (0.20.0+), pooling_type beside seq_pooling_type or tok_pooling_type (0.14.0+). The rule
    gates each by release. Only a mapping written as such is judged (a None value counts as unset)."""
    cfg = passed.get("pooler_config")
    if not isinstance(cfg, dict):
        return {}
    given = {k for k, v in cfg.items() if v is not None}
    zero = {k for k in ("logit_scale", "logit_sigma") if isinstance(cfg.get(k), (int, float))
            and not isinstance(cfg.get(k), bool) and cfg[k] == 0}
    refused = [code for code, hit in (
        ("bias_and_mean", {"logit_bias", "logit_mean"} <= given),
        ("scale_and_sigma", {"logit_scale", "logit_sigma"} <= given),
        ("scale_zero", "logit_scale" in zero),
        ("sigma_zero", "logit_sigma" in zero),
        ("type_and_seq", {"pooling_type", "seq_pooling_type"} <= given),
        ("type_and_tok", {"pooling_type", "tok_pooling_type"} <= given)) if hit]
    return {"pooler_refused": refused} if refused else {}


# vLLM's ReasoningEffort literal, the keys --reasoning-effort-map may name (vllm/renderers/params.py
# 0.33.0:27, 0.34.0:27; the option arrived in 0.33.0)
REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")


def effort_map_facts(passed: dict) -> dict[str, Any]:
    """`effort_map_refused`: what validate_reasoning_effort_map refuses in the --reasoning-effort-map the
    launch passes (L265): "not_object", parsed JSON that is not an object or has a value that is not a
    string, else "unknown" with `effort_map_unknown`, the keys outside REASONING_EFFORTS (sorted, as
    vLLM lists them). A string is text the scan did not parse as JSON ($MAP, a shell word): not judged."""
    value = passed.get("reasoning_effort_map")
    if value is None or isinstance(value, str):
        return {}
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        return {"effort_map_refused": "not_object"}
    if unknown := sorted(str(k) for k in set(value) - set(REASONING_EFFORTS)):
        return {"effort_map_refused": "unknown", "effort_map_unknown": unknown}
    return {}


# CompilationMode's member names, the strings compilation_config's mode may be written as (any case);
# the same four from 0.11.1 to 0.34.0 (vllm/config/compilation.py)
COMPILATION_MODES = ("NONE", "STOCK_TORCH_COMPILE", "DYNAMO_TRACE_ONCE", "VLLM_COMPILE")


def compile_mode_facts(passed: dict) -> dict[str, Any]:
    """`compile_mode_bad`: a compilation_config mode written as a string that names no CompilationMode
    member ("max-autotune", "3"), which validate_mode_before refuses (L275). A number is left to
    pydantic; a non-string is not judged."""
    cfg = passed.get("compilation_config")
    mode = cfg.get("mode") if isinstance(cfg, dict) else None
    if isinstance(mode, str) and mode.upper() not in COMPILATION_MODES:
        return {"compile_mode_bad": mode}
    return {}
