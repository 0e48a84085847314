"""The change the reporter made is among those proposed, for reports whose fix is a lever other
than the obvious one: max_num_seqs for the sampler warm-up, the successor of a removed value with
the rest of the JSON kept, --enforce-eager for a pre-quantized BitsAndBytes checkpoint on 0.5.4,
the nearest TP the site's GPUs allow."""
from __future__ import annotations

import pytest

import realcases_score as score

CASES = ["value-not-in-version--lmcache-1759", "bitsandbytes-launch--vllm-7294", "tp-heads--gpustack-814"]


@pytest.mark.parametrize("name", CASES)
def test_reporters_fix_is_proposed(name):
    out = score.run(score.HERE / name)
    assert out.predicted and out.fix, (out.p0, out.fix)


def test_sampler_lever_is_proposed_for_no_kv_memory():
    # V1 before 0.9.1 counts the CUDA context in the profile's non-KV memory (est2, da51b8c3): the
    # estimate leaves no KV at all, as vLLM said, so L16 takes the P0 with the reporter's lever, max_num_seqs
    out = score.run(score.HERE / "no-kv-memory--vllm-17238")
    assert out.p0 == ["L16"] and out.fix


def test_a_json_string_and_the_mapping_it_spells_are_the_same_value():
    # eval91 mm-limit-form--minicpmv-977: fix_used wrote '{"image":5,"video":2}', the audit proposes the mapping
    assert score._same('{"image":5,"video":2}', {"image": 5, "video": 2})
    assert score._same({"image": 5}, ' {"image": 5} ')
    assert score._same('["a", 2]', ["a", "2"])
    assert not score._same('{"image": 2}', {"image": 5})
    assert not score._same('{"image": 5}', {"video": 5})
    assert not score._same("{not json", {"image": 5})
    assert not score._same('["a"]', ["a", "b"])
