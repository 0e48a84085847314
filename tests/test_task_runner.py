"""L141 task-runner-architecture: the per-release table of generative and natively pooling
architectures (tools/vllm_runners.py → knowledge/vllm/runners.yaml) and the refusals vLLM raises
while it settles the task or runner (engine/check/startup_task.py)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from release_tree import write_release  # noqa: E402
from vllm_runners import scan_release  # noqa: E402

from vllm_kb.engine.audit import audit  # noqa: E402
from vllm_kb.engine.check.startup_task import task_facts  # noqa: E402
from vllm_kb.engine.kb.knowledge import load  # noqa: E402

SDISTS = Path("/work/sdists/src")
KB = load()
RUNNERS = KB.doc("vllm", "runners.yaml").data
ARCHS = KB.doc("vllm", "architectures.yaml").data


def facts(arch: str, version: str, syntax: str | None = "cli", **engine) -> dict:
    return task_facts({"architecture": arch}, engine, RUNNERS, ARCHS, version, syntax)


def test_the_protocols_decide_generate_and_pooling(tmp_path):
    old = write_release(tmp_path / "old", {
        "vllm/model_executor/models/interfaces_base.py": """
            class VllmModelForTextGeneration(VllmModel, Protocol):
                def compute_logits(self, hidden_states): ...
                def sample(self, logits): ...
            class VllmModelForPooling(VllmModel, Protocol):
                def pooler(self, hidden_states): ...
        """,
        "vllm/model_executor/models/registry.py": """
            _TEXT_GENERATION_MODELS = {
                "LlamaForCausalLM": ("llama", "LlamaForCausalLM"),
                "HalfForCausalLM": ("half", "HalfForCausalLM"),
            }
            _EMBEDDING_MODELS = {
                "BertModel": ("bert", "BertEmbeddingModel"),
                "Qwen2ForSequenceClassification": ("qwen2", "Qwen2ForSequenceClassification"),
            }
        """,
        "vllm/model_executor/models/llama.py": """
            class Base(nn.Module):
                def compute_logits(self, h): ...
            class LlamaForCausalLM(Base, SupportsLoRA):
                def sample(self, logits): ...
        """,
        "vllm/model_executor/models/half.py": "class HalfForCausalLM(nn.Module):\n    def compute_logits(self, h): ...\n",
        "vllm/model_executor/models/bert.py": "class BertEmbeddingModel(nn.Module):\n    def pooler(self, h): ...\n",
        "vllm/model_executor/models/qwen2.py": "Qwen2ForSequenceClassification = as_seq_cls_model(Qwen2ForCausalLM)\n",
    })
    gen, pool, unresolved = scan_release(old)
    assert gen == {"LlamaForCausalLM"}  # HalfForCausalLM lacks sample: not a VllmModelForTextGeneration then
    assert pool == {"BertModel"}
    assert unresolved == {"Qwen2ForSequenceClassification"}  # made at run time: unknown, never "cannot"

    new = write_release(tmp_path / "new", {
        "vllm/model_executor/models/interfaces_base.py": """
            class VllmModelForTextGeneration(VllmModel, Protocol):
                def compute_logits(self, hidden_states): ...
            class VllmModelForPooling(VllmModel, Protocol):
                is_pooling_model: ClassVar[Literal[True]] = True
                def pooler(self): ...
        """,
        "vllm/model_executor/models/registry.py": """
            _EMBEDDING_MODELS = {
                "BertModel": ("bert", "BertEmbeddingModel"),
                "GteModel": ("bert", "GteModel"),
                "OldStyle": ("bert", "OldStyle"),
            }
        """,
        "vllm/model_executor/models/bert.py": """
            class BertEmbeddingModel(nn.Module, VllmModelForPooling): ...
            class GteModel(nn.Module): ...
            class OldStyle(nn.Module):
                def pooler(self, h): ...
        """,
    })
    gen, pool, unresolved = scan_release(new)
    # from 0.10.0 the class attribute decides, not a pooler method
    assert (gen, pool, unresolved) == (set(), {"BertModel"}, set())


@pytest.mark.skipif(not (SDISTS / "0.34.0").is_dir(), reason="needs vLLM's unpacked sdists")
@pytest.mark.parametrize("release", ["0.6.4", "0.9.2", "0.11.0", "0.34.0"])
def test_table_is_what_the_tool_reads(release):
    """Regenerating gives the committed rows (a few releases here; `tools/vllm_runners.py --check`
    compares the whole table)."""
    gen, pool, unresolved = scan_release(SDISTS / release)
    v = tuple(int(x) for x in release.split("."))

    def rows(key):
        return {a for a, spans in RUNNERS[key].items()
                if any(tuple(map(int, s.split("."))) <= v <= tuple(map(int, e.split("."))) for s, e in spans)}
    assert (rows("generate"), rows("pooling"), rows("unresolved")) == (gen, pool, unresolved)
    assert RUNNERS["convert_from"] == "0.6.5"


def test_064_has_no_conversion():
    got = facts("GemmaForCausalLM", "0.6.4", task="embedding")
    assert got["task_fix"] == "pin" and got["task_pin"] == ">=0.6.5"
    assert got["task_words"] == "This model does not support the 'embedding' task. Supported tasks: {'generate'}"
    assert facts("GemmaForCausalLM", "0.6.4.post1", task="embedding")["task_refused"]  # a .post reads as its base
    assert facts("Qwen2ForCausalLM", "0.6.4", task="embedding") == {"task_ok": True}  # its class has a pooler then
    assert facts("GemmaForCausalLM", "0.6.5", task="embed") == {"task_ok": True}  # converted from 0.6.5
    for v in ("0.6.5", "0.8.5", "0.10.0", "0.11.0"):  # the old name stays an alias of embed
        assert facts("GemmaForCausalLM", v, task="embedding") == {"task_ok": True}, v
        assert facts("GemmaForCausalLM", v, syntax="python-call", task="embedding") == {"task_ok": True}, v


def test_a_value_the_release_does_not_list_is_the_findings_on_the_command_line():
    assert facts("Qwen2ForRewardModel", "0.6.4", task="reward") == {}
    got = facts("Qwen2ForRewardModel", "0.6.4.post1", syntax="python-call", task="reward")
    assert got["task_fix"] == "pin_task"
    assert got["task_words"] == "This model does not support the 'reward' task. Supported tasks: {'embedding'}"


def test_generate_on_a_pooling_model_in_each_wording():
    assert facts("XLMRobertaModel", "0.8.5", task="generate")["task_words"].startswith(
        "This model does not support the 'generate' task. Supported tasks: {")
    assert facts("XLMRobertaModel", "0.10.0", task="generate")["task_words"] == \
        "This model does not support task='generate'. Available tasks for runner='generate': []"
    assert facts("XLMRobertaModel", "0.11.0", task="generate")["task_words"] == "This model does not support `--runner generate`."
    assert facts("XLMRobertaModel", "0.11.0", runner="generate")["task_fix"] == "unset_runner"
    assert facts("XLMRobertaModel", "0.25.0", runner="generate")["task_words"].startswith(
        "Embedding models do not support `--runner generate`.")
    assert facts("Qwen3ForCausalLM", "0.25.0", runner="generate") == {"task_ok": True}


def test_the_deprecated_task_on_a_class_that_neither_generates_nor_pools():
    got = facts("ModernBertModel", "0.11.0", task="embed")
    assert got["task_fix"] == "runner_pooling" and got["task_convert"] == "embed"
    assert facts("ModernBertModel", "0.11.2", task="embedding")["task_words"].endswith("Found: {…}")
    assert facts("ModernBertModel", "0.12.0", task="embedding") == {"task_ok": True}  # vLLM #29312
    assert facts("Qwen3ForCausalLM", "0.11.0", task="embed") == {"task_ok": True}


def test_runner_pooling_with_convert_none():
    got = facts("Qwen2ForCausalLM", "0.20.0", runner="pooling", convert="none")
    assert got["task_fix"] == "set_convert" and "<embed|classify>" in got["task_words"]
    assert "<embed|classify|reward>" in facts("Qwen2ForCausalLM", "0.11.0", runner="pooling", convert="none")["task_words"]
    assert facts("Qwen2ForCausalLM", "0.20.0", runner="pooling") == {"task_ok": True}  # auto converts


def test_nothing_said_without_knowing():
    assert facts("BertModel", "0.8.5", task="auto") == {}
    assert facts("Qwen2ForCausalLM", "0.11.0", runner="auto") == {}
    assert facts("NoSuchForCausalLM", "0.8.5", task="generate") == {}
    assert facts("LlamaBidirectionalModel", "0.20.0", runner="generate") == {}  # unresolved class
    assert facts("XLMRobertaModel", "0.6.3", task="generate") == {}  # no task option yet
    assert facts("XLMRobertaModel", "0.13.0", task="generate") == {}  # removed: the not-in-version finding's
    assert task_facts({"architecture": "XLMRobertaModel"}, {"runner": "generate", "model_impl": "transformers"},
                      RUNNERS, ARCHS, "0.20.0") == {}


def _l141(tmp_path, pin: str, line: str):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "serve.sh").write_text(line + "\n")
    (sr,) = audit(tmp_path, gpu="L4").sites
    return next(r for r in sr.results if r.check.id == "L141"), sr


def test_audit_proposes_the_change_and_leaves_a_removed_task_to_the_catalog(tmp_path):
    check, sr = _l141(tmp_path, "0.6.4", "vllm serve google/gemma-2b-it --task embedding")
    assert (check.status, check.priority) == ("recommended", "P0")
    check, sr = _l141(tmp_path, "0.14.0", "vllm serve BAAI/bge-large-en-v1.5 --task generate")
    assert check.status != "recommended"  # --task is gone in 0.13: the catalog's not-in-version says so
    assert any(f.code == "not-in-version" for f in sr.remarks)
