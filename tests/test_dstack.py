"""dstack run configurations (engine/scan/deploy/dstack.py): the `commands:` run in one shell in
`image:` with `env:` as their environment, on the GPUs `resources.gpu` asks for. dstack's own
examples serve vLLM this way (dstackai/dstack examples/inference/vllm); before, the commands were
read as bare lines, without the image's release or the env that names the model."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.deploy.dstack import gpus

SERVICE = """\
type: service
name: llama31
image: vllm/vllm-openai:v0.6.3
env:
{env}
commands:
  - export TP=3
  - vllm serve $MODEL_ID --tensor-parallel-size $TP --max-model-len 8192
port: 8000
resources:
  gpu: 24GB..:3
"""


@pytest.mark.parametrize("env", ["  - MODEL_ID=meta-llama/Llama-3.1-8B-Instruct\n  - HF_TOKEN",
                                 "  MODEL_ID: meta-llama/Llama-3.1-8B-Instruct"])
def test_the_commands_run_in_the_image_with_the_env(tmp_path, env):
    text = SERVICE.format(env=env)
    (tmp_path / ".dstack.yml").write_text(text)
    (sr,) = audit(tmp_path, gpu="L4 x3").sites
    assert sr.site.model.value == "meta-llama/Llama-3.1-8B-Instruct"
    assert sr.version.version == "0.6.3" and sr.site.tool == "dstack"
    assert sr.site.settings["tensor_parallel_size"].value == 3  # set by an earlier command
    assert sr.site.line == text.splitlines().index("  - vllm serve $MODEL_ID --tensor-parallel-size $TP --max-model-len 8192") + 1
    assert sr.site.gpu_request == 3  # a range of GPU memory, a count of 3
    assert any(r.check.id == "L1" and r.priority == "P0" for r in sr.results if r.needs_change)


@pytest.mark.parametrize("spec, want", [
    ({"gpu": "A100:2"}, (2, ["A100"])), ({"gpu": "H100:80GB:8"}, (8, ["H100"])), ({"gpu": "24GB..:3"}, (3, [])),
    ({"gpu": "A10G,A100:1..2"}, (None, ["A10G", "A100"])), ({"gpu": {"name": ["H100"], "count": 4}}, (4, ["H100"])),
    ({"gpu": 2}, (2, [])), ({}, (None, [])),
])
def test_the_gpus_a_run_asks_for(spec, want):
    assert gpus(spec) == want
