"""L169's fact: --tokenizer-mode mistral on a checkpoint outside Mistral AI's families
(engine/check/startup_tokenizer_files.py)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.check.startup_tokenizer_files import tokenizer_file_facts


@pytest.mark.parametrize("model, engine, absent", [
    ({"name": "Qwen/Qwen2.5-0.5B-Instruct", "family": "qwen2.5"}, {"tokenizer_mode": "mistral"}, True),
    ({"name": "meta-llama/Llama-3.1-8B-Instruct", "family": "llama3"}, {"tokenizer_mode": "mistral"}, True),
    ({"name": "Qwen/Qwen2.5-0.5B-Instruct", "family": "qwen2.5"}, {"tokenizer_mode": "auto"}, False),
    ({"name": "mistralai/Mistral-Small-3.1-24B-Instruct-2503", "family": "mistral"}, {"tokenizer_mode": "mistral"}, False),
    ({"name": "llava-hf/llava-v1.6-mistral-7b-hf", "family": "llava"}, {"tokenizer_mode": "mistral"}, False),  # a Mistral backbone
    ({"name": "/models/my-finetune"}, {"tokenizer_mode": "mistral"}, False),  # family not known
    ({"name": "Qwen/Qwen2.5-7B-Instruct", "family": "qwen2.5"},
     {"tokenizer_mode": "mistral", "tokenizer": "mistralai/Mistral-Nemo-Instruct-2407"}, False),  # another repo's tokenizer
    ({"name": "Qwen/Qwen2.5-7B-Instruct", "family": "qwen2.5"}, {"tokenizer_mode": "mistral", "skip_tokenizer_init": True}, False),
])
def test_absent(model, engine, absent):
    assert bool(tokenizer_file_facts(model, engine).get("mistral_tokenizer_absent")) is absent


# a GGUF conversion by anyone but Mistral AI ships the .gguf files alone (vLLM #17210: a Q6_K folder
# with the model card's Mistral flags); Mistral AI's own GGUF repositories and a separate tokenizer are not judged
@pytest.mark.parametrize("model, engine, absent", [
    ({"name": "/models/Mistral-Small-3.1-24B-Instruct-2503-Q6_K", "family": "mistral", "quant_method": "gguf"},
     {"tokenizer_mode": "mistral"}, True),
    ({"name": "bartowski/mistralai_Devstral-Small-2505-GGUF", "family": "mistral", "quant_method": "gguf"},
     {"tokenizer_mode": "mistral"}, True),
    ({"name": "mistralai/Devstral-Small-2505_gguf", "family": "mistral", "quant_method": "gguf"},
     {"tokenizer_mode": "mistral"}, False),
    ({"name": "/models/Mistral-Small-3.1-24B-Instruct-2503-Q6_K.gguf", "family": "mistral", "quant_method": "gguf"},
     {"tokenizer_mode": "mistral", "tokenizer": "mistralai/Mistral-Small-3.1-24B-Instruct-2503"}, False),
])
def test_a_gguf_conversion_has_no_mistral_tokenizer(model, engine, absent):
    got = tokenizer_file_facts(model, engine)
    assert bool(got.get("mistral_tokenizer_absent")) is absent and bool(got.get("mistral_tokenizer_gguf")) is absent
