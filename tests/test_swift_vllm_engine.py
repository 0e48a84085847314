"""ms-swift's VllmEngine (knowledge/deploy/llm_wrappers.yaml): a call in a user's script builds vLLM's engine
in the process, like LLM(...) (ms-swift #4289: `VllmEngine(model, model_type='qwen2_vl', max_model_len=8192)`)."""


def values(s):
    return {k: v.value for k, v in s.settings.items() if v.resolved}


def test_swift3_vllm_engine_is_an_llm_site(scanned):
    (s,) = scanned({"infer.py": "from swift.llm import VllmEngine\n"
                                "engine = VllmEngine('Qwen/Qwen2-VL-2B-Instruct', model_type='qwen2_vl', max_model_len=8192,\n"
                                "                    tensor_parallel_size=2, engine_kwargs={'enable_chunked_prefill': False})\n"})
    assert s.kind == "LLM()" and s.model.value == "Qwen/Qwen2-VL-2B-Instruct"
    got = values(s)
    assert got["max_model_len"] == 8192 and got["tensor_parallel_size"] == 2 and got["enable_chunked_prefill"] is False
    assert got["trust_remote_code"] is True and got["max_num_seqs"] == 256  # what VllmEngine passes itself
    assert "disable_custom_all_reduce" in s.settings and not s.settings["disable_custom_all_reduce"].resolved  # per release


def test_swift4_import_paths_and_a_foreign_class_of_that_name(scanned):
    sites = scanned({"a.py": "from swift import VllmEngine\nVllmEngine('org/a', gpu_memory_utilization=0.5)\n",
                     "b.py": "from swift.infer_engine import VllmEngine\nVllmEngine(model_id_or_path='org/b')\n",
                     "c.py": "from mypkg import VllmEngine\nVllmEngine('org/c')\n"})
    assert [(s.file, s.model.value) for s in sites] == [("a.py", "org/a"), ("b.py", "org/b")]
    assert values(sites[0])["gpu_memory_utilization"] == 0.5


def test_keys_swift_passes_only_where_the_release_has_them_are_no_unknown_argument(tmp_path):
    # ms-swift 3.8.0 vllm_engine.py: enable_sleep_mode, enable_expert_parallel, … go to EngineArgs only where its
    # signature has them ("does not support `…`. Ignored."); max_num_batched_tokens in engine_kwargs is passed as is
    from vllm_kb.engine.audit import audit

    (tmp_path / "requirements.txt").write_text("vllm==0.6.3\nms-swift==3.8.0\n")
    (tmp_path / "infer.py").write_text("from swift.llm import VllmEngine\n"
                                       "e = VllmEngine('Qwen/Qwen2-7B-Instruct', enable_sleep_mode=True, enable_expert_parallel=True,\n"
                                       "               engine_kwargs={'disable_cascade_attn': True})\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    p0 = [f.id for f in sr.remarks if f.priority == "P0"]
    assert p0 == ["not-in-version:disable_cascade_attn"]  # the spread mapping's key reaches EngineArgs unchecked


def test_swift2_get_vllm_engine_is_an_llm_site(scanned):
    # ms-swift 2.x (vLLM #9401, ms-swift #1557): `get_vllm_engine(model_type, …)` builds EngineArgs and LLMEngine in
    # the process; the model comes from model_type unless model_id_or_path names it
    (s,) = scanned({"infer.py": "from swift.llm import ModelType, get_vllm_engine, inference_vllm\n"
                                "engine = get_vllm_engine(ModelType.qwen2_7b_instruct, model_id_or_path='Qwen/Qwen2-7B-Instruct',\n"
                                "                         tensor_parallel_size=2, max_model_len=4096,\n"
                                "                         engine_kwargs={'enable_prefix_caching': True})\n"})
    assert s.kind == "LLM()" and s.model.value == "Qwen/Qwen2-7B-Instruct"
    got = values(s)
    assert got["tensor_parallel_size"] == 2 and got["max_model_len"] == 4096 and got["enable_prefix_caching"] is True
    assert got["trust_remote_code"] is True and got["disable_custom_all_reduce"] is True and got["max_num_seqs"] == 256
    assert "model_type" not in s.settings and "revision" not in s.settings


def test_swift2_get_vllm_engine_import_paths(scanned):
    sites = scanned({"a.py": "from swift.llm import get_vllm_engine\nget_vllm_engine('qwen2-7b-instruct')\n",
                     "b.py": "import swift.llm\nswift.llm.get_vllm_engine('qwen2-7b-instruct', gpu_memory_utilization=0.5)\n",
                     "c.py": "from mypkg import get_vllm_engine\nget_vllm_engine('x')\n"})
    assert [s.file for s in sites] == ["a.py", "b.py"]
    assert values(sites[1])["gpu_memory_utilization"] == 0.5
