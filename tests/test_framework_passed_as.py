"""A framework key a release renames before vLLM sees it (knowledge/frameworks/<id>.yaml › keys › passed_as).
verl's `actor_rollout_ref.rollout.cudagraph_capture_sizes` is never vLLM's own cudagraph_capture_sizes
(0.11.1+): 0.6.x's async server and 0.7.0 … 0.8.0 pass it as cuda_graph_sizes (vLLM 0.9.0 … 0.12.0),
0.6.x's sync LLM() and 0.9.0+ as compilation_config's cudagraph_capture_sizes. hicann/cann-recipes-train
(eval85) had five false P0s from the key read as vLLM's cudagraph_capture_sizes at vLLM 0.11.0."""
from __future__ import annotations

import pytest

SCRIPT = """\
python3 -m verl.trainer.main_ppo \\
    actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.rollout.tensor_model_parallel_size=2 \\
    actor_rollout_ref.rollout.cudagraph_capture_sizes="[8,16,32]" {extra}
"""


def _site(json_site, write_project, pins: str, extra: str = ""):
    root = write_project({"run.sh": SCRIPT.format(extra=extra), "requirements.txt": pins})
    site = json_site(root, "H100-80GB x8")
    return site, {s["name"]: s["value"] for s in site["settings"]}


def _p0(site) -> set[str]:
    return {r["check"] for r in site["recommendations"] if r["priority"] == "P0"}


@pytest.mark.parametrize("pins, extra, want", [
    ("vllm==0.11.0\n", "", ("compilation_config", {"cudagraph_capture_sizes": [8, 16, 32]})),  # unknown verl: newest
    ("vllm==0.11.0\nverl==0.9.1\n", "", ("compilation_config", {"cudagraph_capture_sizes": [8, 16, 32]})),
    ("vllm==0.11.0\nverl==0.7.0\n", "", ("cuda_graph_sizes", [8, 16, 32])),
    ("vllm==0.10.1\nverl==0.6.1\n", "", ("compilation_config", {"cudagraph_capture_sizes": [8, 16, 32]})),  # sync LLM()
    ("vllm==0.10.1\nverl==0.6.1\n", "actor_rollout_ref.rollout.mode=async", ("cuda_graph_sizes", [8, 16, 32])),
])
def test_the_key_reaches_vllm_as_the_release_passes_it(json_site, write_project, pins, extra, want):
    site, settings = _site(json_site, write_project, pins, extra)
    arg, value = want
    assert settings.get(arg) == value
    assert "cudagraph_capture_sizes" not in settings
    assert not {c for c in _p0(site) if c.startswith("not-in-version")}


def test_a_release_without_the_key_hands_it_to_nobody(json_site, write_project):
    # verl 0.4.1's Hydra config has no such key: Hydra refuses the override, vLLM never sees it
    site, settings = _site(json_site, write_project, "vllm==0.8.5\nverl==0.4.1\n")
    assert "cuda_graph_sizes" not in settings and "compilation_config" not in settings
    assert _p0(site) == {"framework-key-not-in-release:actor_rollout_ref.rollout.cudagraph_capture_sizes"}


def test_cuda_graph_sizes_past_its_last_vllm_is_refused_and_named(json_site, write_project):
    # verl 0.7.0 writes --cuda-graph-sizes, which vLLM 0.13.0 no longer has (0.12.0 arg_utils.py:1094 says so)
    site, _ = _site(json_site, write_project, "vllm==0.13.0\nverl==0.7.0\n")
    assert "not-in-version:cuda_graph_sizes" in _p0(site)
    (rec,) = [r for r in site["recommendations"] if r["check"] == "not-in-version:cuda_graph_sizes"]
    assert "hands it to vLLM as `cuda_graph_sizes`" in rec["title"]


LIMIT = """\
python3 -m verl.trainer.main_ppo \\
    actor_rollout_ref.model.path=Qwen/Qwen2.5-VL-7B-Instruct \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.rollout.limit_images={n} {extra}
"""


@pytest.mark.parametrize("pins, n, extra, want", [
    # verl 0.4.0+ hands a truthy limit_images on as limit_mm_per_prompt={"image": N} (0.4.0 vllm_rollout_spmd.py:138,
    # 0.9.1 vllm_async_server.py:289)
    ("vllm==0.10.2\nverl==0.6.1\n", "4", "", {"image": 4}),
    ("vllm==0.10.2\n", "2", "", {"image": 2}),  # an unknown verl: the newest release's
    ("vllm==0.8.5\nverl==0.4.1\n", "3", "", {"image": 3}),  # the sync LLM()
    ("vllm==0.8.5\nverl==0.4.1\n", "3", "actor_rollout_ref.rollout.mode=async", None),  # 0.4-0.5's async server drops it
    ("vllm==0.10.2\nverl==0.6.1\n", "null", "", None),  # null or 0: nothing is passed
    ("vllm==0.10.2\nverl==0.6.1\n", "0", "", None),
    ("vllm==0.8.5\nverl==0.3.0.post1\n", "3", "", None),  # before 0.4.0 verl has no such key
])
def test_limit_images_reaches_vllm_as_limit_mm_per_prompt(json_site, write_project, pins, n, extra, want):
    root = write_project({"run.sh": LIMIT.format(n=n, extra=extra), "requirements.txt": pins})
    settings = {s["name"]: s["value"] for s in json_site(root, "H100-80GB x8")["settings"]}
    assert settings.get("limit_mm_per_prompt") == want
    assert "limit_images" not in settings
