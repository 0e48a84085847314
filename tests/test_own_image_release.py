"""The release of an image the project builds is its base's, whatever the build runs at its door."""
from __future__ import annotations

from vllm_kb.engine.scan.deploy.image_entry import _script

BUILD = """services:
  vllm-rocm:
    build:
      dockerfile: src/Dockerfile
    image: ${REGISTRY:-opea}/vllm-rocm:${TAG:-latest}
"""
DOCKERFILE = """FROM rocm/vllm:rocm6.3.1_instinct_vllm0.8.3_20250410
RUN cp /usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/api_server.py /workspace/api_server.py
ENTRYPOINT ["python3", "/workspace/api_server.py"]
"""
RUN = """services:
  server:
    image: opea/vllm-rocm:latest
    command: ["--model", "org/m", "--num-scheduler-steps", "1"]
"""


def test_a_build_with_its_own_entrypoint_keeps_its_base_release(scanned):
    # eval119 GenAIComps comps/third_parties/vllm/deployment/docker_compose/compose.yaml:108 (opea/vllm-rocm,
    # built FROM AMD's vLLM 0.8.3 image by .github/workflows/docker/compose/third_parties-compose.yaml:48)
    sites = {s.file: s for s in scanned({"ci/compose.yaml": BUILD, "src/Dockerfile": DOCKERFILE, "deploy/compose.yaml": RUN})}
    assert sites["deploy/compose.yaml"].image == "rocm/vllm:rocm6.3.1_instinct_vllm0.8.3_20250410"
    assert sites["deploy/compose.yaml"].launch["image_at"] == ("src/Dockerfile", 1)
    assert sites["ci/compose.yaml"].image == "rocm/vllm:rocm6.3.1_instinct_vllm0.8.3_20250410"


def test_a_build_that_installs_vllm_is_not_its_base():
    from vllm_kb.engine.scan.own_images import _base

    assert _base("Dockerfile", DOCKERFILE, entry=False) == ("rocm/vllm:rocm6.3.1_instinct_vllm0.8.3_20250410", "Dockerfile", 1)
    assert _base("Dockerfile", DOCKERFILE, entry=True) is None
    assert _base("Dockerfile", DOCKERFILE + "RUN pip install vllm==0.9.0\n", entry=False) is None


def test_the_script_a_shell_string_runs_last():
    # eval119 GenAIComps compose_text-generation.yaml: `/bin/bash -c "source …/setvars.sh --force && bash /llm/x.sh"`
    assert _script('["/bin/bash", "-c", "source /opt/intel/oneapi/setvars.sh --force && bash /llm/x.sh"]') == "/llm/x.sh"
    assert _script('sh -c "cd /app; exec python3 serve.py"') == "serve.py"
    assert _script('["python3", "-c", "import runpy"]') is None
    assert _script('["bash", "-c", "vllm serve org/m"]') is None
