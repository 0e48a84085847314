"""A parallelism or memory argument that is written but cannot be read (`--tensor-parallel-size $TP`)
makes the checks that depend on it unknown; it is never replaced by vLLM's default. A value that
counts the GPUs (`$(nvidia-smi -L | wc -l)`) is the GPU count --gpu gives."""
import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.launchers import gpu_count_idiom


def _p0(sr) -> set[str]:
    return {r.check.id for r in sr.results if r.needs_change and r.priority == "P0"} | {f.id for f in sr.remarks if f.priority == "P0"}


def _status(sr, cid: str) -> str:
    return next(r.status for r in sr.results if r.check.id == cid)


@pytest.mark.parametrize("arg", ["$TP", "${TP}", "$(cat tp.txt)"])
def test_an_unreadable_tensor_parallel_size_is_no_tp_1_estimate(tmp_path, arg):
    # estimated at TP 1, Qwen2.5-72B's 135 GiB of weights "did not fit" an 80 GB GPU: a false P0
    (tmp_path / "run.sh").write_text(f"vllm serve Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size {arg}\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB x8").sites
    assert not _p0(sr)
    assert _status(sr, "L16") == "unknown" and _status(sr, "L1") == "unknown"


def test_an_unreadable_max_model_len_leaves_the_kv_capacity_unknown(tmp_path):
    (tmp_path / "run.sh").write_text("vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len $LEN --gpu-memory-utilization 0.3\n")
    (sr,) = audit(tmp_path, gpu="RTX-4090").sites
    assert _status(sr, "L15") == "unknown"


@pytest.mark.parametrize("line", [
    "NUM_GPUS=$(nvidia-smi -L | wc -l)\nvllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size $NUM_GPUS\n",
    "vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size $(nvidia-smi --list-gpus | wc -l)\n",
    "vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size $(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)\n",
    "vllm serve Qwen/Qwen2.5-7B-Instruct -tp $(python -c 'import torch; print(torch.cuda.device_count())')\n",
])
def test_a_gpu_count_idiom_is_sized_by_the_gpus_given(tmp_path, line):
    # Qwen2.5-7B has 28 attention heads: three GPUs cannot split them
    (tmp_path / "run.sh").write_text(line)
    (sr,) = audit(tmp_path, gpu="A100-80GB x3").sites
    assert "L1" in _p0(sr)
    (sr,) = audit(tmp_path, gpu="A100-80GB x4").sites
    assert "L1" not in _p0(sr) and _status(sr, "L1") == "enabled"


def test_gpu_count_idioms():
    assert gpu_count_idiom("$(nvidia-smi -L | wc -l)")
    assert gpu_count_idiom("$(echo $CUDA_VISIBLE_DEVICES | tr ',' '\\n' | wc -l)")
    assert gpu_count_idiom("$(echo $CUDA_VISIBLE_DEVICES | awk -F, '{print NF}')")
    assert not gpu_count_idiom("$(cat tp.txt)") and not gpu_count_idiom("$(nvidia-smi --query-gpu=memory.total --format=csv)")
    assert not gpu_count_idiom(None)
