"""Serving packages that start vLLM themselves (engine/check/host_compat.py, compat.yaml rows of
fastchat, xinference, ray): the pair of releases alone decides, so the audit gives L43 a P0 only for
the pairs, engine switches and model types the rows name, and proposes the nearest working pair."""
from vllm_kb.engine.audit import audit

FASTCHAT = "python3 -m fastchat.serve.vllm_worker --model-path lmsys/vicuna-7b-v1.5\n"
XINFERENCE = "xinference launch --model-name Qwen3-Embedding-8B --model-type {kind} --model-engine vllm\n"
RAY = '''from ray import serve
from ray.serve.llm import LLMConfig, build_openai_app

llm_config = LLMConfig(
    model_loading_config=dict(model_id="qwen-0.5b", model_source="Qwen/Qwen2.5-0.5B-Instruct"),
    accelerator_type="A10G",{extra}
)
serve.run(build_openai_app({{"llm_configs": [llm_config]}}))
'''


def _l43(tmp_path, files: dict[str, str], gpu="A100-80GB x1"):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    rep = audit(tmp_path, gpu=gpu)
    (sr,) = rep.sites
    l43 = next(r for r in sr.results if r.check.id == "L43")
    a4 = next(r for r in sr.results if r.check.id == "A4")
    return l43, a4, sr


def _p0(r) -> bool:
    return r.status == "recommended" and r.priority == "P0"


def test_fastchat_worker_on_v1_engine_is_p0_with_both_breaks_and_a_pin(tmp_path):
    """VLLM_USE_V1=0 gets the worker started, but from vLLM 0.6.3 its SamplingParams(use_beam_search=…)
    fails every request (vLLM #18231): L43 says both and pins the nearest vLLM with neither."""
    l43, _, sr = _l43(tmp_path, {"requirements.txt": "fschat==0.2.36\nvllm==0.8.2\n", "serve.sh": FASTCHAT})
    assert _p0(l43) and "'AsyncLLM' object has no attribute 'engine'" in sr.facts["launch"]["host_problem_text"]
    assert sr.facts["launch"]["host_env_fix"] == "0" and "use_beam_search" in sr.facts["launch"]["host_request_text"]
    assert "{launch.host_request_text}" in l43.reason.en
    assert any(ch.op == "pin" and ch.target == "vllm" and str(ch.value) == "==0.6.2" for ch in sr.changes)


def test_fastchat_worker_with_v0_chosen_starts_and_keeps_its_switch(tmp_path):
    l43, a4, _ = _l43(tmp_path, {"requirements.txt": "fschat==0.2.36\nvllm==0.8.2\n", "serve.sh": "export VLLM_USE_V1=0\n" + FASTCHAT})
    assert not _p0(l43)
    assert a4.status == "not_applicable"  # removing VLLM_USE_V1=0 would bring the break back


def test_fastchat_worker_after_v0_removal_proposes_an_older_vllm(tmp_path):
    l43, _, sr = _l43(tmp_path, {"requirements.txt": "fschat==0.2.36\nvllm==0.11.0\n", "serve.sh": FASTCHAT})
    assert _p0(l43)
    # not 0.7.3, the newest V0 default: from 0.6.3 on the worker's SamplingParams(use_beam_search=…)
    # fails every request (compat.yaml scope request), so the nearest pair that serves is 0.6.2
    assert "host_env_fix" not in sr.facts["launch"] and sr.facts["launch"]["host_fit_vllm"] == "==0.6.2"


def test_fastchat_worker_before_v1_is_fine(tmp_path):
    l43, _, _ = _l43(tmp_path, {"requirements.txt": "fschat==0.2.36\nvllm==0.7.3\n", "serve.sh": FASTCHAT})
    assert not _p0(l43)


def test_xinference_embedding_on_vllm_without_task_names_both_nearest_pairs(tmp_path):
    l43, _, sr = _l43(tmp_path, {"requirements.txt": "xinference==1.16.0\nvllm==0.14.1\n", "launch.sh": XINFERENCE.format(kind="embedding")})
    assert _p0(l43) and "unexpected keyword argument 'task'" in sr.facts["launch"]["host_problem_text"]
    assert sr.facts["launch"]["host_fit_vllm"] == "==0.12.0" and sr.facts["launch"]["host_fit_release"] == "==2.1.0"


def test_xinference_pairs_the_rows_do_not_name_are_not_judged(tmp_path):
    for pins, kind in (("xinference==1.16.0\nvllm==0.13.0\n", "LLM"), ("xinference==2.1.0\nvllm==0.13.0\n", "embedding"),
                       ("xinference==1.16.0\nvllm==0.12.0\n", "embedding"), ("xinference==2.0.0\nvllm==0.13.0\n", "rerank")):
        l43, _, _ = _l43(tmp_path, {"requirements.txt": pins, "launch.sh": XINFERENCE.format(kind=kind)})
        assert not _p0(l43), (pins, kind)


def test_xinference_rerank_from_python_before_2_0(tmp_path):
    code = ('from xinference.client import Client\nClient("http://127.0.0.1:9997").launch_model(\n'
            '    model_name="bge-reranker-v2-m3", model_type="rerank", model_engine="vllm")\n')
    l43, _, sr = _l43(tmp_path, {"requirements.txt": "xinference==1.17.1\nvllm==0.14.1\n", "launch.py": code})
    assert _p0(l43) and sr.facts["launch"]["host_fit_release"] == "==2.0.0"


def test_ray_serve_llm_2_47_with_vllm_use_v1_unset(tmp_path):
    l43, _, sr = _l43(tmp_path, {"requirements.txt": "ray[serve,llm]==2.47.1\nvllm==0.9.2\n", "app.py": RAY.format(extra="")}, gpu="A10G x1")
    assert _p0(l43) and "'torch.dtype' object has no attribute 'startswith'" in sr.facts["launch"]["host_problem_text"]
    assert sr.facts["launch"]["host_env_fix"] == "1" and sr.facts["launch"]["host_fit_release"] == "==2.48.0"


def test_ray_serve_llm_with_vllm_use_v1_written_or_another_release_is_not_judged(tmp_path):
    v1 = '\n    runtime_env=dict(env_vars=dict(VLLM_USE_V1="1")),'
    # (2.46.0 with vLLM 0.9+ breaks otherwise: resolve_chat_template_content_format's model_config, ray #52975)
    for pins, extra in (("ray[serve,llm]==2.47.1\nvllm==0.9.2\n", v1), ("ray[serve,llm]==2.46.0\nvllm==0.8.5\n", ""),
                        ("ray[serve,llm]==2.48.0\nvllm==0.9.2\n", "")):
        l43, _, _ = _l43(tmp_path, {"requirements.txt": pins, "app.py": RAY.format(extra=extra)}, gpu="A10G x1")
        assert not _p0(l43), pins


def test_ray_serve_llm_2_47_on_a_vllm_without_v0(tmp_path):
    l43, _, sr = _l43(tmp_path, {"requirements.txt": "ray[serve,llm]==2.47.1\nvllm==0.11.0\n", "app.py": RAY.format(extra="")}, gpu="A10G x1")
    assert _p0(l43) and "vllm.engine.multiprocessing" in sr.facts["launch"]["host_problem_text"]


SMOLAGENTS = '''from smolagents.models import VLLMModel

model = VLLMModel(model_id="Qwen/Qwen2.5-0.5B-Instruct", model_kwargs={"max_model_len": 2048, "dtype": "float16"})
'''


def test_smolagents_vllmmodel_is_a_launch_and_its_tokenizer_import_breaks_on_0_22(tmp_path):
    """smolagents' VLLMModel builds LLM(model=model_id, **model_kwargs) after importing
    vllm.transformers_utils.tokenizer, which vLLM 0.22.0 removed (smolagents #2417)."""
    l43, _, sr = _l43(tmp_path, {"requirements.txt": "smolagents==1.26.0\nvllm==0.23.0\n", "agent.py": SMOLAGENTS}, gpu="A10 x1")
    assert _p0(l43) and sr.site.tool == "smolagents"
    assert {"max_model_len", "dtype"} <= set(sr.site.settings)
    assert any(ch.op == "pin" and ch.target == "vllm" and str(ch.value) == "==0.21.0" for ch in sr.changes)


def test_smolagents_vllmmodel_on_a_vllm_with_the_module_is_fine(tmp_path):
    l43, _, _ = _l43(tmp_path, {"requirements.txt": "smolagents==1.26.0\nvllm==0.21.0\n", "agent.py": SMOLAGENTS}, gpu="A10 x1")
    assert not _p0(l43)
