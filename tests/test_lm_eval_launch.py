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
