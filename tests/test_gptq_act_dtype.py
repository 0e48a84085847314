"""L120 for GPTQ: the plain GPTQ kernel (to 0.21) takes float16 only; GPTQ-Marlin (4- or 8-bit
symmetric, a group size Marlin tiles, a GPU it runs on, --quantization not forcing gptq) and
AutoGPTQConfig (0.22+) take bfloat16 too. A checkpoint saved in bfloat16 fails where the plain
kernel runs: "torch.bfloat16 is not supported for quantization method gptq"."""
import json

from vllm_kb.engine.audit import audit

_CFG = {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_size": 3584, "intermediate_size": 18944,
        "num_attention_heads": 28, "num_key_value_heads": 4, "num_hidden_layers": 28, "max_position_embeddings": 32768,
        "vocab_size": 152064, "torch_dtype": "bfloat16"}


def _l120(tmp_path, release: str, bits: int = 4, sym: bool = True, flags: str = "", gpu: str = "A100-80GB"):
    model = tmp_path / "ckpt"
    model.mkdir()
    quant = {"quant_method": "gptq", "bits": bits, "group_size": 128, "desc_act": False, "sym": sym}
    (model / "config.json").write_text(json.dumps({**_CFG, "quantization_config": quant}))
    (tmp_path / "requirements.txt").write_text(f"vllm=={release}\n")
    (tmp_path / "serve.sh").write_text(f"vllm serve ./ckpt --max-model-len 4096 {flags}\n")
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return next(r for r in sr.results if r.check.id == "L120")


def test_plain_gptq_before_marlin_refuses_bfloat16(tmp_path):
    r = _l120(tmp_path, "0.4.0.post1")
    assert (r.status, r.priority) == ("recommended", "P0")
    assert "half" in repr(r.fix)  # --dtype half


def test_marlin_takes_a_symmetric_4bit_checkpoint_in_bfloat16(tmp_path):
    assert _l120(tmp_path, "0.10.2").status == "enabled"


def test_an_asymmetric_checkpoint_keeps_the_plain_kernel(tmp_path):
    r = _l120(tmp_path, "0.10.2", sym=False)
    assert (r.status, r.priority) == ("recommended", "P0")


def test_quantization_gptq_forces_the_plain_kernel(tmp_path):
    r = _l120(tmp_path, "0.10.2", flags="--quantization gptq")
    assert (r.status, r.priority) == ("recommended", "P0")


def test_auto_gptq_from_022_takes_bfloat16(tmp_path):
    assert _l120(tmp_path, "0.22.0", sym=False).status == "enabled"
