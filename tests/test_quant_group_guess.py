"""L75 at P1 where an AWQ/GPTQ checkpoint's group size is not read (engine/check/startup_quant_group.py):
vLLM #1816 (TheBloke/Qwen-14B-Chat-AWQ at TP 2: 13696 / 2 = 6848 splits a group of 128) and Qwen #1035
(Qwen-14B-Chat-Int4, GPTQ, at TP 2). Those two uploads are in the catalog now (group 128, a P0); an AWQ of
the same model by another publisher keeps the guess."""
import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.startup_quant_group import group_guess

SERVER = 'from vllm import LLM\nllm = LLM(model="{model}", trust_remote_code=True, quantization="awq", tensor_parallel_size={tp})\n'


def _l75(tmp_path, tp: int, pin: str = "vllm==0.2.2", model: str = "my-org/Qwen-14B-Chat-AWQ"):
    (tmp_path / "requirements.txt").write_text(pin + "\n")
    (tmp_path / "server.py").write_text(SERVER.format(tp=tp, model=model))
    (sr,) = audit(tmp_path, gpu=f"A100-80GB x{max(tp, 1)}").sites
    return next(r for r in sr.results if r.check.id == "L75")


def test_group_unknown_shard_off_the_default_group_is_a_p1(tmp_path):
    r = _l75(tmp_path, 2)
    assert (r.status, r.priority) == ("recommended", "P1")
    assert "6848" in r.reason_text("en") and "if the checkpoint's group size is 128" in r.reason_text("en")


def test_thebloke_upload_is_known_to_be_group_128(tmp_path):
    r = _l75(tmp_path, 2, model="TheBloke/Qwen-14B-Chat-AWQ")
    assert (r.status, r.priority) == ("recommended", "P0") and "6848" in r.reason_text("en")


def test_tp1_is_quiet(tmp_path):
    assert _l75(tmp_path, 1).status != "recommended"


MODEL = {"name": "x/Qwen-14B-Chat-AWQ", "quant_method": "awq", "quant_source": "name", "intermediate_size": 13696}


@pytest.mark.parametrize("model, out, want", [
    (MODEL, {"tp": 2, "quant_method": "awq"}, 6848),
    (MODEL, {"tp": 4, "quant_method": "awq"}, 3424),
    ({**MODEL, "intermediate_size": 11008}, {"tp": 2, "quant_method": "awq"}, None),  # 5504 = 43 × 128
    ({**MODEL, "quant_group_size": 128, "quant_source": "config"}, {"tp": 2, "quant_method": "awq"}, None),  # certain: L75's own path
    ({**MODEL, "dims_family": "qwen"}, {"tp": 2, "quant_method": "awq"}, None),  # a family's widths only
    (MODEL, {"tp": 2, "quant_method": "awq", "qtp_ok": False}, None),
    (MODEL, {"tp": 2, "quant_method": "fp8"}, None),  # another method forced
    ({**MODEL, "num_experts": 8, "moe_intermediate_size": 1408}, {"tp": 2, "quant_method": "awq"}, None),
])
def test_group_guess(model, out, want):
    got = group_guess({"model": model, "engine": {}}, out)
    assert got.get("qtp_guess_shard") == want
