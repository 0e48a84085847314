"""P1s that said something untrue of the launch (eval115): a GPU count that left pipeline stages out,
a per-prompt multimodal limit that frees nothing, FP8 KV and max_model_len advice where the cache
is not what limits the server, CUDA-graph advice for a model that never decodes."""
from __future__ import annotations

from pathlib import Path

from vllm_kb.engine.check.launch_facts import gpu_layout
from vllm_kb.engine.kb.messages import render


def _results(root: Path, gpu: str) -> dict[str, tuple[str, str | None, str]]:
    from vllm_kb.engine.audit import audit

    rep = audit(root, gpu=gpu)
    (site,) = rep.sites
    return {r.check.id: (r.status, r.priority, render(r.reason.en, r.values)) for r in site.results}


def test_engine_gpus_counts_every_rank():
    # TP 8 × PP 2 over two 8-GPU pods (GKE vllm-deepseek-r1-A3.yaml): 16 GPUs, 8 on each node
    layout = gpu_layout({"tensor_parallel_size": 8, "pipeline_parallel_size": 2, "data_parallel_size": 1}, None, 8, nodes=2)
    assert layout["engine_gpus"] == 16
    assert layout["gpus_needed"] == 16  # one node's share is not what this count is
    layout = gpu_layout({"tensor_parallel_size": 2, "data_parallel_size": 4, "data_parallel_size_local": 2}, None, 8)
    assert (layout["engine_gpus"], layout["gpus_needed"]) == (8, 4)


def test_c4_says_tp_pp_dp(tmp_path):
    (tmp_path / "serve.sh").write_text(
        "pip install vllm==0.8.5\n"
        "vllm serve deepseek-ai/DeepSeek-R1 --tensor-parallel-size 8 --pipeline-parallel-size 2 "
        "--distributed-executor-backend ray --max-model-len 4096\n")
    status, priority, text = _results(tmp_path, "H100-80GB x8")["C4"]
    assert (status, priority) == ("recommended", "P1")
    assert "16 GPUs (TP 8 × PP 2 × DP 1)" in text, text


def test_i5_v1_default_limit_is_p2_without_a_made_up_count(tmp_path):
    (tmp_path / "serve.sh").write_text("pip install vllm==0.10.0\nvllm serve google/gemma-3-12b-it --max-model-len 16384 --max-num-seqs 4\n")
    from vllm_kb.engine.audit import audit

    rep = audit(tmp_path, gpu="L4 x2")
    (site,) = rep.sites
    (i5,) = [r for r in site.results if r.check.id == "I5"]
    assert (i5.status, i5.priority) == ("recommended", "P2")
    assert not i5.fix  # no `image: 4` proposed: a count frees nothing on V1


def test_i5_v0_default_is_one_item(tmp_path):
    (tmp_path / "run.py").write_text(
        "from vllm import LLM\nllm = LLM(model='Qwen/Qwen2.5-VL-3B-Instruct', max_model_len=8192)\n")
    (tmp_path / "requirements.txt").write_text("vllm==0.7.2\n")
    status, priority, _ = _results(tmp_path, "H100-80GB x1")["I5"]
    assert status == "not_enabled"


def test_b3_b2_server_without_kv_pressure(tmp_path):
    # a 7B at 4096 tokens on 2 H100s, no max_num_seqs: ~69 full requests fit; V1 sizes KV by memory
    (tmp_path / "serve.sh").write_text(
        "pip install vllm==0.11.0\nvllm serve meta-llama/Llama-2-7b-chat-hf --tensor-parallel-size 2\n")
    res = _results(tmp_path, "H100-80GB x2")
    assert res["B3"][:2] == ("recommended", "P2"), res["B3"]


def test_b2_v1_long_default_is_p2(tmp_path):
    (tmp_path / "serve.sh").write_text(
        "pip install vllm==0.10.0\nvllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 1\n")
    status, priority, text = _results(tmp_path, "H100-80GB x1")["B2"]
    assert (status, priority) == ("recommended", "P2"), text
    assert "frees no cache" in text


def test_b2_v0_long_default_keeps_p1(tmp_path):
    (tmp_path / "serve.sh").write_text(
        "pip install vllm==0.6.3\nvllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 1\n")
    status, priority, _ = _results(tmp_path, "H100-80GB x1")["B2"]
    assert (status, priority) == ("recommended", "P1")


def test_a2_pooling_model_eager_is_p2(tmp_path):
    (tmp_path / "serve.sh").write_text(
        "pip install vllm==0.9.0.1\nvllm serve intfloat/e5-mistral-7b-instruct --gpu-memory-utilization 0.8 --enforce-eager\n")
    status, priority, _ = _results(tmp_path, "H100-80GB x1")["A2"]
    assert (status, priority) == ("recommended", "P2")


_OME_RUNTIME = """apiVersion: ome.io/v1beta1
kind: ClusterServingRuntime
metadata:
  name: vllm-e5-mistral-7b-instruct
spec:
  supportedModelFormats:
    - modelFormat: {name: safetensors, version: "1.0.0"}
      modelArchitecture: MistralModel
      autoSelect: true
  engineConfig:
    runner:
      name: ome-container
      image: docker.io/vllm/vllm-openai:v0.9.0.1
      command:
        - python3
        - -m
        - vllm.entrypoints.openai.api_server
        - --port
        - "8080"
        - --model
        - $(MODEL_PATH)
        - --gpu-memory-utilization
        - "0.8"
        - --enforce-eager
      resources:
        limits:
          nvidia.com/gpu: 1
"""


def test_a2_ome_runtime_for_an_embedding_backbone(tmp_path):
    # OME's runtime names no model, only the architecture it accepts (sgl-project/ome
    # config/runtimes/vllm/e5-mistral-7b-instruct-rt.yaml): MistralModel is an upload without an LM head
    (tmp_path / "e5-mistral-7b-instruct-rt.yaml").write_text(_OME_RUNTIME)
    status, priority, _ = _results(tmp_path, "H100-80GB x1")["A2"]
    assert (status, priority) == ("recommended", "P2")
    (tmp_path / "e5-mistral-7b-instruct-rt.yaml").write_text(_OME_RUNTIME.replace("MistralModel", "MllamaForConditionalGeneration"))
    status, priority, _ = _results(tmp_path, "H100-80GB x1")["A2"]
    assert (status, priority) == ("recommended", "P1")
