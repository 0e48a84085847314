"""Every site of every fixture project, against the ground truth in tests/data/expected_sites.yaml
(written from the frameworks' sources and real scripts, not from this scanner's output): the site's
anchor line, mode, framework and syntax, the vLLM version it is judged against, its model, each
engine argument with its value, line, spelling and file, its environment, what the framework
release ignores, what cannot be known statically, and the server/client link. `detect` must say
yes on every project that uses vLLM and no on the negatives."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from vllm_kb.engine.advise.detect import detect
from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import frameworks

DATA = Path(__file__).parent / "data" / "expected_sites.yaml"
FIXTURES = Path(__file__).parent / "fixtures"
PROJECTS = yaml.safe_load(DATA.read_text(encoding="utf-8"))["projects"]
EXPECTED = [(p["project"], s) for p in PROJECTS for s in p.get("sites") or []]


@pytest.fixture(scope="module")
def audits():
    cache = {}

    def get(project):
        if project not in cache:
            rep = audit(FIXTURES / project, gpu="none")
            cache[project] = {r.site.id: r for r in rep.sites}
        return cache[project]
    return get


def _same(a, b) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
        return float(a) == float(b)
    return a == b


@pytest.mark.parametrize("project", [p["project"] for p in PROJECTS])
def test_every_site_and_nothing_else(project, audits):
    want = {s["id"] for p in PROJECTS if p["project"] == project for s in p.get("sites") or []}
    assert set(audits(project)) == want


@pytest.mark.parametrize("project,want", EXPECTED, ids=[f"{p}:{s['id']}" for p, s in EXPECTED])
def test_site(project, want, audits):
    r = audits(project)[want["id"]]
    s = r.site
    assert (s.mode, s.framework, s.syntax) == (want["mode"], want["framework"], want["syntax"])
    if "framework_version" in want:
        assert s.framework_version == want["framework_version"]
    if "config_file" in want:
        assert s.config_file == want["config_file"]
    if "vllm_version" in want:
        assert want["vllm_version"] in (r.version.version, r.lookup_version)
    if want.get("model"):
        m = want["model"]
        assert s.model is not None and (s.model.value, s.model.line) == (m["value"], m["line"])
        assert (s.model.file or s.file) == m.get("file", s.file)
    engine = want.get("engine") or {}
    assert set(s.settings) - {"model"} == set(engine)
    for name, e in engine.items():
        got = s.settings[name]
        where = f"{name} ({e.get('key')})"
        assert got.line == e["line"], where
        assert (got.file or s.file) == e.get("file", s.file), where
        if e.get("resolved", True):
            assert got.resolved and _same(got.value, e["value"]), where
        else:
            assert not got.resolved, where
        assert got.implied == bool(e.get("implied")), where
        # items of a list of flags (production-stack extraArgs) keep the flag they are written as
        if not e.get("implied") and e.get("key") and e["key"] != "extraArgs":
            assert got.key.lstrip("-+") == e["key"].lstrip("-+") or got.key.endswith(e["key"].lstrip("-+")), where
    for name, e in (want.get("env") or {}).items():
        got = s.env.get(name)
        assert got is not None and str(got.value) == str(e["value"]) and got.line == e["line"], name
    if s.framework != "none":
        fw = frameworks.get(s.framework)
        for key, e in (want.get("framework_settings") or {}).items():
            canonical = fw.key(key).key if fw.key(key) else key
            assert _same(s.framework_keys.get(canonical), e["value"]), key
        assert {fw.key(u["key"]).key for u in want.get("unmapped") or []} == set(s.unmapped)
    assert {(o["what"], o["line"]) for o in want.get("opaque") or []} == \
        {(o["what"], int(o["where"].rsplit(":", 1)[1])) for o in s.opaque}
    assert s.peer == want.get("peer")


@pytest.mark.parametrize("project", PROJECTS, ids=[p["project"] for p in PROJECTS])
def test_detect(project):
    det = detect(FIXTURES / project["project"])
    assert det.used is project["detect"], [(e.trigger.id, e.obs.file, e.obs.line, e.obs.what) for e in det.evidence]
    if det.used:
        # every site is itself evidence, at its own line
        ids = {f"{e.obs.file}:{e.obs.line}" for e in det.evidence if e.obs.kind == "site"}
        assert ids == {s["id"] for s in project.get("sites") or []}


def test_detect_ignores_mentions_and_lookalikes():
    det = detect(FIXTURES / "neg-mentions")
    assert not det.used and det.observations > 0  # it read the files; nothing there counts


@pytest.mark.parametrize("project,site_id,gpus", [
    ("deploy-compose", "docker-compose.yml:16", 2),      # device_ids: ["0", "1"]
    ("deploy-k8s", "manifests/qwen3-32b.yaml:21", 2),    # resources.limits nvidia.com/gpu
    ("deploy-helm", "production-stack/values.yaml:25", 2),  # requestGPU
    ("deploy-helm", "vllm-chart/values.yaml:5", 1),      # chart resources
])
def test_a_container_counts_the_gpus_its_manifest_asks_for(project, site_id, gpus):
    rep = audit(FIXTURES / project, gpu="H100-80GB x8")
    r = next(r for r in rep.sites if r.site.id == site_id)
    assert r.site.gpu_request == gpus and r.facts["gpu"]["count"] == gpus


def test_pip_holds_a_pair_only_to_metadata_it_reads():
    from vllm_kb.engine.kb import compat

    # `extra == 'vllm'` in single quotes (verl 0.4.0's METADATA) binds only with the extra named
    assert compat.installs_beside("verl", "0.4.0", "0.9.0", set())
    assert not compat.installs_beside("verl", "0.4.0", "0.9.0", {"vllm"})
    # verl 0.2 requires vllm<=0.6.3 outright
    assert not compat.installs_beside("verl", "0.2", "0.7.0", set())
    # ms-swift 3.2.2's range is a README table and the wheel has no vllm extra: pip reads nothing
    assert compat.installs_beside("ms-swift", "3.2.2", "0.8.5", {"vllm"})
    # NeMo-RL's pyproject optional-dependencies, EasyR1's setup.py install_requires
    assert not compat.installs_beside("nemo-rl", "0.4.0", "0.9.0", {"vllm"})
    assert compat.installs_beside("nemo-rl", "0.4.0", "0.9.0", set())
    assert not compat.installs_beside("easyr1", "0.3.0", "0.7.0", set())
