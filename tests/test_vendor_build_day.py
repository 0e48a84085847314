"""An image whose tag counts its vendor's releases and whose build at that tag installs vLLM from a
commit of main (knowledge/deploy/vendor_images.yaml `built`): judged as an image of that build day,
the newest release by then or the next one (engine/audit.py image-dated), not as the newest release."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.report.model import version_text
from vllm_kb.engine.scan.images import image_date, vendor_build_day

# https://github.com/llm-d/llm-d/issues/84 — the llm-d 0.0.8 image (vLLM 0.8.5.dev708+g6a0c5cd7f) on an
# RTX 5070; the decode Deployment names a KV connector that 0.9.0 accepts and 0.8.5 does not
DECODE = """apiVersion: apps/v1
kind: Deployment
metadata: {name: decode}
spec:
  template:
    spec:
      containers:
      - name: vllm
        image: ghcr.io/llm-d/llm-d:0.0.8
        command: ["vllm", "serve"]
        args:
        - meta-llama/Llama-3.2-3B-Instruct
        - --max-model-len=8192
        - --kv-transfer-config={"kv_connector":"MultiConnector","kv_role":"kv_both"}
        resources:
          limits: {nvidia.com/gpu: 1}
"""


def test_the_vendor_build_dates_the_image():
    assert vendor_build_day("ghcr.io/llm-d/llm-d:0.0.8") == "2025-05-14"
    assert image_date("quay.io/llm-d/llm-d-dev:v0.0.6") == "2025-05-08"
    assert vendor_build_day("ghcr.io/llm-d/llm-d:0.0.3") is None  # another fork: not dated here
    assert vendor_build_day("ghcr.io/llm-d/llm-d:latest") is None
    assert vendor_build_day("vllm/vllm-openai:v0.9.0") is None


def test_an_llm_d_image_is_judged_between_the_releases_of_its_build_day(write_project):
    rep = audit(write_project({"decode.yaml": DECODE}), gpu="RTX-5070")
    (sr,) = rep.sites
    assert (sr.version.version, sr.version.basis) == ("0.8.5.post1", "image-dated")
    en, zh = version_text(rep.kb, sr.version, "en"), version_text(rep.kb, sr.version, "zh")
    assert "2025-05-14" in en and "ghcr.io/llm-d/llm-d:0.0.8" in en and "2025-05-14" in zh
    # MultiConnector is 0.9.0's: a build of main between 0.8.5.post1 and 0.9.0 may hold it
    (f,) = [f for f in sr.remarks if "MultiConnector" in f.message["en"]]
    assert f.priority == "P1"
    # the one P0 is the image's torch (2.7.0+cu126, no sm_120: llm-d #84's "no kernel image"), not the connector
    assert [r.check.id for r in sr.results if r.priority == "P0" and r.status == "recommended"] == ["L6"]


# https://github.com/xorbitsai/inference/issues/2836 — `docker exec` into xprobe/xinference:v1.2.1, whose
# Dockerfile at v1.2.1 installs requirements.txt's vllm==0.6.4.post1 over its vllm-openai:v0.6.0 base
def test_an_xinference_image_holds_the_vllm_its_dockerfile_installs(write_project):
    from vllm_kb.engine.scan.images import image_version

    assert image_version("xprobe/xinference:v1.2.1") == "0.6.4.post1"
    assert image_version("xprobe/xinference:v0.15.4") == "0.6.0"  # the base image's: no requirement names vLLM
    assert image_version("registry.cn-hangzhou.aliyuncs.com/xprobe_xinference/xinference:v1.8.1") == "0.9.2"
    assert image_version("xprobe/xinference:v2.4.0") == "0.17.1"
    assert image_version("xprobe/xinference:v1.8.1-cu128") is None  # another Dockerfile: not read
    assert image_version("xprobe/xinference:latest") is None
    rep = audit(write_project({"run.sh": (
        "docker run -d --name xinference --gpus all -p 9997:9997 xprobe/xinference:v1.2.1 xinference-local -H 0.0.0.0\n"
        "docker exec xinference xinference launch --model-engine vllm --model-name qwen2.5-instruct "
        "--size-in-billions 7 --model-format pytorch\n")}), gpu="A100-80GB")
    (sr,) = rep.sites
    assert sr.version.version == "0.6.4.post1" and sr.version.pinned


# https://github.com/xorbitsai/inference/issues/2440 — the server from docker compose (xprobe/xinference:v0.15.4,
# FROM vllm/vllm-openai:v0.6.0), the model launched from the host against its endpoint
COMPOSE = ("services:\n  xinference:\n    image: xprobe/xinference:v0.15.4\n    ports: [\"9997:9997\"]\n"
           "    command: xinference-local -H 0.0.0.0 --port 9997\n")
LAUNCH = ("xinference launch --endpoint http://localhost:9997 --model-engine vllm --model-name glm4-chat "
          "--size-in-billions 9 --model-format pytorch\n")


def test_an_xinference_launch_runs_the_vllm_of_the_server_image_the_project_starts(write_project):
    rep = audit(write_project({"docker-compose.yml": COMPOSE, "launch.sh": LAUNCH}), gpu="RTX-4090")
    (sr,) = rep.sites
    assert (sr.version.version, sr.version.basis) == ("0.6.0", "image")
    en, zh = version_text(rep.kb, sr.version, "en"), version_text(rep.kb, sr.version, "zh")
    assert "xprobe/xinference:v0.15.4 (docker-compose.yml:3)" in en and "Xinference" in zh


def test_servers_of_two_releases_say_nothing(write_project):
    other = COMPOSE.replace("xinference:\n", "xinference-b:\n").replace("v0.15.4", "v1.2.1")
    rep = audit(write_project({"docker-compose.yml": COMPOSE, "b/docker-compose.yml": other, "launch.sh": LAUNCH}),
                gpu="RTX-4090")
    (sr,) = rep.sites
    assert sr.version.basis == "none"


# Google's GKE sample for Llama 4 on the Vertex Model Garden image of 5 April 2025 (GoogleCloudPlatform
# kubernetes-engine-samples, the "Serve Llama models with vLLM" tutorial): 0.8.2 was the newest release
# that day and has no Llama 4; 0.8.3 (the same day's main) registers it, and the sample served
VERTEX = """apiVersion: apps/v1
kind: Deployment
metadata: {name: llama4}
spec:
  template:
    spec:
      containers:
      - name: vllm
        image: us-docker.pkg.dev/vertex-ai/vertex-vision-model-garden-dockers/pytorch-vllm-serve:20250405_1205_RC01
        command: ["python", "-m", "vllm.entrypoints.api_server"]
        args: ["--model=meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8", "--tensor-parallel-size=8"]
        resources:
          limits: {nvidia.com/gpu: 8}
"""


def test_a_failure_the_next_release_fixes_is_not_certain_in_a_build_of_that_day(write_project):
    rep = audit(write_project({"deploy.yaml": VERTEX}), gpu="H100-80GB x8")
    (sr,) = rep.sites
    l21 = next(r for r in sr.results if r.check.id == "L21")
    assert sr.version.version == "0.8.2" and sr.version.basis == "image-dated"
    assert l21.status == "recommended" and l21.priority == "P1"
    assert "may already run vLLM 0.8.3" in l21.reason.en and "0.8.3" in l21.reason.zh


# census36 (vllm-project/aibrix, https://github.com/vllm-project/aibrix): `--enable-chunked-prefill "false"` on an
# image built on 2025-01-18; the command line is read before the build day is, as the newest release, where the
# switch takes no value from 0.8.5 — on the releases of that day it is the option's value, no stray positional
AIBRIX = """apiVersion: apps/v1
kind: Deployment
metadata: {name: m}
spec:
  template:
    spec:
      containers:
      - name: vllm
        image: aibrix/vllm-openai:v0.6.1-edb07092-20250118
        command: ["vllm", "serve", "/models/llama", "--enable-chunked-prefill", "false", "--max-model-len", "8192"]
        resources:
          limits: {nvidia.com/gpu: 1}
"""


def test_a_value_an_older_release_takes_is_no_stray_positional_on_an_image_of_its_day(write_project):
    (sr,) = audit(write_project({"deploy.yaml": AIBRIX}), gpu="H100-80GB").sites
    assert sr.lookup_version.startswith("0.6") and not any(f.code == "stray-positional" for f in sr.remarks)
    # …while on an image of the newest releases' days it stays
    (sr,) = audit(write_project({"deploy.yaml": AIBRIX.replace("20250118", "20260401")}), gpu="H100-80GB").sites
    assert any(f.code == "stray-positional" for f in sr.remarks)
