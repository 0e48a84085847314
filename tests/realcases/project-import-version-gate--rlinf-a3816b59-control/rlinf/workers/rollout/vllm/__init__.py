from importlib.metadata import PackageNotFoundError, version

from packaging.version import parse


def get_version(pkg):
    try:
        return parse(version(pkg))
    except PackageNotFoundError:
        return None


package_name = "vllm"
package_version = get_version(package_name)

if package_version is None:
    raise ValueError("vllm is not installed")
elif package_version >= parse("0.8.5") and package_version < parse("0.9.0"):
    from rlinf.hybrid_engines.vllm.vllm_0_8_5.executor import VLLMExecutor
elif package_version >= parse("0.22.0") and package_version < parse("0.24.0"):
    from rlinf.hybrid_engines.vllm.vllm_0_23.executor import VLLMExecutor
else:
    raise ValueError(f"vllm version {package_version} not supported")

__all__ = ["VLLMExecutor"]
