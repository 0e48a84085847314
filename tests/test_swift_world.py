"""ms-swift's torchrun world around its colocated rollout engine (check L70, ms-swift#3739). Before 3.5.0
swift colocates only when --num_infer_workers equals the GPU count (3.2.2 rlhf_args.py:204-224), as the
example the reporter followed passes it."""
from vllm_kb.engine.audit import audit

GRPO = """\
NPROC_PER_NODE={n} swift rlhf --rlhf_type grpo --model Qwen/Qwen2.5-7B-Instruct --dataset d.jsonl \\
    --use_vllm true --num_infer_workers {n} --tensor_parallel_size {tp} --output_dir out
"""


def _l70(tmp_path, n: int, tp: int, vllm: str):
    root = tmp_path / f"p{n}-{tp}-{vllm}"
    root.mkdir()
    (root / "grpo.sh").write_text(GRPO.format(n=n, tp=tp))
    (root / "requirements.txt").write_text(f"ms-swift==3.2.2\nvllm=={vllm}\n")
    rep = audit(root, gpu="A100-80GB x8")
    return [(r.status, r.priority) for sr in rep.sites for r in sr.results if r.check.id == "L70"]


def test_a_tensor_parallel_rollout_smaller_than_swifts_torchrun_world_stops_vllm_072(tmp_path):
    assert _l70(tmp_path, 8, 4, "0.7.2") == [("recommended", "P0")]
    assert all(s != "recommended" for s, _ in _l70(tmp_path, 4, 4, "0.7.2"))  # the world is TP x PP


def test_one_gpu_engines_and_073_are_left_alone(tmp_path):
    assert all(s != "recommended" for s, _ in _l70(tmp_path, 8, 1, "0.7.2"))
    assert all(s != "recommended" for s, _ in _l70(tmp_path, 8, 4, "0.7.3"))


def _l283(tmp_path, swift: str, env: str, workers: str = "", gpu: str = "A100-80GB x8"):
    root = tmp_path / f"q{len(list(tmp_path.iterdir()))}"
    root.mkdir()
    (root / "grpo.sh").write_text(f"{env} swift rlhf --rlhf_type grpo --model Qwen/Qwen2.5-7B-Instruct --dataset d.jsonl \\\n"
                                  f"    --use_vllm true {workers} --output_dir out\n")
    (root / "requirements.txt").write_text(f"ms-swift=={swift}\nvllm==0.8.5\n")
    rep = audit(root, gpu=gpu)
    return [(r.status, r.priority) for sr in rep.sites for r in sr.results if r.check.id == "L283"]


def test_swift_32_to_34_asserts_the_grpo_gpu_split(tmp_path):
    # 3.3.0 rlhf_args.py:210-232: the GPUs are the processes (colocate, num_infer_workers alike) or
    # the processes plus num_infer_workers (async); NPROC_PER_NODE=2 with the default one worker fails
    for cvd in ("0", "0,1", "0,1,2,3,4,5,6,7"):
        assert _l283(tmp_path, "3.3.0", f"CUDA_VISIBLE_DEVICES={cvd} NPROC_PER_NODE=2") == [("recommended", "P0")]
    assert _l283(tmp_path, "3.4.1", "NPROC_PER_NODE=2") == [("recommended", "P1")]  # only --gpu's machine


def test_splits_that_pass_and_releases_without_the_assertion_are_left_alone(tmp_path):
    fine = [("3.3.0", "CUDA_VISIBLE_DEVICES=0,1 NPROC_PER_NODE=2", "--num_infer_workers 2"),
            ("3.3.0", "CUDA_VISIBLE_DEVICES=0,1,2 NPROC_PER_NODE=2", ""),
            ("3.2.2", "CUDA_VISIBLE_DEVICES=0", ""),
            ("3.5.0", "CUDA_VISIBLE_DEVICES=0,1 NPROC_PER_NODE=2", ""),
            ("3.2.1", "CUDA_VISIBLE_DEVICES=0,1 NPROC_PER_NODE=2", "")]
    for swift, env, workers in fine:
        assert all(s != "recommended" for s, _ in _l283(tmp_path, swift, env, workers)), (swift, env, workers)
