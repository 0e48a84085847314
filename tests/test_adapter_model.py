"""A PEFT adapter folder given to vLLM as the model (L282): every release reads config.json first, so a
project folder with adapter_config.json and no config.json, served directly or bind-mounted at the
model's path, stops the engine; the site is judged on the adapter's base model, which the change serves
with --enable-lora. From eval105: DoanNgocCuong/MiniProd_… CKP_/deploy.sh mounts an adapter-only
export (base unsloth/Qwen3-1.7B) into vllm/vllm-openai:v0.4.2, which has no Qwen3 either (L21)."""
from __future__ import annotations

import json

from vllm_kb.engine.audit import audit

_RUN = ("docker run --gpus all -v $(pwd)/out/model:/app/model vllm/vllm-openai:{tag} "
        "--model /app/model --max-model-len 1024\n")


def _project(tmp_path, tag: str = "v0.4.2", config: bool = False, base: str = "unsloth/Qwen3-1.7B"):
    folder = tmp_path / "out" / "model"
    folder.mkdir(parents=True)
    (folder / "adapter_config.json").write_text(json.dumps({"base_model_name_or_path": base, "peft_type": "LORA", "r": 16}))
    (folder / "adapter_model.safetensors").write_bytes(b"")
    if config:
        (folder / "config.json").write_text(json.dumps({"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2"}))
    (tmp_path / "deploy.sh").write_text(_RUN.format(tag=tag))


def _results(tmp_path):
    (site,) = audit(tmp_path, gpu="H100-80GB").sites
    return {r.check.id: r for r in site.results}


def test_a_mounted_adapter_folder_is_a_p0_and_its_base_is_judged(tmp_path):
    _project(tmp_path)
    got = _results(tmp_path)
    assert got["L282"].status == "recommended" and got["L282"].priority == "P0"
    text = got["L282"].reason_text("en")
    assert "out/model" in text and "unsloth/Qwen3-1.7B" in text and "--lora-modules NAME=/app/model" in text
    assert "adapter_config.json" in got["L282"].reason_text("zh")
    assert got["L21"].priority == "P0"  # the base, Qwen3, is not in 0.4.2 either


def test_a_folder_with_a_config_is_a_model(tmp_path):
    _project(tmp_path, tag="v0.8.5", config=True)
    assert _results(tmp_path)["L282"].status == "not_applicable"


def test_a_file_that_names_the_folder_may_write_a_merged_model_there(tmp_path):
    _project(tmp_path, tag="v0.8.5", base="Qwen/Qwen2.5-1.5B-Instruct")
    (tmp_path / "export.py").write_text('model.save_pretrained("./out/model")\n')
    l282 = _results(tmp_path)["L282"]
    assert l282.priority == "P1" and "export.py" in l282.reason_text("en")


def test_a_relative_folder_given_to_vllm_serve(tmp_path):
    (tmp_path / "lora").mkdir()
    (tmp_path / "lora" / "adapter_config.json").write_text('{"base_model_name_or_path": "Qwen/Qwen2.5-1.5B-Instruct"}')
    (tmp_path / "requirements.txt").write_text("vllm==0.10.0\n")
    (tmp_path / "serve.sh").write_text("vllm serve ./lora --max-model-len 4096\n")
    l282 = _results(tmp_path)["L282"]
    assert l282.status == "recommended" and l282.priority == "P0"
