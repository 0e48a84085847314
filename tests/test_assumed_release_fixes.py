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


def test_a_variable_no_release_has_is_still_dropped(write_project):
    root = write_project({"engine.py": ENGINE.replace("VLLM_ENGINE_ITERATION_TIMEOUT_S", "VLLM_NO_SUCH_KNOB")})
    assert _env_finding(root).safe


def test_a_p0_a_fresh_install_refuses_keeps_its_safe_fix(write_project):
    # --swap-space went in 0.18.0, over half a year before the newest release: every install of that
    # half year refuses it, so the P0 stands and dropping it is what makes the launch start
    root = write_project({"serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct --swap-space 8\n"})
    (sr,) = audit(root, gpu="A100-80GB").sites
    drops = [x for x in (*sr.results, *sr.remarks) if getattr(x, "fix", None) and x.priority == "P0"
             and any(op.target == "swap_space" for op, _ in x.fix)]
    assert drops and all(x.safe for x in drops)
