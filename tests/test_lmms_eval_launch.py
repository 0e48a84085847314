"""`python -m lmms_eval --model vllm --model_args …` (engine/scan/lmms_eval_launch.py): lmms-eval's VLLM
class builds vllm.LLM(...) from the pairs with its own defaults (gpu_memory_utilization 0.8,
trust_remote_code True, seed 1: lmms_eval/models/simple/vllm.py, 0.4.0–0.7.3); its own keys stay with it."""

SCRIPT = ("#!/bin/bash\nMODEL=Qwen/Qwen2.5-VL-7B-Instruct\npython -m lmms_eval --model vllm \\\n"
          "  --model_args model=$MODEL,tensor_parallel_size=2,max_model_len=32768,max_frame_num=64,max_pixels=1003520,"
          "chat_template=tpl.jinja,batch_size=8,data_parallel_size=1,nframes=16,fps=2,max_new_tokens=512,image_first=True \\\n"
          "  --tasks mme --batch_size 8\n")


def test_pairs_reach_the_engine_with_its_defaults(scanned):
    (s,) = scanned({"eval.sh": SCRIPT})
    assert (s.kind, s.mode, s.tool, s.model.value) == ("lmms_eval vllm", "standalone_offline", "lmms_eval", "Qwen/Qwen2.5-VL-7B-Instruct")
    assert {k: v.value for k, v in s.settings.items()} == {
        "tensor_parallel_size": 2, "max_model_len": 32768, "gpu_memory_utilization": 0.8, "trust_remote_code": True, "seed": 1}
    assert s.settings["gpu_memory_utilization"].note == "default of lmms-eval's VLLM model class"
    assert not s.unknown and s.framework_keys["max_frame_num"] == "64"


def test_written_values_win_over_its_defaults(scanned):
    (s,) = scanned({"run.sh": "lmms-eval --model=vllm --model_args=model=org/m,gpu_memory_utilization=0.6,trust_remote_code=False,seed=7 --tasks mme\n"})
    got = {k: v.value for k, v in s.settings.items()}
    assert got["gpu_memory_utilization"] == 0.6 and got["seed"] == 7 and "trust_remote_code" not in got


def test_other_models_are_no_site(scanned):
    assert scanned({"run.sh": "python -m lmms_eval --model qwen2_5_vl --model_args pretrained=org/m --tasks mme\n"}) == []


def test_a_fix_is_shown_never_written_into_the_pairs(cli, write_project):
    root = write_project({"eval.sh": SCRIPT})
    cli("audit", str(root), "--gpu", "H100-80GB x2", "--fix", "--unsafe-fixes")
    assert (root / "eval.sh").read_text() == SCRIPT
