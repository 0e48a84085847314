"""Langchain-Chatchat 0.2.x's vLLM worker as a site (engine/scan/chatchat_config.py): `infer_turbo`
in configs/server_config.py turns the FastChat worker of a VLLM_MODEL_DICT model into a vLLM engine
built from Chatchat's own defaults (startup.py create_model_worker_app, v0.2.5 … v0.2.10)."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

_MODELS = ('LLM_MODEL = "Qwen-14B-Chat"\nMODEL_PATH = {"llm_model": {"Qwen-14B-Chat": "/models/Qwen/Qwen-14B-Chat"}}\n'
           'VLLM_MODEL_DICT = {"Qwen-14B-Chat": "Qwen/Qwen-14B-Chat"}\n')
_SERVER = ('import sys\nFSCHAT_MODEL_WORKERS = {\n    "default": {\n        "port": 20002,\n        "device": "cuda",\n'
           '        "infer_turbo": "vllm" if sys.platform.startswith("linux") else False,\n    },\n}\n')


def _sites(tmp_path, files, gpu="V100-32GB", version="0.2.1.post1"):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return audit(tmp_path, gpu=gpu, vllm_version=version).sites


def test_the_vllm_worker_of_the_config_is_a_site_with_chatchats_defaults(tmp_path):
    (sr,) = _sites(tmp_path, {"configs/model_config.py": _MODELS, "configs/server_config.py": _SERVER})
    site = sr.site
    assert site.kind == "Langchain-Chatchat vllm worker" and site.model.value == "/models/Qwen/Qwen-14B-Chat"
    assert (site.model.file, site.model.line) == ("configs/model_config.py", 2)
    assert site.framework_defaults["dtype"] == "auto" and site.framework_defaults["gpu_memory_utilization"] == 0.9
    # FastChat's `device` never reaches the engine; the batch budget differed between Chatchat releases
    assert "device" not in site.settings and not site.settings["max_num_batched_tokens"].resolved
    l4 = next(r for r in sr.results if r.check.id == "L4")
    assert l4.status == "recommended" and l4.priority == "P0"
    fix = next(ch for ch in sr.changes if ch.target == "dtype")
    assert fix.after == '"dtype": "half"' and fix.file == "configs/server_config.py"


def test_a_worker_setting_and_a_models_own_entry_win(tmp_path):
    server = _SERVER.replace('"port": 20002,', '"port": 20002, "dtype": "bfloat16",') \
        .replace("\n}\n", '\n    "Qwen-14B-Chat": {"dtype": "half", "tensor_parallel_size": 2},\n}\n')
    (sr,) = _sites(tmp_path, {"configs/model_config.py": _MODELS, "configs/server_config.py": server}, gpu="V100-32GB x2")
    v = {k: s.value for k, s in sr.site.settings.items() if s.resolved}
    assert v["dtype"] == "half" and v["tensor_parallel_size"] == 2


def test_no_site_without_vllm_or_for_a_model_outside_its_list(tmp_path):
    off = _SERVER.replace('"vllm" if sys.platform.startswith("linux") else False', "False")
    assert _sites(tmp_path / "a", {"configs/model_config.py": _MODELS, "configs/server_config.py": off}) == []
    other = _MODELS.replace('VLLM_MODEL_DICT = {"Qwen-14B-Chat"', 'VLLM_MODEL_DICT = {"chatglm2-6b"')
    assert _sites(tmp_path / "b", {"configs/model_config.py": other, "configs/server_config.py": _SERVER}) == []
