"""From vLLM 0.33.0 the parser pairs each --enable-x switch (BooleanOptionalAction) with --disable-x and back
(vllm/utils/argparse_utils.py EnableDisableAction, 0.34.0:120-145, registered at :179); 0.32.0 has no such pairing."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

SERVE = "#!/bin/bash\nvllm serve Qwen/Qwen2.5-0.5B-Instruct --disable-log-requests --disable-prefix-caching\n"


def _p0(write_project, pin: str, serve: str = SERVE, name: str = "serve.sh"):
    (sr,) = audit(write_project({"requirements.txt": pin, name: serve}), gpu="H100-80GB").sites
    return {f.code for f in sr.remarks if f.priority == "P0"}


def test_disable_x_is_the_off_of_enable_x_from_0_33(write_project):
    # census40: the aibrix, atropos and Gaudi `--disable-log-requests` P0s at 0.34.0 were false
    assert not _p0(write_project, "vllm==0.34.0\n") & {"not-in-version", "unknown-option"}
    assert not _p0(write_project, "vllm==0.33.0\n") & {"not-in-version", "unknown-option"}


def test_before_0_33_both_are_refused(write_project):
    assert {"not-in-version", "unknown-option"} <= _p0(write_project, "vllm==0.32.0\n")


def test_the_python_keyword_has_no_pair(write_project):
    # AsyncEngineArgs(disable_log_requests=True): a dataclass field, not an argparse flag
    code = "from vllm import LLM\nllm = LLM(model='Qwen/Qwen2.5-0.5B-Instruct', disable_log_requests=True)\n"
    assert "not-in-version" in _p0(write_project, "vllm==0.34.0\n", code, "run.py")
