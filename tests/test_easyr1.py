"""EasyR1 (hiyouga/EasyR1), the verl fork that keeps verl's package name: its launches
(`python3 -m verl.trainer.main config=… worker.rollout.X=…`) and configs are its own framework,
its release comes from its checkout's verl/__init__.py, its rollout keys map to vLLM's arguments
as vllm_rollout_spmd.py passes them, and fixes are written in its keys."""
from __future__ import annotations

import json

import pytest

CONFIG = """\
data:
  max_prompt_length: 2048
  max_response_length: 2048
worker:
  actor:
    model:
      model_path: Qwen/Qwen2.5-7B-Instruct
  rollout:
    n: 5
    gpu_memory_utilization: 0.6
    enforce_eager: false
    tensor_parallel_size: 2
trainer:
  nnodes: 1
  n_gpus_per_node: 8
"""


def checkout(version: str = "0.3.2", vllm: str = "vllm==0.10.0", script: str = "", config: str = CONFIG) -> dict[str, str]:
    """The smallest EasyR1 checkout: its metadata (named verl), the layout that tells it from verl,
    its pins, its example config and a launch script."""
    return {
        "setup.py": 'from setuptools import setup\nsetup(name="verl", version=get_version())\n',
        "verl/__init__.py": f'__version__ = "{version}"\n',
        "verl/trainer/main.py": "def main():\n    pass\n",
        "verl/workers/rollout/config.py": "class RolloutConfig:\n    pass\n",
        "requirements.txt": f"{vllm}\n",
        "examples/config.yaml": config,
        "examples/run.sh": script or "python3 -m verl.trainer.main \\\n    config=examples/config.yaml \\\n"
                                     "    worker.actor.model.model_path=Qwen/Qwen2.5-7B-Instruct\n",
    }


def _settings(site) -> dict:
    return {s["name"]: s for s in site["settings"]}


def test_the_launch_is_easyr1_with_its_own_release(json_site, write_project):
    site = json_site(write_project(checkout()), "H100-80GB x8")
    assert site["framework"] == "easyr1" and site["mode"] == "rlhf_colocate"
    assert site["framework_info"]["version"] == "0.3.2"
    assert site["model"]["name"] == "Qwen/Qwen2.5-7B-Instruct"
    got = _settings(site)
    assert got["tensor_parallel_size"]["value"] == 2 and got["tensor_parallel_size"]["file"] == "examples/config.yaml"
    # max_model_len = prompt_length + response_length (vllm_rollout_spmd.py), from the data block
    assert got["max_model_len"]["value"] == 4096 and got["max_model_len"]["key"] == "data.max_prompt_length"


def test_an_override_on_the_command_line_wins_over_the_config(json_site, write_project):
    script = ("python3 -m verl.trainer.main config=examples/config.yaml \\\n"
              "    data.max_response_length=4096 worker.rollout.tensor_parallel_size=4\n")
    got = _settings(json_site(write_project(checkout(script=script)), "H100-80GB x8"))
    assert got["tensor_parallel_size"]["value"] == 4 and got["tensor_parallel_size"]["file"] == "examples/run.sh"
    assert got["max_model_len"]["value"] == 2048 + 4096


def test_the_dtype_key_is_read_as_vllm_spells_it(json_site, write_project):
    script = "python3 -m verl.trainer.main config=examples/config.yaml worker.rollout.dtype=fp16\n"
    got = _settings(json_site(write_project(checkout(script=script)), "H100-80GB x8"))
    assert got["dtype"]["value"] == "float16"  # PrecisionType.to_str(to_dtype("fp16"))


def test_an_unreferenced_config_is_an_easyr1_site(json_site, write_project):
    files = checkout()
    del files["examples/run.sh"]
    site = json_site(write_project(files), "H100-80GB x8")
    assert site["framework"] == "easyr1" and site["kind"] == "EasyR1 config"


def _p0(site) -> list[str]:
    return [r["check"] for r in site["recommendations"] if r["priority"] == "P0"]


@pytest.mark.parametrize("extra, refused", [
    ("data.max_prompt_length=4096 data.max_response_length=8192", True),    # 12288 > 8192 (the default budget)
    ("data.max_prompt_length=2048 data.max_response_length=20480 worker.rollout.max_num_batched_tokens=22528", False),
    ("data.max_response_length=$LEN", False),                                # unread: not judged on a default
])
def test_the_rollout_refuses_a_token_budget_below_one_sequence(json_site, write_project, extra, refused):
    script = f"python3 -m verl.trainer.main config=examples/config.yaml {extra}\n"
    site = json_site(write_project(checkout(script=script)), "H100-80GB x8")
    assert ("easyr1-batched-tokens" in _p0(site)) is refused


def test_the_tensor_parallel_size_must_divide_the_gpus(json_site, write_project):
    script = "python3 -m verl.trainer.main config=examples/config.yaml trainer.n_gpus_per_node=6 worker.rollout.tensor_parallel_size=4\n"
    assert "easyr1-tp-world" in _p0(json_site(write_project(checkout(script=script)), "H100-80GB x8"))
    script = "python3 -m verl.trainer.main config=examples/config.yaml trainer.n_gpus_per_node=8 worker.rollout.tensor_parallel_size=4\n"
    assert "easyr1-tp-world" not in _p0(json_site(write_project(checkout(script=script)), "H100-80GB x8"))


def test_the_fix_writes_easyr1_keys_byte_minimal_and_once(cli, write_project):
    script = "python3 -m verl.trainer.main config=examples/config.yaml data.max_prompt_length=4096 data.max_response_length=8192\n"
    root = write_project(checkout(script=script))
    before = {p: (root / p).read_text() for p in ("examples/run.sh", "examples/config.yaml")}
    code, _, err = cli("audit", str(root), "--gpu", "H100-80GB x8", "--isolated", "-q", "--fix", "--select", "easyr1-batched-tokens")
    assert code in (0, 1), err
    after = (root / "examples/run.sh").read_text()
    assert after == before["examples/run.sh"].rstrip("\n") + " worker.rollout.max_num_batched_tokens=12288\n"
    assert (root / "examples/config.yaml").read_text() == before["examples/config.yaml"]
    cli("audit", str(root), "--gpu", "H100-80GB x8", "--isolated", "-q", "--fix", "--select", "easyr1-batched-tokens")
    assert (root / "examples/run.sh").read_text() == after  # nothing left to change


def test_a_key_in_the_config_is_fixed_in_the_config(cli, write_project):
    config = CONFIG.replace("    tensor_parallel_size: 2\n", "    tensor_parallel_size: 2\n    max_num_batched_tokens: 2048\n")
    root = write_project(checkout(config=config))
    code, _, err = cli("audit", str(root), "--gpu", "H100-80GB x8", "--isolated", "-q", "--fix", "--select", "easyr1-batched-tokens")
    assert code in (0, 1), err
    assert (root / "examples/config.yaml").read_text() == config.replace("max_num_batched_tokens: 2048", "max_num_batched_tokens: 4096")


@pytest.mark.parametrize("version, model, broken", [
    ("0.3.0", "Qwen/Qwen2.5-7B-Instruct", True),       # passes disable_mm_preprocessor_cache for every model
    ("0.3.2", "Qwen/Qwen2.5-7B-Instruct", False),      # only for a multimodal model
    ("0.3.2", "Qwen/Qwen2.5-VL-7B-Instruct", True),
])
def test_a_vllm_without_the_argument_it_passes(json_site, write_project, version, model, broken):
    script = f"python3 -m verl.trainer.main config=examples/config.yaml worker.actor.model.model_path={model}\n"
    site = json_site(write_project(checkout(version, "vllm==0.13.0", script)), "H100-80GB x8")
    assert ("L43" in _p0(site)) is broken


def test_the_declared_range_comes_from_the_release_requirements(json_site, write_project):
    site = json_site(write_project(checkout("0.3.2", "vllm==0.7.3")), "H100-80GB x8")
    l43 = next(c for c in site["checks"] if c["id"] == "L43")
    assert l43["status"] == "recommended" and "vllm>=0.8.0" in json.dumps(l43)
