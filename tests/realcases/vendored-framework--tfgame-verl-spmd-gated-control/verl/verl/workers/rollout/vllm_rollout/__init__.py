from importlib.metadata import version

installed = version("vllm")
package_version = installed

# the old rollout up to 0.6.3 (a string comparison, as the vendored copy writes it), the spmd one after
if package_version <= '0.6.3':
    from .vllm_rollout import vLLMRollout
else:
    from .vllm_rollout_spmd import vLLMRollout
