"""ms-swift arguments kept in a project's own config layout (engine/scan/configs.py swift_sections):
sections of the project's loader (`model:`, `rlhf:`, `training:`) whose keys it hands to swift's
RLHFArguments / InferArguments. Read as ms-swift by the keys only ms-swift declares, whatever the
file's path; only ms-swift's own keys are taken, and what the file leaves out stays unknown (the
loader may derive it — Pein2017/Qwen3-VL's loader sets `vllm_max_model_len` from a length key of its
own, https://github.com/Pein2017/Qwen3-VL)."""
from __future__ import annotations

GRPO = """extends:
  - ../base.yaml
global_max_length: 12000
model:
  model: Qwen/Qwen2.5-VL-7B-Instruct
tuner:
  train_type: lora
  lora_rank: 16
training:
  learning_rate: 1.0e-6
  vit_lr: 1.0e-7
  effective_batch_size: 32
rlhf:
  rlhf_type: grpo
  num_generations: 8
  use_vllm: {use}
  vllm_mode: colocate
  vllm_gpu_memory_utilization: 0.45
  vllm_tensor_parallel_size: 2
  sleep_level: 1
"""


def test_sections_holding_swift_keys_are_a_swift_site(scanned):
    (s,) = scanned({"experiments/rl/run_a.yaml": GRPO.format(use="true")})
    assert s.kind == "ms-swift config" and s.model.value == "Qwen/Qwen2.5-VL-7B-Instruct"
    assert s.settings["gpu_memory_utilization"].value == 0.45 and s.settings["tensor_parallel_size"].value == 2
    assert s.line == 16  # anchored on use_vllm
    # not written: the project's loader may set it, never vLLM's default
    assert s.settings["max_model_len"].value is None and not s.settings["max_model_len"].resolved
    # the project's own keys are not ms-swift's, never judged as its arguments
    assert not any("vit_lr" in (x.key or "") or "effective_batch_size" in (x.key or "") for x in s.settings.values())


def test_sections_without_vllm_are_no_site(scanned):
    assert scanned({"experiments/rl/run_a.yaml": GRPO.format(use="false")}) == []


def test_other_nested_configs_are_not_swift(scanned):
    """A section of another tool's config with a vLLM switch but no key only ms-swift declares."""
    text = "trainer:\n  use_vllm: true\n  vllm_mode: colocate\nmodel:\n  name: m\n"
    assert [s.kind for s in scanned({"conf/a.yaml": text})] == []
