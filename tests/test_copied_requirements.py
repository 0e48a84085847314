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


# the copies `pins` makes for a Dockerfile's folder, in a fresh interpreter (its own hash seed); the module
# alone, not a whole scan, so that each run stays well under a second
_PINS = ("import dataclasses, pathlib, sys\nfrom vllm_kb.engine.scan.copied_requirements import pins\n"
         "@dataclasses.dataclass\nclass Pin:\n    file: str\n    text: str\n    folder: str = ''\n    above: bool = False\n"
         "    installed_in: object = None\n"
         "root = pathlib.Path(sys.argv[1])\nfiles = sorted(p.relative_to(root).as_posix() for p in root.rglob('*') if p.is_file())\n"
         "read = lambda rel: (root / rel).read_text()\n"
         "mine = [Pin(rel, line) for rel in files if rel.endswith('.txt') for line in read(rel).splitlines()]\n"
         "print([(p.file, p.text, p.installed_in) for p in pins(files, read, mine)])\n")


def test_copy_all_stands_for_the_same_file_whatever_the_hash_seed(tmp_path):
    """`COPY . .` puts every installed requirements file in the image; which one the copy stands for
    followed the order of a set of strings, so the report changed with PYTHONHASHSEED (vLLM's
    docker/Dockerfile.cpu: requirements/test/cpu.txt's transformers pin listed once more, or not).
    The first file the Dockerfile installs stands, as written."""
    import os
    import subprocess
    import sys

    reqs = {"requirements/common.txt": "vllm==0.11.0\ntransformers>=4.56.0\n", "requirements/test/cpu.txt": "transformers==4.57.1\n",
            "requirements/test/cuda.txt": "transformers==4.56.2\n", "requirements/test/rocm.txt": "transformers==4.55.0\n"}
    docker = "FROM python:3.12\nWORKDIR /ws\nCOPY . .\n" + "".join(f"RUN pip install -r {f}\n" for f in reqs)
    for rel, text in {**reqs, "docker/Dockerfile": docker}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    outs = {subprocess.run([sys.executable, "-c", _PINS, str(tmp_path)], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("2", "5")}
    assert len(outs) == 1
    assert outs.pop().strip() == str([("requirements/common.txt", t, "docker") for t in ("vllm==0.11.0", "transformers>=4.56.0")])
