"""Feature combinations vLLM refuses while it builds the engine configuration (L127–L132): each is a
P0 only in the releases whose sources raise it, and the runtime-only wordings beside them are
recognised with what they mean."""
from __future__ import annotations

from pathlib import Path

import pytest

from vllm_kb.engine.advise.diagnose import launch
from vllm_kb.engine.kb.knowledge import load

KB = load()


def _p0s(path: Path, gpu: str) -> set[str]:
    from vllm_kb.engine.audit import audit

    rep = audit(path, gpu=gpu)
    return {r.check.id for sr in rep.sites for r in sr.results if r.status == "recommended" and r.priority == "P0"}


def _serve(tmp_path: Path, pin: str, flags: str) -> set[str]:
    dst = tmp_path / f"{pin}-{abs(hash(flags))}"
    dst.mkdir()
    (dst / "requirements.txt").write_text(f"vllm=={pin}\n")
    (dst / "serve.sh").write_text(f"#!/bin/sh\nvllm serve Qwen/Qwen2.5-7B-Instruct {flags}\n")
    return _p0s(dst, "H100-80GB x2")


@pytest.mark.parametrize("flags,check,refused,started", [
    ("--enable-lora --enable-chunked-prefill", "L132", "0.6.4", "0.6.5"),
    ("--async-scheduling -pp 2", "L128", "0.14.1", "0.15.0"),
    ("--async-scheduling --speculative-config '{\"method\": \"ngram\", \"num_speculative_tokens\": 3, \"prompt_lookup_max\": 3}'",
     "L128", "0.32.0", "0.33.0"),
])
def test_combination_refused_until_the_release_that_runs_it(tmp_path, flags, check, refused, started):
    assert check in _serve(tmp_path, refused, flags)
    assert check not in _serve(tmp_path, started, flags)


def test_max_cpu_loras_below_max_loras_in_every_release_and_unset_is_fine(tmp_path):
    assert "L127" in _serve(tmp_path, "0.34.0", "--enable-lora --max-loras 4 --max-cpu-loras 2")
    # left unset vLLM takes max_loras; 0 means unset too
    assert "L127" not in _serve(tmp_path, "0.34.0", "--enable-lora --max-loras 4")
    assert "L127" not in _serve(tmp_path, "0.6.3", "--enable-lora --max-loras 4 --max-cpu-loras 0")


@pytest.mark.parametrize("line,words", [
    ("RuntimeError: CUDA_VISIBLE_DEVICES is set to empty string, which means GPU support is disabled. If you are using ray, "
     "please unset the environment variable `CUDA_VISIBLE_DEVICES` inside the worker/actor.", "num_gpus"),
    ("NotImplementedError: Prefix caching is not supported for Mamba yet.", "--no-enable-prefix-caching"),
])
def test_runtime_only_wordings_are_recognised_with_their_usual_change(line, words):
    from vllm_kb.engine.report.diagnosis import _launch

    hits = launch.recognise(KB, line)
    assert [(h.id, h.kind) for h in hits] == [("uncovered", "uncovered")]
    for lang in ("en", "zh"):
        assert words in _launch(hits[0], KB, lang)["advice"]
