"""L70 launcher-distributed-world when the script joins the launcher's world in main() and builds
the engine inside a class or helper main() calls afterwards — the layout of evaluation harnesses
run under torchrun (one engine per rank, each TP 1): vLLM before 0.7.3 reuses the 8-rank world and
asserts that it equals TP × PP."""
import ast

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.python_process import CudaOrder

_RUN = '''import os

import torch.distributed as dist
from vllm import LLM


class Wrapper:
    def __init__(self):
        self.llm = LLM("Qwen/Qwen2-7B-Instruct")


def build():
    return Wrapper()


def main():
{join}    model = build()


if __name__ == "__main__":
    main()
'''
_JOIN = '    if int(os.environ.get("WORLD_SIZE", 1)) > 1:\n        dist.init_process_group("nccl")\n'


def _l70(tmp_path, join: str, vllm: str = "0.6.3.post1"):
    (tmp_path / "requirements.txt").write_text(f"vllm=={vllm}\n")
    (tmp_path / "run.py").write_text(_RUN.format(join=join))
    (tmp_path / "eval.sh").write_text("#!/bin/bash\ntorchrun --nproc-per-node=8 run.py\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB x8").sites
    return next(r for r in sr.results if r.check.id == "L70")


def test_world_joined_in_main_before_the_class_is_built(tmp_path):
    r = _l70(tmp_path, _JOIN)
    assert (r.status, r.priority) == ("recommended", "P0")


def test_without_the_join_the_engine_builds_its_own_world(tmp_path):
    assert _l70(tmp_path, "").priority != "P0"


def test_from_073_vllm_builds_its_groups_inside_the_world(tmp_path):
    assert _l70(tmp_path, _JOIN, vllm="0.7.3").priority != "P0"


def test_a_join_after_the_call_or_in_an_unrelated_function_does_not_count():
    src = _RUN.format(join="") + "\n\ndef other():\n    dist.init_process_group('nccl')\n    Unrelated()\n"
    tree = ast.parse(src)
    engine = next(n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "LLM")
    assert not CudaOrder(tree).dist_before(engine)
    after = _RUN.format(join="    pass\n").replace("    model = build()\n", "    model = build()\n" + _JOIN)
    tree = ast.parse(after)
    engine = next(n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "LLM")
    assert not CudaOrder(tree).dist_before(engine)
