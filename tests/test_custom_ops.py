"""L190: a compilation_config custom_ops entry that is not 'all', 'none', '+op' or '-op' (vLLM 0.11.0+
CompilationConfig.__post_init__), judged from the entries as a Python fact (startup.custom_ops_bad)."""
import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.startup_facts import custom_ops_facts


@pytest.mark.parametrize("ops,bad", [(["none", "rms_norm"], ["rms_norm"]), (["all", "+rms_norm", "-silu_and_mul"], None),
                                     (["+"], ["+"]), ("rms_norm", None), ([1], None)])
def test_the_entries_vllm_refuses(ops, bad):
    assert custom_ops_facts({"compilation_config": {"custom_ops": ops}}).get("custom_ops_bad") == bad


@pytest.mark.parametrize("vllm,ops,p0", [("0.20.0", '["none", "rms_norm"]', True), ("0.20.0", '["none", "+rms_norm"]', False),
                                         ("0.10.2", '["rms_norm"]', False)])
def test_a_serve_line(tmp_path, vllm, ops, p0):
    (tmp_path / "requirements.txt").write_text(f"vllm=={vllm}\n")
    (tmp_path / "serve.sh").write_text(f"vllm serve Qwen/Qwen2.5-7B-Instruct --compilation-config '{{\"custom_ops\": {ops}}}'\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    r = next(x for x in sr.results if x.check.id == "L190")
    assert (r.status == "recommended" and r.priority == "P0") is p0
