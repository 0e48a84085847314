# The fork's rollout ships one adapter folder per vLLM release it patched.
from importlib.metadata import version

package_version = version("vllm")

if package_version == "0.3.1":
    vllm_version = "0.3.1"
elif package_version == "0.4.2":
    vllm_version = "0.4.2"
elif package_version == "0.5.4":
    vllm_version = "0.5.4"
elif package_version == "0.6.3":
    vllm_version = "0.6.3"
else:
    raise ValueError(f"vllm version {package_version} not supported. Currently supported versions are 0.3.1, 0.4.2, 0.5.4 and 0.6.3.")
