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
    assert got == [("requirements.txt", 2, "vllm[audio]==0.10.1", "vllm[audio]==0.10.2")]
    assert any("+vllm[audio]==0.10.2  # serving" in d["text"] for d in rep.sites[0].after)


def test_an_image_tag_is_the_pin_of_a_container(tmp_path):
    compose = ("services:\n  llm:\n    image: vllm/vllm-openai:v0.10.1\n"
               "    command: [\"--model\", \"openai/gpt-oss-20b\", \"--enable-auto-tool-choice\", \"--tool-call-parser\", \"openai\"]\n")
    got, _ = _pin_changes(tmp_path, {"docker-compose.yml": compose})
    assert got == [("docker-compose.yml", None, "vllm/vllm-openai:v0.10.1", "vllm/vllm-openai:v0.10.2")]
