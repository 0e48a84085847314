"""LLaMA-Factory 0.7's infer_optim_dtype, resolved per vLLM release: torch 2.3+ (vLLM 0.4.2's pin)
answers is_bf16_supported() with True on a V100 too (pytorch#115924), so a bfloat16 checkpoint goes
to vLLM as bfloat16 there; under 0.4.1's torch 2.2.1 it goes as float16."""
from vllm_kb.engine.check.startup_dtype import DEVICE_PICKED, device_picked_dtype

V100, A100 = {"compute_capability": 7.0}, {"compute_capability": 8.0}
BF16 = {"torch_dtype": "bfloat16"}


def _picked(model, gpu, release):
    return device_picked_dtype({"dtype": DEVICE_PICKED}, model, gpu, release)["dtype"]


def test_torch_23_picks_bfloat16_on_a_v100():
    assert _picked(BF16, V100, "0.4.2") == "bfloat16"
    assert _picked(BF16, V100, "0.5.0") == "bfloat16"


def test_older_torch_asks_the_gpu():
    assert _picked(BF16, V100, "0.4.1") == "float16"  # torch 2.2.1
    assert _picked(BF16, V100, "0.4.0") == "float16"  # torch 2.1.2
    assert _picked(BF16, V100, None) == "float16"     # release unknown: the GPU decides
    assert _picked(BF16, A100, "0.4.1") == "bfloat16"


def test_other_checkpoints_and_arguments_unchanged():
    assert _picked({"torch_dtype": "float16"}, V100, "0.4.2") == "float16"
    assert _picked({}, V100, "0.4.2") == "auto"
    assert device_picked_dtype({"dtype": "half"}, BF16, V100, "0.4.2") == {"dtype": "half"}
