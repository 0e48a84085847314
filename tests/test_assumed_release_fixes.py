"""A change whose correctness rests on the release is not written by `--fix` (only with
`--unsafe-fixes`, and the report says why) where the release is assumed rather than read: nothing
pins vLLM, so the newest release is judged, while the project may run an older one that still takes
what the change drops. CharmCheen/PRL-addENV (eval105, https://github.com/CharmCheen/PRL-addENV): its
in-tree ms-swift of the vLLM 0.7/0.8 era sets VLLM_ENGINE_ITERATION_TIMEOUT_S (gone only in 0.32.0)
to raise the 60 s default, and `--fix` deleted the line."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.fix import apply

ENGINE = ("import os\n\nfrom vllm import LLM\n\n"
          "os.environ['VLLM_ENGINE_ITERATION_TIMEOUT_S'] = '3600'\n"
          "llm = LLM(model='Qwen/Qwen2.5-7B-Instruct')\n")


def _env_finding(root):
    (sr,) = audit(root, gpu="A100-80GB").sites
    return next(f for f in sr.remarks if f.code == "env-not-in-version")


@pytest.mark.parametrize(("pins", "safe"), [({}, False), ({"requirements.txt": "vllm==0.34.0\n"}, True)])
def test_a_removed_variable_is_dropped_by_fix_only_where_the_release_is_read(write_project, pins, safe):
    root = write_project({"engine.py": ENGINE, **pins})
    f = _env_finding(root)
    assert f.safe is safe
    assert ("--unsafe-fixes" in f.message["en"] and "--unsafe-fixes" in f.message["zh"]) is not safe
    res = apply.run(lambda overlay: audit(root, gpu="A100-80GB", overlay=overlay))
    written = res.texts.get("engine.py", ENGINE)
    assert ("VLLM_ENGINE_ITERATION_TIMEOUT_S" in written) is not safe


def test_a_variable_no_release_has_is_kept_without_unsafe_fixes(write_project):
    """A VLLM_* variable no vLLM release reads may be a vendor build's: opea/vllm-gaudi:1.4 (the HabanaAI
    build) reads VLLM_SKIP_WARMUP, and --fix deleted it from 12 GenAIExamples compose files
    (https://github.com/opea-project/GenAIExamples, eval117)."""
    root = write_project({"engine.py": ENGINE.replace("VLLM_ENGINE_ITERATION_TIMEOUT_S", "VLLM_NO_SUCH_KNOB"),
                          "requirements.txt": "vllm==0.34.0\n"})
    f = _env_finding(root)
    assert not f.safe and "--unsafe-fixes" in f.message["en"] and "--unsafe-fixes" in f.message["zh"]
    res = apply.run(lambda overlay: audit(root, gpu="A100-80GB", overlay=overlay))
    assert "engine.py" not in res.texts and "env-not-in-version" in res.skipped["unsafe"]


def test_a_variable_a_later_release_adds_is_kept_without_unsafe_fixes(write_project):
    # VLLM_ATTENTION_BACKEND first appears in 0.4.x; on an exact 0.3.0 pin it is ignored, but it is
    # meant for the release that reads it (truss-examples gemma-2 sets FLASHINFER for its own 0.5.1)
    root = write_project({"engine.py": ENGINE.replace("VLLM_ENGINE_ITERATION_TIMEOUT_S", "VLLM_ATTENTION_BACKEND"),
                          "requirements.txt": "vllm==0.3.0\n"})
    f = _env_finding(root)
    assert not f.safe and "--unsafe-fixes" in f.message["zh"]


def test_a_removed_variable_in_a_vendor_image_is_kept_without_unsafe_fixes(write_project):
    compose = ("services:\n  llm:\n    image: opea/vllm-gaudi:1.4\n    environment:\n"
               "      - VLLM_ENGINE_ITERATION_TIMEOUT_S=3600\n"
               "    command: --model Qwen/Qwen2.5-7B-Instruct\n")
    root = write_project({"compose.yaml": compose, "requirements.txt": "vllm==0.34.0\n"})
    fs = [f for sr in audit(root, gpu="A100-80GB").sites for f in sr.remarks if f.code == "env-not-in-version"]
    assert fs and all(not f.safe for f in fs)


def test_a_p0_a_fresh_install_refuses_keeps_its_safe_fix(write_project):
    # --swap-space went in 0.18.0, over half a year before the newest release: every install of that
    # half year refuses it, so the P0 stands and dropping it is what makes the launch start
    root = write_project({"serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct --swap-space 8\n"})
    (sr,) = audit(root, gpu="A100-80GB").sites
    drops = [x for x in (*sr.results, *sr.remarks) if getattr(x, "fix", None) and x.priority == "P0"
             and any(op.target == "swap_space" for op, _ in x.fix)]
    assert drops and all(x.safe for x in drops)
