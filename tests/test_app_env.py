"""An application server's own env file as a vLLM site (knowledge/deploy/app_servers.yaml,
engine/scan/deploy/app_env.py): api-for-open-llm reads `.env` and builds AsyncEngineArgs from it
(api/config.py, api/models.py create_vllm_engine of https://github.com/xusenlinzy/api-for-open-llm)."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

_ENV = "MODEL_NAME=qwen\nMODEL_PATH=Qwen/Qwen1.5-14B-Chat\nENGINE=vllm\nTENSOR_PARALLEL_SIZE=1\nCONTEXT_LEN=-1\n"


def _sites(tmp_path, files, gpu="A100-80GB x2"):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return audit(tmp_path, gpu=gpu).sites


def _values(sr):
    return {k: s.value for k, s in sr.site.settings.items()}


def test_the_servers_env_file_is_a_site_with_its_own_defaults(tmp_path):
    (sr,) = _sites(tmp_path, {".env": _ENV, "requirements.txt": "vllm==0.4.0.post1\n"})
    assert sr.site.model.value == "Qwen/Qwen1.5-14B-Chat" and sr.site.tool == "api-for-open-llm"
    # CONTEXT_LEN=-1 is the server's "unset"; dtype half and 0.9 are its defaults, not vLLM's
    v = _values(sr)
    assert v["dtype"] == "half" and v["gpu_memory_utilization"] == 0.9 and v["tensor_parallel_size"] == 1
    assert "max_model_len" not in v
    tp = sr.site.settings["tensor_parallel_size"]
    assert (tp.file, tp.line, tp.syntax) == (".env", 4, "env-file") and tp.pos["from_env"] == "TENSOR_PARALLEL_SIZE at .env:4"


def test_a_context_too_long_for_the_cache_is_fixed_in_the_servers_variable(tmp_path):
    (sr,) = _sites(tmp_path, {".env": _ENV, "requirements.txt": "vllm==0.4.0.post1\n"}, gpu="RTX-A6000 x2")
    l15 = next(r for r in sr.results if r.check.id == "L15")
    assert l15.status == "recommended" and l15.priority == "P0"
    got = {ch.target: ch for ch in sr.changes if "L15" in ch.checks}
    assert got["max_model_len"].after.startswith("CONTEXT_LEN=") and got["max_model_len"].file == ".env"


def test_other_env_files_are_not_sites(tmp_path):
    files = {".env": _ENV.replace("ENGINE=vllm", "ENGINE=default"),
             "b/.env.vllm.example": _ENV, "c/.env": _ENV.replace("MODEL_PATH=Qwen/Qwen1.5-14B-Chat\n", "")}
    assert _sites(tmp_path, files) == []


def test_the_2023_switch_leaves_the_batched_tokens_unknown(tmp_path):
    env = "MODEL_NAME=qwen\nMODEL_PATH=Qwen/Qwen-7B-Chat\nUSE_VLLM=True\nTOKENIZE_MODE=slow\n"
    (sr,) = _sites(tmp_path, {".env": env})
    s = sr.site.settings["max_num_batched_tokens"]
    assert not s.resolved and _values(sr)["tokenizer_mode"] == "slow"
