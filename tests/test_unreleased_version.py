"""A vLLM version no release has (NVIDIA-AI-IOT/jetson-ai-lab#292: the `dustynv/vllm:0.7.4-r36.4.0` Jetson
image, built from vLLM's main branch between 0.7.3 and 0.8.0, served Gemma 3 — which 0.8.0 is the
first release to register): judged as the release before it, a P0 that the next release does not share
is a P1 that says the build may already have it (engine/audit.py `between_releases`,
engine/check/unpinned.py `settle_between`); a P0 both share stays one. A development build
(`0.8.0.dev42`), judged as the release it leads to, is held to the release before it the same way."""
from types import SimpleNamespace

from vllm_kb.engine.audit import audit


def _priority(tmp_path, tag: str, model: str, check: str) -> str | None:
    (tmp_path / "run.sh").write_text(f"#!/bin/sh\ndocker run --gpus all --ipc=host dustynv/vllm:{tag} "
                                     f"vllm serve {model} --max-model-len 8192\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB x1").sites
    return next((r.priority for r in sr.results if r.needs_change and r.check.id == check), None)


def test_a_refusal_the_next_release_lifts_is_not_certain(tmp_path):
    assert _priority(tmp_path, "0.7.4-r36.4.0-cu128-24.04", "google/gemma-3-4b-it", "L21") == "P1"


def test_a_published_release_keeps_its_p0(tmp_path):
    assert _priority(tmp_path, "0.7.3-r36.4.0-cu128-24.04", "google/gemma-3-4b-it", "L21") == "P0"


def test_a_refusal_both_releases_share_stays_p0(tmp_path):
    # Qwen2.5-Omni is registered from 0.8.5 and has no fallback: neither 0.7.3 nor 0.8.0 runs it
    assert _priority(tmp_path, "0.7.4-r36.4.0-cu128-24.04", "Qwen/Qwen2.5-Omni-7B", "L21") == "P0"


def test_a_development_build_keeps_a_p0_both_releases_share(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.8.0.dev42+g1234abc\n")
    (tmp_path / "run.sh").write_text("vllm serve Qwen/Qwen2.5-Omni-7B --max-model-len 8192\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB x1").sites
    assert next(r.priority for r in sr.results if r.needs_change and r.check.id == "L21") == "P0"


def test_a_p0_the_other_release_lacks_is_a_p1_naming_the_code_it_needs():
    from vllm_kb.engine.check.unpinned import Between, settle_between
    from vllm_kb.engine.kb.knowledge import Text, load

    def result(cid, priority):
        return SimpleNamespace(check=SimpleNamespace(id=cid), status="recommended", priority=priority, safe=True,
                               reason=Text(en="x", zh="x"))

    mine = [result("L1", "P0"), result("L2", "P0"), result("L3", "P1")]
    settle_between(mine, [result("L1", "P0"), result("L3", "P0")], load(), Between("0.7.3", {}, ">0.7.3"))
    assert [r.priority for r in mine] == ["P0", "P1", "P1"]
    assert ">0.7.3" in mine[1].reason.en and not mine[1].safe
