"""The CUDA-graph term of 0.20+ by mode and graph count (engine/check/memory/graphs.py), checked
against the graph counts and the "Estimated CUDA graph memory" lines vLLM's public logs print
(docs/estimator.md, CUDA graphs)."""
from __future__ import annotations

import pytest
from vllm_kb.engine.check import memory
from vllm_kb.engine.check.memory import graphs
from vllm_kb.engine.check.memory.runtime import expand_json_human
from vllm_kb.engine.kb import hardware, knowledge, models

KB = knowledge.load()
MARKERS = KB.doc("models.yaml").data["quantized_markers"]
MTP3 = {"method": "mtp", "num_speculative_tokens": 3}


def facts(name: str) -> dict:
    return models.model_facts(name, KB.models, MARKERS)


def gpu(spec: str) -> dict:
    return hardware.parse_spec(spec, KB.gpus).gpu


def plan(engine: dict, card: str, version: str) -> tuple[str, tuple[int, int]]:
    g = gpu(card)
    rt = memory.runtime(version, {}, g.get("compute_capability"))
    k = graphs.speculative(engine)[1]
    mode = graphs.cudagraph_mode(engine, g, k)
    return mode, graphs.graph_counts(engine, g, rt, k, mode)


@pytest.mark.parametrize("engine,card,version,expected", [
    # club-3090 #104 (Qwen3.6-27B, two 3090s, fp8_e5m2 KV, MTP 3, 2 sequences): "FULL_AND_PIECEWISE is not
    # supported with spec-decode for attention backend FlashInferBackend ...; setting cudagraph_mode=PIECEWISE",
    # "PIECEWISE=5 (largest=16)"
    ({"max_num_seqs": 2, "kv_cache_dtype": "fp8_e5m2", "speculative_config": MTP3}, "RTX-3090", "0.24.0",
     ("PIECEWISE", (5, 0))),
    # club-3090 PR 44 (four 3090s, 4 sequences): "PIECEWISE=7 (largest=32)"
    ({"max_num_seqs": 4, "kv_cache_dtype": "fp8", "speculative_config": MTP3}, "RTX-3090", "0.24.0",
     ("PIECEWISE", (7, 0))),
    # vLLM #39610 (MiniMax-M2.7 FP8, four A100s, 128 sequences): "PIECEWISE=35 (largest=256), FULL=19 (largest=128)"
    ({"max_num_seqs": 128}, "A100-80GB", "0.20.0", ("FULL_AND_PIECEWISE", (35, 19))),
    # LMCache #3430 (Qwen3-8B, 256 sequences): "PIECEWISE=51 (largest=512), FULL=35 (largest=256)"
    ({"max_num_seqs": 256}, "RTX-4090", "0.24.0", ("FULL_AND_PIECEWISE", (51, 35))),
    # FlashAttention takes an fp8 KV cache on Hopper (FA3), so the FULL decode graphs stay
    ({"max_num_seqs": 2, "kv_cache_dtype": "fp8", "speculative_config": MTP3}, "H100", "0.24.0",
     ("FULL_AND_PIECEWISE", (5, 2))),
    # a 16-bit KV cache runs FlashAttention on Ampere too
    ({"max_num_seqs": 2, "speculative_config": MTP3}, "RTX-3090", "0.24.0", ("FULL_AND_PIECEWISE", (5, 2))),
    # 0.28+: 1024 in place of 512 on data-centre Blackwell
    ({"max_num_seqs": 1024}, "B200", "0.28.0", ("FULL_AND_PIECEWISE", (83, 83))),
    ({"max_num_seqs": 1024}, "B200", "0.27.0", ("FULL_AND_PIECEWISE", (51, 51))),
    # the site's own sizes win
    ({"max_num_seqs": 16, "compilation_config": {"cudagraph_capture_sizes": list(range(1, 17))}}, "RTX-3090", "0.27.0",
     ("FULL_AND_PIECEWISE", (16, 16))),
    ({"compilation_config": {"cudagraph_mode": "NONE"}}, "H100", "0.24.0", ("NONE", (0, 0))),
])
def test_graph_counts_follow_the_release(engine, card, version, expected):
    assert plan(engine, card, version) == expected


@pytest.mark.parametrize("name,engine,card,version,logged,tol", [
    # PIECEWISE-only with an MTP draft: club-3090 #104 (TP 2), PR 44 (TP 4), gpustack/runner PR 251 (16 graphs)
    ("Qwen/Qwen3.6-27B", {"max_num_seqs": 2, "kv_cache_dtype": "fp8", "speculative_config": MTP3,
                          "tensor_parallel_size": 2}, "RTX-3090", "0.24.0", 0.13, 0.02),
    ("Qwen/Qwen3.6-27B", {"max_num_seqs": 4, "kv_cache_dtype": "fp8", "speculative_config": MTP3,
                          "tensor_parallel_size": 4}, "RTX-3090", "0.24.0", 0.17, 0.02),
    ("Qwen/Qwen3.6-27B", {"max_num_seqs": 6, "kv_cache_dtype": "fp8", "speculative_config": MTP3,
                          "compilation_config": {"cudagraph_capture_sizes": list(range(1, 17))}},
     "RTX-3090", "0.27.0", 0.36, 0.03),
    # FULL_AND_PIECEWISE, dense, 51 + 35 (LMCache #3430)
    ("Qwen/Qwen3-8B", {"max_num_seqs": 256}, "RTX-4090", "0.24.0", 0.52, 0.02),
    # MoE at 1 + 1 graphs: no per-graph share (est4's Qwen3.6-35B-A3B logs, 0.36-0.47)
    ("Qwen/Qwen3.6-35B-A3B", {"max_num_seqs": 1, "compilation_config": {"cudagraph_capture_sizes": [1]}},
     "RTX-5090", "0.24.0", 0.47, 0.1),
])
def test_modelled_term_against_logged_graph_estimates(name, engine, card, version, logged, tol):
    g = gpu(card)
    rt = memory.runtime(version, {}, g.get("compute_capability"))
    assert graphs.modelled_gib(facts(name), engine, 1, rt, g) == pytest.approx(logged, abs=tol)


def test_estimate_takes_the_modelled_term():
    """The PIECEWISE downgrade under speculative decoding on FlashInfer: 5 graphs over 64 + 1 layers
    (club-3090 #104 logs 0.13 GiB), not the FULL term's 0.3 + 0.006 x 64."""
    m = facts("Qwen/Qwen3.6-27B")
    engine = {"max_model_len": 32768, "max_num_seqs": 2, "kv_cache_dtype": "fp8", "speculative_config": MTP3}
    e = memory.estimate(m, gpu("RTX-3090 x2"), dict(engine, tensor_parallel_size=2), vllm_version="0.24.0")
    assert e["cudagraph_gib"] == pytest.approx(5 * 65 * 0.37 / 1024, abs=0.01)
    full = memory.estimate(m, gpu("RTX-3090 x2"), dict(engine, tensor_parallel_size=2, kv_cache_dtype="auto"),
                           vllm_version="0.24.0")
    assert full["cudagraph_gib"] == pytest.approx(0.3 + 0.006 * 64, abs=0.01)


def test_cudagraph_mode_none_profiles_no_graphs():
    """gpu_worker.py determine_available_memory profiles the graphs only when cudagraph_mode is not NONE."""
    llama = facts("meta-llama/Llama-3.1-8B-Instruct")
    at = lambda comp: memory.estimate(llama, gpu("H100"), {"max_model_len": 8192, "max_num_seqs": 256,
                                      "compilation_config": comp}, vllm_version="0.24.0")["cudagraph_gib"]
    assert at({"cudagraph_mode": "NONE"}) == 0.0
    assert at('{"cudagraph_mode": "NONE"}') == 0.0
    assert at({"cudagraph_mode": "PIECEWISE"}) == pytest.approx(51 * 32 * 0.37 / 1024, abs=0.01)  # 51 sizes at 256 sequences


def test_a_named_flashinfer_backend_adds_its_workspace_to_the_graph_term():
    # flashinfer.py _get_workspace_buffer: built on the first FULL capture of profile_cudagraph_memory
    # (vLLM #55509: FLASHINFER forced refuses the length the default backend starts with)
    model = facts("Qwen/Qwen3-8B")
    g = gpu("RTX-5060-Ti-16GB x2")
    rt = memory.runtime("0.28.0", {}, g.get("compute_capability"))
    base = {"max_num_seqs": 32, "max_num_batched_tokens": 4096, "tensor_parallel_size": 2}
    plain = graphs.cudagraph_bytes(model, base, 1, rt, g)
    named = graphs.cudagraph_bytes(model, dict(base, attention_backend="FLASHINFER"), 1, rt, g)
    assert named - plain == 394 * 1024 * 1024
    wide = dict(base, attention_backend="FLASHINFER", max_num_batched_tokens=65536)
    assert graphs.flashinfer_workspace_bytes(model, wide, rt, g) == 65536 * 16 * 128 * 16  # 32 heads / TP 2
    old = memory.runtime("0.19.0", {}, g.get("compute_capability"))
    assert graphs.flashinfer_workspace_bytes(model, dict(base, attention_backend="FLASHINFER"), old, g) == 0.0
    eager = dict(base, attention_backend="FLASHINFER", enforce_eager=True)
    assert graphs.flashinfer_workspace_bytes(model, eager, rt, g) == 0.0
    piecewise = dict(base, attention_backend="FLASHINFER", compilation_config={"cudagraph_mode": "PIECEWISE"})
    assert graphs.flashinfer_workspace_bytes(model, piecewise, rt, g) == 0.0


@pytest.mark.parametrize("comp", ["{'cudagraph_mode': 'PIECEWISE'}", "CompilationConfig(cudagraph_mode=CUDAGraphMode.PIECEWISE)",
                                  {"cudagraph_mode": "CUDAGraphMode.PIECEWISE"}])
def test_a_mode_written_other_than_as_json_is_still_read(comp):
    # review6: a compilation config that is not JSON was read as no config (FULL_AND_PIECEWISE), where
    # L110's Mamba-block refusal had read PIECEWISE in its text: a refusal vLLM does not make
    assert graphs.cudagraph_mode({"compilation_config": comp}, gpu("H100"), 0) == "PIECEWISE"



@pytest.mark.parametrize("engine,largest", [
    # vLLM's human-readable integers (argparse_utils human_readable_int) are read with the project's one parser,
    # memory.human_int: "0.2k" batched tokens cap the capture sizes at 200 instead of falling to the 8,192 default
    ({"max_num_batched_tokens": "0.2k", "max_num_seqs": 512}, 200),
    ({"max_num_batched_tokens": "8_192", "max_num_seqs": 2}, 4),
    # 0.20+ expand bare tokens in a JSON config before parsing it (arg_utils _expand_json_human_readable_numbers),
    # never inside a quoted string
    ({"max_num_seqs": 512, "compilation_config": '{"max_cudagraph_capture_size": 1k, "mode": "x1k"}'}, 992),
    ({"max_num_seqs": 512, "compilation_config": {"max_cudagraph_capture_size": "1K"}}, 1024),
])
def test_human_readable_integers_reach_the_graph_sizes(engine, largest):
    g = gpu("H100")
    rt = memory.runtime("0.29.0", {}, g.get("compute_capability"))
    assert graphs.capture_sizes(engine, g, rt, 0)[-1] == largest
    assert expand_json_human('{"a": 2k, "b": "2k"}') == '{"a": 2000, "b": "2k"}'
