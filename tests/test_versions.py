import re

import pytest
from vllm_kb.engine.kb.versions import (
    InvalidSpecifier,
    SpecifierSet,
    Version,
    newest_matching,
)


@pytest.mark.parametrize("spec,yes,no", [
    ("==0.6.3", ["0.6.3", "0.6.3.post1"], ["0.6.4", "0.6.30"]),
    (">=0.8,<0.9", ["0.8.0", "0.8.5"], ["0.9.0", "0.7.3"]),
    ("~=0.8.0", ["0.8.5"], ["0.9.0"]),
    ("^0.6.3", ["0.6.9"], ["0.7.0"]),
    ("~0.6", ["0.6.9"], ["0.7.0"]),
    ("==0.8.*", ["0.8.5"], ["0.9.0"]),
    ("!=0.9.0", ["0.9.1"], ["0.9.0"]),
])
def test_specifiers(spec, yes, no):
    s = SpecifierSet(spec)
    assert all(s.contains(v) for v in yes)
    assert not any(s.contains(v) for v in no)


def test_a_dev_build_falls_on_one_side_of_a_release_gate():
    # the knowledge's release gates read these: a fork's verl 0.7.0.dev in neither "<0.7.0" nor ">=0.7.0" lost every
    # fact the verl file gates (zhymma/verl_with_learning_notes: false L17 P0s, reverted in session 33)
    for dev in ("0.7.0.dev", "0.7.0.dev0", "0.7.0rc1"):
        assert SpecifierSet("<0.7.0").contains(dev) != SpecifierSet(">=0.7.0").contains(dev)


@pytest.mark.parametrize("spec,yes,no", [
    # PEP 440 as pip reads a project's requirement: `<V` admits no pre-release or dev build of V itself (pip
    # refuses transformers 5.0.0.dev0 beside `transformers<5`: vLLM #27505), one of an earlier release it does
    ("<5", ["4.57.6", "4.99.dev0"], ["5.0.0.dev0", "5.0.0rc1", "5.0.0"]),
    ("<5.0.0rc2", ["5.0.0rc1", "5.0.0.dev0"], ["5.0.0rc2"]),
    ("<5.0.0.post1", ["5.0.0", "5.0.0rc1"], ["5.0.0.post1.dev0"]),
    ("~=4.56", ["4.57.0"], ["5.0.dev0"]),
    ("^0.6.3", ["0.6.9"], ["0.7.0.dev1"]),
    (">4.57", ["4.57.1", "4.58.0rc1"], ["4.57.0.post1"]),
    (">4.57rc1", ["4.57.0.post1"], ["4.57rc1"]),
    ("==4.57.0", ["4.57"], ["4.57.0.post1"]),
    ("!=5.0.*", ["4.57.6", "5.1.0"], ["5.0.0.dev0", "5", "5.0.0rc1"]),
    (">=4.56.0", ["5.0.0.dev0"], ["4.56.0rc1"]),
])
def test_a_projects_requirement_read_as_pip_reads_it(spec, yes, no):
    s = SpecifierSet(spec, pip=True)
    assert all(s.contains(v) for v in yes)
    assert not any(s.contains(v) for v in no)


def test_pip_reading_agrees_with_packaging():
    packaging = pytest.importorskip("packaging.specifiers")
    vs = ["4.99", "4.99.dev0", "5", "5.0.0", "5.0.0.dev0", "5.0.0a1", "5.0.0rc1", "5.0.0rc2.dev1", "5.0.0.post1",
          "5.0.0.post1.dev0", "5.0.0.post2", "5.0.1rc1", "5.1.0.dev0", "5.1", "6.0.0.dev0"]
    for op in ("<", ">", "<=", ">=", "~=", "!=", "=="):
        for w in (w for w in vs if op != "~=" or "." in w):
            for v in vs:
                want = packaging.SpecifierSet(op + w).contains(v, prereleases=True)
                assert SpecifierSet(op + w, pip=True).contains(v) == want, (op + w, v)


def test_ordering():
    assert Version("0.10.0") > Version("0.9.2") > Version("0.9.2rc1") > Version("0.9.2.dev3")
    assert Version("0.8.5.post1") > Version("0.8.5")


def test_exact_and_newest():
    assert SpecifierSet("==0.6.3").exact == "0.6.3" and SpecifierSet(">=0.6").exact is None
    vs = [Version(v) for v in ("0.8.5", "0.9.2", "0.10.2", "0.11.0")]
    assert str(newest_matching(SpecifierSet(">=0.9,<0.11"), vs)) == "0.10.2"


def test_bad_specifier():
    with pytest.raises(InvalidSpecifier):
        SpecifierSet(">=banana")


def test_a_prebuilt_vllm_image_without_a_release_tag_is_not_the_python_pin(tmp_path):
    # production-stack's gpu-deployment.yaml runs lmcache/vllm-openai:2025-05-05-v1 while the repository's
    # requirements-test.txt pins vllm==0.13.0 for its own tests: the container's release is not that pin
    from vllm_kb.engine.audit import audit

    (tmp_path / "requirements.txt").write_text("vllm==0.13.0\n")
    (tmp_path / "deploy.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: v}\nspec:\n  template:\n    spec:\n      containers:\n"
        "      - name: vllm\n        image: lmcache/vllm-openai:2025-05-05-v1\n"
        "        command: [python3, -m, vllm.entrypoints.openai.api_server]\n"
        "        args: [--model, meta-llama/Llama-3.2-1B-Instruct]\n"
        "      - name: tagged\n        image: vllm/vllm-openai:v0.9.1\n        args: [--model, meta-llama/Llama-3.2-1B-Instruct]\n")
    (tmp_path / "serve.py").write_text("from vllm import LLM\nLLM(model='meta-llama/Llama-3.2-1B-Instruct')\n")
    rep = audit(tmp_path, gpu="H100-80GB")
    got = {sr.site.file + ":" + (sr.site.image or "-"): (sr.version.basis, sr.version.pinned, sr.version.version) for sr in rep.sites}
    # its tag is its build day: the newest release on PyPI by 2025-05-05 (0.8.5.post1, 2025-05-02)
    assert got["deploy.yaml:lmcache/vllm-openai:2025-05-05-v1"] == ("image-dated", False, "0.8.5.post1")
    assert got["deploy.yaml:vllm/vllm-openai:v0.9.1"] == ("image", True, "0.9.1")
    assert got["serve.py:-"] == ("pin", True, "0.13.0")


def test_an_image_tagged_with_its_build_day_is_judged_as_that_days_release_and_keeps_p0_only_if_the_next_holds_too(tmp_path):
    # production-stack ran lmcache/vllm-openai:2025-05-05-v1 with `--compilation-config 3`; that number
    # form is refused only from a later release on, so a day-tagged image is no P0 for it
    from vllm_kb.engine.audit import audit
    from vllm_kb.engine.kb.release_dates import newest_by
    from vllm_kb.engine.scan.images import image_date

    assert image_date("lmcache/vllm-openai:2025-05-05-v1") == "2025-05-05"
    assert image_date("vllm/vllm-openai:nightly-20250505") == "2025-05-05"
    assert image_date("vllm/vllm-openai:v0.9.1") is None and image_date("vllm/vllm-openai:latest") is None
    assert image_date("registry/vllm:20251301") is None  # no 13th month
    assert newest_by("2025-05-05") == ("0.8.5.post1", "0.9.0")
    assert newest_by("2020-01-01")[0] is None
    (tmp_path / "deploy.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: v}\nspec:\n  template:\n    spec:\n      containers:\n"
        "      - name: vllm\n        image: lmcache/vllm-openai:2025-05-05-v1\n"
        "        args: [--model, meta-llama/Llama-3.2-1B-Instruct, --tensor-parallel-size, '3']\n")
    rep = audit(tmp_path, gpu="H100-80GB x4")
    (sr,) = rep.sites
    assert sr.version.basis == "image-dated"
    # TP 3 does not divide Llama-3.2-1B's 32 heads in any release: P0 whatever the day
    assert any(r.check.id == "L1" and r.priority == "P0" for r in sr.results if r.needs_change)
    # the bare --compilation-config number that 0.34 refuses was the level in the day's release (0.8.5)
    (tmp_path / "deploy.yaml").write_text((tmp_path / "deploy.yaml").read_text().replace("--tensor-parallel-size, '3'", "--compilation-config, '3'"))
    # (:latest may be any release the host pulled: refused from some release on is a P1 there, engine/check/unpinned.py)
    for image, p0 in (("lmcache/vllm-openai:2025-05-05-v1", False), ("lmcache/vllm-openai:latest", False)):
        (tmp_path / "deploy.yaml").write_text(re.sub(r"image: \S+", "image: " + image, (tmp_path / "deploy.yaml").read_text()))
        (sr,) = audit(tmp_path, gpu="H100-80GB x4").sites
        assert any(r.check.id == "L42" and r.priority == "P0" for r in sr.results if r.needs_change) is p0, image
