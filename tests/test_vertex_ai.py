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


FLAGS_ONLY = '''\
from google.cloud import aiplatform

VLLM_DOCKER_URI = "us-docker.pkg.dev/vertex-ai/vertex-vision-model-garden-dockers/pytorch-vllm-serve:20231127_0916_RC00"
vllm_args = ["--host=0.0.0.0", "--port=7080", "--model=mistralai/Mistral-7B-v0.1", "--tensor-parallel-size=1",
             "--max-num-batched-tokens={batched}"]
model = aiplatform.Model.upload(display_name="m", serving_container_image_uri=VLLM_DOCKER_URI,
                                serving_container_args=vllm_args, serving_container_ports=[7080])
endpoint = aiplatform.Endpoint.create(display_name="e")
model.deploy(endpoint=endpoint, machine_type="g2-standard-8", accelerator_type="{acc}", accelerator_count=1)
'''


def _flags_only(tmp_path, batched: int, acc: str = "NVIDIA_L4"):
    (tmp_path / "deploy.py").write_text(FLAGS_ONLY.replace("{batched}", str(batched)).replace("{acc}", acc))
    (sr,) = audit(tmp_path, gpu="H100 x8").sites
    return sr, {r.check.id for r in sr.results if r.needs_change and r.priority == "P0"}


def test_model_garden_image_given_only_flags_runs_its_server_at_the_release_of_its_day(tmp_path):
    sr, p0 = _flags_only(tmp_path, 4096)
    assert sr.site.model.value == "mistralai/Mistral-7B-v0.1"
    assert sr.facts["vllm"]["version"] == "0.2.2"  # the newest release on 2023-11-27, the tag's build day
    assert "L17" in p0  # 4096 batched tokens under the 32768 context, no chunked prefill in 0.2.x
    assert sr.facts["gpu"]["name"] == "NVIDIA L4"  # the deploy call's accelerator, not --gpu's H100
    assert not _flags_only(tmp_path, 32768)[1]


def test_gcp_accelerator_names_tell_the_card(tmp_path):
    sr, _ = _flags_only(tmp_path, 32768, acc="NVIDIA_TESLA_A100")
    assert sr.facts["gpu"]["memory_gib"] < 41  # nvidia-tesla-a100 is the 40 GB A100


def test_flags_only_on_the_projects_image_named_for_vllm(tmp_path):
    """eval81 Manzela/gemma4-vllm-deployment: the project's own image (`…/gcsfuse-vllm-gemma4`, built on
    Model Garden's vLLM image) gets only flags; they are the OpenAI server's options."""
    code = ('from google.cloud import aiplatform\nIMAGE = "europe-docker.pkg.dev/p/r/fuse-vllm-gemma:latest"\n'
            'args = ["--model=google/gemma-3-4b-it", "--max-model-len=8192", "--gpu-memory-utilization=0.9"]\n'
            'aiplatform.Model.upload(display_name="g", serving_container_image_uri=IMAGE, serving_container_args=args)\n')
    (tmp_path / "upload.py").write_text(code)
    (sr,) = audit(tmp_path, gpu="none").sites
    assert sr.site.model.value == "google/gemma-3-4b-it"
    assert sr.site.settings["max_model_len"].value == 8192


def test_flags_only_on_an_image_not_named_for_vllm_is_no_site(tmp_path):
    code = ('from google.cloud import aiplatform\nIMAGE = "europe-docker.pkg.dev/p/r/text-server:latest"\n'
            'args = ["--model=google/gemma-3-4b-it", "--max-model-len=8192", "--port=8080"]\n'
            'aiplatform.Model.upload(display_name="g", serving_container_image_uri=IMAGE, serving_container_args=args)\n')
    (tmp_path / "upload.py").write_text(code)
    assert audit(tmp_path, gpu="none").sites == []
