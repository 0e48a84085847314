"""`--fix` settles in one run when two checks want one setting, and leaves a size the script
reads from the machine (`$(nvidia-smi -L | wc -l)`) as it is, saying the value instead."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.fix import apply


def _fix(tmp_path, gpu):
    res = apply.run(lambda overlay: audit(tmp_path, gpu=gpu, overlay=overlay), unsafe=True)
    for rel, text in res.texts.items():
        (tmp_path / rel).write_text(text)
    return res


def test_a_check_that_loses_one_setting_proposes_none_of_its_changes(tmp_path):
    # L1 (P0) wants TP 2 for 28 heads on three GPUs; C5 (P2) wants TP 1 with DP 3. Written in the
    # same pass, C5's DP 3 beside L1's TP 2 asked for six GPUs (an L34 P0): it waits, whole
    (tmp_path / "run.sh").write_text("vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 3\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB x3").sites
    assert not any(ch.target == "data_parallel_size" for ch in sr.changes)
    res = _fix(tmp_path, "A100-80GB x3")
    assert not res.refused
    text = (tmp_path / "run.sh").read_text()
    assert "--tensor-parallel-size 1" in text and "--data-parallel-size 3" in text
    (sr,) = audit(tmp_path, gpu="A100-80GB x3").sites
    assert not {"tensor_parallel_size", "data_parallel_size"} & {ch.target for ch in sr.changes}


def test_a_gpu_count_idiom_is_not_overwritten_with_a_literal(tmp_path):
    (tmp_path / "run.sh").write_text("vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size $(nvidia-smi -L | wc -l)\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB x3").sites
    (tp,) = [ch for ch in sr.changes if ch.target == "tensor_parallel_size"]
    assert tp.blocked == "device_count" and tp.value == 2 and tp.after is None
    _fix(tmp_path, "A100-80GB x3")
    assert "--tensor-parallel-size $(nvidia-smi -L | wc -l)" in (tmp_path / "run.sh").read_text()
