"""The change the reporter made is among those proposed, for reports whose fix is a lever other
than the obvious one: max_num_seqs for the sampler warm-up, the successor of a removed value with
the rest of the JSON kept, --enforce-eager for a pre-quantized BitsAndBytes checkpoint on 0.5.4,
the nearest TP the site's GPUs allow."""
from __future__ import annotations

import pytest

import realcases_score as score

# bitsandbytes-launch--vllm-7294 left: its -bnb-4bit folder is outside the project, so since c1479665 (review19)
# the name alone no longer makes L20 a P0 (case.yaml known_miss)
CASES = ["value-not-in-version--lmcache-1759", "tp-heads--gpustack-814"]


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


def _changes(tmp_path, pin: str, launch: str, gpu: str) -> list[tuple]:
    from vllm_kb.engine.audit import audit

    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "serve.sh").write_text(launch + "\n")
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return [(c.op, c.target, c.value, c.blocked, c.checks) for c in sr.changes]


def test_softcap_on_053_proposes_the_backend_vllm_names_beside_the_upgrade(tmp_path):
    # vllm#6242 / #7070: Gemma 2 on 0.5.1-0.5.3 on an Ampere card; vLLM's own message, and both reporters,
    # set VLLM_ATTENTION_BACKEND=FLASHINFER; 0.5.4's FlashAttention soft-caps (the change --fix writes)
    got = _changes(tmp_path, "0.5.3", "vllm serve google/gemma-2-9b-it --max-model-len 4096", "A10G")
    assert ("pin", "vllm", ">=0.5.4", None, ["L65"]) in got
    assert ("env", "VLLM_ATTENTION_BACKEND", "FLASHINFER", "alternative", ["L65"]) in got


def test_compressed_tensors_scheme_below_its_capability_proposes_the_release_that_runs_it(tmp_path):
    # vllm#29707: a compressed-tensors W4A16 checkpoint on Turing with 0.11.0; 0.12.0 runs it there (#29732)
    got = _changes(tmp_path, "0.11.0", "vllm serve cpatonn/Qwen3-VL-32B-Instruct-AWQ-4bit --tensor-parallel-size 2 --max-model-len 8192",
                   "Quadro RTX 5000 x2")
    assert ("pin", "vllm", ">=0.12.0", None, ["L7"]) in got


def test_removing_a_number_is_setting_it_to_the_release_default():
    # vllm#7028: gpu_memory_utilization 0.1 on a T4; the reporter removed it (0.9, the default), the audit
    # raises it to what the estimate needs: both move it up from 0.1
    out = score.run(score.HERE / "no-kv-memory--vllm-7028")
    assert out.predicted and out.fix
