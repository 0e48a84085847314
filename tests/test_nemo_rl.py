"""NeMo-RL (NVIDIA/NeMo-RL): a run script (`uv run examples/run_grpo_math.py --config cfg.yaml k=v`)
loads its YAML with `defaults:` inheritance, applies Hydra-style overrides and resolves `${…}`;
policy.generation.vllm_cfg maps to vLLM's arguments as VllmGenerationWorker passes them, the
release comes from the checkout's package_info.py, and fixes are written in its own keys."""
from __future__ import annotations

import json

import pytest

BASE = """\
policy:
  model_name: "Qwen/Qwen2.5-1.5B"
  max_total_sequence_length: 512
  precision: "bfloat16"
  generation:
    backend: "vllm"
    max_new_tokens: ${policy.max_total_sequence_length}
    vllm_cfg:
      precision: ${policy.precision}
      tensor_parallel_size: 1
      gpu_memory_utilization: 0.6
      max_model_len: ${policy.max_total_sequence_length}
cluster:
  gpus_per_node: 1
  num_nodes: 1
"""

CHILD = """\
defaults: "grpo_math_1B.yaml"
policy:
  model_name: "meta-llama/Llama-3.1-8B-Instruct"
  max_total_sequence_length: 4096
cluster:
  gpus_per_node: 8
"""

EVAL = """\
generation:
  backend: "vllm"
  model_name: "Qwen/Qwen2.5-Math-1.5B-Instruct"
  vllm_cfg:
    precision: "bfloat16"
    tensor_parallel_size: 1
    gpu_memory_utilization: 0.9
    max_model_len: 2048
cluster:
  gpus_per_node: 1
"""

PACKAGE_INFO = 'MAJOR = 0\nMINOR = 2\nPATCH = 1\nPRE_RELEASE = ""\n'


def checkout(launch: str, vllm: str = "0.8.4", base: str = BASE) -> dict[str, str]:
    return {
        "pyproject.toml": f'[project]\nname = "nemo-rl"\ndynamic = ["version"]\n[project.optional-dependencies]\nvllm = ["vllm=={vllm}"]\n',
        "nemo_rl/__init__.py": "",
        "nemo_rl/package_info.py": PACKAGE_INFO,
        "examples/run_grpo_math.py": "import argparse\n",
        "examples/run_eval.py": "import argparse\n",
        "examples/configs/grpo_math_1B.yaml": base,
        "examples/configs/grpo_math_8B.yaml": CHILD,
        "examples/configs/eval.yaml": EVAL,
        "run.sh": launch,
    }


def _sites(cli, root) -> list[dict]:
    code, out, err = cli("audit", str(root), "--gpu", "H100-80GB x8", "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    return json.loads(out)["sites"]


def _launch(cli, root) -> dict:
    (site,) = [s for s in _sites(cli, root) if s["file"] == "run.sh"]
    return site


def _settings(site) -> dict:
    return {s["name"]: s for s in site["settings"]}


def test_the_run_script_composes_its_config(cli, write_project):
    launch = ("uv run examples/run_grpo_math.py --config examples/configs/grpo_math_8B.yaml \\\n"
              "    policy.generation.vllm_cfg.tensor_parallel_size=4\n")
    site = _launch(cli, write_project(checkout(launch)))
    assert site["framework"] == "nemo-rl" and site["mode"] == "rlhf_colocate"
    assert site["framework_info"]["version"] == "0.2.1"
    assert site["model"]["name"] == "meta-llama/Llama-3.1-8B-Instruct"  # the child's, over its parent's
    got = _settings(site)
    assert got["tensor_parallel_size"]["value"] == 4 and got["tensor_parallel_size"]["file"] == "run.sh"
    # ${policy.max_total_sequence_length} read after the child overrides it
    assert got["max_model_len"]["value"] == 4096
    assert got["dtype"]["value"] == "bfloat16"
    assert got["distributed_executor_backend"]["value"] == "ray"  # tp × pp > 1 runs on Ray


def test_an_override_of_the_interpolated_key_reaches_max_model_len(cli, write_project):
    launch = "uv run python examples/run_grpo_math.py policy.max_total_sequence_length=1024\n"
    got = _settings(_launch(cli, write_project(checkout(launch))))
    assert got["max_model_len"]["value"] == 1024  # grpo_math_1B.yaml, the script's default config


def test_run_eval_reads_the_top_level_generation_block(cli, write_project):
    site = _launch(cli, write_project(checkout("uv run python examples/run_eval.py\n")))
    assert site["mode"] == "standalone_offline" and site["model"]["name"] == "Qwen/Qwen2.5-Math-1.5B-Instruct"
    assert _settings(site)["gpu_memory_utilization"]["value"] == 0.9


def test_a_config_that_generates_with_another_backend_is_no_site(cli, write_project):
    launch = "uv run examples/run_grpo_math.py policy.generation.backend=hf\n"
    assert [s for s in _sites(cli, write_project(checkout(launch))) if s["file"] == "run.sh"] == []


def test_configs_no_launch_names_are_sites_with_their_parents(cli, write_project):
    files = checkout("echo\n")
    sites = {s["file"]: s for s in _sites(cli, write_project(files))}
    child = sites["examples/configs/grpo_math_8B.yaml"]
    assert child["framework"] == "nemo-rl" and child["model"]["name"] == "meta-llama/Llama-3.1-8B-Instruct"
    assert _settings(child)["max_model_len"]["value"] == 4096
    assert {"examples/configs/grpo_math_1B.yaml", "examples/configs/eval.yaml"} <= set(sites)


def test_a_tensor_parallel_size_the_heads_do_not_divide_is_fixed_on_the_command_line(cli, write_project):
    # Qwen2.5-1.5B has 12 attention heads: vLLM refuses 8
    launch = "uv run examples/run_grpo_math.py policy.generation.vllm_cfg.tensor_parallel_size=8 cluster.gpus_per_node=8\n"
    root = write_project(checkout(launch, vllm="0.9.0"))
    site = _launch(cli, root)
    p0 = [r for r in site["recommendations"] if r["priority"] == "P0"]
    assert p0 and all(c["target"] == "tensor_parallel_size" for r in p0 for c in r["changes"] if c["op"] == "set")
    config = (root / "examples/configs/grpo_math_1B.yaml").read_text()
    code, _, err = cli("audit", str(root), "--gpu", "H100-80GB x8", "--isolated", "-q", "--fix")
    assert code in (0, 1), err
    fixed = (root / "run.sh").read_text()
    assert fixed == launch.replace("tensor_parallel_size=8", "tensor_parallel_size=4")
    assert (root / "examples/configs/grpo_math_1B.yaml").read_text() == config
    cli("audit", str(root), "--gpu", "H100-80GB x8", "--isolated", "-q", "--fix")
    assert (root / "run.sh").read_text() == fixed


# a checkout whose own pyproject pins another vLLM than its version file's release declared is a later commit
# or a fork: its own pin is the pair it runs (5c348318, eval83 OpenRLHF-M), not the release's declared range
@pytest.mark.parametrize("vllm, status", [("0.8.4", "enabled"), ("0.9.0", "enabled")])
def test_the_release_declares_its_vllm(cli, write_project, vllm, status):
    site = _launch(cli, write_project(checkout("uv run examples/run_grpo_math.py\n", vllm=vllm)))
    l43 = next(c for c in site["checks"] if c["id"] == "L43")
    assert l43["status"] == status


# QAT rollouts (NeMo-RL d2a24cbb, main after v0.6.0): with real_quant the quantized worker hands vLLM its own
# ModelOpt NVFP4 method and an NVFP4 quantization_config through hf_overrides (vllm_quant_worker.py), so
# Qwen3-30B-A3B's experts sit in vLLM as NVFP4 (~17 GiB), not the ~57 GiB of bf16 that leaves an H100 at gmu 0.6
# no KV cache; the bf16 checkpoint's missing quantization_config is no "Cannot find the config file" (L11)
QAT = """\
defaults: "grpo_math_1B.yaml"
policy:
  model_name: "Qwen/Qwen3-30B-A3B"
  max_total_sequence_length: 4096
  generation:
    quant_cfg: examples/modelopt/quant_configs/nvfp4_experts.yaml
    real_quant: true
"""


@pytest.mark.parametrize("real", [True, False])
def test_real_quant_rollouts_hold_nvfp4_weights(cli, write_project, real):
    files = checkout("uv run examples/run_grpo.py --config examples/configs/qat.yaml\n", vllm="0.25.1")
    files["nemo_rl/package_info.py"] = PACKAGE_INFO.replace("MINOR = 2", "MINOR = 6").replace("PATCH = 1", "PATCH = 0")
    files["examples/run_grpo.py"] = "import argparse\n"
    files["examples/configs/qat.yaml"] = QAT if real else QAT.replace("real_quant: true", "real_quant: false")
    site = _launch(cli, write_project(files))
    p0 = {c["id"] for c in site["checks"] if c.get("priority") == "P0" and c["status"] != "ok"}
    if real:
        assert _settings(site)["quantization"]["value"] == "modelopt_fp4" and site["memory"]["weights_per_gpu_gib"] < 20
        assert not p0 & {"L11", "L16"}
    else:
        assert "quantization" not in _settings(site) and "L16" in p0
