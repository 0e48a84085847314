"""`dynamo run in=… out=vllm MODEL` (Dynamo's early launcher, engine/scan/dynamo_run.py): its own
options, the --extra-engine-args JSON file as the way vLLM options reach the engine, and changes told
in that form (ai-dynamo/dynamo#290, #1050)."""
from __future__ import annotations

import json


def _audit(cli, root, *extra):
    code, out, err = cli("audit", str(root), "--isolated", "-q", "--format", "json", *extra)
    assert code in (0, 1), err
    return json.loads(out)


def test_its_own_options_and_the_extra_engine_args_file(cli, write_project):
    root = write_project({
        "run.sh": "dynamo run in=http out=vllm --model-path Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size=2 "
                  "--context-length 8192 --http-port 8080 --extra-engine-args cfg/args.json -v\n",
        "cfg/args.json": '{"gpu_memory_utilization": 0.8, "enforce_eager": true}\n',
        "requirements.txt": "vllm==0.8.4\n"})
    (site,) = _audit(cli, root)["sites"]
    assert (site["kind"], site["model"]["name"]) == ("dynamo run", "Qwen/Qwen2.5-7B-Instruct")
    got = {s["name"]: s["value"] for s in site["settings"]}
    assert got == {"tensor_parallel_size": 2, "max_model_len": 8192, "gpu_memory_utilization": 0.8, "enforce_eager": True}


def test_a_vllm_option_is_told_as_the_json_file_never_as_a_flag(cli, write_project):
    root = write_project({"run.sh": "dynamo-run out=vllm deepseek-ai/DeepSeek-R1-Distill-Qwen-7B\n",
                          "requirements.txt": "vllm==0.7.2\n"})
    (site,) = _audit(cli, root, "--gpu", "V100-32GB")["sites"]
    (change,) = [c for c in site["changes"] if c["target"] == "dtype"]
    assert "--extra-engine-args" in change["after"] and '"dtype"' in change["after"] and not change.get("fixable")


def test_another_engine_is_not_a_vllm_site(cli, write_project):
    root = write_project({"run.sh": "dynamo run out=sglang Qwen/Qwen2.5-7B-Instruct\n", "requirements.txt": "vllm==0.8.4\n"})
    assert _audit(cli, root)["sites"] == []
