"""J3's P0: a program that touches CUDA before it builds a TP/PP engine, on a release that forks its
workers and does not switch to spawn by itself (0.5.1–0.6.2): "Cannot re-initialize CUDA in forked
subprocess" (RL rollouts that load the policy on the GPU first)."""
import pytest

from vllm_kb.engine.audit import audit

_GUARDED = '''import torch
from vllm import LLM


def main():
    {before}
    llm = LLM(model="Qwen/Qwen2-7B-Instruct", tensor_parallel_size={tp})
    {after}


if __name__ == "__main__":
    main()
'''


def _j3(tmp_path, version: str, before: str, tp: int = 2, after: str = "pass", env: str = ""):
    (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
    (tmp_path / "rollout.py").write_text(env + _GUARDED.format(before=before, tp=tp, after=after))
    (sr,) = audit(tmp_path, gpu="A100-80GB x2").sites
    return next(r for r in sr.results if r.check.id == "J3")


@pytest.mark.parametrize("before", ["policy = torch.nn.Linear(8, 8).cuda()", "torch.cuda.set_device(0)",
                                    "x = torch.zeros(4, device='cuda')"])
def test_cuda_touched_first_in_the_same_function_forks_badly_before_063(tmp_path, before):
    r = _j3(tmp_path, "0.5.4", before)
    assert (r.status, r.priority) == ("recommended", "P0")


def test_from_063_vllm_switches_to_spawn_itself(tmp_path):
    assert _j3(tmp_path, "0.6.3", "policy = torch.nn.Linear(8, 8).cuda()").priority != "P0"


def test_cuda_after_the_engine_or_a_single_gpu_or_spawn_is_fine(tmp_path):
    assert _j3(tmp_path, "0.5.4", "pass", after="policy = torch.nn.Linear(8, 8).cuda()").priority != "P0"
    assert _j3(tmp_path, "0.5.4", "policy = torch.nn.Linear(8, 8).cuda()", tp=1).priority != "P0"
    spawn = 'import os\nos.environ["VLLM_WORKER_MULTIPROC_METHOD"] = "spawn"\n'
    assert _j3(tmp_path, "0.5.4", "policy = torch.nn.Linear(8, 8).cuda()", env=spawn).priority != "P0"


def test_cuda_in_another_function_is_not_taken_for_this_process_order(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.5.4\n")
    (tmp_path / "rollout.py").write_text(
        "import torch\nfrom vllm import LLM\n\n\ndef train():\n    torch.nn.Linear(8, 8).cuda()\n\n\n"
        "def rollout():\n    return LLM(model='Qwen/Qwen2-7B-Instruct', tensor_parallel_size=2)\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB x2").sites
    assert next(r for r in sr.results if r.check.id == "J3").priority != "P0"


@pytest.mark.parametrize("version", ["0.5.4", "0.6.3", "0.8.3"])
def test_a_cuda_probe_poisons_fork_where_vllm_does_not_see_it(tmp_path, version):
    # torch.cuda.is_available() registers torch's fork handler without initialising CUDA, so vLLM's
    # switch (torch.cuda.is_initialized()) does not fire until 0.8.4 sets the NVML check
    r = _j3(tmp_path, version, "print(torch.cuda.is_available())")
    assert (r.status, r.priority) == ("recommended", "P0")


def test_a_probe_is_harmless_from_084_and_an_init_from_063(tmp_path):
    assert _j3(tmp_path, "0.8.4", "print(torch.cuda.is_available())").priority != "P0"
    assert _j3(tmp_path, "0.6.3", "torch.cuda.is_available(); torch.cuda.set_device(0)").priority != "P0"


def test_transformers_cuda_helpers_count(tmp_path):
    before = "from transformers.utils import is_torch_cuda_available\n    is_torch_cuda_available()"
    assert _j3(tmp_path, "0.6.3", before).priority == "P0"


def test_an_engine_built_earlier_in_the_process_initialised_cuda(tmp_path):
    def second(version):
        (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
        (tmp_path / "rollout.py").write_text(_GUARDED.format(before="draft = LLM(model='Qwen/Qwen2-0.5B-Instruct')",
                                                             tp=2, after="pass"))
        sites = sorted(audit(tmp_path, gpu="A100-80GB x2").sites, key=lambda sr: sr.site.line)
        return next(r for r in sites[-1].results if r.check.id == "J3")
    r = second("0.5.3")
    assert (r.status, r.priority) == ("recommended", "P0")
    assert second("0.6.3").priority != "P0"


def test_a_module_that_uvicorn_imports_again_builds_its_engine_twice(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.5.3\n")
    (tmp_path / "serve.py").write_text(
        "from fastapi import FastAPI\nfrom vllm import LLM\n\nllm = LLM(model='Qwen/Qwen2-7B-Instruct', "
        "tensor_parallel_size=2)\napp = FastAPI()\n\nif __name__ == '__main__':\n    import uvicorn\n"
        "    uvicorn.run(app='serve:app', port=8000)\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB x2").sites
    assert next(r for r in sr.results if r.check.id == "J3").priority == "P0"
    (tmp_path / "serve.py").write_text((tmp_path / "serve.py").read_text().replace("'serve:app'", "app"))
    (sr,) = audit(tmp_path, gpu="A100-80GB x2").sites
    assert next(r for r in sr.results if r.check.id == "J3").priority != "P0"


def test_fastchat_vllm_worker_touches_cuda_before_its_engine(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.5.5\nfschat\n")
    (tmp_path / "run.sh").write_text("python3 -m fastchat.serve.vllm_worker --model-path lmsys/vicuna-7b-v1.5 "
                                     "--num-gpus {n}\n")
    for n, p0 in ((2, True), (1, False)):
        (tmp_path / "run.sh").write_text(f"python3 -m fastchat.serve.vllm_worker --model-path lmsys/vicuna-7b-v1.5 "
                                         f"--num-gpus {n}\n")
        (sr,) = audit(tmp_path, gpu="A100-80GB x2").sites
        assert (next(r for r in sr.results if r.check.id == "J3").priority == "P0") is p0


@pytest.mark.parametrize("version,p0", [("0.6.1", True), ("0.6.1.post1", False), ("0.6.0", False), ("0.6.2", False)])
@pytest.mark.parametrize("launch", ["python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2-7B-Instruct",
                                    "vllm serve Qwen/Qwen2-7B-Instruct"])
def test_061_probes_cuda_itself_for_every_entry_point(tmp_path, version, p0, launch):
    # 0.6.1 config.py:879 ParallelConfig calls torch.cuda.is_available() before the workers fork
    (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
    (tmp_path / "serve.sh").write_text(f"{launch} --tensor-parallel-size 2\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB x2").sites
    j3 = next(r for r in sr.results if r.check.id == "J3")
    assert (j3.status == "recommended" and j3.priority == "P0") == p0, j3.reason_text("en")
    if p0:
        assert [(op.target, v) for op, v in j3.fix] == [("VLLM_WORKER_MULTIPROC_METHOD", "spawn")]
