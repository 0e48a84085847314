"""Inference servers run as `python -m MODULE` that hand their command line to vLLM's parser
(knowledge/deploy/llm_wrappers.yaml entry_points): KServe's huggingfaceserver (python/huggingfaceserver/
huggingfaceserver/__main__.py, kserve aaac4e2) serves with vLLM unless `--backend huggingface`."""
from __future__ import annotations

from vllm_kb.engine.audit import audit


def _sites(tmp_path, files, gpu="T4 x1", version="0.6.3"):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    rep = audit(tmp_path, gpu=gpu, vllm_version=version)
    return {sr.site.file: sr for sr in rep.sites}


def test_huggingfaceserver_is_a_vllm_server_with_its_own_options_set_aside(tmp_path):
    sites = _sites(tmp_path, {
        "a.sh": "python -m huggingfaceserver --model_id=Qwen/Qwen2.5-7B-Instruct --model_name=q --max_length 8192 --tensor-parallel-size 2\n",
        "b.sh": "python3 -m huggingfaceserver --model_id=bert-base-uncased --model_name=bert --backend huggingface\n",
        "c.sh": "python3 -m huggingfaceserver --model_id=bert-base-uncased --backend=huggingface\n"}, gpu="A100-80GB x2")
    assert set(sites) == {"a.sh"}
    s = sites["a.sh"].site
    assert s.model.value == "Qwen/Qwen2.5-7B-Instruct" and not s.unknown
    assert s.settings["max_model_len"].value == 8192 and s.settings["tensor_parallel_size"].value == 2


def test_huggingfaceserver_dtype_depends_on_its_release_so_no_dtype_p0(tmp_path):
    # KServe 0.13-0.14 ran vLLM in float16 when dtype was auto, 0.15+ vLLM's own auto: unknown here
    (tmp_path / "auto").mkdir()
    (sr,) = _sites(tmp_path / "auto", {"a.sh": "python -m huggingfaceserver --model_id=mistralai/Mistral-7B-Instruct-v0.1 --max_length 4096\n"}).values()
    assert not sr.site.settings["dtype"].resolved
    assert not [r for r in sr.results if r.priority == "P0" and r.status == "recommended"]
    (tmp_path / "given").mkdir()
    (sr,) = _sites(tmp_path / "given", {"a.sh": "python -m huggingfaceserver --model_id=mistralai/Mistral-7B-Instruct-v0.1 --dtype bfloat16 --max_length 4096\n"}).values()
    assert any(r.priority == "P0" and r.status == "recommended" and r.check.id == "L4" for r in sr.results)
