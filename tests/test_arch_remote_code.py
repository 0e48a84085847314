"""An architecture the release does not register, with the checkpoint's own code (auto_map): from
0.7.2 vLLM's Transformers fallback takes the model class from transformers (by the architecture's
name) or from the auto_map — the "AutoModel" key in 0.7.2-0.10.0 (model_loader/utils.py), any
"AutoModel…" key from 0.10.1 (models/registry.py _try_resolve_transformers). With neither, vLLM
raises whatever trust_remote_code says (vLLM #14115: Ovis2 on 0.7.3); with one, whether the class
runs depends on its code, so the check stays P1."""
from __future__ import annotations

import json

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.startup_arch import arch_facts
from vllm_kb.engine.kb.knowledge import load

KB = load()
TABLE = KB.doc("vllm", "architectures.yaml").data
TF = {"classes": frozenset(KB.doc("vllm", "transformers_classes.yaml").data["classes"]),
      "scanned": KB.doc("vllm", "transformers_classes.yaml").data["transformers_scanned"],
      "first": KB.doc("vllm", "model_types.yaml").data["transformers_first"]}
OVIS = {"architecture": "Ovis", "model_type": "ovis", "auto_map": ["AutoConfig", "AutoModelForCausalLM"]}


def test_no_model_class_for_the_fallback():
    for v in ("0.7.3", "0.8.5"):
        got = arch_facts(OVIS, TABLE, v, TF)
        assert got["arch_fallback"] == "none" and got["arch_custom_no_model"] and got["arch_pin"] == ">=0.9.0"


def test_an_automodel_key_leaves_it_to_the_code():
    # "AutoModel" itself before 0.10.1; any AutoModel… key from then
    assert arch_facts({**OVIS, "auto_map": ["AutoConfig", "AutoModel"]}, TABLE, "0.8.5", TF).get("arch_fallback") != "none"
    custom = {"architecture": "MyLMForCausalLM", "model_type": "my_lm", "auto_map": ["AutoConfig", "AutoModelForCausalLM"]}
    assert arch_facts(custom, TABLE, "0.10.0", TF)["arch_fallback"] == "none"
    assert arch_facts(custom, TABLE, "0.10.1", TF)["arch_fallback"] == "transformers"
    assert "arch_custom_no_model" not in arch_facts(custom, TABLE, "0.20.0", TF)


def test_unknown_without_the_config_or_for_a_transformers_class():
    assert "arch_custom_no_model" not in arch_facts({"architecture": "Ovis", "model_type": "ovis"}, TABLE, "0.8.5", TF)
    assert "arch_custom_no_model" not in arch_facts(OVIS, TABLE, "0.8.5", None)
    # a class transformers has (by name), or a model type only a transformers newer than the wheels read maps
    t5 = {"architecture": "T5EncoderModel", "model_type": "t5", "auto_map": []}
    assert "arch_custom_no_model" not in arch_facts(t5, TABLE, "0.8.5", TF)
    later = dict(TF, first={**TF["first"], "ovis": "99.0.0"})
    assert "arch_custom_no_model" not in arch_facts(OVIS, TABLE, "0.8.5", later)


def _l21(tmp_path, auto_map, version):
    (tmp_path / "ckpt").mkdir(parents=True)
    (tmp_path / "ckpt" / "config.json").write_text(json.dumps(
        {"architectures": ["MyLMForCausalLM"], "model_type": "my_lm", "auto_map": auto_map}))
    (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
    (tmp_path / "serve.sh").write_text("vllm serve ./ckpt --trust-remote-code --max-model-len 4096\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    return next(r for r in sr.results if r.check.id == "L21")


def test_audit_of_a_local_checkpoint(tmp_path):
    r = _l21(tmp_path / "a", {"AutoConfig": "c.C", "AutoModelForCausalLM": "m.M"}, "0.9.2")
    assert r.needs_change and r.priority == "P0" and "auto_map" in str(r.reason)
    r = _l21(tmp_path / "b", {"AutoConfig": "c.C", "AutoModel": "m.M", "AutoModelForCausalLM": "m.M"}, "0.9.2")
    assert r.needs_change and r.priority == "P1"


def test_a_compose_volume_of_the_project_reads_the_checkpoint(tmp_path):
    (tmp_path / "Ovis2-16B").mkdir()
    (tmp_path / "Ovis2-16B" / "config.json").write_text(json.dumps({"architectures": ["Ovis"], "model_type": "ovis",
                                                                     "auto_map": {"AutoModelForCausalLM": "m.Ovis"}}))
    (tmp_path / "docker-compose.yml").write_text(
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.7.3\n    volumes:\n      - ./:/models\n"
        "    command: --model /models/Ovis2-16B --trust-remote-code\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    assert sr.facts["model"].get("architecture") == "Ovis"


WHEELS = ["/opt/pypi-more/files/transformers-4.57.6-py3-none-any.whl", "/opt/pypi/files/transformers-5.17.0-py3-none-any.whl"]


def test_classes_table_is_what_the_wheels_say():
    import subprocess
    import sys
    from pathlib import Path

    import pytest

    if not all(Path(w).is_file() for w in WHEELS):
        pytest.skip("the transformers wheels are not here")
    root = Path(__file__).resolve().parent.parent
    r = subprocess.run([sys.executable, str(root / "tools" / "transformers_classes.py"), "--check", *WHEELS],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
