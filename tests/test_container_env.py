"""The environment a cloud SDK gives the container it deploys is the site's environment
(engine/scan/container_env.py): a gated model's token set there reaches vLLM, so L51 does not say
that nothing gives the process a token (hanneshapke/DevFest2024-LLM-vllm-k8s, eval77: Vertex AI's
`serving_container_environment_variables={"HUGGING_FACE_HUB_TOKEN": …}` passed through a helper)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit

VERTEX = '''\
from google.cloud import aiplatform


def upload(image, args, env=None):
    return aiplatform.Model.upload(display_name="gemma", serving_container_image_uri=image,
                                   serving_container_command=["python", "-m", "vllm.entrypoints.api_server"],
                                   serving_container_args=args, serving_container_environment_variables=env)


if __name__ == "__main__":
    env = {ENV}
    upload("us-docker.pkg.dev/vertex-ai/vertex-vision-model-garden-dockers/pytorch-vllm-serve:20241030_0916_RC00",
           ["--model=google/gemma-2-2b-it", "--max-model-len=4096"], env)
'''
K8S = '''\
from kubernetes import client

c = client.V1Container(name="vllm", image="vllm/vllm-openai:v0.8.5",
                       args=["--model", "meta-llama/Llama-3.1-8B-Instruct", "--max-model-len", "8192"],
                       env=[client.V1EnvVar(name="{NAME}", value_from=token_ref), client.V1EnvVar(name="VLLM_LOGGING_LEVEL", value="DEBUG")])
'''


def _l51(tmp_path, name: str, text: str):
    (tmp_path / name).write_text(text)
    (sr,) = audit(tmp_path, gpu="L4").sites
    return sr, next(r for r in sr.results if r.check.id == "L51")


@pytest.mark.parametrize("env,status", [('{"HUGGING_FACE_HUB_TOKEN": "..."}', "enabled"), ('{"VLLM_LOGGING_LEVEL": "DEBUG"}', "recommended")])
def test_a_vertex_containers_token(tmp_path, env, status):
    sr, l51 = _l51(tmp_path, "deploy.py", VERTEX.replace("{ENV}", env))
    assert l51.status == status
    assert all(s.value != "..." for s in sr.site.env.values())  # a token's value is never kept


@pytest.mark.parametrize("name,status", [("HF_TOKEN", "enabled"), ("OTHER", "recommended")])
def test_a_kubernetes_client_containers_env(tmp_path, name, status):
    sr, l51 = _l51(tmp_path, "deploy.py", K8S.replace("{NAME}", name))
    assert l51.status == status
    assert sr.site.env["VLLM_LOGGING_LEVEL"].value == "DEBUG"
