"""verl's eager/free-cache assertion read from the copy of verl in the tree (engine/scan/verl_rollout.py):
the rollout its `vllm_rollout/__init__.py` really imports decides, not the version file. Real case:
Wyyyb/CriticCoT sweswe-main (https://github.com/Wyyyb/CriticCoT), a checkout of verl's main that says
"0.4.1.dev" but imports only the spmd rollout, which does not assert; the P0 and its "safe" fix
(turn CUDA graphs off) were false there."""
import textwrap

import pytest
from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan import verl_rollout
from vllm_kb.engine.scan.framework_source import Trees, parse_or_empty

PKG = "verl/workers/rollout/vllm_rollout"
ASSERTS = ("class vLLMRollout:\n    def __init__(self, config):\n"
           "        assert not (not config.enforce_eager and config.free_cache_engine), 'disable CUDA graph'\n")
PLAIN = "class vLLMRollout:\n    def __init__(self, config):\n        self.sleep = config.free_cache_engine\n"
ONLY_SPMD = "from .vllm_rollout_spmd import vLLMAsyncRollout, vLLMRollout  # noqa: F401\nvllm_mode = 'spmd'\n"
BY_VLLM = ("from packaging.version import Version\n"
           "if Version(vllm_package_version) <= Version('0.6.3'):\n    from .vllm_rollout import vLLMRollout\n"
           "else:\n    from .vllm_rollout_spmd import vLLMRollout\n")
RUN = """\
    #!/bin/bash
    python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct \\
        actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.enforce_eager=False
    """


def _tree(tmp_path, init, customized, spmd, version="0.4.1.dev", pins="vllm==0.8.5\n"):
    files = {"requirements.txt": pins, "run.sh": textwrap.dedent(RUN), "verl/__init__.py": "",
             "verl/version/version": version + "\n", f"{PKG}/__init__.py": init,
             f"{PKG}/vllm_rollout.py": customized, f"{PKG}/vllm_rollout_spmd.py": spmd}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def _eager(tmp_path, **kw):
    (sr,) = [s for s in audit(_tree(tmp_path, **kw), gpu="H100-80GB x8").sites if s.site.file == "run.sh"]
    return [f for f in sr.remarks if f.code == "verl-eager-free-cache"], sr


@pytest.mark.parametrize("init,customized,spmd,pins,want", [
    (ONLY_SPMD, ASSERTS, PLAIN, "vllm==0.8.5\n", {"customized": "no", "spmd": "no"}),  # main after 0.4.1
    (BY_VLLM, ASSERTS, ASSERTS, "vllm==0.8.5\n", {"customized": "yes", "spmd": "yes"}),  # released 0.3 … 0.4.1
    (BY_VLLM, ASSERTS, PLAIN, "vllm==0.8.5\n", {"customized": "yes", "spmd": "no"}),
    ("from .vllm_rollout import vLLMRollout\n", ASSERTS, PLAIN, "", {"customized": "yes", "spmd": "yes"}),  # 0.1/0.2: one rollout
])
def test_the_copy_says_which_rollout_asserts(tmp_path, init, customized, spmd, pins, want):
    root = _tree(tmp_path, init, customized, spmd, pins=pins)
    paths = {str(p.relative_to(root)) for p in root.rglob("*.py")}
    trees = Trees("", paths, lambda rel: (root / rel).read_text(), parse=lambda rel: parse_or_empty((root / rel).read_text()))
    got = verl_rollout.eager_assert(trees)
    assert {k: got[k] for k in ("customized", "spmd")} == want
    # neither body refuses a chunked-prefill budget below max_model_len
    assert (got["customized_chunked"], got["spmd_chunked"]) == ("no", "no")


@pytest.mark.parametrize("init,spmd,pins,p0", [
    (ONLY_SPMD, PLAIN, "vllm==0.8.5\n", False),  # Wyyyb/CriticCoT sweswe-main: the asserting module is never imported
    (BY_VLLM, ASSERTS, "vllm==0.8.5\n", True),  # the released 0.4.1 layout: the spmd rollout asserts too
    (BY_VLLM, PLAIN, "vllm==0.8.5\n", False),
    (BY_VLLM, PLAIN, "vllm==0.6.3\n", True),  # vLLM <= 0.6.3 builds the customized rollout, which asserts
])
def test_the_rollout_the_copy_builds_decides(tmp_path, init, spmd, pins, p0):
    found, sr = _eager(tmp_path, init=init, customized=ASSERTS, spmd=spmd, pins=pins)
    assert [f.priority for f in found] == (["P0"] if p0 else [])
    if not p0:  # and A2 is free to say CUDA graphs may go on: nothing asserts them off
        assert "enforce_eager" not in (sr.facts.get("site", {}).get("framework_requires") or {})


def test_a_dev_release_without_its_code_is_unsure(tmp_path):
    # a .dev snapshot sits between releases: the assertion may be gone, so P1 and no safe fix
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\nverl==0.4.1.dev0\n")
    (tmp_path / "run.sh").write_text(textwrap.dedent(RUN))
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    found = [f for f in sr.remarks if f.code == "verl-eager-free-cache"]
    assert [(f.priority, f.safe) for f in found] == [("P1", False)]
    assert "snapshot" in found[0].message["en"] and "快照" in found[0].message["zh"]


def test_verl_0_5_0_does_not_assert_on_old_vllm(tmp_path):
    # 0.5.0 imports only vllm_rollout_spmd (vllm_rollout/__init__.py:17); vllm_rollout.py:80 is never loaded
    (tmp_path / "requirements.txt").write_text("vllm==0.6.3\nverl==0.5.0\n")
    (tmp_path / "run.sh").write_text(textwrap.dedent(RUN))
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    assert not [f for f in sr.remarks if f.code == "verl-eager-free-cache" and f.priority == "P0"]


def test_a_hydra_override_change_shows_the_word_once(tmp_path):
    # eval60: `changes[].before` read `actor_rollout_ref.rollout.enforce_eager=actor_rollout_ref.rollout.enforce_eager=False`
    (tmp_path / "requirements.txt").write_text("vllm==0.6.3\n")
    (tmp_path / "run.sh").write_text(textwrap.dedent(RUN))
    (sr,) = audit(tmp_path, gpu="RTX-4090").sites
    befores = [c.before for c in sr.changes if c.target == "enforce_eager"]
    assert befores == ["actor_rollout_ref.rollout.enforce_eager=False"]
