"""tools/framework_engine_kwargs.py on the adapter shapes it used to miss: verl ≥ 0.7's `vllm serve`
argv built from a dict (build_cli_args_from_config skips None and False values) and OpenRLHF
0.8–0.9's actor whose base class stores the keywords that a subclass spreads into vllm.LLM."""
import ast
import sys
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import framework_engine_kwargs as tool  # noqa: E402

from vllm_kb.engine.check.framework_kwargs import gate_holds  # noqa: E402


def _calls(fid, files):
    return tool.calls_in(fid, {p: ast.parse(textwrap.dedent(s)) for p, s in files.items()})


def test_a_serve_argv_built_from_a_dict_names_its_keys_and_which_are_always_passed():
    src = """\
        import vllm.entrypoints.cli.serve
        class Server:
            async def launch_server(self):
                args = {"distributed_executor_backend": "mp", "max_model_len": self.config.max_model_len,
                        "skip_tokenizer_init": False, "override_generation_config": json.dumps({})}
                if self.lora:
                    args.update({"enable_lora": True})
                server_args = ["serve", self.path] + build_cli_args_from_config(args)
                cmds = [vllm.entrypoints.cli.serve]
        """
    (call,) = _calls("verl", {"verl/workers/rollout/vllm_rollout/vllm_async_server.py": src})
    assert call["call"] == "vllm serve" and call["entry"] == "async"
    kw = call["kwargs"]
    assert "condition" not in kw["distributed_executor_backend"] and "condition" not in kw["override_generation_config"]
    assert "condition" in kw["max_model_len"] and "condition" in kw["skip_tokenizer_init"]
    assert "self.lora" in kw["enable_lora"]["condition"]


def test_keywords_stored_by_a_base_class_and_passed_through_a_class_parameter_are_read():
    src = """\
        import vllm
        class Base:
            def __init__(self, *args, bundle_indices=None, **kwargs):
                kwargs.pop("num_gpus")
                self.kwargs = kwargs
        class Actor(Base):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                self.llm = vllm.LLM(*args, **self.kwargs)
        def create(n, actor_cls=Actor):
            return actor_cls.options(num_gpus=1).remote(model="m", num_gpus=1, bundle_indices=None, logprobs_mode="raw")
        """
    (call,) = _calls("openrlhf", {"openrlhf/trainer/ray/vllm_engine.py": src})
    assert set(call["kwargs"]) == {"model", "logprobs_mode"}


def test_a_module_the_package_imports_only_for_some_vllm_releases_carries_that_test_as_its_gate():
    """verl 0.2 … 0.4.1 import vllm_rollout_spmd.py only for a vLLM after 0.6.3 (the package's
    __init__.py picks the customized rollout up to it); 0.5.0 imports it whatever the release."""
    init = """\
        from packaging.version import Version
        vllm_package_version = get_version("vllm")
        if Version(vllm_package_version) <= Version("0.6.3"):
            from .vllm_rollout import vLLMRollout
        else:
            from .vllm_rollout_spmd import vLLMRollout
        """
    spmd = """\
        from vllm import LLM
        class vLLMRollout:
            def __init__(self, config):
                self.engine = LLM(model=config.path, enable_sleep_mode=True)
        """
    pkg = "verl/workers/rollout/vllm_rollout/"
    (call,) = _calls("verl", {pkg + "__init__.py": init, pkg + "vllm_rollout_spmd.py": spmd})
    assert call["gate"] == "not (Version(vllm_package_version) <= Version('0.6.3'))"
    assert gate_holds(call["gate"], "0.6.3") is False and gate_holds(call["gate"], "0.6.4") is True
    # imported at the top as well (0.5.0): no gate
    (call,) = _calls("verl", {pkg + "__init__.py": "from .vllm_rollout_spmd import vLLMRollout\n" + textwrap.dedent(init),
                              pkg + "vllm_rollout_spmd.py": spmd})
    assert "gate" not in call
