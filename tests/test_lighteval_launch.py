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
