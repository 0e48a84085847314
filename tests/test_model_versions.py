"""Versions of a model family per release: the extraction (tools/vllm_model_versions.py →
knowledge/vllm/model_versions.yaml), the facts read from it (engine/check/startup_version.py), the
checkpoint's own config.json "version", and L21 on an audited project."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from release_tree import write_release  # noqa: E402
from vllm_model_versions import scan  # noqa: E402

from vllm_kb.engine.check.startup_version import version_facts  # noqa: E402
from vllm_kb.engine.kb.knowledge import load  # noqa: E402

_MODEL = '''
    class V20(nn.Module):
        pass
    class V45(nn.Module):
        pass
    _SUPPORT_VERSION = {(2, 0): V20, (4, 5): V45}
    NOT_A_TABLE = {"a": 1}
    class MiniCPMV(nn.Module):
        def __new__(cls, *, vllm_config, prefix=""):
            version = tuple(int(x) for x in str(vllm_config.version).split("."))
            instance_cls = _SUPPORT_VERSION.get(version)
            if instance_cls is None:
                raise ValueError("Currently, MiniCPMV only supports versions 2.0, 4.5")
            return instance_cls(vllm_config=vllm_config, prefix=prefix)
    class Plain(nn.Module):
        def __new__(cls):
            return NOT_A_TABLE
'''


def test_scan_reads_the_dispatch_table_of_registered_classes(tmp_path):
    root = write_release(tmp_path, {
        "vllm/model_executor/models/registry.py": """
            _MULTIMODAL_MODELS = {"MiniCPMV": ("minicpmv", "MiniCPMV"), "Plain": ("minicpmv", "Plain")}
            _PREVIOUSLY_SUPPORTED_MODELS = {"Old": ("minicpmv", "MiniCPMV")}
        """,
        "vllm/model_executor/models/minicpmv.py": _MODEL,
    })
    got = scan(root)
    assert set(got) == {"MiniCPMV"}  # a class without a version table, or a removed name, says nothing
    assert got["MiniCPMV"]["versions"] == ["2.0", "4.5"]
    assert got["MiniCPMV"]["file"] == "vllm/model_executor/models/minicpmv.py" and got["MiniCPMV"]["line"] == 13


def test_versions_per_release_from_the_table():
    table = load().doc("vllm", "model_versions.yaml").data
    v45 = {"architecture": "MiniCPMV", "config_version": "4.5"}
    assert version_facts(v45, table, "0.10.1.1") == {
        "arch_version": "4.5", "arch_version_ok": False, "arch_versions": "2.0, 2.5, 2.6, 4.0",
        "arch_version_since": "0.10.2", "arch_version_pin": ">=0.10.2"}
    assert version_facts(v45, table, "0.10.2") == {"arch_version": "4.5", "arch_version_ok": True}
    assert version_facts({**v45, "config_version": "4.0"}, table, "0.10.0")["arch_version_since"] == "0.10.1"
    # a version no release implements: no pin to propose
    assert "arch_version_pin" not in version_facts({**v45, "config_version": "9.9"}, table, "0.34.0")
    # before the dispatch table (0.5.4), without a version, or another class: nothing
    assert version_facts(v45, table, "0.5.4") == {}
    assert version_facts({"architecture": "MiniCPMV"}, table, "0.10.1") == {}
    assert version_facts({"architecture": "LlamaForCausalLM", "config_version": "4.5"}, table, "0.10.1") == {}


def _project(tmp_path: Path, pin: str, model: str, config: dict | None = None) -> Path:
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "serve.sh").write_text(f"#!/bin/bash\nvllm serve {model} --trust-remote-code\n")
    if config is not None:
        d = tmp_path / model
        d.mkdir(parents=True)
        (d / "config.json").write_text(json.dumps(config))
    return tmp_path


def _l21(project: Path):
    from vllm_kb.engine.audit import audit

    rep = audit(project, gpu="A100-80GB")
    return next(r for sr in rep.sites for r in sr.results if r.check.id == "L21")


def test_l21_names_the_release_that_implements_the_version(tmp_path):
    r = _l21(_project(tmp_path, "0.10.1.1", "openbmb/MiniCPM-V-4_5"))
    assert (r.status, r.priority) == ("recommended", "P0")
    text = r.reason_text("en")
    assert "0.10.2" in text and "4.5" in text and "2.0, 2.5, 2.6, 4.0" in text
    assert [v for _, v in r.fix] == [">=0.10.2"]


def test_l21_quiet_where_the_release_has_the_version(tmp_path):
    r = _l21(_project(tmp_path, "0.10.2", "openbmb/MiniCPM-V-4_5"))
    assert r.status == "enabled"


def test_the_checkpoints_own_version_wins_over_the_name(tmp_path):
    # a local folder named like 4.5 whose config.json says 2.6: the release implements it
    cfg = {"architectures": ["MiniCPMV"], "model_type": "minicpmv", "version": 2.6, "hidden_size": 3584,
           "num_attention_heads": 28, "num_key_value_heads": 4, "num_hidden_layers": 28, "vocab_size": 151666}
    r = _l21(_project(tmp_path, "0.10.1.1", "models/MiniCPM-V-4_5", cfg))
    assert r.status == "enabled"


def test_small_reference_models_have_their_shapes():
    # the test models launch reports use (vLLM's own facebook/opt-125m, TinyLlama) are catalogued
    from vllm_kb.engine.kb import knowledge, models

    kb = knowledge.load()
    opt = models.model_facts("facebook/opt-125m", kb.models, [])
    assert (opt["architecture"], opt["num_attention_heads"], opt["max_context"]) == ("OPTForCausalLM", 12, 2048)
    # another OPT size keeps the family's class, not 125m's shapes
    big = models.model_facts("facebook/opt-6.7b", kb.models, [])
    assert big["architecture"] == "OPTForCausalLM" and "num_attention_heads" not in big
    # MiniCPM-V 4.5 carries its version and its language model's shapes
    v45 = models.model_facts("openbmb/MiniCPM-V-4_5", kb.models, [])
    assert (v45["config_version"], v45["num_key_value_heads"], v45["architecture"]) == ("4.5", 8, "MiniCPMV")
    assert models.model_facts("openbmb/MiniCPM-V-4", kb.models, [])["config_version"] == "4.0"
    assert "config_version" not in models.model_facts("openbmb/MiniCPM-V-4_6", kb.models, [])
