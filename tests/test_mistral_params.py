"""--config-format mistral on a Hugging Face-format upload (check L165): vLLM reads params.json, which such an
upload does not have, and stops while it builds the model config (vLLM #15300, #17132)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.check.startup_tokenizer_files import params_file_facts


def _serve(model: str, flags: str = "--tokenizer-mode mistral --config-format mistral --load-format mistral") -> dict:
    return {"requirements.txt": "vllm==0.8.1\n", "serve.sh": f"vllm serve {model} {flags}\n"}


def test_an_upload_the_knowledge_lists_without_params_json_is_a_p0(write_project, json_site, p0s):
    site = json_site(write_project(_serve("OPEA/Mistral-Small-3.1-24B-Instruct-2503-int4-AutoRound-awq-sym")), gpu="RTX-4090")
    assert "L165" in p0s(site)


@pytest.mark.parametrize("model,flags", [
    ("OPEA/Mistral-Small-3.1-24B-Instruct-2503-int4-AutoRound-awq-sym", "--max-model-len 8192"),  # formats left at auto
    ("mistralai/Mistral-Small-3.1-24B-Instruct-2503", None),  # Mistral AI's own upload ships params.json
])
def test_no_p0_without_the_mistral_config_format_or_on_mistral_ais_upload(write_project, json_site, p0s, model, flags):
    files = _serve(model) if flags is None else _serve(model, flags)
    site = json_site(write_project(files), gpu="H100-80GB")
    assert "L165" not in p0s(site)


@pytest.mark.parametrize("name,engine,unlikely", [
    ("someorg/Mistral-Small-3.2-24B-Instruct-2506-GPTQ", {"config_format": "mistral"}, True),
    ("someorg/Mistral-Small-3.1-24B-Instruct-2503-FP8-dynamic", {"config_format": "mistral"}, True),
    ("someorg/Mistral-Small-3.2-24B-Instruct-2506-GPTQ", {"config_format": "auto"}, False),
    ("mistralai/Mistral-Small-3.1-24B-Instruct-2503-FP8", {"config_format": "mistral"}, False),  # the publisher's own
    ("someorg/Mistral-Small-3.1-24B-Instruct-2503", {"config_format": "mistral"}, False),  # a copy: may keep params.json
    ("/models/Mistral-Small-AWQ", {"config_format": "mistral"}, False),  # a folder: its files are not read here
])
def test_a_quantized_reupload_likely_lacks_params_json(name, engine, unlikely):
    assert params_file_facts({"name": name}, engine) == ({"mistral_params_unlikely": True} if unlikely else {})
