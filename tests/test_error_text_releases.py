"""Every error wording the knowledge quotes as vLLM's own occurs in vLLM's sources in every release
it claims, read from tests/data/error_text_releases.yaml (tools/vllm_error_texts.py extracts it
from the unpacked sdists; this test never reads them). A wording missing from that file means the
tool was not re-run after the knowledge changed."""
from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from vllm_kb.engine.kb.versions import SpecifierSet

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import vllm_error_texts  # noqa: E402

DATA = yaml.safe_load((ROOT / "tests" / "data" / "error_text_releases.yaml").read_text())
# the knowledge's wordings, read once for the tests below (each read every check file again)
wordings = functools.cache(vllm_error_texts.wordings)


def _inside(release: str, spans: list[list[str]]) -> bool:
    k = vllm_error_texts.vkey
    return any(k(a) <= k(release) <= k(b) for a, b in spans)


def test_every_wording_was_extracted():
    missing = sorted(set(wordings()) - set(DATA["texts"]))
    assert not missing, f"run tools/vllm_error_texts.py: {missing[:5]}"
    # and nothing else: a wording the knowledge no longer quotes is left by a hand merge, not by the tool
    stale = sorted(set(DATA["texts"]) - set(wordings()))
    assert not stale, f"run tools/vllm_error_texts.py: {stale[:5]}"


def test_the_extraction_does_not_depend_on_the_hash_seed():
    # the words tried for each wording come out in one order whatever PYTHONHASHSEED is (a set's
    # order made two runs of the tool disagree on some forty spans)
    ws = sorted(wordings())
    picks = [vllm_error_texts._longest_words(w) for w in ws]
    assert all(p == sorted(p, key=lambda x: (-len(x), x)) for p in picks)
    assert vllm_error_texts._longest_words("zzzzz aaaaa mmmmm") == ["aaaaa", "mmmmm", "zzzzz"]


# Wordings the extraction cannot see as one string (a tuple vLLM raises and Python prints as its
# repr; a message built over several statements; a value written where the source has a hole the
# anchor word falls in): listed so that nothing else may go unverified.
UNREAD = {
    "('Quantization scheme is not supported for ', 'the current GPU. Min capability: {}. ', 'Current capability: {}.')",
    "('Quantization scheme is not supported for ', 'the current GPU. Required capability: ', '{}. Current capability: {}.')",
    "Cannot provide a placement group of placement_group_specs={} within 1800 seconds.",
    "GPUs with compute capability below 7.0 are not supported.",
    "VLLM_USE_V1=1 is not supported with Compute Capability < 8.0.",
    "User-specified max_model_len ({}) is greater than the derived max_model_len ({}={} or model_max_length={} in model's config.json). To allow overriding this maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1.",
}


def test_only_the_listed_wordings_go_unverified():
    never = {w for w, spans in DATA["texts"].items() if not spans}
    assert never <= UNREAD, sorted(never - UNREAD)


def test_every_wording_occurs_in_every_release_it_claims():
    wrong = []
    for w, claims in wordings().items():
        spans = DATA["texts"].get(w) or []
        if not spans and w in UNREAD:
            continue
        for c in claims:
            spec = SpecifierSet(c["vllm"]) if c["vllm"] else None
            absent = [r for r in DATA["releases"] if (spec is None or spec.contains(r)) and not _inside(r, spans)]
            if absent:
                wrong.append(f"{c['where']}: {c['text'][:70]!r} claims {c['vllm']} but is not in {absent[0]}…{absent[-1]} "
                             f"(found in {spans or 'no release'})")
    assert not wrong, "\n".join(wrong)


def test_matching_tolerates_holes_on_either_side():
    strs = ["VLLM_USE_V1=1 is not supported with {}.", "Total number of attention heads ({}) must be divisible by x"]
    starts, pos = [], 0
    for s in strs:
        starts.append(pos)
        pos += len(s) + 1
    blob = "\x00".join(strs)
    assert vllm_error_texts.occurs("VLLM_USE_V1=1 is not supported with --kv-cache-dtype.", blob, strs, starts)
    assert vllm_error_texts.occurs("Total number of attention heads ({}) must be divisible", blob, strs, starts)
    assert not vllm_error_texts.occurs("Total number of attention heads is odd", blob, strs, starts)



def test_a_value_the_wording_carries_does_not_hide_the_source_string():
    # the rarest word of the wording is its value ("Zephyrr"), held by another string: the other words are tried too
    strs = ["Model {} is not supported", "Model supported", "Zephyrr"]
    starts, pos = [], 0
    for s in strs:
        starts.append(pos)
        pos += len(s) + 1
    assert vllm_error_texts.occurs("Model Zephyrr is not supported", "\x00".join(strs), strs, starts)

    # a source string that is mostly a hole names no wording
    strs = ["{} is not supported yet.", "BitAndBytes"]
    starts = [0, len(strs[0]) + 1]
    assert not vllm_error_texts.occurs("BitAndBytes quantization with TP or PP is not supported yet.", "\x00".join(strs), strs, starts)


@pytest.mark.skipif(not os.environ.get("VLLM_KB_SDISTS_CHECK") or not Path("/work/sdists/src").is_dir(),
                    reason="re-reads every release (set VLLM_KB_SDISTS_CHECK=1 where the sdists are unpacked)")
def test_summary_is_what_the_sources_say():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "vllm_error_texts.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
