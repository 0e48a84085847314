"""A `docker run` container starts with its image's environment and the -e / --env options it is given:
the host shell's exports stay outside, so a variable vLLM refuses (L170: VLLM_USE_V2_MODEL_RUNNER=0 on
0.34.0) or one that names GPUs (L34) judges the container only where it reaches it."""
import pytest

from vllm_kb.engine.audit import audit

_RUN = "docker run --gpus all --ipc=host {opts}vllm/vllm-openai:v0.34.0 --model Qwen/Qwen3-8B\n"


def _l170(tmp_path, before: str, opts: str):
    (tmp_path / "run.sh").write_text("#!/bin/bash\n" + before + _RUN.format(opts=opts))
    (sr,) = audit(tmp_path).sites
    r = next(r for r in sr.results if r.check.id == "L170")
    return r.status, r.priority


@pytest.mark.parametrize("before, opts", [
    ("", "-e VLLM_USE_V2_MODEL_RUNNER=0 "),
    ("export VLLM_USE_V2_MODEL_RUNNER=0\n", "-e VLLM_USE_V2_MODEL_RUNNER "),  # passed through by name
])
def test_a_variable_the_container_is_given(tmp_path, before, opts):
    assert _l170(tmp_path, before, opts) == ("recommended", "P0")


def test_a_host_export_does_not_reach_the_container(tmp_path):
    assert _l170(tmp_path, "export VLLM_USE_V2_MODEL_RUNNER=0\n", "")[1] != "P0"


def test_a_host_export_reaches_vllm_run_on_the_host(tmp_path):
    (tmp_path / "run.sh").write_text("#!/bin/bash\nexport VLLM_USE_V2_MODEL_RUNNER=0\n"
                                     "pip install vllm==0.34.0\nvllm serve Qwen/Qwen3-8B\n")
    (sr,) = audit(tmp_path).sites
    r = next(r for r in sr.results if r.check.id == "L170")
    assert (r.status, r.priority) == ("recommended", "P0")
