"""A V0-engine KV connector under the V1 engine (check L164): a launch pinned to a release, and a
production-stack chart whose lmcacheConfig renders the V0 connector for a dated LMCache image."""
from __future__ import annotations

VALUES = """servingEngineSpec:
  modelSpec:
  - name: opt
    repository: lmcache/vllm-openai
    tag: "{tag}"
    modelURL: facebook/opt-125m
    requestGPU: 1
    vllmConfig:
      maxModelLen: 2048{v1}
    lmcacheConfig:
      enabled: true
      cpuOffloadingBufferSize: "10"
"""
HELMFILE = "releases:\n- name: s\n  chart: vllm/vllm-stack\n  version: 0.1.2\n  values: [values.yaml]\n"


def _l164(site):
    return next(r for r in site["checks"] if r["id"] == "L164")


def test_pinned_release_runs_v1_and_refuses_the_v0_connector(write_project, json_site):
    serve = "vllm serve facebook/opt-125m --kv-transfer-config '{\"kv_connector\": \"PyNcclConnector\", \"kv_role\": \"kv_producer\"}'\n"
    root = write_project({"serve.sh": serve, "requirements.txt": "vllm==0.9.1\n"})
    got = _l164(json_site(root))
    assert got["status"] == "recommended" and got["priority"] == "P0"


def test_chart_lmcache_on_a_dated_build_after_084(tmp_path, write_project, json_site):
    # a build of main between 0.8.4 and 0.8.5 may already run the V1 connector factory: P1
    dated = write_project({"values.yaml": VALUES.format(tag="2025-04-20", v1=""), "helmfile.yaml": HELMFILE}, tmp_path / "a")
    got = _l164(json_site(dated, "A100-80GB"))
    assert got["status"] == "recommended" and got["priority"] == "P1"
    # vllmConfig.v1: 1 makes chart 0.1.2 render LMCacheConnectorV1
    v1 = write_project({"values.yaml": VALUES.format(tag="2025-04-20", v1="\n      v1: 1"), "helmfile.yaml": HELMFILE}, tmp_path / "b")
    assert _l164(json_site(v1, "A100-80GB"))["status"] == "not_applicable"
