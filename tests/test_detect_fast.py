"""`detect` without --all: the same answer as the exhaustive one, from the first decisive evidence,
reading only what it needs."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from vllm_kb.engine.advise.detect import detect, load_triggers
from vllm_kb.engine.advise.observations import Observation
from vllm_kb.engine.kb import cel

ROOT = Path(__file__).parent
PROJECTS = sorted((ROOT / "fixtures").iterdir()) + [ROOT.parent / "examples" / "quickstart"]


@pytest.mark.parametrize("project", PROJECTS, ids=[p.name for p in PROJECTS])
def test_first_evidence_answers_as_the_exhaustive_detection(project):
    fast, full = detect(project, exhaustive=False), detect(project, exhaustive=True)
    assert fast.used == full.used
    seen = {(e.trigger.id, e.obs.file, e.obs.line, e.obs.name) for e in full.evidence}
    assert {(e.trigger.id, e.obs.file, e.obs.line, e.obs.name) for e in fast.evidence} <= seen
    assert fast.complete == (not fast.used) and fast.observations <= full.observations


def test_no_trigger_fires_on_what_does_not_name_vllm():
    """Why files that never say vLLM are not read for observations: no trigger of the knowledge
    fires on an import, key or variable from such a file (a site is found by the scan either way)."""
    names = ["tensor_parallel_size", "gpu_memory_utilization", "max_model_len", "enforce_eager", "enable_prefix_caching",
             "enable_chunked_prefill", "sleep_level", "enable_sleep_mode", "sglang", "torch", "CUDA_VISIBLE_DEVICES",
             "model", "use_sglang"]
    triggers = load_triggers()
    for kind, name in itertools.product(("import", "key", "env"), names):
        ob = Observation(kind, name, "x.py", 1, name, vllm_context=False)
        fired = [t.id for t in triggers if t.when.evaluate(cel.Activation(ob.facts())).value is True]
        assert not fired, (kind, name, fired)


def test_it_stops_at_the_first_file_with_evidence(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.10.1\n")
    for i in range(50):
        (tmp_path / f"m{i}.py").write_text("import vllm\nfrom vllm import LLM\nLLM(model='m')\n")
    fast = detect(tmp_path, exhaustive=False)
    assert fast.used and not fast.complete and [e.trigger.id for e in fast.evidence] == ["T3"]
    assert fast.scan.sites == [] and fast.observations == 1
    full = detect(tmp_path, exhaustive=True)
    assert len(full.scan.sites) == 50 and full.complete
