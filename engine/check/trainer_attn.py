"""The attention implementation an RL framework's trainer loads the policy with, beside the vLLM
rollout on the same GPUs (`launch.trainer_attn`, `launch.trainer_attn_by`; check L130).

FlashAttention 2 runs on compute capability 8.0 and newer only: its kernels refuse anything older
("FlashAttention only supports Ampere GPUs or newer.", flash-attn csrc/flash_attn/flash_api.cpp
`TORCH_CHECK(is_sm8x || is_sm90, …)`), and transformers cannot load the model with
flash_attention_2 where the package is not installed. What each framework asks for, per release:

- verl (FSDP workers): the actor, reference and critic are built with
  `attn_implementation="flash_attention_2"` in every release up to 0.6.0 (0.1
  verl/trainer/ppo/workers/fsdp_workers.py:140, 0.4.1 verl/workers/fsdp_workers.py:221, 0.6.0
  :254); 0.6.1 reads `override_config.attn_implementation` first, flash_attention_2 by default
  (0.6.1 fsdp_workers.py:318). The Megatron workers do not load through transformers.
- OpenRLHF: `--flash_attn` (off by default, up to 0.8.x) asks for flash_attention_2;
  `--attn_implementation` (0.9.0, `--ds.attn_implementation` from 0.11.0) defaults to it.
- TRL: what the trainer's model_init_kwargs / the script's `--attn_implementation` name.

Where a value cannot be read, or the release decides and is unknown, nothing is said."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb.versions import try_parse

FA2 = "flash_attention_2"


def _written(site, *names: str):
    """A framework key as written (a Hydra `+key` is the same key), its setting or None."""
    for written, s in (getattr(site, "framework_written", None) or {}).items():
        if written.lstrip("+").lstrip("-") in names:
            return s
    return None


def _value(s) -> Any:
    return s.value if s is not None and s.resolved else None


def _at_least(version: str | None, floor: str) -> bool | None:
    v, f = try_parse(version or ""), try_parse(floor)
    return None if v is None or f is None else v >= f


def trainer_attention(site) -> dict[str, Any]:
    fid = site.framework
    version = getattr(site, "framework_version", None)
    if fid == "verl":
        return _verl(site, version)
    if fid == "openrlhf":
        return _openrlhf(site, version)
    if fid == "trl":
        return _trl(site)
    return {}


def _verl(site, version) -> dict[str, Any]:
    if getattr(site, "framework_command", None) == "generate":
        # main_generation builds the FSDP module only to hold the weights: no forward pass runs
        # through it, so FlashAttention's kernels are never called
        return {}
    name = _written(site, "config-name")
    if name is not None and "megatron" in str(name.value or name.raw or ""):
        return {}  # ppo_megatron_trainer.yaml: the Megatron workers
    strategy = _written(site, "actor_rollout_ref.actor.strategy")
    if strategy is not None and _value(strategy) not in ("fsdp", "fsdp2"):
        return {}  # Megatron workers, or a strategy the audit cannot read
    # override_config.attn_implementation (0.6.1), model.attn_implementation (HFModelConfig, later)
    override = _written(site, "actor_rollout_ref.model.override_config.attn_implementation", "actor_rollout_ref.model.attn_implementation")
    if override is not None:
        if _value(override) != FA2:
            # no verdict: before 0.6.1 the override may not reach the model, and later releases still
            # loaded a critic or value model with flash_attention_2 (verl-project/verl#6495)
            return {}
        return {"trainer_attn": FA2, "trainer_attn_by": f"{override.key}={override.value} ({override.file}:{override.line})"}
    release = f"verl {version}" if version else "verl"
    return {"trainer_attn": FA2, "trainer_attn_by": f"{release}'s FSDP workers build the actor with attn_implementation=flash_attention_2",
            "trainer_attn_fix": "override" if _at_least(version, "0.6.1") else "release"}


def _openrlhf(site, version) -> dict[str, Any]:
    if getattr(site, "framework_command", None) == "batch_inference":
        return {}  # generate_vllm trains nothing: no FlashAttention model is built
    impl = _written(site, "attn_implementation", "ds.attn_implementation")
    if impl is not None:
        v = _value(impl)
        return {"trainer_attn": FA2, "trainer_attn_by": f"{impl.key} {v} ({impl.file}:{impl.line})", "trainer_attn_fix": "flag"} if v == FA2 else {}
    flag = _written(site, "flash_attn")
    if flag is not None and _value(flag) is True:
        return {"trainer_attn": FA2, "trainer_attn_by": f"{flag.key} ({flag.file}:{flag.line})", "trainer_attn_fix": "drop"}
    if _at_least(version, "0.9.0"):
        return {"trainer_attn": FA2, "trainer_attn_fix": "flag",
                "trainer_attn_by": f"OpenRLHF {version}'s --attn_implementation default (flash_attention_2)"}
    return {}


def _trl(site) -> dict[str, Any]:
    impl = _written(site, "attn_implementation")
    if impl is not None and _value(impl) == FA2:
        return {"trainer_attn": FA2, "trainer_attn_by": f"{impl.key} {FA2} ({impl.file}:{impl.line})", "trainer_attn_fix": "flag"}
    kwargs = _written(site, "model_init_kwargs")
    if kwargs is not None and isinstance(_value(kwargs), dict) and kwargs.value.get("attn_implementation") == FA2:
        return {"trainer_attn": FA2, "trainer_attn_by": f"model_init_kwargs attn_implementation={FA2} ({kwargs.file}:{kwargs.line})",
                "trainer_attn_fix": "flag"}
    return {}
