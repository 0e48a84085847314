"""What V0's MLA backend of 0.7.x adds to a DeepSeek-style model (engine/check/memory/weights.py
mla_absorbed_bytes, kv.py): the absorbed matrices it keeps beside the checkpoint (0.7.1-0.7.3)
and the 256-byte alignment of each cached latent (0.7.2-0.7.3)."""
from __future__ import annotations

from vllm_kb.engine.check import memory
from vllm_kb.engine.check.memory.kv import kv_bytes_per_token_layer, mla_absorbs
from vllm_kb.engine.check.memory.runtime import GIB, runtime
from vllm_kb.engine.check.memory.weights_stages import mla_absorbed_bytes
from vllm_kb.engine.kb import hardware, knowledge, models

KB = knowledge.load()
DATA = KB.doc("models.yaml").data
H100 = dict(hardware.parse_spec("H100", KB.gpus).gpu)


def _model(name):
    return models.model_facts(name, KB.models, DATA["quantized_markers"], identity=DATA)


def test_absorbed_matrices_count_as_weights_in_0_7_x_v0_only():
    awq = _model("TechxGenus/DeepSeek-Coder-V2-Lite-Instruct-AWQ")
    # vLLM #13109: 16 heads x 512 latent x 2048 hidden, twice, in bf16, over 27 layers (+ W_QR and
    # the dequantized kv_b_proj) -- 1.9 GiB beside an 8.3 GiB checkpoint, logged as 10.45 GiB
    assert 1.8 < mla_absorbed_bytes(awq, {}, 1) / GIB < 2.0
    old = memory.estimate(awq, H100, {"gpu_memory_utilization": 0.9}, vllm_version="0.7.3")
    assert old["weights_per_gpu_gib"] > old["weights_gib"] + 1.8
    for version, env in (("0.8.5", {"VLLM_USE_V1": "0"}), ("0.8.5", {}), ("0.7.3", {"VLLM_MLA_PERFORM_MATRIX_ABSORPTION": "0"})):
        est = memory.estimate(awq, H100, {"gpu_memory_utilization": 0.9}, vllm_version=version, env=env)
        assert est["weights_per_gpu_gib"] == est["weights_gib"], (version, env)
    # 0.7.1-0.7.2 cache an AWQ MLA model as full K/V (no MLA backend, nothing absorbed)
    assert not mla_absorbs(awq, {}, runtime("0.7.2", {}, 9.0))


def test_fp8_checkpoints_keep_the_absorbed_matrices_in_fp8():
    v3 = _model("deepseek-ai/DeepSeek-V3")
    per_gpu = mla_absorbed_bytes(v3, {}, 8) / GIB
    # 61 layers x 16 heads per rank x 512 x (1536 + 7168) bytes, plus W_QR and kv_b_proj in bf16
    assert 4.0 < per_gpu < 5.0


def test_the_latent_entry_is_padded_to_256_bytes_in_0_7_2_and_0_7_3():
    lite = _model("deepseek-ai/DeepSeek-V2-Lite-Chat")
    assert kv_bytes_per_token_layer(lite, {}, 1, runtime("0.7.3", {}, 9.0)) == 640 * 2
    assert kv_bytes_per_token_layer(lite, {"kv_cache_dtype": "fp8"}, 1, runtime("0.7.3", {}, 9.0)) == 640
    assert kv_bytes_per_token_layer(lite, {}, 1, runtime("0.7.1", {}, 9.0)) == 576 * 2
    assert kv_bytes_per_token_layer(lite, {}, 1, runtime("0.8.5", {}, 9.0)) == 576 * 2
