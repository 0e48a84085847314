"""Engines that share a GPU only when the project shows they run together: a backgrounded shell
command before the other, services of one compose file, LLM() engines of one process — never two
scripts that are alternatives."""
from __future__ import annotations

from vllm_kb.engine.audit import audit


def _shared(tmp_path, files, version="0.9.2"):
    (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    rep = audit(tmp_path, gpu="H100-80GB x1")
    return {sr.site.id: (sr.facts["launch"].get("gpu_shared_util"),
                         next(r for r in sr.results if r.check.id == "L37").priority) for sr in rep.sites}


def test_a_backgrounded_server_and_the_next_share_gpu_0(tmp_path):
    got = _shared(tmp_path, {"run.sh": "vllm serve a/b &\nvllm serve c/d --gpu-memory-utilization 0.5\n"})
    assert got == {"run.sh:1": (1.4, "P0"), "run.sh:2": (1.4, "P0")}


def test_sequential_commands_separate_scripts_and_other_gpus_do_not(tmp_path):
    got = _shared(tmp_path, {"run.sh": "vllm serve a/b\nvllm serve c/d\n",
                             "other.sh": "CUDA_VISIBLE_DEVICES=1 vllm serve e/f &\nCUDA_VISIBLE_DEVICES=0 vllm serve g/h\n"})
    assert all(v == (None, None) for v in got.values())


def test_fractions_that_fit_pass(tmp_path):
    got = _shared(tmp_path, {"run.sh": "vllm serve a/b --gpu-memory-utilization 0.45 &\n"
                                       "vllm serve c/d --gpu-memory-utilization 0.45\n"})
    assert got["run.sh:1"] == (0.9, None)
