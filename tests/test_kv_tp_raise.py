"""L15 (one max_model_len request does not fit the KV cache) offers a larger tensor-parallel size as
another way out where the process sees GPUs the engine leaves idle: the smallest TP above the site's
that splits the heads evenly, fits the visible GPUs and holds the request at the estimate
(memory.tp_raise). eval84's api-for-open-llm report (https://blog.gitcode.com/7b628c10cb42508483905f25ff5c7cec.html):
Qwen1.5-14B-Chat's 32,768 tokens at TP 1 on one of two 48 GB cards; the reporter's first fix was TP 2."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check import memory

MODEL = "Qwen/Qwen1.5-14B-Chat"


def _l15(write_project, files: dict[str, str], gpu: str):
    rep = audit(write_project({"requirements.txt": "vllm==0.4.0.post1\n", **files}), gpu=gpu)
    (sr,) = rep.sites
    (r,) = [r for r in sr.results if r.check.id == "L15"]
    alt = [c for c in sr.changes if c.blocked == "alternative"]
    return r, {(op.target, v, op.alternative) for op, v in r.fix}, alt


def test_two_visible_gpus_at_tp_1_offer_tp_2_beside_a_shorter_context(write_project):
    r, fixes, alt = _l15(write_project, {"serve.sh": f"vllm serve {MODEL} --tensor-parallel-size 1\n"}, "RTX-A6000 x2")
    assert r.priority == "P0"
    assert ("tensor_parallel_size", 2, True) in fixes and any(t == "max_model_len" and not a for t, _, a in fixes)
    assert [c.after for c in alt if c.target == "tensor_parallel_size"] == ["--tensor-parallel-size 2"]


def test_one_visible_gpu_has_no_tp_to_raise(write_project):
    r, fixes, _ = _l15(write_project, {"serve.sh": f"vllm serve {MODEL}\n"}, "RTX-A6000 x1")
    assert r.priority == "P0" and not any(t == "tensor_parallel_size" for t, _, _ in fixes)


def test_an_application_servers_env_file_says_its_own_variable(write_project):
    # api-for-open-llm reads TENSOR_PARALLEL_SIZE from its .env (knowledge/deploy/app_servers.yaml): the
    # alternative is said as that line, which the change there is held to (told, not written)
    env = f"ENGINE=vllm\nMODEL_PATH={MODEL}\nNUM_GPUs=2\nTENSOR_PARALLEL_SIZE=1\n"
    _, _, alt = _l15(write_project, {".env": env}, "RTX-A6000 x2")
    assert [(c.file, c.line, c.after) for c in alt if c.target == "tensor_parallel_size"] == [(".env", 4, "TENSOR_PARALLEL_SIZE=2")]


def test_a_tp_that_does_not_split_the_heads_is_not_offered():
    # 40 heads: from TP 2 on three GPUs the next size, 3, does not split them
    model = {"num_attention_heads": 40, "num_key_value_heads": 40, "params_b": 14.2}
    assert memory.tp_raise({"fits_max_model_len": False}, model, {"memory_gib": 48}, {"tensor_parallel_size": 2}, 3) is None
    assert memory.tp_raise({"fits_max_model_len": True}, model, {"memory_gib": 48}, {"tensor_parallel_size": 1}, 2) is None
