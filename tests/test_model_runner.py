"""Docker Model Runner's `docker model run MODEL` (engine/scan/dmr_launch.py, knowledge/deploy/model_runner.yaml):
a Hugging Face model in safetensors form runs on the runner's vLLM backend, a GGUF one on llama.cpp; the vLLM
release is the runner's (0.11.0 … 0.19.1 across its releases), whatever the project pins."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.dmr_launch import served_by_vllm


def test_which_models_the_runner_gives_vllm():
    assert served_by_vllm("hf.co/Qwen/Qwen3.5-0.8B") == ("Qwen/Qwen3.5-0.8B", None)
    assert served_by_vllm("huggingface.co/Qwen/Qwen3-8B") == ("Qwen/Qwen3-8B", None)
    assert served_by_vllm("hf.co/unsloth/Qwen3.6-27B-MTP-GGUF:UD-Q4_K_XL") is None  # docker/model-runner#941: llama.cpp
    assert served_by_vllm("hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF") is None
    assert served_by_vllm("ai/gemma3") is None  # Docker Hub's default artifacts are GGUF
    assert served_by_vllm("ai/smollm2-vllm")[0] is None


# https://github.com/docker/model-runner/issues/731
def test_a_safetensors_model_is_a_vllm_site_at_the_runners_release(write_project):
    rep = audit(write_project({"run.sh": "#!/bin/sh\ndocker model run -d hf.co/Qwen/Qwen3.5-0.8B\n",
                               "requirements.txt": "vllm==0.6.0\n"}), gpu="RTX-4090")
    (sr,) = [s for s in rep.sites if s.site.tool == "docker-model-runner"]
    assert sr.site.model.value == "Qwen/Qwen3.5-0.8B" and sr.site.kind == "docker model run"
    assert (sr.version.version, sr.version.basis) == ("0.19.1", "range")
    assert not [r for r in sr.results if r.priority == "P0" and r.status == "recommended"]


def test_gguf_models_and_chats_with_another_server_are_no_site(write_project, tmp_path):
    for i, line in enumerate(("docker model run ai/gemma3 \"Hello\"",
                              "docker model run hf.co/unsloth/Qwen3-8B-GGUF:Q4_K_M",
                              "docker model run --openaiurl http://localhost:8000/v1 hf.co/Qwen/Qwen3-8B")):
        assert not audit(write_project({"run.sh": line + "\n"}, tmp_path / str(i)), gpu="RTX-4090").sites, line
