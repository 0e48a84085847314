"""An engine of world size > 1 built in a Ray actor or task scheduled in a placement group runs on
Ray's executor inside that group (vLLM picks Ray when get_current_placement_group() is set), which
needs one GPU bundle of at most one GPU per worker (ray_utils: "The number of required GPUs exceeds
the total number of available GPUs in the placement group.")."""
import pytest

from vllm_kb.engine.audit import audit

_SRC = '''import ray
from ray.util.placement_group import placement_group
from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy
from vllm import LLM

pg = placement_group({bundles}, strategy="STRICT_PACK")


@ray.remote(num_gpus=1)
class Rollout:
    def __init__(self):
        self.llm = LLM(model="Qwen/Qwen2.5-7B-Instruct", tensor_parallel_size={tp}{backend})


actor = Rollout.options(scheduling_strategy=PlacementGroupSchedulingStrategy(placement_group=pg)).remote()
'''


def _l34(tmp_path, bundles: str, tp: int = 2, backend: str = "", version: str = "0.6.3"):
    (tmp_path / "requirements.txt").write_text(f"vllm=={version}\nray\n")
    (tmp_path / "rollout.py").write_text(_SRC.format(bundles=bundles, tp=tp, backend=backend))
    (sr,) = audit(tmp_path, gpu="A100-80GB x8").sites
    return next(r for r in sr.results if r.check.id == "L34")


@pytest.mark.parametrize("version", ["0.4.1", "0.6.3", "0.11.0", "0.34.0"])
def test_fewer_gpu_bundles_than_workers_is_a_p0(tmp_path, version):
    r = _l34(tmp_path, '[{"GPU": 1, "CPU": 4}]', version=version)
    assert (r.status, r.priority) == ("recommended", "P0")


def test_a_bundle_of_two_gpus_is_a_p0(tmp_path):
    r = _l34(tmp_path, '[{"GPU": 2, "CPU": 8}]')
    assert (r.status, r.priority) == ("recommended", "P0")


def test_one_gpu_bundle_per_worker_fits(tmp_path):
    assert _l34(tmp_path, '[{"GPU": 1, "CPU": 4}] * 2').priority != "P0"


def test_the_multiprocessing_backend_does_not_take_the_group(tmp_path):
    assert _l34(tmp_path, '[{"GPU": 1}]', backend=', distributed_executor_backend="mp"').priority != "P0"
