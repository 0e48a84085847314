"""tools/vllm_startup_raises.py: which refusals it reads from a config module, the inputs it names,
and when a knowledge wording covers one (synthetic sources: the sdists are not needed)."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import vllm_startup_raises as vsr  # noqa: E402

SRC = '''
class ParallelConfig:
    def __post_init__(self):
        if self.enable_eplb and not self.enable_expert_parallel:
            raise ValueError("enable_expert_parallel must be True to use EPLB.")
        assert self.world_size > 0, f"world_size {self.world_size} must be positive here"
        msg = f"data_parallel_rank ({self.data_parallel_rank}) must be in the range"
        if self.data_parallel_rank >= self.data_parallel_size:
            raise ValueError(msg)
        def later():
            raise ValueError("a nested function runs later, not at construction")
        raise OSError("not one of the refusals read")
'''

PLATFORM_SRC = '''
class CpuPlatform:
    @classmethod
    def check_and_update_config(cls, vllm_config):
        if cache_config.enable_prefix_caching and cache_config.cache_dtype != "auto":
            raise RuntimeError("Chunked-prefill and prefix-cache on the CPU backend is not compatible with FP8 KV cache.")
    @classmethod
    def get_device_name(cls):
        raise RuntimeError("a platform's other methods run later, if ever")
'''


def test_raises_and_inputs():
    tree = ast.parse(SRC)
    f = tree.body[0].body[0]
    rows = vsr._raises(f)
    assert [(k, t) for _, k, t, _ in rows] == [
        ("ValueError", "enable_expert_parallel must be True to use EPLB."),
        ("assert", "world_size {} must be positive here"),
        ("ValueError", "data_parallel_rank ({}) must be in the range"),
    ]
    assert rows[0][3] == ["enable_eplb", "enable_expert_parallel"]
    assert rows[2][3] == ["data_parallel_rank", "data_parallel_size"]


def test_platform_refusals(tmp_path):
    """The CPU, XPU and TPU platforms' start-up checks are read too, RuntimeError included (the CPU
    build's refusals), and only from the functions that run while the configs are built."""
    (tmp_path / "vllm" / "platforms").mkdir(parents=True)
    (tmp_path / "vllm" / "platforms" / "cpu.py").write_text(PLATFORM_SRC)
    rows = vsr.release_raises(tmp_path)
    assert [(r["kind"], r["where"]) for r in rows] == [("RuntimeError", "CpuPlatform.check_and_update_config")]
    assert rows[0]["inputs"] == ["cache_config.cache_dtype", "cache_config.enable_prefix_caching"]


def test_coverage_matches_holes_both_ways():
    import re
    cov = [(re.compile(vsr.vet._literal_rx("Too large swap space. {} GiB", ".*?")), "Too large swap space. {} GiB", "B1"),
           (re.compile("(?!)"), "max_model_len must be a positive integer, got 0: 0. Example: max_model_len=2048", "B2")]
    assert vsr.covered_by("Too large swap space. {} GiB out of the {} GiB total", cov) == "B1"
    assert vsr.covered_by("max_model_len must be a positive integer, got {}: {}. Example: max_model_len=2048", cov) == "B2"
    assert vsr.covered_by("something else entirely, not quoted anywhere", cov) == ""


def test_committed_page_matches_the_knowledge():
    """docs/startup-raises.md as tests/data/startup_raises.json and today's error_text give it: a check
    that names a new wording must ship the page that shows it covered (no sdists needed)."""
    fresh = vsr.from_data()
    committed = (ROOT / "docs" / "startup-raises.md").read_text(encoding="utf-8")
    assert committed == fresh, "docs/startup-raises.md is stale: run python tools/vllm_startup_raises.py --from-data"


def test_data_rows_carry_no_coverage(tmp_path):
    """The JSON holds what the sources say, the page adds what the knowledge says (a row the knowledge
    names moves to the covered part)."""
    import json
    d = json.loads(vsr.DATA.read_text(encoding="utf-8"))
    assert d["releases"] == vsr.SPREAD and all("covered" not in r for r in d["rows"])
    row = {"kind": "ValueError", "text": "Unable to use nsight profiling unless workers run with Ray.",
           "releases": ["0.34.0"], "file": "vllm/config/parallel.py", "line": 1, "where": "ParallelConfig._verify_args",
           "inputs": []}
    p = tmp_path / "d.json"
    p.write_text(json.dumps({"releases": ["0.34.0"], "rows": [row]}))
    assert "| L180 |" in vsr.from_data(p)
