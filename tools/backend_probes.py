"""What the GPU and the compiled FlashAttention package answer when an attention backend's rule
asks them (tools/backend_rules_eval.py runs the rule): one device at a time (`on_device`), the
platform's capability tests as vllm/platforms/interface.py defines them, and
`is_fa_version_supported` as vllm-flash-attn's `_is_fa2_supported` / `_is_fa3_supported` decide it
(FA2 from compute capability 8.0; FA3 on the 9.x family, the only one vLLM's default path asks it
for). Whether a build ships FlashAttention 4 is not a property of the GPU: the caller evaluates a
rule with and without it and keeps the rule only where both agree."""
from __future__ import annotations

import contextlib


class Unknown(Exception):
    """The evaluator met something it does not model."""


class Cap:
    """DeviceCapability(major, minor) with its comparisons and to_int()."""

    def __init__(self, major: int, minor: int):
        self.major, self.minor = major, minor

    def key(self):
        return (self.major, self.minor)



# the device the probes answer for: {"cap": Cap, "fa4": bool}; None: no device, probes are Unknown
_DEVICE: dict | None = None
# environment variables as a launch that sets none of them reads them (vllm/envs.py defaults)
ENV_DEFAULTS = {"VLLM_FLASH_ATTN_VERSION": None, "VLLM_BATCH_INVARIANT": False, "VLLM_USE_TRTLLM_ATTENTION": None}


@contextlib.contextmanager
def on_device(major: int, minor: int, fa4: bool):
    global _DEVICE
    saved, _DEVICE = _DEVICE, {"cap": Cap(major, minor), "fa4": fa4}
    try:
        yield
    finally:
        _DEVICE = saved


def _cap_int(x) -> int:
    if isinstance(x, (list, tuple)):
        return int(x[0]) * 10 + int(x[1])
    if isinstance(x, int) and not isinstance(x, bool):
        return x
    raise Unknown("capability argument")


def platform_call(attr: str, args: list):
    """current_platform.<attr>(*args) on the device."""
    if attr in ("is_xpu", "is_rocm", "is_cpu", "is_tpu", "is_out_of_tree"):
        return False
    if attr == "is_cuda" or attr == "is_cuda_alike":
        return True
    if _DEVICE is None:
        raise Unknown(f"current_platform.{attr}")
    cap: Cap = _DEVICE["cap"]
    if attr == "get_device_capability":
        return cap
    if attr == "is_device_capability":
        return cap.major * 10 + cap.minor == _cap_int(args[0])
    if attr == "is_device_capability_family":
        return cap.major == _cap_int(args[0]) // 10
    if attr == "has_device_capability":
        return cap.major * 10 + cap.minor >= _cap_int(args[0])
    raise Unknown(f"current_platform.{attr}")


def fa_supported(version) -> bool:
    """vllm_flash_attn.flash_attn_interface.is_fa_version_supported, a compiled package's answer."""
    if _DEVICE is None:
        raise Unknown("is_fa_version_supported")
    cap: Cap = _DEVICE["cap"]
    if cap.major < 8:
        return False
    if version == 2:
        return True
    if version == 3:
        if cap.major == 9:
            return True
        raise Unknown("FA3 off the 9.x family")
    if version == 4:
        return bool(_DEVICE["fa4"])
    raise Unknown("FlashAttention version")


# the configuration fields the rules read, as a launch that sets none of them has them
CONFIG_DEFAULTS = {("attention_config", "flash_attn_version"): None, ("attention_config", "use_trtllm_attention"): None}


class Config:
    """get_current_vllm_config() seen through the fields of CONFIG_DEFAULTS only."""

    def __init__(self, path: tuple):
        self.path = path

    def get(self, attr: str):
        path = self.path + (attr,)
        if path in CONFIG_DEFAULTS:
            return CONFIG_DEFAULTS[path]
        if any(key[:len(path)] == path for key in CONFIG_DEFAULTS):
            return Config(path)
        raise Unknown(".".join(path))
