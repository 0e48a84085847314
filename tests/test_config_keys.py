"""config-key-unknown: a key of a JSON configuration argument that the site's release lacks is
refused where its config class forbids unknown keys (CompilationConfig from 0.13.0, every config
class from 0.16.0) and ignored before; a key a P0 check already rewrites is left to that check."""
import pytest
from vllm_kb.engine.audit import audit
from vllm_kb.engine.report import model


def _findings(tmp_path, flags, version):
    (tmp_path / "serve.sh").write_text(f"vllm serve Qwen/Qwen3-8B {flags}\n")
    rep = model.build(audit(tmp_path, gpu="H100 x1", vllm_version=version), "en")
    (site,) = rep["sites"]
    return {r["check"]: r for r in site["recommendations"]}


@pytest.mark.parametrize("flags,version,priority", [
    # a misspelt CompilationConfig field: refused from 0.13.0, ignored on 0.12.0
    ("--compilation-config '{\"cuda_graph_sizes\": [1, 2, 4]}'", "0.14.0", "P0"),
    ("--compilation-config '{\"cuda_graph_sizes\": [1, 2, 4]}'", "0.12.0", "P1"),
    # KVTransferConfig: ignored up to 0.15.1, refused from 0.16.0 (the `@config` decorator's extra="forbid")
    ("--kv-transfer-config '{\"kv_connector\": \"NixlConnector\", \"kv_role\": \"kv_both\", \"kv_extra_config\": {}}'", "0.15.1", "P1"),
    ("--kv-transfer-config '{\"kv_connector\": \"NixlConnector\", \"kv_role\": \"kv_both\", \"kv_extra_config\": {}}'", "0.16.0", "P0"),
    # PoolerConfig: a misspelt pooling type key, refused from 0.16.0
    ("--pooler-config '{\"pooling_typ\": \"MEAN\"}'", "0.20.0", "P0"),
    # a field of other releases: full_cuda_graph left CompilationConfig after 0.11.0
    ("--compilation-config '{\"full_cuda_graph\": true}'", "0.20.0", "P0"),
])
def test_unknown_keys(tmp_path, flags, version, priority):
    found = {k: r for k, r in _findings(tmp_path, flags, version).items() if k.startswith("config-key-unknown")}
    assert [r["priority"] for r in found.values()] == [priority]


@pytest.mark.parametrize("flags,version", [
    ("--compilation-config '{\"cudagraph_capture_sizes\": [1, 2, 4]}'", "0.14.0"),
    ("--speculative-config '{\"method\": \"ngram\", \"num_speculative_tokens\": 3, \"prompt_lookup_max\": 4}'", "0.20.0"),
    ("--kv-transfer-config '{\"kv_connector\": \"NixlConnector\", \"kv_role\": \"kv_both\"}'", "0.20.0"),
])
def test_known_keys_are_quiet(tmp_path, flags, version):
    assert not any(k.startswith("config-key-unknown") for k in _findings(tmp_path, flags, version))


def test_a_key_a_check_rewrites_is_left_to_it(tmp_path):
    # compilation_config.level on 0.20: A3 rewrites it to mode (one cause, one P0)
    found = _findings(tmp_path, "--compilation-config '{\"level\": 3}'", "0.20.0")
    assert found["A3"]["priority"] == "P0"
    assert not any(k.startswith("config-key-unknown") for k in found)


def test_the_fix_renames_a_misspelt_key(tmp_path):
    (tmp_path / "serve.sh").write_text("vllm serve Qwen/Qwen3-8B --compilation-config '{\"cuda_graph_sizes\": [1, 2]}'\n")
    rep = model.build(audit(tmp_path, gpu="H100 x1", vllm_version="0.14.0"), "en")
    (site,) = rep["sites"]
    (change,) = [c for c in site["changes"] if c["target"] == "compilation_config"]
    assert change["after"] == "--compilation-config '{\"cudagraph_capture_sizes\": [1, 2]}'"
