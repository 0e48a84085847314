"""The project's own torch pin labelled for CUDA 12.4/12.6 on a Blackwell GPU (L6 P0,
engine/check/torch_pin_build.py): that wheel's arch list stops at sm_90. Only a label names the build,
and only a pin of the torch release the vLLM wheel runs with counts."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

RUN = "vllm serve Qwen/Qwen3-8B --max-model-len 8192\n"


def _l6(root, gpu):
    (sr,) = audit(root, gpu=gpu).sites
    return next(r for r in sr.results if r.check.id == "L6")


def test_a_cu126_torch_pin_of_the_wheels_release_is_a_p0_on_an_rtx_5090(write_project, tmp_path):
    root = write_project({"serve.sh": RUN, "requirements.txt": "vllm==0.9.2\ntorch==2.7.0+cu126\n"}, tmp_path / "a")
    r = _l6(root, "RTX-5090")
    assert (r.status, r.priority) == ("recommended", "P0") and "torch_pin_short" in repr(r)
    assert _l6(root, "H100").status == "enabled"


def test_a_cu128_pin_another_release_or_no_label_is_not_this_p0(write_project, tmp_path):
    for i, req in enumerate(("vllm==0.9.2\ntorch==2.7.0+cu128\n", "vllm==0.10.2\ntorch==2.7.0+cu126\n",
                             "vllm==0.9.2\ntorch==2.7.0\n")):
        r = _l6(write_project({"serve.sh": RUN, "requirements.txt": req}, tmp_path / str(i)), "RTX-5090")
        assert r.priority != "P0" or r.status != "recommended", req


def test_the_cu128_build_of_the_wheels_torch_clears_the_pypi_default_p1(write_project, tmp_path):
    root = write_project({"serve.sh": RUN, "requirements.txt": "vllm==0.9.2\ntorch==2.7.0+cu128\n"}, tmp_path / "a")
    assert _l6(root, "RTX-5090").status == "enabled"
    plain = write_project({"serve.sh": RUN, "requirements.txt": "vllm==0.9.2\ntorch==2.7.0\n"}, tmp_path / "b")
    r = _l6(plain, "RTX-5090")
    assert (r.status, r.priority) == ("recommended", "P1")  # PyPI's torch 2.7.0 is the cu126 build


def test_the_one_index_a_plain_pin_is_installed_from_names_its_build(write_project, tmp_path):
    req = "--index-url https://download.pytorch.org/whl/cu126\nvllm==0.9.2\ntorch==2.7.0\n"
    r = _l6(write_project({"serve.sh": RUN, "requirements.txt": req}, tmp_path / "a"), "RTX-5090")
    assert (r.status, r.priority) == ("recommended", "P0") and "torch_pin_short" in repr(r)
    extra = req.replace("--index-url", "--extra-index-url")  # pip may take PyPI's or that index's: not named
    r = _l6(write_project({"serve.sh": RUN, "requirements.txt": extra}, tmp_path / "b"), "RTX-5090")
    assert (r.status, r.priority) == ("recommended", "P1")  # the P1 of PyPI's default cu126 torch
    cu128 = req.replace("cu126", "cu128")
    assert _l6(write_project({"serve.sh": RUN, "requirements.txt": cu128}, tmp_path / "c"), "RTX-5090").status == "enabled"


def test_a_dockerfile_install_from_the_cu126_index(write_project, tmp_path):
    docker = ("FROM python:3.12\nRUN pip install torch==2.7.0 \\\n    --index-url https://download.pytorch.org/whl/cu126\n"
              "RUN pip install vllm==0.9.2\nCMD [\"vllm\", \"serve\", \"Qwen/Qwen3-8B\"]\n")
    r = _l6(write_project({"Dockerfile": docker}, tmp_path / "d"), "RTX-5090")
    assert (r.status, r.priority) == ("recommended", "P0") and "torch_pin_short" in repr(r)
