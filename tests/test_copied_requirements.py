"""A requirements file that a Dockerfile copies into its image and installs with `pip install -r`:
its pins are what the image's sites run with, wherever the file sits in the tree
(engine/scan/copied_requirements.py). RunPod's worker-vllm layout: builder/requirements.txt, src/handler.py."""
from __future__ import annotations

import pytest

from vllm_kb.engine.scan.copied_requirements import _source

HANDLER = ("import os\nfrom vllm import AsyncLLMEngine\nfrom vllm.engine.arg_utils import AsyncEngineArgs\n"
           "engine = AsyncLLMEngine.from_engine_args(AsyncEngineArgs(model=os.environ['MODEL_NAME']))\n")


def _dockerfile(copy: str, install: str) -> str:
    return ("FROM nvidia/cuda:12.1.0-base-ubuntu22.04\nRUN apt-get update -y && apt-get install -y python3-pip\n"
            f"{copy}\nRUN python3 -m pip install {install}\nRUN python3 -m pip install vllm==0.9.1\n"
            "ENV MODEL_NAME=openai/gpt-oss-20b\nCOPY src /src\nCMD [\"python3\", \"/src/handler.py\"]\n")


@pytest.mark.parametrize("copy,install", [
    ("COPY builder/requirements.txt /requirements.txt", "-r /requirements.txt"),
    ("COPY builder/requirements.txt /tmp/", "--no-cache-dir -r /tmp/requirements.txt"),
    ("COPY builder /builder", "--requirement=/builder/requirements.txt"),
])
def test_the_copied_pin_is_the_images(write_project, json_site, p0s, copy, install):
    site = json_site(write_project({"Dockerfile": _dockerfile(copy, install), "builder/requirements.txt": "ray\ntransformers==4.54.1\n",
                                     "src/handler.py": HANDLER}), gpu="A100-80GB")
    assert p0s(site)[0] == "L52"  # AutoConfig meets gpt_oss before the quantization method (L10)
    (rec,) = [r for r in site["recommendations"] if r["check"] == "L52"]
    assert "builder/requirements.txt:2" in rec["reason"]


def test_a_file_the_image_does_not_install_stays_in_its_folder(write_project, json_site, p0s):
    site = json_site(write_project({"Dockerfile": _dockerfile("COPY builder/requirements.txt /requirements.txt", "runpod"),
                                     "builder/requirements.txt": "transformers==4.54.1\n", "src/handler.py": HANDLER}), gpu="A100-80GB")
    assert "L52" not in p0s(site)


def test_sources():
    files = {"builder/requirements.txt": [], "requirements.txt": [], "docker/reqs/requirements.txt": []}
    assert _source("", "requirements.txt", ".", {"requirements.txt"}, files) == "requirements.txt"
    assert _source("", ".", "/app", {"app/requirements.txt"}, files) == "requirements.txt"
    assert _source("docker", "reqs/requirements.txt", "/tmp/", {"tmp/requirements.txt"}, files) == "docker/reqs/requirements.txt"
    assert _source("", "x.txt", "/x.txt", {"requirements.txt"}, files) is None
