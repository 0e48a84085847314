"""knowledge/vllm/eplb_moe.yaml (tools/vllm_eplb_moe.py) and its reader: --enable-eplb with expert parallelism on
a mixture-of-experts class without vLLM's MixtureOfExperts interface dies in eplb_step's assert during the start-up
dummy run (vllm-project/vllm#40740: PhiMoEForCausalLM in 0.19.1) — L19 P0, the change is to drop --enable-eplb."""
from pathlib import Path

import yaml

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.startup_eplb import eplb_moe_facts

ROOT = Path(__file__).resolve().parents[1]
TABLE = yaml.safe_load((ROOT / "knowledge/vllm/eplb_moe.yaml").read_text(encoding="utf-8"))
MOE = {"moe": True}
ON = {"enable_eplb": True, "enable_expert_parallel": True}


def test_the_table_holds_what_the_sources_say():
    assert "0.9.2" in TABLE["releases"] and "0.19.1" in TABLE["releases"]
    for arch in ("PhiMoEForCausalLM", "Qwen2MoeForCausalLM"):
        assert eplb_moe_facts(MOE, arch, ON, TABLE, "0.19.1") == {"eplb_moe_missing": arch}
    # classes that implement it, and Mixtral, which gained it after 0.10.2
    assert eplb_moe_facts(MOE, "Qwen3MoeForCausalLM", ON, TABLE, "0.19.1") == {}
    assert eplb_moe_facts(MOE, "DeepseekV3ForCausalLM", ON, TABLE, "0.19.1") == {}
    assert eplb_moe_facts(MOE, "MixtralForCausalLM", ON, TABLE, "0.10.2") == {"eplb_moe_missing": "MixtralForCausalLM"}
    assert eplb_moe_facts(MOE, "MixtralForCausalLM", ON, TABLE, "0.19.1") == {}


def test_nothing_without_eplb_a_moe_model_or_a_release_of_the_table():
    assert eplb_moe_facts(MOE, "PhiMoEForCausalLM", {"enable_expert_parallel": True}, TABLE, "0.19.1") == {}
    assert eplb_moe_facts({"moe": False}, "PhiMoEForCausalLM", ON, TABLE, "0.19.1") == {}
    assert eplb_moe_facts(MOE, "PhiMoEForCausalLM", ON, TABLE, "0.9.1") == {}


def test_audit_gives_l19_and_drops_the_flag(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.19.1\n")
    (tmp_path / "serve.sh").write_text("vllm serve microsoft/Phi-mini-MoE-instruct --enable-expert-parallel "
                                       "--tensor-parallel-size 2 --enable-eplb\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB x2").sites
    r = next(r for r in sr.results if r.check.id == "L19")
    assert (r.status, r.priority) == ("recommended", "P0") and "PhiMoEForCausalLM" in r.reason_text("en")
    assert any(c.target == "enable_eplb" for c in sr.changes)
