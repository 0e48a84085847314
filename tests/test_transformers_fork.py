"""A transformers fork installed over the vLLM image (`pip install git+…/OWNER/transformers.git@branch`, or a
clone of it built in place, vllm#15754): the image's bundled transformers no longer decides L52, and what the
fork maps is not known, so L52 stands down (engine/scan/framework_git.py fork, check/transformers_fit.py).
Qwen2.5-Omni carries no config code, so on the v0.8.5 image --trust-remote-code cannot stand in (vllm#18450)."""
import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.framework_git import parse


def test_a_fork_is_transformers_of_unknown_code():
    g = parse("git+https://github.com/BakerBunker/transformers.git@qwen25omni")
    assert (g.package, g.kind, g.fork) == ("transformers", "branch", True)
    assert parse("git+https://github.com/huggingface/transformers.git").fork is False
    assert parse("git+https://github.com/someone/transformers.git@v4.52.0").release is None  # a fork's tag is no release


@pytest.mark.parametrize("install", [
    "RUN pip install git+https://github.com/BakerBunker/transformers.git@qwen25omni",
    "RUN git clone -b qwen25omni https://github.com/BakerBunker/transformers.git /t && cd /t && pip install .",
])
def test_the_image_transformers_gives_no_p0_under_a_fork(tmp_path, install):
    (tmp_path / "Dockerfile").write_text(f'FROM vllm/vllm-openai:v0.8.2\n{install}\nCMD ["--model", "Qwen/Qwen2.5-Omni-7B"]\n')
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    assert next(r for r in sr.results if r.check.id == "L52").status != "recommended"
    assert next(r for r in sr.results if r.check.id == "L21").priority == "P0"


def test_omni_on_the_085_image_with_remote_code_is_a_p0(tmp_path):
    (tmp_path / "docker-compose.yml").write_text(
        "services:\n  o:\n    image: vllm/vllm-openai:v0.8.5\n"
        "    command: --model Qwen/Qwen2.5-Omni-7B --trust-remote-code\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    r = next(r for r in sr.results if r.check.id == "L52")
    assert (r.status, r.priority) == ("recommended", "P0")
