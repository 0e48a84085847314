"""oumi (oumi-ai/oumi, https://github.com/oumi-ai/oumi, eval85) inference configs: `engine: VLLM` makes
`oumi infer -c FILE` build VLLMInferenceEngine, which calls vllm.LLM(model=model.model_name,
tokenizer=model.tokenizer_name, dtype=model.torch_dtype_str, max_model_len=model.model_max_length, …)
with its own enforce_eager=True, enable_prefix_caching=True, gpu_memory_utilization=0.9 and every GPU
the process sees (src/oumi/inference/vllm_inference_engine.py)."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

INFER = """\
model:
  model_name: "Qwen/Qwen2.5-7B-Instruct"
  model_max_length: 8192
  torch_dtype_str: "bfloat16"
  trust_remote_code: True

generation:
  max_new_tokens: 1024

engine: {engine}
"""


def test_a_vllm_inference_config_is_a_site(tmp_path):
    (tmp_path / "infer.yaml").write_text(INFER.replace("{engine}", "VLLM"))
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["oumi", "vllm==0.11.0"]\n')
    (sr,) = audit(tmp_path, gpu="H100-80GB x2").sites
    s = sr.site
    assert s.framework == "oumi" and s.mode == "standalone_offline" and s.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert s.settings["max_model_len"].value == 8192 and s.settings["dtype"].value == "bfloat16"
    assert s.settings["trust_remote_code"].value is True
    assert {k: s.fixed[k] for k in ("enforce_eager", "enable_prefix_caching", "gpu_memory_utilization")} == {
        "enforce_eager": True, "enable_prefix_caching": True, "gpu_memory_utilization": 0.9}


def test_another_engine_is_no_vllm_site(tmp_path):
    (tmp_path / "infer.yaml").write_text(INFER.replace("{engine}", "NATIVE"))
    assert audit(tmp_path, gpu="H100-80GB x1").sites == []


TRAIN = """\
model:
  model_name: "Qwen/Qwen2-0.5B-Instruct"
  torch_dtype_str: "bfloat16"

training:
  trainer_type: "TRL_GRPO"
  grpo:
    num_generations: 4
    use_vllm: True
{share}
  trainer_kwargs:
    vllm_mode: "colocate"
"""


def test_a_trl_grpo_training_config_is_trls_site(tmp_path):
    """oumi hands training.grpo and training.trainer_kwargs to TRL's GRPOConfig (grpo_params.py
    to_hf_trainer_kwargs; training_params.py merges them), with its own 0.9 memory share."""
    (tmp_path / "train.yaml").write_text(TRAIN.replace("{share}", "    vllm_gpu_memory_utilization: 0.4"))
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["trl==0.24.0", "vllm==0.11.0"]\n')
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    s = sr.site
    assert s.framework == "trl" and s.mode == "rlhf_colocate" and s.line == 9
    assert s.model.value == "Qwen/Qwen2-0.5B-Instruct" and s.settings["gpu_memory_utilization"].value == 0.4
    (tmp_path / "train.yaml").write_text(TRAIN.replace("{share}\n", ""))
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    assert sr.site.settings["gpu_memory_utilization"].value == 0.9  # oumi's default, not TRL's 0.3
