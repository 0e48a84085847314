"""A driver judged against `vllm/vllm-openai:latest` (engine/check/startup_build.py): the tag may be any
release's image, so L29 speaks only where the driver stops every image the table knows — a 525 driver
(CUDA 12.0) under a GeForce card refuses all of them (CUDA 12.1 and later images: error 804), as in
vllm-project/vllm#4940 (`:latest` on 21 May 2024, RTX cards on 525; 550 fixed it). The v0.4.3 image
is the first on CUDA 12.4 (vllm-project/vllm#5283: error 804 on 535 where v0.4.2 starts)."""
from vllm_kb.engine.audit import audit


def _l29(tmp_path, tag: str, gpu: str):
    (tmp_path / "run.sh").write_text(f"#!/bin/sh\ndocker run --gpus all --ipc=host vllm/vllm-openai:{tag} "
                                     "--model Qwen/Qwen2-7B-Instruct --tensor-parallel-size 2\n")
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return next((r.priority for r in sr.results if r.needs_change and r.check.id == "L29"), None)


def test_a_driver_no_image_runs_on_is_a_p0_on_latest(tmp_path):
    assert _l29(tmp_path, "latest", "RTX 3090 x2, driver 525.147.05") == "P0"


def test_a_driver_some_images_run_on_says_nothing_on_latest(tmp_path):
    assert _l29(tmp_path, "latest", "RTX 3090 x2, driver 535.171.04") is None
    assert _l29(tmp_path, "latest", "A100-80GB x2, driver 525.147.05") is None


def test_the_v043_image_needs_cuda_124_on_a_geforce(tmp_path):
    assert _l29(tmp_path, "v0.4.3", "RTX 3090 x2, driver 535.171.04") == "P0"
    assert _l29(tmp_path, "v0.4.2", "RTX 3090 x2, driver 535.171.04") is None
