"""Vertex AI's `aiplatform.Model.upload(serving_container_command=[…], serving_container_args=[…])`
deploys vLLM's server with its argv as keyword lists (the vLLM notebooks of
GoogleCloudPlatform/vertex-ai-samples build `vllm_args` this way): a launch site like any argv."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

DEPLOY = '''\
from google.cloud import aiplatform

VLLM_DOCKER_URI = "us-docker.pkg.dev/vertex-ai/vertex-vision-model-garden-dockers/pytorch-vllm-serve:20240620_0916_RC00"
model_id = "meta-llama/Meta-Llama-3-8B-Instruct"
vllm_args = [
    "--host=0.0.0.0",
    "--port=8080",
    f"--model={model_id}",
    "--tensor-parallel-size={tp}",
    "--max-model-len=8192",
]
model = aiplatform.Model.upload(
    display_name="llama3",
    serving_container_image_uri=VLLM_DOCKER_URI,
    serving_container_command=["python", "-m", "vllm.entrypoints.api_server"],
    serving_container_args=vllm_args,
    serving_container_ports=[8080],
)
'''


def _site(tmp_path, tp: int):
    (tmp_path / "requirements.txt").write_text("vllm==0.5.1\n")
    (tmp_path / "deploy.py").write_text(DEPLOY.replace("{tp}", str(tp)))
    (sr,) = audit(tmp_path, gpu="L4 x4").sites
    return sr


def test_the_serving_container_argv_is_a_launch(tmp_path):
    sr = _site(tmp_path, 3)
    assert sr.site.model.value == "meta-llama/Meta-Llama-3-8B-Instruct"
    assert sr.site.settings["tensor_parallel_size"].value == 3
    assert "L1" in {r.check.id for r in sr.results if r.needs_change and r.priority == "P0"}


def test_a_fitting_deploy_has_no_p0(tmp_path):
    sr = _site(tmp_path, 4)
    assert not [r for r in sr.results if r.needs_change and r.priority == "P0"]


def test_an_upload_of_something_else_is_no_site(tmp_path):
    (tmp_path / "up.py").write_text("import boto3\ns3 = boto3.client('s3')\ns3.upload(serving_container_args=['--model', 'x'])\n"
                                    "# vllm serve is mentioned here only\n")
    assert not audit(tmp_path, gpu="L4").sites


def test_the_change_is_told_in_the_lists_own_form_and_not_written(tmp_path):
    sr = _site(tmp_path, 3)
    (ch,) = [c for c in sr.changes if c.target == "tensor_parallel_size"]
    assert (ch.before, ch.after) == ('"--tensor-parallel-size=3"', '"--tensor-parallel-size=4"')
