"""What frameworks do with vLLM, by release: `trl vllm-serve` defaults and additions, OpenRLHF's
derived max_model_len, ms-swift's flag spellings, LLaMA-Factory's device-count TP, verl entry
points (train / generate / none) and project Hydra entry points, Xinference's forwarded engine
keywords, and a rollout server started on its trainer's GPUs."""
from pathlib import Path

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.project import scan_project


def project(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return tmp_path


def sites(tmp_path, files):
    return {s.id: s for s in scan_project(project(tmp_path, files)).sites}


@pytest.mark.parametrize("trl, fixed, host_default, env", [
    ("0.17.0", {"worker_extension_cls"}, "0.0.0.0", {}),
    ("1.16.0", {"logprobs_mode", "weight_transfer_config", "max_logprobs"}, "0.0.0.0",
     {"VLLM_SERVER_DEV_MODE": "1", "VLLM_WORKER_MULTIPROC_METHOD": "spawn"}),
])
def test_trl_vllm_serve_by_release(tmp_path, trl, fixed, host_default, env):
    got = sites(tmp_path, {"requirements.txt": f"trl=={trl}\n",
                           "serve.sh": "CUDA_VISIBLE_DEVICES=0 python -m trl.scripts.vllm_serve --model org/m --enable_prefix_caching true\n"})
    (s,) = got.values()
    assert s.kind == "trl vllm-serve" and s.framework_version == trl and s.settings["enable_prefix_caching"].value is True
    assert set(s.fixed) == fixed and s.framework_defaults["host"] == host_default
    assert {k: v.value for k, v in s.env.items() if k != "CUDA_VISIBLE_DEVICES"} == env


def test_rollout_server_on_the_trainers_gpus(tmp_path):
    root = project(tmp_path, {
        "requirements.txt": "trl==0.19.0\n",
        "r.yaml": "model_name_or_path: org/m\nuse_vllm: true\nvllm_mode: server\n",
        "run.sh": "CUDA_VISIBLE_DEVICES=0 trl vllm-serve --model org/m &\naccelerate launch grpo.py --config r.yaml\n",
    })
    rep = audit(root, gpu="H100-80GB x4")
    server = next(r for r in rep.sites if r.site.kind == "trl vllm-serve")
    h8 = next(r for r in server.results if r.check.id == "H8")
    assert h8.status == "recommended" and h8.values["launch.trainer"] == "run.sh:2"
    (tmp_path / "run.sh").write_text("CUDA_VISIBLE_DEVICES=0 trl vllm-serve --model org/m &\n"
                                     "CUDA_VISIBLE_DEVICES=1,2,3 accelerate launch grpo.py --config r.yaml\n")
    rep = audit(root, gpu="H100-80GB x4")
    server = next(r for r in rep.sites if r.site.kind == "trl vllm-serve")
    assert next(r for r in server.results if r.check.id == "H8").status == "not_applicable"


@pytest.mark.parametrize("release, want", [("0.6.4", 3072), ("0.9.8", None)])
def test_openrlhf_engine_length_by_release(tmp_path, release, want):
    got = sites(tmp_path, {"requirements.txt": f"openrlhf=={release}\n", "train.sh":
                           "python -m openrlhf.cli.train_ppo_ray --vllm_num_engines 2 --pretrain org/m "
                           "--prompt_max_len 1024 --generate_max_len 2048\n"})
    (s,) = got.values()
    if want:
        assert s.settings["max_model_len"].value == want and s.settings["max_model_len"].implied
    else:  # from 0.9.8 the flags are gone and --max_len (2048) is the engine's length
        assert "max_model_len" not in s.settings and s.framework_defaults["max_model_len"] == 2048
        assert {"prompt_max_len", "generate_max_len"} <= set(s.unmapped)


def test_openrlhf_defaults_by_release(tmp_path):
    got = sites(tmp_path, {"requirements.txt": "openrlhf==0.6.0\n", "t.sh": "python -m openrlhf.cli.train_ppo_ray --vllm_num_engines 1 --pretrain m\n"})
    (s,) = got.values()
    assert s.framework_defaults["gpu_memory_utilization"] == 0.9 and s.framework_defaults["max_model_len"] == 2048


@pytest.mark.parametrize("release, spelling, mapped", [
    ("3.4.0", "--tensor_parallel_size", True), ("3.8.0", "--tensor_parallel_size", True),
    ("3.10.0", "--tensor_parallel_size", False), ("3.10.0", "--vllm_tensor_parallel_size", True),
])
def test_ms_swift_flag_spelling_by_release(tmp_path, release, spelling, mapped):
    root = project(tmp_path, {"requirements.txt": f"ms-swift=={release}\n",
                              "infer.sh": f"swift infer --model org/m --infer_backend vllm {spelling} 2\n"})
    rep = audit(root, gpu="none")
    (r,) = rep.sites
    assert (r.site.settings.get("tensor_parallel_size") is not None) is mapped
    removed = any(f.code == "ms-swift-removed-flag" for f in r.remarks)
    assert removed is (not mapped)


def test_llamafactory_tp_is_the_visible_gpus(tmp_path):
    root = project(tmp_path, {
        "a.sh": "CUDA_VISIBLE_DEVICES=2,3 llamafactory-cli api --model_name_or_path org/m --infer_backend vllm\n",
        "b.yaml": "model_name_or_path: org/m\ntemplate: qwen\ninfer_backend: vllm\n",
    })
    got = {s.file: s for s in scan_project(root).sites}
    assert got["a.sh"].settings["tensor_parallel_size"].value == 2
    tp = got["b.yaml"].settings["tensor_parallel_size"]
    assert not tp.resolved and tp.implied and got["b.yaml"].device_args == ("tensor_parallel_size",)
    rep = {r.site.file: r for r in audit(root, gpu="H100-80GB x4").sites}
    assert rep["b.yaml"].facts["engine"]["tensor_parallel_size"] == 4  # from --gpu, never from this machine
    rep = {r.site.file: r for r in audit(root, gpu="none").sites}
    assert "tensor_parallel_size" not in rep["b.yaml"].facts["engine"]


def test_verl_entry_points(tmp_path):
    got = sites(tmp_path, {"requirements.txt": "verl==0.5.0\n", "run.sh": """
python3 -m verl.trainer.main_generation model.path=org/m rollout.tensor_model_parallel_size=2 rollout.name=vllm
python3 -m verl.trainer.main_eval data.path=out.parquet
python3 -m verl.trainer.fsdp_sft_trainer model.partial_pretrain=org/m
"""})
    (s,) = got.values()
    assert s.kind == "verl main_generation" and s.mode == "standalone_offline" and s.model.value == "org/m"
    assert s.settings["tensor_parallel_size"].value == 2 and s.framework_defaults["enforce_eager"] is True


def test_project_hydra_entry_inherits_its_config(tmp_path):
    got = sites(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/main_ppo.py": 'import hydra\n@hydra.main(config_path="config", config_name="trainer", version_base=None)\ndef main(c):\n    run_ppo(c)\n',
        "pkg/print_cfg.py": 'import hydra\n@hydra.main(config_path="config", config_name="trainer", version_base=None)\ndef main(c):\n    print(c)\n',
        "pkg/config/base.yaml": "actor_rollout_ref:\n  rollout:\n    name: vllm\n    gpu_memory_utilization: 0.4\n    max_num_seqs: 64\n",
        "pkg/config/trainer.yaml": "defaults:\n  - base\n  - _self_\nactor_rollout_ref:\n  rollout:\n    gpu_memory_utilization: 0.6\n",
        "run.sh": "python -m pkg.main_ppo actor_rollout_ref.model.path=org/m actor_rollout_ref.rollout.tensor_model_parallel_size=2\n"
                  "python -m pkg.print_cfg\n",  # prints the config: no launch
    })
    (s,) = got.values()
    assert s.framework == "verl" and s.config_file == "pkg/config/trainer.yaml" and s.model.value == "org/m"
    v = {k: x.value for k, x in s.settings.items()}
    assert v["gpu_memory_utilization"] == 0.6 and v["max_num_seqs"] == 64 and v["tensor_parallel_size"] == 2


def test_sglang_rollout_is_not_a_vllm_site(tmp_path):
    got = sites(tmp_path, {"run.sh": "python -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=sglang "
                                     "actor_rollout_ref.model.path=org/m\n"})
    assert not got


def test_xinference_cli_forwards_engine_options(tmp_path):
    got = sites(tmp_path, {"x.sh": "xinference launch --model-engine vLLM -n qwen2.5-instruct -s 7 -f pytorch "
                                   "--gpu-idx 0,1 --max_model_len 8192 --enforce_eager true\n"
                                   "xinference launch --model-name bge-m3 --model-type embedding\n"})
    (s,) = got.values()
    # the registry's name and size name the checkpoint (knowledge/deploy/xinference_models.yaml)
    assert s.tool == "xinference" and s.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert {k: x.value for k, x in s.settings.items()} == {"max_model_len": 8192, "enforce_eager": True, "tensor_parallel_size": 2}
    assert s.framework_defaults["swap_space"] == 4


def test_openllm_serve_runs_vllm(tmp_path):
    got = sites(tmp_path, {"o.sh": "openllm serve llama3.2:1b --port 3000\nopenllm start meta-llama/Llama-2-7b-chat-hf --backend vllm\n"
                                   "openllm start facebook/opt-1.3b --backend pt\n"})
    a, b = sorted(got.values(), key=lambda s: s.line)
    assert a.tool == b.tool == "openllm" and not a.model.resolved and b.model.value == "meta-llama/Llama-2-7b-chat-hf"


@pytest.mark.parametrize("verl, rollout, status, change", [
    # up to 0.4.1 verl's rollout passes enable_sleep_mode=True itself: nothing to change
    ("0.4.1", "{name: vllm, free_cache_engine: false}", "enabled", None),
    # 0.5.0 … 0.6.1 pass free_cache_engine as enable_sleep_mode: the fix turns that key on where it
    # is written (an enable_sleep_mode key would stop a release that has none)
    ("0.5.0", "{name: vllm}", "enabled", None),
    ("0.5.0", "{name: vllm, free_cache_engine: false}", "recommended", "free_cache_engine: true"),
    ("0.9.1", "{name: vllm, enable_sleep_mode: false}", "recommended", "enable_sleep_mode: true"),
])
def test_verl_sleep_mode_by_release(tmp_path, verl, rollout, status, change):
    root = project(tmp_path, {"requirements.txt": f"vllm==0.8.5\nverl=={verl}\n", "ppo_trainer.yaml":
                              f"actor_rollout_ref:\n  hybrid_engine: true\n  model: {{path: org/m}}\n  rollout: {rollout}\n"})
    (sr,) = audit(root, gpu="H100-80GB x8").sites
    assert next(r for r in sr.results if r.check.id == "H1").status == status
    assert [c.after for c in sr.changes if "H1" in c.checks] == ([change] if change else [])
    # the key's own line (the rollout mapping), never a second, dotted key beside it (since e0d8a5b0)
    assert all(c.line == 4 for c in sr.changes if "H1" in c.checks)


_SWIFT_32 = ("#!/bin/bash\nCUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 \\\nNPROC_PER_NODE={procs} \\\nswift rlhf --rlhf_type grpo \\\n"
             "    --model Qwen/Qwen2.5-7B-Instruct --use_vllm true --vllm_device auto {workers}\\\n"
             "    --dataset AI-MO/NuminaMath-TIR#10000 --num_generations 7\n")


@pytest.mark.parametrize("procs, workers, mode", [(7, "", "standalone_offline"), (8, "--num_infer_workers 8 ", "rlhf_colocate")])
def test_swift_before_vllm_mode_colocates_only_with_one_worker_per_gpu(tmp_path, procs, workers, mode):
    # ms-swift 3.2.2 rlhf_args.py _check_grpo: colocate iff num_infer_workers equals the GPU count; otherwise
    # ("async mode") the engine runs on the GPU the 7 training processes leave, apart from them (no sleep mode needed)
    (tmp_path / "requirements.txt").write_text("ms-swift==3.2.2\nvllm==0.7.3\n")
    (tmp_path / "train.sh").write_text(_SWIFT_32.format(procs=procs, workers=workers))
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    assert sr.site.mode == mode
    h1 = next(r for r in sr.results if r.check.id == "H1")
    assert (h1.status == "recommended") == (mode == "rlhf_colocate")
