"""Every per-release table a check reads covers the releases the catalog covers (0.1.0 … 0.34.0),
or declares here where it does not and what its reader does there. Since the catalog starts at
0.1.0 a pin of 0.2.x is looked up as itself; a table that starts at 0.4.1 must then leave the
check `unknown` rather than lend it the rows of another release (the L7 regression of session 8).
A new table, a table whose first/last release moves, or a release missing inside a table's span
(0.9.2 and 0.15.x were once left out of several) fails this test until it is declared."""
from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
import yaml

from vllm_kb.engine.check.startup_bnb import bnb_facts
from vllm_kb.engine.check.startup_build import build_facts
from vllm_kb.engine.check.startup_lora_vocab import lora_vocab_facts

ROOT = Path(__file__).resolve().parent.parent
VLLM = ROOT / "knowledge" / "vllm"

# table → (release key, first, last, releases inside the span it lacks, what its reader does outside)
DECLARED = {
    "architectures.yaml": ("releases", "0.1.0", "0.34.0", [], "covers every release"),
    "arch_names.yaml": ("releases", "0.6.2", "0.34.0", ["0.15.0", "0.15.1"],
                        "release-independent: a family's class; which release registers it is architectures.yaml's"),
    "attention_refusals.yaml": ("releases", "0.1.0", "0.34.0", [], "refusal rows carry first/last: none before 0.5.1"),
    "attn_selector.yaml": ("releases", "0.11.1", "0.34.0", [], "the validating selector exists from 0.11.1 only"),
    "bnb_support.yaml": ("releases", "0.5.0", "0.27.1", [],
                         "startup_bnb: outside the span, and between scanned releases that differ, unknown"),
    "cli_choices.yaml": ("releases", "0.4.0", "0.34.0", [],
                         "spans carry from/to: a release outside every span has no choices read (not judged)"),
    "cuda_builds.yaml": ("releases", "0.4.1", "0.34.0", [], "startup_build: before 0.4.1 the build is unknown"),
    "dependency_pins.yaml": ("releases", "0.1.0", "0.34.0", ["0.3.2", "0.4.0", "0.15.0", "0.15.1"],
                             "no requirement file in those sdists: dependency_pins gives nothing (not judged)"),
    "entrypoints.yaml": ("releases", "0.1.0", "0.24.0", [],
                         "spans of the demo server's options; removed_in after the last"),
    "eplb_moe.yaml": ("releases", "0.9.2", "0.33.0", [],
                      "EPLB arrived in 0.9.2; 0.34.0's model runner left vllm/v1/worker/gpu_model_runner.py (not read)"),
    "example_models.yaml": ("releases", "0.6.4", "0.34.0", ["0.15.0", "0.15.1"],
                            "advice only (the newest mapping wins), never a P0; 0.15.x was unpacked from its wheel: no tests/"),
    "kv_cache.yaml": ("releases", "0.4.1", "0.34.0", [], "rows carry a lower bound of 0.8.0 or later"),
    "lora_moe.yaml": ("releases", "0.11.1", "0.24.0", [],
                      "only the releases that raise: before 0.11.1 MoE layers got no LoRA, from 0.25.0 the walk finds the mapping"),
    "lora_vocab.yaml": ("releases", "0.3.0", "0.34.0", [], "LoRA exists from 0.3.0; startup_lora_vocab: unknown outside"),
    "model_kernels.yaml": ("releases", "0.20.0", "0.34.0", [],
                           "startup_modelcap: the families start with DeepSeek V4 (0.20.0); before, no row (not judged)"),
    "model_types.yaml": ("vllm_releases", "0.1.0", "0.34.0", [],
                         "vllm_own: a model type vLLM reads itself; outside, transformers decides"),
    "model_versions.yaml": ("releases", "0.1.0", "0.34.0", [], "startup_version: _known is unknown outside the span"),
    "paged_head_sizes.yaml": ("releases", "0.1.0", "0.10.2", [], "V0 PagedAttention; attn_selector.yaml from 0.11.1"),
    "quant_alignment.yaml": ("releases", "0.2.2", "0.34.0", [], "rules carry spans; before 0.2.2 no rule (not judged)"),
    "release_bugs.yaml": ("releases", "0.1.0", "0.34.0", [],
                          "rows carry their affected spans and fixed release: a release outside every span meets no row"),
    "runners.yaml": ("releases", "0.6.4", "0.34.0", [],
                     "the task option exists from 0.6.4; startup_task: outside the span, and between scanned releases that differ, unknown"),
    "spec_decode.yaml": ("releases", "0.1.0", "0.34.0", [],
                         "startup_drafter: per_release rows by release (a .postN reads its base's); a release without a "
                         "row or key makes none of those checks"),
    "transformers_since.yaml": ("vllm_releases", "0.5.3", "0.34.0", [],
                                "read from 0.5.3 (the oldest release read from its wheel here): a release without a row "
                                "imports nothing some transformers release it admits lacks, and says nothing"),
    "transformers_calls.yaml": ("vllm_releases", "0.10.0", "0.34.0", [],
                                "read from 0.10.0 (before it the config classes' one helper call is cohere2's rope_config_validation(self), "
                                "which every transformers release takes): a release "
                                "without a row makes no call some transformers release it admits refuses, and says nothing"),
    "transformers_imports.yaml": ("vllm_releases", "0.4.0", "0.34.0", [],
                                  "read from 0.4.0 (older releases take next to nothing from transformers at start): "
                                  "a release without a row imports nothing that a transformers release removed"),
    "vision_tp.yaml": ("releases", "0.1.0", "0.34.0", [], "startup_vision: _known is unknown outside the span"),
    "vocab_padding.yaml": ("releases", "0.1.0", "0.34.0", [],
                           "startup_vocab: spans; a hole reads as its neighbours where they agree"),
}


def _key(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in str(v).split("."))


def _catalog() -> list[str]:
    versions = json.loads((VLLM / "catalog.json").read_text(encoding="utf-8"))["versions"]
    return [v for v in versions if "post" not in v and _key(v) >= _key("0.1.0")]


@functools.cache
def _table(name: str) -> dict:
    # parsed once per process (libyaml where built, as engine/kb/yamlio.py reads them): the tables
    # are 1.1 MB of YAML, and each parameter read them all again (~250 s of a loaded CI run)
    return yaml.load((VLLM / name).read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _tables() -> dict[str, dict]:
    out = {}
    for path in sorted(VLLM.glob("*.yaml")):
        data = _table(path.name)
        if any(isinstance(data.get(k), list) for k in ("releases", "vllm_releases")):
            out[path.name] = data
    return out


def test_every_per_release_table_is_declared():
    assert sorted(_tables()) == sorted(DECLARED), "declare the new table's coverage in DECLARED"


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_table_coverage_matches_its_declaration(name):
    key, first, last, holes, _why = DECLARED[name]
    data = _tables()[name]
    got = [str(r) for r in data[key]]
    assert (got[0], got[-1]) == (first, last), f"{name}: covers {got[0]}…{got[-1]}; update DECLARED and check its reader"
    if len(got) == 2:  # [first, last] only: rows carry their own spans
        return
    missing = [v for v in _catalog() if _key(first) <= _key(v) <= _key(last) and v not in got]
    assert missing == holes, f"{name}: releases inside its span it lacks: {missing} (regenerate it with tools/vllm_*.py)"


def test_readers_are_unknown_before_their_table():
    """A pin older than the table's first release gets nothing from it, not the first row."""
    gpu = {"compute_capability": 10.0}
    assert build_facts({"gpu": gpu}, yaml.safe_load((VLLM / "cuda_builds.yaml").read_text()), "0.2.7", "pin") == {}
    assert build_facts({"gpu": gpu}, yaml.safe_load((VLLM / "cuda_builds.yaml").read_text()), "0.4.1", "pin")
    lora = yaml.safe_load((VLLM / "lora_vocab.yaml").read_text())
    assert lora_vocab_facts({"vocab_size": 152064, "architecture": "LlamaForCausalLM"}, lora, "0.2.7") == {}
    bnb = yaml.safe_load((VLLM / "bnb_support.yaml").read_text())
    assert bnb_facts({"architecture": "LlamaForCausalLM"}, bnb, "0.4.3") == {}
