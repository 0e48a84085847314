"""engine/scan/python_sampling.py: the most new tokens a module's own SamplingParams ask for."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan.python_sampling import request_tokens


def _read(src: str) -> dict:
    return request_tokens(ast.parse(src), src, "gen.py")


def test_expression_of_literals_is_read():
    # eval111 ROLL tests/third_party/vllm/vllm_generate_test.py:57
    got = _read("from vllm import SamplingParams\np = SamplingParams(temperature=0.0, max_tokens=1024 * 31)\n")
    assert got == {"request_max_tokens": 31744, "request_tokens_where": "gen.py:2: SamplingParams(max_tokens=31744)",
                   "max_len_for_requests": 65536}


def test_largest_of_several():
    got = _read("a = SamplingParams(max_tokens=16)\nb = vllm.SamplingParams(max_tokens=700)\n")
    assert got["request_max_tokens"] == 700 and got["max_len_for_requests"] == 16384


def test_any_unknown_bound_makes_the_module_unknown():
    assert _read("a = SamplingParams(max_tokens=16)\nb = SamplingParams(max_tokens=args.n)\n") == {}
    assert _read("a = SamplingParams(max_tokens=16)\nb = SamplingParams(temperature=0)\n") == {}
    assert _read("a = SamplingParams(max_tokens=16, **extra)\n") == {}
    assert _read("a = SamplingParams(1, max_tokens=16)\n") == {}


def test_no_sampling_params():
    assert _read("from vllm import LLM\nllm = LLM('m')\n") == {}


def test_only_an_offline_engine_gets_the_bound(tmp_path):
    # a server module's warm-up request says nothing of what its clients ask
    from vllm_kb.engine.audit import audit

    (tmp_path / "requirements.txt").write_text("vllm==0.11.0\n")
    (tmp_path / "offline.py").write_text("from vllm import LLM, SamplingParams\n"
                                         "llm = LLM(model='Qwen/Qwen2.5-7B-Instruct')\n"
                                         "print(llm.generate(['hi'], SamplingParams(max_tokens=64)))\n")
    (tmp_path / "server.py").write_text("from vllm import AsyncEngineArgs, AsyncLLMEngine, SamplingParams\n"
                                        "engine = AsyncLLMEngine.from_engine_args(AsyncEngineArgs(model='Qwen/Qwen2.5-7B-Instruct'))\n"
                                        "WARMUP = SamplingParams(max_tokens=1)\n")
    rep = audit(tmp_path, gpu="H100-80GB x1")
    got = {s.site.file: s.facts.get("launch", {}).get("request_max_tokens") for s in rep.sites}
    assert got == {"offline.py": 64, "server.py": None}
