"""A "-AWQ" name says AutoAWQ's format (quant_method awq) or llm-compressor's AWQModifier export,
which is saved as compressed-tensors W4A16 (vllm-project/llm-compressor#1909, #2096). The name alone
decides neither the --quantization pair (L9) nor, where the two formats' kernels disagree on the GPU,
the refusal (L7)."""
from __future__ import annotations

from vllm_kb.engine.audit import audit


def _p(tmp_path, pin: str, gpu: str, extra: str = "", model: str = "someone/Qwen3-8B-AWQ"):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "serve.sh").write_text(f"vllm serve {model} --max-model-len 4096 {extra}\n")
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return {r.check.id: r.priority for r in sr.results if r.needs_change}


def test_the_compressed_tensors_flag_on_an_awq_name_is_no_mismatch(tmp_path):
    assert "L9" not in _p(tmp_path, "0.11.0", "A100-80GB", "--quantization compressed-tensors")


def test_a_turing_card_may_refuse_the_compressed_tensors_export(tmp_path):
    # 0.10.1: AutoAWQ needs 7.5, compressed-tensors W4A16 8.0 (0.12.0 lowers it to 7.5)
    assert _p(tmp_path, "0.10.1", "T4").get("L7") == "P1"
    assert "L7" not in _p(tmp_path, "0.12.0", "T4")


def test_a_volta_card_refuses_both_formats(tmp_path):
    assert _p(tmp_path, "0.10.1", "V100-32GB").get("L7") == "P0"


def _wna16(tmp_path, pin: str, gpu: str, extra: str = "", config: str | None = None):
    model = "neuralmagic/Mistral-7B-Instruct-v0.3-quantized.w8a16"
    if config is not None:  # the checkpoint itself, in a folder: its config decides
        (tmp_path / "ckpt").mkdir(exist_ok=True)
        (tmp_path / "ckpt" / "config.json").write_text(config)
        model = "./ckpt"
    return _p(tmp_path, pin, gpu, extra, model)


def test_a_quantized_w8a16_name_may_be_an_autogptq_upload(tmp_path):
    # vllm-project/vllm#11577: --quantization gptq on Neural Magic's w8a16 upload started on 0.6.x
    assert "L9" not in _wna16(tmp_path, "0.6.5", "A100-40GB", "--quantization gptq")


def test_a_compressed_tensors_config_with_the_gptq_flag_is_still_refused(tmp_path):
    config = ('{"architectures": ["MistralForCausalLM"], "model_type": "mistral", "hidden_size": 4096,'
              ' "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 32,'
              ' "intermediate_size": 14336, "vocab_size": 32768, "max_position_embeddings": 32768,'
              ' "torch_dtype": "bfloat16", "quantization_config": {"quant_method": "compressed-tensors"}}')
    assert _wna16(tmp_path, "0.6.5", "A100-40GB", "--quantization gptq", config).get("L9") == "P0"


def test_a_turing_card_runs_the_gptq_format_of_a_wna16_name(tmp_path):
    # compressed-tensors W*A16 needs 8.0 before 0.12.0; AutoGPTQ's format runs on 7.5: no P0 by name
    assert _wna16(tmp_path, "0.10.1", "T4").get("L7") != "P0"
