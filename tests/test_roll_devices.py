"""ROLL's device_mapping read with ast (engine/scan/roll_devices.py): a vLLM role on GPUs no other role
names is no colocated engine (eval111: ROLL examples/qwen2.5-vl-7B-rlvr/rlvr_async.yaml:89/113, train 0-15,
infer 16-23, https://github.com/alibaba/ROLL/blob/8eb27cc2dc34c4d1310b169d9b86d339004d811a/examples/qwen2.5-vl-7B-rlvr/rlvr_async.yaml),
so H3's colocated gpu_memory_utilization 0.5 is not proposed there."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.roll_devices import apart, devices


@pytest.mark.parametrize("text,want", [
    ("list(range(0,16))", set(range(16))),
    ("list(range(16,24))", set(range(16, 24))),
    ("list(range(4))", {0, 1, 2, 3}),
    ('[6, 7]', {6, 7}),
    ("list([4,5,12,13])", {4, 5, 12, 13}),
    ("list(range(0,2))+list(range(14,16))", {0, 1, 14, 15}),
    ([0, 1], {0, 1}),
])
def test_device_mapping_read(text, want):
    assert devices(text) == frozenset(want)


@pytest.mark.parametrize("text", ["list(range(n))", "__import__('os').getpid()", "${actor_train.device_mapping}", "range(0, 8, 0)",
                                  "list(range(0, 10**9))", 3])
def test_device_mapping_unread(text):
    assert devices(text) is None


def test_apart_needs_every_mapping_read():
    assert apart({"actor_infer": "list(range(16,24))", "actor_train": "list(range(0,16))"}, "actor_infer")
    assert apart({"actor_infer": "list(range(8,16))", "actor_train": "list(range(0,16))"}, "actor_infer") is None
    assert apart({"actor_infer": "list(range(16,24))", "actor_train": "list(range(0,16))", "reference": "list(range(n))"},
                 "actor_infer") is None
    assert apart({"actor_infer": "list(range(0,8))"}, "actor_infer") is None  # no other role: nothing says so


_CONFIG = """pretrain: Qwen/Qwen2.5-7B-Instruct
actor_train:
  strategy_args:
    strategy_name: megatron_train
  device_mapping: {train}
actor_infer:
  strategy_args:
    strategy_name: vllm
    strategy_config:
      gpu_memory_utilization: 0.8
  device_mapping: {infer}
reference:
  strategy_args:
    strategy_name: megatron_infer
  device_mapping: {train}
"""


def _site(tmp_path, train, infer):
    (tmp_path / "rlvr.yaml").write_text(_CONFIG.format(train=train, infer=infer))
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    return sr


def test_disjoint_roles_are_not_colocated(tmp_path):
    sr = _site(tmp_path, "list(range(0,4))", "list(range(4,8))")
    assert sr.site.mode == "rlhf_server" and "GPUs 4-7" in sr.site.mode_evidence
    assert next(r for r in sr.results if r.check.id == "H3").status != "recommended"


def test_shared_gpus_stay_colocated(tmp_path):
    sr = _site(tmp_path, "list(range(0,8))", "list(range(0,8))")
    assert sr.site.mode == "rlhf_colocate"
    assert next(r for r in sr.results if r.check.id == "H3").status == "recommended"
