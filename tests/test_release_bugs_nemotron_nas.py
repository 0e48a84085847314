"""The model_bugs row that holds only for one of the two checkpoint layouts sharing a class
(`model_type`): DeciLMForCausalLM is DeciLM-7B's class in 0.2.7-0.8.2 and reads per-layer KV head
counts that NVIDIA's Nemotron NAS checkpoints (model_type nemotron-nas, block_configs) do not have
(vLLM #15625); 0.8.3 maps the class to nemotron_nas.py. The catalog names those checkpoints' class."""
from __future__ import annotations

import textwrap

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.startup_release_bugs import model_bug_facts
from vllm_kb.engine.kb.knowledge import load

ARCH = "DeciLMForCausalLM"


def _table() -> dict:
    return load().doc("vllm", "release_bugs.yaml").data


@pytest.mark.parametrize("model_type,version,row", [
    ("nemotron-nas", "0.7.3", "decilm-nemotron-nas-config"),
    ("nemotron-nas", "0.2.7", "decilm-nemotron-nas-config"),  # the first release with the DeciLM class
    ("nemotron-nas", "0.8.2", "decilm-nemotron-nas-config"),
    ("nemotron-nas", "0.8.3", None),  # nemotron_nas.py reads block_configs
    ("deci", "0.7.3", None),  # DeciLM-7B itself: the class was written for it
    (None, "0.7.3", None),  # the layout is not known
])
def test_only_the_nas_layout_in_the_old_class(model_type, version, row):
    f = model_bug_facts(ARCH, {}, _table(), version, {"model_type": model_type})
    assert f.get("release_bug") == row
    if row:
        assert f["release_bug_fixed"] == "0.8.3"


@pytest.mark.parametrize("pin, model, p0", [
    ("0.7.3", "nvidia/Llama-3_3-Nemotron-Super-49B-v1", True),
    ("0.8.4", "nvidia/Llama-3_3-Nemotron-Super-49B-v1", False),
    ("0.7.3", "nvidia/Llama-3_1-Nemotron-Ultra-253B-v1", True),
    ("0.7.3", "nvidia/Llama-3.1-Nemotron-Nano-8B-v1", False),  # a plain Llama despite the name
    ("0.7.3", "meta-llama/Llama-3.3-70B-Instruct", False),
])
def test_the_catalog_names_the_nas_class(tmp_path, pin, model, p0):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "run.py").write_text(textwrap.dedent(f"""\
        from vllm import LLM
        llm = LLM(model="{model}", tensor_parallel_size=8, trust_remote_code=True)
        """))
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    got = {r.check.id for r in sr.results if r.needs_change and r.priority == "P0"}
    assert ("L133" in got) is p0
