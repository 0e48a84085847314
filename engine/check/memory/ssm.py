"""The recurrent state of hybrid Mamba / linear-attention models (Jamba, Bamba, Nemotron-H,
Granite-4.0-H, Falcon-H1, Zamba2, Qwen3-Next, Qwen3.5) as each vLLM release sizes it. The
per-release facts are knowledge/vllm/mamba_spec.yaml `sizing` (tools/vllm_mamba_spec.py).

V1 (from 0.10.0): every state layer is a KV-cache layer whose page is one request's whole state.
vLLM raises the attention block size to the smallest multiple of 16 tokens whose attention page
holds a state ("Setting attention block size to N tokens", HybridAttentionMambaModelConfig, then
Platform.update_block_size_for_backend) and pads the state page to that page; attention and
state layers are grouped like full and sliding-window layers, and a request holds one block per
state group (two with prefix caching's "align" mode, the default for hybrids from 0.26.0).

V0 (up to 0.10.x with VLLM_USE_V1=0, and before V1 ran these models): the KV cache holds the
attention layers only, and MambaCacheManager allocates max_num_seqs states (padded to a CUDA-graph
batch size) during the profile run, which the KV cache then does without."""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

from vllm_kb.engine.kb.models import ceil_div

_DTYPE_BYTES = {"float32": 4, "fp32": 4, "float": 4, "bfloat16": 2, "float16": 2, "half": 2, "bf16": 2, "fp16": 2}
ALIGN = 16  # attention kernels' block-size multiple (kernel_block_alignment_size)


@functools.lru_cache(maxsize=1)
def _sizing() -> dict[str, dict]:
    from vllm_kb.engine.kb import knowledge

    return knowledge.load().doc("vllm", "mamba_spec.yaml").data.get("sizing") or {}


def sizing_row(version: str | None) -> dict | None:
    """The release's sizing facts; the newest release read for an unknown or unparsed one."""
    table = _sizing()
    if not table:
        return None
    if version and version in table:
        return table[version]
    from vllm_kb.engine.kb.versions import Version, try_parse

    v = try_parse(version) if version else None
    known = sorted(table, key=Version)
    if v is None:
        return table[known[-1]]
    older = [k for k in known if not v < Version(k)]
    # a release between two read ones behaves as the older; one before the first keeps nothing
    return table[older[-1]] if older else None


def _model_dtype_bytes(engine: dict, model: dict) -> int:
    dtype = str(engine.get("dtype") or "auto").lower()
    if dtype == "auto":
        dtype = str(model.get("torch_dtype") or "bfloat16").lower()
    return _DTYPE_BYTES.get(dtype, 2)


def state_dtypes(model: dict, engine: dict, row: dict | None) -> tuple[int, int]:
    """Bytes per element of the conv state and of the SSM (temporal) state."""
    base = _model_dtype_bytes(engine, model)
    conv = _DTYPE_BYTES.get(str(engine.get("mamba_cache_dtype") or "auto").lower(), base)
    ssm = model.get("ssm") or {}
    asked = str(engine.get("mamba_ssm_cache_dtype") or "auto").lower()
    if asked == "auto" and row:
        rule = (row.get("ssm_dtype") or {}).get(str(model.get("architecture") or ""))
        if rule:
            asked = ssm.get("config_dtype") or rule.get("default") or "auto"
    temporal = _DTYPE_BYTES.get(asked, conv)
    if ssm.get("kind") == "gdn" and row is not None and not row.get("gdn_ssm_dtype"):
        temporal = conv  # the Gated DeltaNet state took the conv dtype before 0.17.0
    return conv, temporal


def state_bytes(model: dict, engine: dict, tp: int, row: dict | None) -> int:
    """One layer's state for one request on one GPU (MambaStateShapeCalculator)."""
    s = model.get("ssm") or {}
    conv_b, ssm_b = state_dtypes(model, engine, row)
    k = int(s.get("conv_kernel") or 4) - 1
    kind = s.get("kind")
    tp = max(1, tp)
    if kind == "mamba1":
        inner = int(s["intermediate"]) // tp
        return inner * k * conv_b + inner * int(s["state"]) * ssm_b
    if kind == "mamba2":
        groups = int(s.get("groups") or 1)
        groups += 0 if groups % tp == 0 else tp - groups
        conv_dim = (int(s["intermediate"]) + 2 * groups * int(s["state"])) // tp
        return k * conv_dim * conv_b + int(s["heads"]) // tp * int(s["head_dim"]) * int(s["state"]) * ssm_b
    if kind == "gdn":
        conv_dim = (2 * int(s["k_heads"]) * int(s["k_dim"]) + int(s["v_heads"]) * int(s["v_dim"])) // tp
        return k * conv_dim * conv_b + int(s["v_heads"]) // tp * int(s["k_dim"]) * int(s["v_dim"]) * ssm_b
    return 0


@dataclass(frozen=True)
class SSMPlan:
    v1: bool              # the hybrid KV-cache manager holds the state (else V0's MambaCacheManager)
    attention: int        # attention layers on this GPU
    state_layers: int     # state layers on this GPU
    state: int            # bytes of one layer's state for one request
    block: int            # attention block size after vLLM raised it (V1)
    state_blocks: int     # blocks a state group holds per request (V1)
    group_ratio: float | None
    v0_state_total: float  # bytes V0 allocates for the states of max_num_seqs requests


def plan(model: dict, engine: dict, tp: int, layers: int, v1: bool, version: str | None,
         attn_bytes_per_token: float, block: int | None) -> SSMPlan | None:
    """How this GPU (holding `layers` of the model) keeps the state; None for a model without."""
    s = model.get("ssm")
    total = model.get("num_hidden_layers")
    if not s or not total:
        return None
    row = sizing_row(version)
    attn = round(int(model.get("num_attention_layers") or 0) * layers / total)
    state_layers = round(int(s.get("layers") or 0) * layers / total)
    one = state_bytes(model, engine, tp, row)
    if row is None or one <= 0:
        return None
    on_v1 = v1 and bool(row.get("block_raise")) and str(model.get("architecture") or "") not in _v0_only(version)
    if not on_v1:
        seqs = int(engine.get("max_num_seqs") or 256)
        if not engine.get("enforce_eager"):
            seqs = ceil_div(seqs, 8) * 8  # pad_for_cudagraph: the capture sizes step by 8
        # V0 allocates both states in the model dtype
        per = state_bytes(dict(model, ssm=dict(s, config_dtype=None)), {"dtype": engine.get("dtype")}, tp, None)
        return SSMPlan(False, attn, state_layers, per, block or ALIGN, 1, None, float(per * seqs * state_layers))
    raised = block or ALIGN
    if attn and attn_bytes_per_token > 0:
        need = ALIGN * ceil_div(one, int(ALIGN * attn_bytes_per_token))
        raised = max(raised, need)
    caching = engine.get("enable_prefix_caching")
    if caching is None:
        caching = bool(row.get("prefix_caching_default"))
    blocks = int(row.get("align_blocks") or 1) if caching else 1
    method, n_spec = speculative(engine)
    if n_spec and row.get("spec_blocks"):
        blocks += n_spec  # MambaSpec.num_speculative_blocks: a state page per draft token (0.10.2+)
    if (method == "mtp" or method.endswith("_mtp")) and s.get("kind") == "gdn" and layers == total:
        # Qwen3-Next's and Qwen3.5's MTP draft is full-attention decoder layers (qwen3_next_mtp.py
        # num_nextn_predict_layers, qwen3_5_mtp.py mtp_num_hidden_layers, default 1) whose KV cache joins
        # the target's: 17 attention layers to 48 state ones, grouped by 17 ("Add 3 padding layers")
        attn += int(model.get("num_nextn_predict_layers") or model.get("mtp_num_hidden_layers") or 1)
    return SSMPlan(True, attn, state_layers, one, raised, blocks, row.get("group_ratio"), 0.0)


def speculative(engine: dict) -> tuple[str, int]:
    """(method, num_speculative_tokens) of the site's speculative_config ("", 0 without one)."""
    spec = engine.get("speculative_config")
    if isinstance(spec, str):
        try:
            spec = json.loads(spec)
        except ValueError:
            return "", 0
    if not isinstance(spec, dict):
        return "", 0
    n = spec.get("num_speculative_tokens")
    n = n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else 0
    return str(spec.get("method") or "").strip().lower(), n


def _v0_only(version: str | None) -> list[str]:
    from vllm_kb.engine.kb import knowledge

    rows = knowledge.load().doc("vllm", "mamba_spec.yaml").data.get("releases") or {}
    return (rows.get(str(version)) or {}).get("v0_only") or [] if version else []


def seqs_refusal(version: str | None) -> str | None:
    """file:line where this release refuses max_num_seqs above the state blocks (0.20.0 on)."""
    row = sizing_row(version)
    return row.get("seqs_refusal") if row else None


def align_refusal(version: str | None) -> str | None:
    """file:line where this release asserts the block fits max_num_batched_tokens in align mode."""
    row = sizing_row(version)
    return row.get("align_refusal") if row else None

