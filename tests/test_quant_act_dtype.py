"""L120 quant-activation-dtype: the AWQ kernel vLLM picks (plain AWQ, AWQ-Marlin, AutoAWQConfig) and
whether it takes the dtype the model runs in (engine/check/startup_act_dtype.py)."""
import pytest

from vllm_kb.engine.check.startup_act_dtype import act_dtype_facts, awq_kernel
from vllm_kb.engine.kb.knowledge import load

TABLE = load().doc("vllm", "startup.yaml").data
AWQ = {"quantized": True, "quant_method": "awq", "quant_source": "config", "quant_bits": 4,
       "quant_zero_point": True, "quant_group_size": 128, "torch_dtype": "bfloat16"}


def _facts(version, cc, flag=None, **model):
    return {"model": {**AWQ, **model}, "engine": {"quantization": flag} if flag else {},
            "gpu": {"compute_capability": cc}, "vllm": {"version": version}}


@pytest.mark.parametrize("version,cc,flag,model,kernel", [
    ("0.4.1", 8.0, None, {}, "awq"),              # no AWQ-Marlin before 0.5.3
    ("0.8.5", 8.0, None, {}, "awq_marlin"),       # picked by itself on Ampere
    ("0.8.5", 8.0, "awq", {}, "awq"),             # --quantization awq forces the plain kernel
    ("0.8.5", 7.5, None, {}, "awq"),              # Marlin needs 8.0 up to 0.13
    ("0.14.0", 7.5, None, {}, "awq_marlin"),      # and 7.5 from 0.14
    ("0.8.5", 8.0, None, {"quant_bits": None}, "awq"),       # no `bits` key (AutoAWQ's old w_bit): not convertible
    ("0.8.5", 8.0, None, {"quant_zero_point": False}, "awq"),
    ("0.8.5", 8.0, None, {"quant_group_size": 256}, "awq"),
    ("0.24.0", 7.5, "awq", {}, "auto_awq"),       # AutoAWQConfig takes every AWQ checkpoint
    ("0.8.5", None, None, {}, None),              # the GPU decides: unknown
    ("0.8.5", 8.0, "gptq", {}, None),             # another method: not judged
])
def test_the_awq_kernel(version, cc, flag, model, kernel):
    assert awq_kernel(_facts(version, cc, flag, **model), TABLE, version) == kernel


def _judge(version, cc, flag=None, dtype="bfloat16", explicit=False, unsafe=False, **model):
    out = {"dtype": dtype, "dtype_explicit": explicit, "float16_unsafe": unsafe}
    return act_dtype_facts(_facts(version, cc, flag, **model), TABLE, version, out)


def test_a_bfloat16_awq_checkpoint_on_the_plain_kernel_runs_in_half():
    got = _judge("0.4.1", 8.0)
    assert got["quant_dtype_ok"] is False and got["quant_dtype_fix"] == "half"
    assert got["quant_act_dtypes"] == "[torch.float16]" and got["quant_torch_dtype"] == "torch.bfloat16"


def test_awq_marlin_takes_bfloat16():
    assert _judge("0.8.5", 8.0)["quant_dtype_ok"] is True
    assert _judge("0.8.5", 8.0, "awq")["quant_dtype_ok"] is False


def test_gemma3_awq_on_turing_has_no_dtype_that_starts():
    # 0.9.1+: --dtype auto picks float32 for gemma3 without bfloat16; float16 is refused (L5)
    for version in ("0.10.0", "0.14.0"):
        got = _judge(version, 7.5, dtype="float32", unsafe=True, model_type="gemma3")
        assert got["quant_dtype_ok"] is False and got.get("quant_dtype_none") is True and "quant_dtype_fix" not in got


def test_float32_is_refused_by_every_awq_kernel():
    got = _judge("0.24.0", 8.0, dtype="float32", explicit=True)
    assert got["quant_kernel"] == "auto_awq" and got["quant_dtype_fix"] == "bfloat16"


def test_a_dtype_only_guessed_is_not_judged():
    # the checkpoint's config.json not read: its torch_dtype is the catalog's, not the upload's
    assert _judge("0.4.1", 8.0, quant_source="name") == {}


def test_the_checkpoint_config_gives_what_awq_marlin_reads():
    from vllm_kb.engine.kb.model_config import config_scalars
    facts = {}
    config_scalars(facts, {"torch_dtype": "bfloat16", "quantization_config": {
        "quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True}}, None)
    assert (facts["quant_bits"], facts["quant_zero_point"], facts["quant_group_size"]) == (4, True, 128)
    old = {}  # AutoAWQ's early quant_config spelling: vLLM's Marlin test reads `bits` only
    config_scalars(old, {"quantization_config": {"quant_method": "awq", "w_bit": 4, "q_group_size": 128, "zero_point": True}}, None)
    assert "quant_bits" not in old
