"""`lighteval vllm "model_name=…,…" TASKS` and `lighteval vllm model.yaml TASKS`
(engine/scan/lighteval_launch.py): lighteval's VLLMModelConfig keys renamed to the engine's, its own
keys left with it, and its defaults (bfloat16 from 0.9) carried to the site."""

SCRIPT = ('#!/bin/bash\nMODEL=HuggingFaceTB/SmolLM2-1.7B-Instruct\n'
          'lighteval vllm "model_name=$MODEL,max_model_length=4096,gpu_memory_utilization=0.8,data_parallel_size=2,'
          'generation_parameters={temperature:0.6,top_p:0.95}" "lighteval|gsm8k|0" --use-chat-template\n')


def values(s):
    return {k: v.value for k, v in s.settings.items()}


def test_the_model_args_reach_the_engine_with_lightevals_defaults(scanned):
    (s,) = scanned({"eval.sh": SCRIPT, "other.sh": "lighteval accelerate \"model_name=org/m\" \"lighteval|gsm8k|0\"\n"})
    assert (s.kind, s.mode, s.model.value) == ("lighteval vllm", "standalone_offline", "HuggingFaceTB/SmolLM2-1.7B-Instruct")
    assert values(s) == {"max_model_len": 4096, "gpu_memory_utilization": 0.8, "dtype": "bfloat16", "max_num_seqs": 128,
                         "max_num_batched_tokens": 2048}
    assert "default of lighteval" in s.settings["dtype"].note


def test_a_yaml_model_config_is_read(scanned):
    (s,) = scanned({"scripts/eval.sh": "lighteval vllm examples/model_configs/vllm_model_config.yaml \"lighteval|gsm8k|0\"\n",
                    "examples/model_configs/vllm_model_config.yaml":
                        "model_parameters:\n  model_name: org/m\n  dtype: float16\n  tensor_parallel_size: 2\n"
                        "  generation_parameters:\n    temperature: 0.3\n"})
    assert s.model.value == "org/m" and values(s)["dtype"] == "float16" and values(s)["tensor_parallel_size"] == 2


def test_the_pretrained_spelling_has_no_bfloat16_default(scanned):
    (s,) = scanned({"eval.sh": 'python -m lighteval vllm "pretrained=org/m,dtype=float16" "leaderboard|arc:challenge|25|0"\n'})
    assert s.model.value == "org/m" and values(s) == {"dtype": "float16"}


def test_a_fix_is_shown_never_written_into_the_pairs(cli, write_project):
    root = write_project({"eval.sh": SCRIPT, "requirements.txt": "vllm==0.10.1.1\n"})
    cli("audit", str(root), "--gpu", "T4", "--fix", "--unsafe-fixes")
    assert (root / "eval.sh").read_text() == SCRIPT


def test_generation_length_and_changes_in_its_own_keys(cli, write_project):
    """open-r1's evaluation line without a max_model_length: B2 keeps room for the 32768 new tokens, and
    every change is a pair of lighteval's model arguments under its own key names."""
    import json

    script = ("MODEL=deepseek-ai/DeepSeek-R1-Distill-Qwen-7B\nMODEL_ARGS=\"model_name=$MODEL,dtype=bfloat16,gpu_memory_utilization=0.5,"
              "generation_parameters={max_new_tokens:32768,temperature:0.6,top_p:0.95}\"\n"
              "lighteval vllm $MODEL_ARGS \"lighteval|aime24|0|0\" --use-chat-template\n")
    root = write_project({"eval.sh": script, "requirements.txt": "lighteval==0.10.0\nvllm==0.8.5\n"})
    site = json.loads(cli("audit", str(root), "--gpu", "H100", "--format", "json")[1])["sites"][0]
    changes = {c["target"]: c for c in site["changes"]}
    assert changes["max_model_len"]["after"] == "…,max_model_length=65536"
    assert changes["gpu_memory_utilization"]["after"] == "gpu_memory_utilization=0.9"
    assert changes["kv_cache_dtype"]["blocked"] == "not_exposed"  # VLLMModelConfig has no such key
