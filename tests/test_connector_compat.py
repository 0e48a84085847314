"""L43 for a KV-cache connector package: vLLM's LMCacheConnectorV1 imports LMCache's adapter when the
engine builds the connector, so an LMCache release that imports a vLLM name the pinned vLLM lacks stops
the engine (knowledge/frameworks/vllm_imports.yaml, read from the LMCache wheels; compat.yaml for 0.3.8,
no longer on PyPI). Reported with the nearest pairs that load; nothing where the pair loads, where the
connector is not LMCache's, or where vLLM's own copy of the adapter is asked for (use_native)."""
from __future__ import annotations

from pathlib import Path

import yaml

from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb.versions import Version

ROOT = Path(__file__).resolve().parents[1]
CFG = '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}'


def _l43(write_project, pins: str, cfg: str = CFG):
    serve = f"vllm serve Qwen/Qwen3-8B --max-model-len 16384 --kv-transfer-config '{cfg}'\n"
    rep = audit(write_project({"serve.sh": serve, "requirements.txt": pins}), gpu="H100-80GB")
    (sr,) = rep.sites
    (r,) = [r for r in sr.results if r.check.id == "L43"]
    return (r.status, r.priority if r.status == "recommended" else None), sr.facts["launch"]


def test_the_table_reads_lmcache_adapters():
    data = yaml.safe_load((ROOT / "knowledge" / "frameworks" / "vllm_imports.yaml").read_text("utf-8"))
    rows = [r for r in data["rows"] if r["framework"] == "lmcache"]
    (old,) = [r for r in rows if r["releases"] == ">=0.3.6,<=0.3.7"]
    assert any(i["import"] == "vllm.utils.cdiv" and i["vllm"] == [">=0.4.1,<0.11.1"] for i in old["imports"])
    # from 0.3.9 the moved helpers are imported under try: nothing fails from vLLM 0.8.5 on
    later = [r for r in rows if Version(r["source"].split("==")[1]) >= Version("0.3.9")]
    assert later and all(not any(i["import"].startswith("vllm.utils.") for i in r["imports"]) for r in later)


def test_an_adapter_older_than_vllm_stops_the_engine(write_project):
    verdict, launch = _l43(write_project, "vllm==0.12.0\nlmcache==0.3.7\n")
    assert verdict == ("recommended", "P0")
    assert "cdiv" in launch["addon_problem_text"] and launch["addon_fit_vllm"] == "==0.11.0"
    assert launch["addon_fit_release"].lstrip(">=") in ("0.3.8", "0.3.9")


def test_the_release_pypi_lost_is_held_by_hand(write_project):
    verdict, launch = _l43(write_project, "vllm==0.11.0\nlmcache==0.3.8\n")
    assert verdict == ("recommended", "P0") and "torch_utils" in launch["addon_problem_text"]
    assert launch["addon_fit_release"] == ">=0.3.9"


def test_pairs_that_load_and_other_connectors_say_nothing(write_project):
    assert _l43(write_project, "vllm==0.15.0\nlmcache==0.3.9\n")[0][1] != "P0"
    assert _l43(write_project, "vllm==0.10.2\nlmcache==0.3.7\n")[0][1] != "P0"
    native = '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both","kv_connector_extra_config":{"use_native":true}}'
    assert _l43(write_project, "vllm==0.12.0\nlmcache==0.3.7\n", native)[0][1] != "P0"
    other = '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'
    assert _l43(write_project, "vllm==0.12.0\nlmcache==0.3.7\n", other)[0][1] != "P0"
    assert _l43(write_project, "vllm==0.12.0\nlmcache>=0.3.0\n")[0][1] != "P0"  # no release to judge
