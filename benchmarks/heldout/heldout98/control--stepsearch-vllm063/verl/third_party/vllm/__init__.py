# vendored adapters: one sub-package per supported vLLM release
from importlib.metadata import version, PackageNotFoundError

_SUPPORTED = ("0.3.1", "0.4.2", "0.5.4", "0.6.3")
try:
    vllm_version = version("vllm")
except PackageNotFoundError:
    raise ValueError("vllm is not installed")

if vllm_version == "0.3.1":
    from .vllm_v_0_3_1.llm import LLM  # noqa
elif vllm_version == "0.4.2":
    from .vllm_v_0_4_2.llm import LLM  # noqa
elif vllm_version == "0.5.4":
    from .vllm_v_0_5_4.llm import LLM  # noqa
elif vllm_version == "0.6.3":
    from .vllm_v_0_6_3.llm import LLM  # noqa
else:
    raise ValueError(
        f"vllm version {vllm_version} not supported. Currently supported versions are "
        "0.3.1, 0.4.2, 0.5.4 and 0.6.3."
    )
