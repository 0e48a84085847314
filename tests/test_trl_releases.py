"""TRL's vLLM mode follows the TRL release the project pins (knowledge/frameworks/trl.yaml › modes):
0.14–0.15 build LLM() in the training process on `vllm_device` (auto: the GPU after the training
processes), 0.16–0.17 talk to `trl vllm-serve`, 0.18+ choose with vllm_mode. A fix writes only a key
the pinned release has."""
import pytest
from vllm_kb.engine.audit import audit

GRPO = '''from trl import GRPOConfig
args = GRPOConfig(output_dir="o", use_vllm=True, vllm_gpu_memory_utilization=0.5{extra})
'''


def _site(write_project, trl, gpu, extra=""):
    rep = audit(write_project({"requirements.txt": f"trl=={trl}\nvllm==0.7.1\n", "train.py": GRPO.format(extra=extra)}), gpu=gpu)
    (sr,) = rep.sites
    return sr


def _p0(sr):
    return [r.check.id for r in sr.results if r.status == "recommended" and r.priority == "P0"]


@pytest.mark.parametrize("trl,gpu,p0,mode", [
    ("0.14.0", "A100-80GB", ["L34"], "standalone_offline"),  # vLLM on cuda:1 of a one-GPU machine
    ("0.14.0", "A100-80GB x2", [], "standalone_offline"),    # cuda:1 exists
    # 0.15 shares cuda:0 on a one-GPU machine: the engine sits beside the trainer's policy, which
    # is colocation (e0d8a5b0 engine_shares_trainer_gpu)
    ("0.15.2", "A100-80GB", [], "rlhf_colocate"),
])
def test_in_process_engine_on_the_next_gpu(write_project, trl, gpu, p0, mode):
    sr = _site(write_project, trl, gpu)
    assert sr.site.mode == mode and sr.site.launch["engine_device"] == 1
    assert _p0(sr) == p0


def test_a_named_device_past_the_gpus_is_a_p0(write_project):
    sr = _site(write_project, "0.15.2", "A100-80GB x2", extra=', vllm_device="cuda:3"')
    assert sr.site.launch["engine_device"] == 3 and _p0(sr) == ["L34"]


def test_from_016_the_trainer_is_a_client_of_a_server(write_project):
    sr = _site(write_project, "0.16.0", "A100-80GB")
    assert sr.site.mode == "rlhf_server" and sr.site.engine_elsewhere and "engine_device" not in sr.site.launch


def test_a_fix_writes_only_a_key_the_release_has():
    from vllm_kb.engine.kb import frameworks

    trl = frameworks.get("trl")
    assert trl.key_for_arg("max_model_len", "0.14.0") is None
    assert trl.key_for_arg("max_model_len", "0.15.2").key == "vllm_max_model_len"
    assert trl.key_for_arg("max_model_len", "1.16.0").key == "vllm_max_model_length"
    assert trl.key_for_arg("max_model_len", "9.0.0").key == "vllm_max_model_length"  # newer than the catalog
    assert trl.key_for_arg("max_model_len").key == "vllm_max_model_length"


@pytest.mark.parametrize("trl,fixed", [
    ("0.18.0", {"distributed_executor_backend": "external_launcher", "seed": 0}),
    ("0.19.0", {"distributed_executor_backend": "external_launcher", "seed": 0, "max_num_batched_tokens": 4096}),
    ("0.24.0", {"distributed_executor_backend": "external_launcher", "seed": 0, "max_num_batched_tokens": 4096,
                "logprobs_mode": "processed_logprobs"}),
    (None, {"distributed_executor_backend": "external_launcher", "seed": 0, "max_num_batched_tokens": 4096,
            "logprobs_mode": "processed_logprobs"}),  # no release pinned: the newest read
])
def test_colocate_passes_what_its_release_hard_codes(trl, fixed):
    # trl 0.18.0 grpo_trainer.py builds LLM(...) with a seed (the replica's index; 0 stands for it) and without
    # max_num_batched_tokens; 0.19.0 adds 4096, 0.24.0 logprobs_mode
    from vllm_kb.engine.kb import frameworks
    assert frameworks.get("trl").fixed("rlhf_colocate", trl) == fixed


# eval70 (TiandaSun/KG_GRPO src/training/train_grpo.py): the config's keywords are a dict the function builds,
# use_vllm set under the project's own switch, and the same config built again in `except TypeError:`
KWARGS = '''from trl import GRPOConfig
def build(config, out):
    kw = {"output_dir": out, "beta": 0.0}
    kw.update({"loss_type": "dr_grpo"})
    if config.use_vllm:
        kw["use_vllm"] = True
        kw["vllm_mode"] = "colocate"
        kw["vllm_gpu_memory_utilization"] = config.mem
    kw["vllm_tensor_parallel_size"] = 2
    try:
        return GRPOConfig(**kw)
    except TypeError:
        kw.pop("loss_type", None)
        return GRPOConfig(**kw)
'''


def test_a_config_built_from_a_dict_in_the_same_function_is_a_site(write_project):
    rep = audit(write_project({"requirements.txt": "trl==0.23.0\nvllm==0.10.2\n", "train.py": KWARGS}), gpu="H100-80GB x2")
    (sr,) = rep.sites
    s = sr.site
    assert (s.file, s.line, s.mode) == ("train.py", 11, "rlhf_colocate")
    assert s.settings["tensor_parallel_size"].value == 2 and s.settings["tensor_parallel_size"].line == 9
    assert not s.settings["gpu_memory_utilization"].resolved  # `config.mem`: the project's own value
    # without the switch the trainer generates with transformers: no vLLM launch
    off = KWARGS.replace('        kw["use_vllm"] = True\n', "")
    assert audit(write_project({"requirements.txt": "trl==0.23.0\n", "train.py": off}), gpu="H100-80GB x2").sites == []


def test_a_commit_of_trl_takes_the_mode_of_its_line_of_code(write_project):
    # deep-diver/open-r1 (eval73): setup.py installs trl@1bca4951 (April 2025, 0.18.0.dev0 in TRL's history)
    # and its GRPO recipes set `use_vllm: true` without vllm_mode; with no release the audit took the
    # newest TRL's default (colocate, 1.0+) and asked for sleep mode, while that code only talks to a server
    git = "trl @ git+https://github.com/huggingface/trl.git@1bca49515ecd5b85d16e68c42c76670e252e19f1\nvllm==0.8.4\n"
    recipe = "model_name_or_path: Qwen/Qwen2.5-1.5B-Instruct\nuse_vllm: true\nvllm_gpu_memory_utilization: 0.7\n"
    rep = audit(write_project({"requirements.txt": git, "train.py": GRPO.format(extra=""), "recipes/grpo.yaml": recipe}),
                gpu="A100-80GB x8")
    assert {sr.site.file: sr.site.mode for sr in rep.sites} == {"train.py": "rlhf_server", "recipes/grpo.yaml": "rlhf_server"}
    assert not any(r.check.id == "H1" and r.status == "recommended" for sr in rep.sites for r in sr.results)
