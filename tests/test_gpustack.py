"""A GPUStack model with `backend: vLLM` (its API's model spec in YAML or JSON, or a custom model
catalog's spec) is a launch: `vllm serve <model>` with what GPUStack adds (the tensor-parallel size
of the GPUs it is given, the 8192 cap on a longer model's length, the served name) and the
backend_parameters, in the release its backend_version or the project's GPUStack image names.
Fixes go into backend_parameters as items of their own."""
from __future__ import annotations

import json

SPEC = """\
name: gemma-3-27b
source: huggingface
huggingface_repo_id: google/gemma-3-27b-it
backend: vLLM
backend_version: 0.8.5.post1
gpu_selector:
  gpu_ids: [worker-1:cuda:0, worker-1:cuda:1, worker-1:cuda:2]
backend_parameters:
  - --gpu-memory-utilization=0.9
  - --max-model-len 16384
"""


def _sites(cli, root, gpu="A100-80GB x3", *extra):
    code, out, err = cli("audit", str(root), "--gpu", gpu, "--isolated", "-q", "--format", "json", *extra)
    assert code in (0, 1), err
    return json.loads(out)["sites"]


def _settings(site):
    return {s["name"]: s for s in site["settings"]}


def test_the_gpus_selected_on_one_worker_are_the_tensor_parallel_size(cli, write_project):
    (site,) = _sites(cli, write_project({"models/gemma.yaml": SPEC}))
    st = _settings(site)
    assert st["tensor_parallel_size"]["value"] == 3 and "GPUStack" in st["tensor_parallel_size"]["note"]
    assert st["max_model_len"]["value"] == 16384  # an item of two tokens, split as GPUStack 2.x does
    assert st["served_model_name"]["value"] == ["gemma-3-27b"]
    assert (site["vllm"]["version"], site["vllm"]["basis"]) == ("0.8.5", "image")
    assert "backend_version" in site["vllm"]["source"]
    assert [r["check"] for r in site["recommendations"] if r["priority"] == "P0"] == ["L1"]


def test_the_tensor_parallel_fix_is_a_backend_parameter_of_its_own(cli, write_project):
    root = write_project({"models/gemma.yaml": SPEC})
    code, out, err = cli("audit", str(root), "--gpu", "A100-80GB x3", "--isolated", "-q", "--fix", "--select", "L1")
    assert code in (0, 1), err
    text = (root / "models/gemma.yaml").read_text()
    assert "  - --max-model-len 16384\n  - --tensor-parallel-size\n  - \"2\"\n" in text
    assert "gpu_ids: [worker-1:cuda:0, worker-1:cuda:1, worker-1:cuda:2]" in text  # the selection is the user's


def test_a_parallel_size_written_is_not_overridden(cli, write_project):
    spec = SPEC.replace("  - --gpu-memory-utilization=0.9\n", "  - --tensor-parallel-size=2\n")
    (site,) = _sites(cli, write_project({"m.yaml": spec}))
    assert _settings(site)["tensor_parallel_size"]["value"] == 2
    assert not [r for r in site["recommendations"] if r["priority"] == "P0"]


def test_gpus_the_scheduler_picks_leave_the_split_unknown(cli, write_project):
    spec = SPEC.replace("gpu_selector:\n  gpu_ids: [worker-1:cuda:0, worker-1:cuda:1, worker-1:cuda:2]\n", "")
    (site,) = _sites(cli, write_project({"m.yaml": spec}))
    tp = _settings(site)["tensor_parallel_size"]
    assert tp["resolved"] is False and "scheduler" in tp["note"]
    assert not [r for r in site["recommendations"] if r["priority"] == "P0"]
    across = SPEC.replace("worker-1:cuda:2", "worker-2:cuda:0")
    (site,) = _sites(cli, write_project({"m.yaml": across}))
    assert _settings(site)["tensor_parallel_size"]["resolved"] is False


def test_a_longer_model_runs_with_gpustacks_cap(cli, write_project):
    spec = {"name": "qwen", "source": "huggingface", "huggingface_repo_id": "Qwen/Qwen2.5-7B-Instruct",
            "backend": "vLLM", "backend_version": "0.8.5", "gpu_selector": {"gpus_per_replica": 1},
            "backend_parameters": ["--enable-prefix-caching"]}
    (site,) = _sites(cli, write_project({"deploy/model.json": json.dumps(spec, indent=2)}), "RTX-4090")
    assert site["effective"]["max_model_len"] == 8192
    assert "B2" not in [r["check"] for r in site["recommendations"]]  # not "unset": GPUStack passes 8192
    written = dict(spec, backend_parameters=["--max-model-len=32768"])
    (site,) = _sites(cli, write_project({"deploy/model.json": json.dumps(written)}), "RTX-4090")
    assert site["effective"]["max_model_len"] == 32768


def test_a_catalogs_vllm_specs_are_sites_and_others_are_not(cli, write_project):
    catalog = """\
model_sets:
- name: Qwen3 32B
  specs:
    - mode: standard
      source: huggingface
      huggingface_repo_id: Qwen/Qwen3-32B
      backend: vLLM
      backend_parameters: [--max-model-len=32768]
    - mode: throughput
      source: huggingface
      huggingface_repo_id: Qwen/Qwen3-32B
      backend: SGLang
      backend_parameters: [--context-length=32768]
"""
    (site,) = _sites(cli, write_project({"catalog.yaml": catalog}), "L40S x2")
    assert (site["line"], site["model"]["name"]) == (6, "Qwen/Qwen3-32B")


def test_the_gpustack_server_image_names_the_release(cli, write_project):
    spec = SPEC.replace("backend_version: 0.8.5.post1\n", "")
    compose = "services:\n  gpustack:\n    image: gpustack/gpustack:v0.5.1\n    ipc: host\n"
    (site,) = _sites(cli, write_project({"m.yaml": spec, "docker-compose.yml": compose}))
    assert site["vllm"]["version"] == "0.7.2" and "gpustack/gpustack:v0.5.1" in site["vllm"]["source"]
    two = compose + "  other:\n    image: gpustack/gpustack:v0.6.1\n"
    (site,) = _sites(cli, write_project({"m.yaml": spec, "docker-compose.yml": two}))
    assert "gpustack/gpustack" not in (site["vllm"]["source"] or "")


def test_the_release_in_chinese(cli, write_project):
    root = write_project({"m.yaml": SPEC})
    code, out, err = cli("audit", str(root), "--gpu", "A100-80GB x3", "--isolated", "-q", "--format", "json", "--lang", "zh")
    assert "GPUStack 模型的 backend_version" in json.loads(out)["sites"][0]["vllm"]["source"]


def test_a_json_value_item_is_one_token_as_gpustack_splits_it(cli, write_project):
    # gpustack/gpustack's own catalog (assets/model-catalog.yaml) writes JSON values with spaces as one
    # item; GPUStack masks a JSON value after `=` before its shlex split (utils/command.py safe_split),
    # so vLLM gets the JSON whole: no stray `1}` positional, and --hf_overrides is JSON
    spec = SPEC.replace("  - --max-model-len 16384\n", "  - '--limit-mm-per-prompt={\"image\": 1}'\n"
                        "  - '--hf_overrides={\"architectures\":[\"Qwen3ForSequenceClassification\"],\"is_original_qwen3_reranker\":true}'\n"
                        "  - --override-generation-config\n  - '{\"temperature\": 0.6}'\n")
    (site,) = _sites(cli, write_project({"m.yaml": spec}))
    st = _settings(site)
    assert st["limit_mm_per_prompt"]["value"] == {"image": 1}
    assert st["override_generation_config"]["value"] == {"temperature": 0.6}  # a value item is never split
    assert not [r for r in site["recommendations"] if r["check"] in ("stray-positional", "option-not-json:hf_overrides")]


def test_a_spec_for_ascend_npus_keeps_its_refusals_to_vllm_ascend(cli, write_project):
    # gpustack's catalog pins Ascend specs with gpu_filters.vendor: ascend; vllm-ascend registers
    # `--quantization ascend` and runs on 910B NPUs, so CUDA vLLM's refusals are not its own (P1 at most)
    spec = SPEC.replace("backend_parameters:\n", "gpu_filters:\n  vendor: ascend\nbackend_parameters:\n  - --quantization=ascend\n")
    (site,) = _sites(cli, write_project({"m.yaml": spec}))
    assert not [r for r in site["recommendations"] if r["priority"] == "P0"]


def test_the_projects_transformers_pin_is_not_the_runners(cli, write_project):
    # gpustack/gpustack pins transformers 5.x for its server (uv.lock) while a catalog spec's backend_version
    # 0.11.2 runs in GPUStack's runner image of that release: its transformers is the image's (2 false L125 P0s)
    spec = SPEC.replace("backend_version: 0.8.5.post1", "backend_version: 0.11.2")
    root = write_project({"m.yaml": spec, "requirements.txt": "transformers==5.0.0\n"})
    (site,) = _sites(cli, root)
    assert not [r for r in site["recommendations"] if r["check"] == "L125" and r["priority"] == "P0"]
    # the same pin beside a plain launch of that release is the one vLLM imports
    sites = _sites(cli, write_project({"run.sh": "vllm serve google/gemma-3-27b-it\n",
                                       "requirements.txt": "vllm==0.11.2\ntransformers==5.0.0\n"}))
    (site,) = [s for s in sites if s["file"] == "run.sh"]
    assert [r["priority"] for r in site["recommendations"] if r["check"] == "L125"] == ["P0"]
