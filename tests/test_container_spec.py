"""Container specs a Python program builds for a cloud API (engine/scan/container_spec.py): a dict
literal holding a vLLM image and its argv (Cloud Run / Azure Container Apps, tandemn-tuna's deploy plan
with `json.dumps(container_args)`), kubernetes' `client.V1Container(image=, args=, command=)`."""
from __future__ import annotations

PLAN = '''import json

DEFAULT_IMAGE = "vllm/vllm-openai:v0.15.1"


class CloudRunProvider:
    def plan(self, request):
        container_args = [
            "--model", request.model_name,
            "--max-model-len", "4096",
            "--tensor-parallel-size", "1",
        ]
        if request.cold_start_mode == "fast_boot":
            container_args.append("--enforce-eager")
        return {"image": DEFAULT_IMAGE, "container_args": json.dumps(container_args), "cpu": "8"}
'''

K8S = '''from kubernetes import client

ARGS = ["--model", "Qwen/Qwen2.5-7B-Instruct", "--swap-space", "4", "--max-model-len", "8192"]
c = client.V1Container(name="vllm", image="vllm/vllm-openai:v0.20.0", args=ARGS)
'''


def test_a_dict_plan_with_the_image_and_its_argv(scanned):
    (site,) = scanned({"tuna/providers/cloudrun_provider.py": PLAN})
    assert site.line == 15 and site.image == "vllm/vllm-openai:v0.15.1" and site.kind == "vllm serve"
    assert site.settings["max_model_len"].value == 4096 and site.settings["tensor_parallel_size"].value == 1
    assert not site.model.resolved  # the request's model, known at run time only
    assert "enforce_eager" not in site.settings  # appended under an `if`: reported, not assumed
    assert any(o["code"] == "conditional" and "--enforce-eager" in o["what"] for o in site.opaque)


def test_a_kubernetes_client_container(scanned):
    (site,) = scanned({"deploy.py": K8S})
    assert site.line == 4 and site.model.value == "Qwen/Qwen2.5-7B-Instruct" and site.settings["max_model_len"].value == 8192


def test_the_fix_leaves_a_python_container_spec_alone(cli, write_project):
    root = write_project({"deploy.py": K8S})  # --swap-space is a P0 at 0.20.0
    code, out, _ = cli("audit", str(root), "--gpu", "H100-80GB", "--fix")
    assert "swap" in out and (root / "deploy.py").read_text() == K8S


def test_specs_that_are_not_vllm_or_not_known_are_no_sites(scanned):
    assert scanned({
        "other.py": '''"""Build {"image": "vllm/vllm-openai:v0.15.1", "args": [...]} for Cloud Run."""
from kubernetes import client

print('docker run vllm/vllm-openai:v0.15.1 --model m; {"image": "vllm/vllm-openai", "args": []}')
web = {"image": "nginx:1.25", "args": ["--model", "m", "vllm"]}
c = client.V1Container(name="vllm", image=plan.metadata["image"], args=["--model", "m"])  # computed: unknown
''',
    }) == []
