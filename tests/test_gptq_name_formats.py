"""A "-GPTQ" name says AutoGPTQ's/GPTQModel's format (quant_method gptq) or llm-compressor's
GPTQModifier export, saved as compressed-tensors W4A16 (llm-compressor#2096; ISTA-DASLab's
"-GPTQ-4b-128g" uploads, refused on Turing with "Min capability: 80", vllm#14040). Known only by its
name, a launch on a GPU only one of the two formats runs on gets a P1 that says so (L7); where the
checkpoint's own config.json is in the project, its method decides."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

_CONFIG = ('{{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,'
           ' "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 32,'
           ' "intermediate_size": 14336, "vocab_size": 128256, "max_position_embeddings": 8192,'
           ' "torch_dtype": "bfloat16", "quantization_config": {q}}}')
_CT = ('{"quant_method": "compressed-tensors", "format": "pack-quantized", "config_groups": {"group_0":'
       ' {"targets": ["Linear"], "weights": {"num_bits": 4, "type": "int", "symmetric": true,'
       ' "strategy": "group", "group_size": 128}, "input_activations": null}}}')
_GPTQ = '{"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": false, "sym": true}'


def _p(tmp_path, pin: str, gpu: str, model: str = "someone/Llama-3.1-8B-Instruct-GPTQ-4b-128g",
       quant: str | None = None):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    if quant is not None:  # the checkpoint itself, in a folder: its config decides
        (tmp_path / "Llama-3.1-8B-Instruct-GPTQ-4b-128g").mkdir(exist_ok=True)
        (tmp_path / "Llama-3.1-8B-Instruct-GPTQ-4b-128g" / "config.json").write_text(_CONFIG.format(q=quant))
        model = "./Llama-3.1-8B-Instruct-GPTQ-4b-128g"
    (tmp_path / "serve.sh").write_text(f"vllm serve {model} --max-model-len 4096\n")
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return {r.check.id: r.priority for r in sr.results if r.needs_change}


def test_a_gptq_name_on_turing_says_the_name_is_all_it_knows(tmp_path):
    # 0.8.0: GPTQ needs 6.0, compressed-tensors W4A16 8.0
    assert _p(tmp_path, "0.8.0", "T4").get("L7") == "P1"


def test_a_gptq_name_on_ampere_is_fine_either_way(tmp_path):
    assert "L7" not in _p(tmp_path, "0.8.0", "A10G")


def test_the_checkpoints_compressed_tensors_config_wins_over_the_name(tmp_path):
    assert _p(tmp_path, "0.8.0", "T4", quant=_CT).get("L7") == "P0"


def test_the_checkpoints_gptq_config_wins_over_the_name(tmp_path):
    assert "L7" not in _p(tmp_path, "0.8.0", "T4", quant=_GPTQ)


def test_owners_whose_gptq_uploads_are_autogptq_get_no_p1(tmp_path):
    # TheBloke's uploads predate llm-compressor; Qwen's -GPTQ-Int4 configs say quant_method gptq
    assert "L7" not in _p(tmp_path, "0.8.0", "T4", model="TheBloke/Llama-2-7B-Chat-GPTQ")
    assert "L7" not in _p(tmp_path, "0.8.0", "T4", model="Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4")
