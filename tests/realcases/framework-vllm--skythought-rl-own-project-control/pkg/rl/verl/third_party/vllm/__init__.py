from importlib.metadata import version

package_version = version("vllm")

# one adapter folder per vLLM release this copy was written against
if package_version == "0.5.4":
    from .vllm_v_0_5_4.llm import LLM
elif package_version == "0.6.3":
    from .vllm_v_0_6_3.llm import LLM
else:
    raise ValueError(f"vllm version {package_version} not supported. Currently supported versions are 0.5.4 and 0.6.3.")
