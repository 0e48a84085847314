"""A verl rollout worker a script builds itself (engine/scan/verl_worker.py): `ActorRolloutRefWorker(config=
DictConfig({...}), role="rollout").init_model()` starts vLLM from the dict's `rollout` keys, with no main_ppo
(aliang8/interleaved_reasoning simple_vllm_rollout_demo.py, https://github.com/aliang8/interleaved_reasoning, eval68)."""
from vllm_kb.engine.audit import audit

SCRIPT = """\
from omegaconf import DictConfig
from verl.workers.fsdp_workers import ActorRolloutRefWorker


def make_config(model_path, prompt_length=256):
    return DictConfig({
        "model": {"path": model_path, "trust_remote_code": False},
        "actor": {"strategy": "fsdp", "ppo_mini_batch_size": 1},
        "rollout": {
            "name": "{backend}",
            "prompt_length": prompt_length,
            "response_length": 1024,
            "tensor_model_parallel_size": 1,
            "gpu_memory_utilization": 0.6,
            "max_num_batched_tokens": 4096,
            "engine_kwargs": {"vllm": {"swap_space": 4}},
        },
    })


def main():
    config = make_config("Qwen/Qwen2.5-1.5B-Instruct")
    worker = ActorRolloutRefWorker(config=config, role="{role}")
    worker.init_model()


if __name__ == "__main__":
    main()
"""


def _sites(tmp_path, backend="vllm", role="rollout"):
    (tmp_path / "requirements.txt").write_text("vllm==0.8.4\n")
    (tmp_path / "demo.py").write_text(SCRIPT.replace("{backend}", backend).replace("{role}", role))
    return audit(tmp_path, gpu="A100-80GB").sites


def test_worker_built_from_a_dict_a_function_returns_is_a_site(tmp_path):
    (sr,) = _sites(tmp_path)
    s = sr.site
    assert s.framework == "verl" and s.kind == "verl ActorRolloutRefWorker" and s.line == 23
    assert s.settings["gpu_memory_utilization"].value == 0.6 and s.settings["max_num_batched_tokens"].value == 4096
    assert s.model is not None and not s.model.resolved  # the function's parameter: filled in at run time


def test_other_backend_or_role_is_no_site(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert not _sites(tmp_path / "a", backend="sglang")
    assert not _sites(tmp_path / "b", role="ref")
