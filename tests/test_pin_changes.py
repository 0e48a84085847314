"""A fix that changes a package's version is written where the project pins it: the requirement
line, an image tag, or — without a pin — as the line to add."""
from __future__ import annotations

from vllm_kb.engine.audit import audit


def _pin_changes(tmp_path, files):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    rep = audit(tmp_path, gpu="H100-80GB x8")
    return [(c.file, c.line, c.before, c.after) for sr in rep.sites for c in sr.changes if c.op == "pin"], rep


SERVE = "vllm serve openai/gpt-oss-20b --enable-auto-tool-choice --tool-call-parser openai\n"


def test_the_requirement_line_is_rewritten_and_the_diff_shows_it(tmp_path):
    got, rep = _pin_changes(tmp_path, {"requirements.txt": "torch\nvllm[audio]==0.10.1  # serving\n", "serve.sh": SERVE})
    # (beside it, L125's transformers bound for a release that reads what transformers 5 dropped)
    assert [g for g in got if g[2] and g[2].startswith("vllm")] == [("requirements.txt", 2, "vllm[audio]==0.10.1", "vllm[audio]==0.10.2")]
    assert any("+vllm[audio]==0.10.2  # serving" in d["text"] for d in rep.sites[0].after)


def test_an_image_tag_is_the_pin_of_a_container(tmp_path):
    compose = ("services:\n  llm:\n    image: vllm/vllm-openai:v0.10.1\n"
               "    command: [\"--model\", \"openai/gpt-oss-20b\", \"--enable-auto-tool-choice\", \"--tool-call-parser\", \"openai\"]\n")
    got, _ = _pin_changes(tmp_path, {"docker-compose.yml": compose})
    assert got == [("docker-compose.yml", None, "vllm/vllm-openai:v0.10.1", "vllm/vllm-openai:v0.10.2")]


def test_an_exact_pin_stays_exact_when_the_change_is_a_lower_bound(tmp_path):
    # L6 (gpu-arch) asks for `>=0.5.4` etc.; a project that pinned one release gets one release back,
    # the nearest that holds, not an open range that floats to the newest
    from vllm_kb.engine.fix.pins import _rewrite
    from vllm_kb.engine.scan.pins import Pin

    pin = Pin("requirements.txt", 1, "vllm==0.10.1", "==0.10.1", "requirements", exact="0.10.1")
    assert _rewrite(pin, ">=0.11.1") == "vllm==0.11.1"
    assert _rewrite(pin, "<=0.9.2") == "vllm==0.9.2"
    # a range the project wrote stays a range; a two-sided change names its lower release
    loose = Pin("requirements.txt", 1, "vllm>=0.8", ">=0.8", "requirements")
    assert _rewrite(loose, ">=0.11.1") == "vllm>=0.11.1"
    assert _rewrite(pin, ">=0.6.4,<=0.12.0") == "vllm>=0.6.4,<=0.12.0"


def test_an_alternative_pin_is_said_and_never_written(tmp_path):
    """vLLM's v0.7.2 image predates transformers 4.49.0 (Qwen2.5-VL's qwen2_5_vl) while 0.7.2's own
    requirement admits it: the image tag bump is the change, installing the newer transformers in an
    image built from it the alternative (vLLM #13579's reporter did that)."""
    run = ("#!/bin/bash\ndocker run --gpus all --ipc=host -p 8000:8000 vllm/vllm-openai:v0.7.2 "
           "--model Qwen/Qwen2.5-VL-7B-Instruct\n")
    got, rep = _pin_changes(tmp_path, {"serve.sh": run})
    pins = [c for sr in rep.sites for c in sr.changes if c.op == "pin"]
    assert [(c.target, c.value, c.blocked) for c in pins] == [("vllm", ">=0.7.3", None), ("transformers", ">=4.49.0", "alternative")]
    assert not [c for sr in rep.sites for c in sr.changes if c.op != "pin" and c.target == "transformers"]


def test_a_pin_that_already_reads_as_the_change_is_not_the_one_changed(tmp_path):
    # a Makefile that reinstalls torch==2.8.0 before vllm==0.10.2, beside a setup.py that pins torch==2.6.0: L115's
    # change is setup.py's pin, not the Makefile line it would rewrite to itself
    setup = 'from setuptools import setup\nsetup(name="x", install_requires=["torch==2.6.0", "vllm==0.10.2"])\n'
    make = "install:\n\tuv pip install torch==2.8.0 torchvision==0.23.0\n\tuv pip install vllm==0.10.2\n"
    got, _ = _pin_changes(tmp_path, {"setup.py": setup, "Makefile": make, "serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct\n"})
    torch = [g for g in got if g[2] and g[2].startswith("torch")]
    assert torch and all(before != after for _, _, before, after in torch)
    assert all(file == "setup.py" for file, *_ in torch)
