"""The accelerator a site runs on, from what the project writes: a `device` argument (or the framework's
own device key), the image's name, a platform plugin it installs (vllm-ascend), another platform runtime's
variables; cuda where nothing says otherwise. Read by the checks (engine/check/site_platform.py) and by the
scan, for the project Dockerfile an image is built from (engine/scan/image_platform.py)."""
from __future__ import annotations

import re

from vllm_kb.engine.scan.images import name_and_tag

_NOT_CUDA = frozenset({"neuron", "tpu", "cpu", "xpu", "hpu", "openvino", "npu", "rocm"})
# environment variables only another platform's runtime reads (a prefix, or a whole name)
_PLATFORM_ENV = (("ASCEND_RT_VISIBLE_DEVICES", "npu"), ("VLLM_ASCEND_", "npu"), ("HCCL_", "npu"),
                 ("NEURON_RT_", "neuron"), ("HIP_VISIBLE_DEVICES", "rocm"), ("ROCR_VISIBLE_DEVICES", "rocm"),
                 ("VLLM_ROCM_", "rocm"), ("HABANA_VISIBLE_DEVICES", "hpu"), ("PT_HPU_", "hpu"),
                 ("ZE_AFFINITY_MASK", "xpu"), ("TPU_", "tpu"))


# images of vLLM built for another accelerator (the image's name, before its tag)
_PLATFORM_IMAGE = ((re.compile(r"vllm-ascend|/ascend/", re.I), "npu"), (re.compile(r"(^|/)rocm/|vllm[-_]?(openai-)?rocm", re.I), "rocm"),
                   (re.compile(r"vllm[-_]tpu", re.I), "tpu"), (re.compile(r"gaudi|habana|vllm[-_]hpu", re.I), "hpu"),
                   (re.compile(r"neuron", re.I), "neuron"), (re.compile(r"vllm[-_]xpu|(^|/)intel/vllm|(^|/)intel/llm-scaler", re.I), "xpu"),
                   # vLLM's CPU builds (docker/Dockerfile.cpu): the release repository on ECR, vllm-openai-cpu
                   (re.compile(r"vllm[-_](openai[-_])?cpu|cpu[-_]release[-_]repo", re.I), "cpu"))
# platform plugins the project installs: vllm-ascend's register() names its NPUPlatform whatever the
# machine (vllm_ascend/__init__.py, 0.9.1 wheel), and vLLM takes the one out-of-tree platform plugin
# installed over its own (resolve_current_platform_cls_qualname, vllm/platforms/__init__.py:226-236 in 0.9.1)
PLATFORM_PLUGINS = {"vllm-ascend": "npu"}


def platform(args: dict, env: dict, image: str | None = None, framework_device: str | None = None,
             plugins: frozenset | set | None = None) -> str:
    """The accelerator a site runs on: `device` (or the framework's own device key, verl's
    trainer.device) when it names another one, else what the image (quay.io/ascend/vllm-ascend,
    rocm/vllm), a platform plugin the project installs (vllm-ascend) or the environment shows (an
    Ascend, Neuron, ROCm, Gaudi, XPU or TPU runtime's variables), else cuda."""
    return platform_why(args, env, image, framework_device, plugins)[0]


def platform_why(args: dict, env: dict, image: str | None = None, framework_device: str | None = None,
                 plugins: frozenset | set | None = None) -> tuple[str, str | None]:
    """`platform` and what says so, in words a report shows as written (`device=npu`, the image's
    name, `vllm-ascend`, a runtime variable); None for cuda, which nothing needs to say."""
    for key, device in (("device", str(args.get("device", "")).strip().lower()), ("device", framework_device or "")):
        if device in _NOT_CUDA:
            return device, f"{key}={device}"
    name = name_and_tag(image)[0]
    for rx, plat in _PLATFORM_IMAGE:
        if rx.search(name):
            return plat, name
    for pkg in sorted(plugins or ()):
        if pkg in PLATFORM_PLUGINS:
            return PLATFORM_PLUGINS[pkg], pkg
    for var in env:
        for prefix, plat in _PLATFORM_ENV:
            if var == prefix or (prefix.endswith("_") and var.startswith(prefix)):
                return plat, var
    return "cuda", None
