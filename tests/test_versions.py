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
    assert got["deploy.yaml:lmcache/vllm-openai:2025-05-05-v1"][:2] == ("image-untagged", False)
    assert got["deploy.yaml:vllm/vllm-openai:v0.9.1"] == ("image", True, "0.9.1")
    assert got["serve.py:-"] == ("pin", True, "0.13.0")
