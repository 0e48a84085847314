"""L11: with no quantization_config in config.json, vLLM's get_quant_config globs the checkpoint's
*.json for one of the method's config files (quantize_config.json for GPTQ, quant_config.json or
quantize_config.json for AWQ: 0.6.3 weight_utils.py:170-181) and raises "Cannot find the config file"
only when none is there; a method that names no file (compressed-tensors, quark …) never raises it.
AutoGPTQ and early AutoAWQ exports keep their settings in such a file beside config.json."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

_CONFIG = ('{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,'
           ' "num_attention_heads": 32, "num_key_value_heads": 32, "num_hidden_layers": 32,'
           ' "intermediate_size": 11008, "vocab_size": 32000, "max_position_embeddings": 4096, "torch_dtype": "float16"}')


def _l11(tmp_path, method: str, beside: str | None = None) -> str | None:
    (tmp_path / "requirements.txt").write_text("vllm==0.6.3\n")
    (tmp_path / "ckpt").mkdir()
    (tmp_path / "ckpt" / "config.json").write_text(_CONFIG)
    if beside:
        (tmp_path / "ckpt" / beside).write_text('{"bits": 4, "group_size": 128, "desc_act": false, "sym": true}')
    (tmp_path / "serve.sh").write_text(
        f"python -m vllm.entrypoints.openai.api_server --model ./ckpt --quantization {method} --max-model-len 4096\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    r = next((r for r in sr.results if r.check.id == "L11"), None)
    return r.priority if r is not None and r.needs_change else None


def test_a_folder_without_a_config_file_is_refused(tmp_path):
    assert _l11(tmp_path, "gptq") == "P0"


def test_an_autogptq_quantize_config_beside_it_is_taken(tmp_path):
    assert _l11(tmp_path, "gptq", "quantize_config.json") is None


def test_awq_takes_quant_config_json(tmp_path):
    assert _l11(tmp_path, "awq", "quant_config.json") is None


def test_a_method_without_config_files_is_not_this_refusal(tmp_path):
    assert _l11(tmp_path, "compressed-tensors") is None
