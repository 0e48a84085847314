"""A P0 that rests on the V1 engine needs V1 certain (startup.v1_sure): 0.8.0-0.10.1 fall back to V0
below compute capability 8.0 and 0.8.0-0.10.2 for V0-only architectures (EngineArgs._is_v1_supported_oracle,
0.9.0 vllm/engine/arg_utils.py:1248-1254); from 0.11.0 vllm/engine/llm_engine.py is V1's, and
VLLM_USE_V1=1 runs V1 or raises. L35 (engine core spawned), L36 (its swap-space fix), L37 (a full or
shared GPU refused at start-up) are P1 where the GPU that decides it is not known."""
import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.memory.runtime import v1_certain

_MODULE_LEVEL = '''import torch
from vllm import LLM

torch.cuda.set_device(0)
llm = LLM(model="Qwen/Qwen2.5-7B-Instruct")
print(llm.generate(["Hello"]))
'''


@pytest.mark.parametrize("version,env,cc,arch,sure", [
    ("0.9.0", {}, None, "Qwen2ForCausalLM", False),     # the GPU decides
    ("0.9.0", {}, 8.0, "Qwen2ForCausalLM", True),
    ("0.9.0", {}, 8.0, None, False),                    # a V0-only architecture would fall back
    ("0.9.0", {"VLLM_USE_V1": "1"}, None, None, True),  # V1 or a raise
    ("0.10.2", {}, None, "Qwen2ForCausalLM", True),     # no compute-capability fallback left
    ("0.10.2", {}, None, None, False),
    ("0.11.0", {}, None, None, True),                   # no V0 left
    ("0.7.3", {}, 8.0, "Qwen2ForCausalLM", False),
])
def test_v1_is_certain_only_where_nothing_left_decides_it(version, env, cc, arch, sure):
    assert v1_certain(version, env, cc, arch) is sure


def _l35(tmp_path, version: str, gpu: str | None):
    (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
    (tmp_path / "gen.py").write_text(_MODULE_LEVEL)
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return next(r for r in sr.results if r.check.id == "L35")


def test_module_level_engine_after_cuda_is_p0_only_on_a_gpu_that_runs_v1(tmp_path):
    assert _l35(tmp_path, "0.9.0", "A100-80GB").priority == "P0"
    assert _l35(tmp_path, "0.9.0", None).priority == "P1"
    assert _l35(tmp_path, "0.9.0", "T4").priority == "P2"
    assert _l35(tmp_path, "0.11.0", None).priority == "P0"
