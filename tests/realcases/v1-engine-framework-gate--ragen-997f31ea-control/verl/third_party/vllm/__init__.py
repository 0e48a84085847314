from importlib.metadata import PackageNotFoundError, version


def get_version(pkg):
    try:
        return version(pkg)
    except PackageNotFoundError:
        return None


package_name = "vllm"
package_version = get_version(package_name)

if package_version == "0.5.4":
    vllm_version = "0.5.4"
    from .vllm_v_0_5_4.llm import LLM
elif package_version == "0.6.3":
    vllm_version = "0.6.3"
    from .vllm_v_0_6_3.llm import LLM
else:
    raise ValueError(f"vllm version {package_version} not supported. Currently supported versions are 0.5.4 and 0.6.3.")
