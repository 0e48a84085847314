"""`lm_eval --model vllm --model_args …` (engine/scan/lm_eval_launch.py): lm-evaluation-harness builds
vllm.LLM(**model_args) from the comma-separated pairs (lm_eval/models/vllm_causallms.py); its own keys
stay with it and nothing is written into the shared word."""

SCRIPT = ("#!/bin/bash\nMODEL=meta-llama/Llama-3.1-8B-Instruct\nlm_eval --model vllm \\\n"
          "  --model_args pretrained=$MODEL,tensor_parallel_size=3,dtype=auto,gpu_memory_utilization=0.8,"
          "max_length=8192,trust_remote_code=True,batch_size=auto,data_parallel_size=2 \\\n  --tasks gsm8k --batch_size auto\n")


def test_model_args_reach_the_engine(scanned):
    (s,) = scanned({"eval.sh": SCRIPT, "hf.sh": "lm_eval --model hf --model_args pretrained=org/m --tasks gsm8k\n"})
    assert (s.kind, s.mode, s.model.value) == ("lm_eval vllm", "standalone_offline", "meta-llama/Llama-3.1-8B-Instruct")
    assert {k: v.value for k, v in s.settings.items()} == {
        "tensor_parallel_size": 3, "dtype": "auto", "gpu_memory_utilization": 0.8, "max_model_len": 8192, "trust_remote_code": True}


def test_python_dash_m_and_equals_forms(scanned):
    (s,) = scanned({"run.sh": "python -m lm_eval --model=vllm --model_args=pretrained=org/m,max_batch_size=64 --tasks mmlu\n"})
    assert s.model.value == "org/m" and s.settings["max_num_seqs"].value == 64


def test_a_fix_is_shown_never_written_into_the_pairs(cli, write_project):
    root = write_project({"eval.sh": SCRIPT})
    cli("audit", str(root), "--gpu", "H100-80GB x4", "--fix", "--unsafe-fixes")
    assert (root / "eval.sh").read_text() == SCRIPT


R1 = ("lm_eval --model vllm --model_args pretrained=deepseek-ai/DeepSeek-R1-Distill-Qwen-7B,gpu_memory_utilization=0.5,"
      "enforce_eager=True --tasks aime24 --batch_size auto --gen_kwargs max_gen_toks=32768,temperature=0.6\n")


def test_generation_length_read_from_gen_kwargs_model_args_and_task_yaml(scanned):
    (s,) = scanned({"eval.sh": R1})
    assert s.launch["generation_tokens"] == 32768 and s.launch["max_len_for_generation"] == 65536
    assert s.launch["generation_where"] == "eval.sh:1: --gen_kwargs max_gen_toks=32768"
    task = "task: my_aime\ndataset_path: x/y\ngeneration_kwargs:\n  max_gen_toks: 20000\n  until: []\n"
    (s,) = scanned({"eval.sh": "lm_eval --model vllm --model_args pretrained=org/m,max_gen_toks=1024 --tasks my_aime\n",
                    "tasks/aime.yaml": task})
    assert s.launch["generation_tokens"] == 20000 and s.launch["max_len_for_generation"] == 65536
    (s,) = scanned({"eval.sh": "lm_eval --model vllm --model_args pretrained=org/m,max_gen_toks=1024 --tasks gsm8k\n",
                    "tasks/aime.yaml": task})
    assert s.launch["generation_tokens"] == 1024 and s.launch["max_len_for_generation"] == 16384


def test_changes_are_pairs_of_model_args_never_flags(cli, write_project):
    import json

    root = write_project({"eval.sh": R1, "requirements.txt": "vllm==0.8.5\n"})
    out = json.loads(cli("audit", str(root), "--gpu", "H100", "--format", "json")[1])
    changes = {c["target"]: c for c in out["sites"][0]["changes"]}
    # B2 never undercuts the 32768 tokens the site generates (lm_eval keeps max_length - max_gen_toks of each prompt)
    assert changes["max_model_len"]["after"] == "--model_args …,max_model_len=65536"
    assert (changes["gpu_memory_utilization"]["before"], changes["gpu_memory_utilization"]["after"]) == (
        "gpu_memory_utilization=0.5", "gpu_memory_utilization=0.9")
    assert changes["enforce_eager"]["before"] == "enforce_eager=True"
    # a JSON value cannot sit in a comma-split list
    assert all(c["blocked"] == "not_exposed" for c in changes.values() if isinstance(c["value"], (dict, list)))
    assert not any((c["after"] or "").startswith("--") and not c["after"].startswith("--model_args") for c in changes.values()
                   if c["syntax"] == "cli")
