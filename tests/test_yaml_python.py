"""A Python file written inside YAML — a ConfigMap's `data: {serve.py: |…}` a pod mounts, run by a
RayService application (awslabs/ai-on-eks's vllm-ray-gpu-deepseek blueprint) — is read as Python on the
YAML file's own lines: its engine call is a site at the line it is written on, the values its pods' env
and the application's runtime_env set are resolved, and a fix edits the YAML's bytes."""
from __future__ import annotations

from pathlib import Path

from vllm_kb.engine.audit import audit

_SCRIPT = '''\
    import os
    from ray import serve
    from vllm.engine.arg_utils import AsyncEngineArgs
    from vllm.engine.async_llm_engine import AsyncLLMEngine

    @serve.deployment(name="VLLMDeployment")
    class VLLMDeployment:
        def __init__(self, model: str, tensor_parallel_size: int, max_model_len: int):
            engine_args = AsyncEngineArgs(
                model=model,
                tensor_parallel_size=tensor_parallel_size,
                max_model_len=max_model_len,
                dtype="bfloat16",
            )
            self.engine = AsyncLLMEngine.from_engine_args(engine_args)

    deployment = VLLMDeployment.bind(
        model=os.environ.get("MODEL_ID", "deepseek-ai/DeepSeek-R1-Distill-Llama-8B"),
        tensor_parallel_size=int(os.environ.get("TENSOR_PARALLEL_SIZE", "1")),
        max_model_len=int(os.environ.get("MAX_MODEL_LEN", "8192")),
    )
'''


def _manifest(tp: str) -> str:
    return ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: vllm-serve-script\ndata:\n  vllm_serve.py: |\n" + _SCRIPT
            + "---\napiVersion: ray.io/v1\nkind: RayService\nmetadata:\n  name: vllm\nspec:\n  serveConfigV2: |\n"
            "    applications:\n      - name: deepseek\n        import_path: vllm_serve:deployment\n"
            "        runtime_env:\n          env_vars:\n            MODEL_ID: \"Qwen/Qwen2.5-7B-Instruct\"\n"
            f"            TENSOR_PARALLEL_SIZE: \"{tp}\"\n"
            "        deployments:\n          - name: VLLMDeployment\n            ray_actor_options:\n              num_gpus: 4\n"
            "  rayClusterConfig:\n    workerGroupSpecs:\n      - groupName: gpu\n        template:\n          spec:\n"
            "            containers:\n              - name: ray-worker\n                image: rayproject/ray:2.41.0-py310-cu121\n"
            "                env:\n                  - name: MAX_MODEL_LEN\n                    value: \"4096\"\n"
            "                resources:\n                  limits:\n                    nvidia.com/gpu: 4\n"
            "                volumeMounts:\n                  - name: vllm-script\n                    mountPath: /home/ray/vllm_serve.py\n"
            "                    subPath: vllm_serve.py\n            volumes:\n              - name: vllm-script\n"
            "                configMap:\n                  name: vllm-serve-script\n")


def _write(root: Path, tp: str) -> str:
    text = _manifest(tp)
    (root / "ray-vllm.yml").write_text(text)
    (root / "requirements.txt").write_text("vllm==0.7.0\n")
    return text


def test_the_engine_call_in_a_configmap_is_a_site_on_the_yaml_lines(tmp_path: Path) -> None:
    text = _write(tmp_path, "3")
    rep = audit(tmp_path, gpu="A10G x4")
    (sr,) = rep.sites
    lines = text.splitlines()
    assert sr.site.file == "ray-vllm.yml" and lines[sr.site.line - 1].strip() == "engine_args = AsyncEngineArgs("
    assert sr.facts["model"]["name"] == "Qwen/Qwen2.5-7B-Instruct"  # the RayService's runtime_env
    assert sr.facts["engine"]["tensor_parallel_size"] == 3
    assert sr.facts["engine"]["max_model_len"] == 4096  # the mounting container's env
    l1 = next(r for r in sr.results if r.check.id == "L1")
    assert l1.status == "recommended" and l1.priority == "P0"


def test_a_tp_that_divides_gives_no_p0(tmp_path: Path) -> None:
    _write(tmp_path, "4")
    (sr,) = audit(tmp_path, gpu="A10G x4").sites
    assert not [r for r in sr.results if r.status == "recommended" and r.priority == "P0"]


def test_a_value_read_from_the_runtime_env_is_left_where_it_is_set(cli, tmp_path: Path) -> None:
    text = _write(tmp_path, "3")
    cli("audit", str(tmp_path), "--gpu", "A10G x4", "--fix", "--select", "L1", "-q")
    assert (tmp_path / "ray-vllm.yml").read_text() == text


def test_fix_edits_the_yaml_bytes_of_a_literal_in_the_block(cli, tmp_path: Path) -> None:
    text = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: offline\ndata:\n  run.py: |-\n    from vllm import LLM\n\n"
            "    llm = LLM(model=\"Qwen/Qwen2.5-7B-Instruct\",\n              tensor_parallel_size=3)\n  other.txt: keep\n")
    (tmp_path / "cm.yaml").write_text(text)
    (tmp_path / "requirements.txt").write_text("vllm==0.7.0\n")
    (sr,) = audit(tmp_path, gpu="A10G x4").sites
    assert (sr.site.file, sr.site.line) == ("cm.yaml", 9)
    cli("audit", str(tmp_path), "--gpu", "A10G x4", "--fix", "--select", "L1", "-q")
    assert (tmp_path / "cm.yaml").read_text() == text.replace("tensor_parallel_size=3", "tensor_parallel_size=4")


def test_a_python_block_without_vllm_or_outside_a_py_key_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  app.py: |\n"
                                      "    import os\n    print(os.environ)\n  notes.txt: |\n    LLM(model='x')\n")
    (tmp_path / "requirements.txt").write_text("vllm==0.7.0\n")
    assert audit(tmp_path, gpu="A10G").sites == []


def test_a_deployment_bound_with_options_passes_its_init_arguments(tmp_path: Path) -> None:
    # Ray Serve calls `__init__` with what `.bind(…)` (or `.options(…).bind(…)`) passes; Ray's `.remote(…)` alike
    (tmp_path / "serve.py").write_text(
        "from ray import serve\nfrom vllm import LLM\n\n\n@serve.deployment\nclass Gen:\n"
        "    def __init__(self, model: str, tp: int = 1):\n        self.llm = LLM(model=model, tensor_parallel_size=tp)\n\n\n"
        'app = Gen.options(num_replicas=1).bind("Qwen/Qwen2.5-7B-Instruct", tp=3)\n')
    (tmp_path / "requirements.txt").write_text("vllm==0.7.0\n")
    (sr,) = audit(tmp_path, gpu="A10G x4").sites
    assert sr.facts["model"]["name"] == "Qwen/Qwen2.5-7B-Instruct"
    assert sr.facts["engine"]["tensor_parallel_size"] == 3


def test_crlf_and_other_line_breaks_keep_the_lines(tmp_path: Path) -> None:
    text = ("kind: ConfigMap\r\nmetadata:\r\n  name: x\r\n  annotations: {note: \"a\u2028b\"}\r\ndata:\r\n  run.py: |\r\n"
            "    from vllm import LLM\r\n    llm = LLM(model=\"Qwen/Qwen2.5-7B-Instruct\", tensor_parallel_size=3)\r\n")
    (tmp_path / "cm.yaml").write_bytes(text.encode())
    (tmp_path / "requirements.txt").write_text("vllm==0.7.0\n")
    (sr,) = audit(tmp_path, gpu="A10G x4").sites
    assert (sr.site.file, sr.site.line) == ("cm.yaml", 8)
    assert sr.facts["engine"]["tensor_parallel_size"] == 3
