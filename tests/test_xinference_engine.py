"""Xinference's engine choice and GPU share (engine/scan/xinference_engine.py, knowledge/deploy/
xinference.yaml engine_auto / n_gpu_auto): before 0.11.0 a launch without --model-engine runs on
vLLM where vLLM is installed and Xinference's vLLM classes take the model (VLLMModel.match /
VLLMChatModel.match, 0.5.0-0.10.3 model/llm/vllm/core.py); --n-gpu "auto" gives the model one GPU
in every release (core/worker.py), so a tensor-parallel size above it cannot start."""
import pytest
from vllm_kb.engine.audit import audit


def _site(rep):
    return [sr for sr in rep.sites if sr.site.tool == "xinference"]


def _p0(sr):
    return {f.code for f in sr.remarks if f.priority == "P0"} | {r.check.id for r in sr.results if r.priority == "P0" and r.needs_change}


LAUNCH = "xinference launch --model-name {name} --size-in-billions 72 --model-format {fmt} --quantization {q} --tensor_parallel_size 4\n"


@pytest.mark.parametrize("pins, name, fmt, q, found", [
    ("xinference==0.10.3\nvllm==0.4.0\n", "qwen1.5-chat", "gptq", "Int4", True),
    ("xinference[all]==0.9.4\n", "qwen1.5-chat", "gptq", "Int4", True),  # the extra installs vLLM
    ("xinference==0.10.3\n", "qwen1.5-chat", "gptq", "Int4", False),  # no vLLM: the PyTorch engine
    ("xinference==0.11.0\nvllm==0.4.2\n", "qwen1.5-chat", "gptq", "Int4", False),  # --model-engine required
    ("xinference==0.10.3\nvllm==0.4.0\n", "qwen1.5-chat", "gptq", "Int8", False),  # 4-bit only
    ("xinference==0.10.3\nvllm==0.4.0\n", "qwen1.5-chat", "pytorch", "4-bit", False),  # bitsandbytes: PyTorch
    ("xinference==0.10.3\nvllm==0.4.0\n", "qwen1.5-chat", "ggufv2", "Q4_K_M", False),  # llama.cpp
    ("xinference==0.10.3\nvllm==0.4.0\n", "qwen-vl-chat", "pytorch", "none", False),  # not in its vLLM list
    ("xinference==0.8.0\nvllm==0.2.7\n", "qwen1.5-chat", "gptq", "Int4", False),  # listed from 0.8.5 (vLLM >= 0.3.0)
    ("xinference==0.10.3\nvllm==0.2.7\n", "qwen1.5-chat", "gptq", "Int4", False),  # qwen1.5-chat only with vLLM 0.3.0+
    ("", "qwen1.5-chat", "gptq", "Int4", False),  # no Xinference pin: its release is unknown
])
def test_an_xinference_launch_without_an_engine_is_vllm_where_that_release_chose_it(write_project, pins, name, fmt, q, found):
    files = {"launch.sh": LAUNCH.format(name=name, fmt=fmt, q=q)}
    if pins:
        files["requirements.txt"] = pins
    sites = _site(audit(write_project(files), gpu="RTX-3090 x4"))
    assert bool(sites) == found
    if found:  # --n-gpu auto: one GPU for a TP-4 engine
        assert "xinference-n-gpu" in _p0(sites[0])
        assert sites[0].site.launch.get("engine_by")


@pytest.mark.parametrize("extra, p0", [
    ("", True),  # auto: one GPU
    (" --n-gpu auto", True),
    (" --n-gpu 2", True),
    (" --n-gpu 4", False),
    (" --gpu-idx 0,1,2,3", False),
    (" --n-gpu \"$NGPU\"", False),  # not read: unknown, never assumed
    (" --replica-config '[{\"devices\":[{\"n_gpu\":4}]}]'", False),  # each replica's own GPUs
])
def test_tensor_parallel_above_the_gpus_xinference_gives_is_a_p0_with_n_gpu_as_the_change(write_project, extra, p0):
    root = write_project({"requirements.txt": "vllm==0.9.2\n", "launch.sh":
                          "xinference launch --model-engine vLLM --model-name qwen2.5-instruct --size-in-billions 7"
                          f" --model-format pytorch --tensor_parallel_size 4{extra}\n"})
    rep = audit(root, gpu="A100-80GB x4")
    sr = _site(rep)[0]
    assert ("xinference-n-gpu" in _p0(sr)) == p0
    if p0 and "--n-gpu 2" not in extra:
        assert any(c.target == "n_gpu" and c.after == "--n-gpu 4" for c in sr.changes), sr.changes


def test_without_tensor_parallel_the_engine_gets_the_one_gpu_auto_gives(write_project):
    root = write_project({"requirements.txt": "vllm==0.9.1\n", "launch.sh":
                          "xinference launch --model-engine vLLM -n qwen2.5-instruct -s 7 -f pytorch --max_model_len 4096\n"})
    sr = _site(audit(root, gpu="A100-80GB x2"))[0]
    tp = sr.site.settings["tensor_parallel_size"]
    assert tp.value == 1 and tp.implied
    assert "xinference-n-gpu" not in _p0(sr)


def test_a_client_launch_model_without_an_engine_before_0_11_and_its_n_gpu(write_project):
    root = write_project({"requirements.txt": "xinference==0.10.3\nvllm==0.4.0\n", "launch.py":
                          "from xinference.client import Client\nc = Client('http://localhost:9997')\n"
                          "c.launch_model(model_name='qwen1.5-chat', model_size_in_billions=72, model_format='gptq',\n"
                          "               quantization='Int4', tensor_parallel_size=4)\n"})
    sr = _site(audit(root, gpu="RTX-3090 x4"))[0]
    assert "xinference-n-gpu" in _p0(sr)
    assert any(c.target == "n_gpu" and c.after == "n_gpu=4" for c in sr.changes), sr.changes
