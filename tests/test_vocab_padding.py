"""The vocabulary split over TP ranks per release: the extraction (tools/vllm_vocab_padding.py →
knowledge/vllm/vocab_padding.yaml), the facts (engine/check/startup_vocab.py) and L67 on a project."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from release_tree import write_release
from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.startup_vocab import vocab_facts, vocab_rows
from vllm_kb.engine.kb.knowledge import load

ROOT = Path(__file__).resolve().parent.parent
TABLE = load().doc("vllm", "vocab_padding.yaml").data
LLAMA = {"architecture": "LlamaForCausalLM", "vocab_size": 32001}


def _tool():
    spec = importlib.util.spec_from_file_location("vllm_vocab_padding", ROOT / "tools" / "vllm_vocab_padding.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_table_spans():
    assert TABLE["layer_pads"][0] == "0.2.2" and TABLE["pad_to"] == 64
    assert TABLE["model_pads"]["LlamaForCausalLM"] == [["0.1.3", "0.2.1"]]
    assert "OPTForCausalLM" in TABLE["split"] and "OPTForCausalLM" not in TABLE["model_pads"]


def test_rows_per_release():
    assert vocab_rows(LLAMA, TABLE, "0.1.1") == 32001          # Llama splits the vocabulary as it is
    assert vocab_rows(LLAMA, TABLE, "0.1.3") == 32064          # llama.py rounds it up from 0.1.3
    assert vocab_rows({**LLAMA, "architecture": "OPTForCausalLM"}, TABLE, "0.2.1.post1") == 32001
    assert vocab_rows({**LLAMA, "architecture": "OPTForCausalLM"}, TABLE, "0.2.2") == 32064  # the layer pads
    assert vocab_rows({**LLAMA, "architecture": "NoSuchForCausalLM"}, TABLE, "0.1.1") is None
    assert vocab_rows({"architecture": "LlamaForCausalLM"}, TABLE, "0.20.0") is None


def test_facts():
    heads_ok = lambda t: 40 % t == 0  # noqa: E731
    bad = vocab_facts(LLAMA, {"tensor_parallel_size": 8}, TABLE, "0.1.1", heads_ok)
    assert bad == {"vocab_rows": 32001, "tp_vocab_ok": False, "tp_vocab_ok_padded": True, "tp_vocab_fit": 1}
    assert vocab_facts(LLAMA, {"tensor_parallel_size": 8}, TABLE, "0.4.1", heads_ok)["tp_vocab_ok"] is True
    five = vocab_facts(LLAMA, {"tensor_parallel_size": 5}, TABLE, "0.8.5", heads_ok)
    assert five["tp_vocab_ok"] is False and five["tp_vocab_fit"] == 4
    assert vocab_facts(LLAMA, {"tensor_parallel_size": 8, "enable_lora": True}, TABLE, "0.1.1", heads_ok) == {}
    assert vocab_facts(LLAMA, {"tensor_parallel_size": 1}, TABLE, "0.1.1", heads_ok) == {}


def _project(tmp_path, pin, tp, vocab):
    (tmp_path / "ckpt").mkdir()
    (tmp_path / "ckpt" / "config.json").write_text(json.dumps({
        "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 5120, "intermediate_size": 13824,
        "num_attention_heads": 40, "num_hidden_layers": 40, "num_key_value_heads": 40, "vocab_size": vocab,
        "max_position_embeddings": 2048, "torch_dtype": "float16"}))
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "infer.py").write_text(f'from vllm import LLM\nllm = LLM(model="./ckpt", tensor_parallel_size={tp})\n')
    return {r.check.id for sr in audit(tmp_path, gpu="A100-80GB x8").sites for r in sr.results
            if r.status == "recommended" and r.priority == "P0"}


def test_extended_vocabulary_on_an_early_release(tmp_path):
    assert "L67" in _project(tmp_path, "0.1.1", 8, 32001)


def test_padded_release_starts(tmp_path):
    assert "L67" not in _project(tmp_path, "0.2.7", 8, 32001)


def test_tool_reads_a_release(tmp_path):
    tool = _tool()
    write_release(tmp_path / "0.1.1", {
        "vllm/model_executor/model_loader.py": '_MODEL_REGISTRY = {"LlamaForCausalLM": LlamaForCausalLM, "OPTForCausalLM": OPTForCausalLM}\n',
        "vllm/model_executor/models/llama.py": """
            class LlamaForCausalLM(nn.Module):
                def __init__(self, config):
                    vocab_size = ((config.vocab_size + 63) // 64) * 64
                    self.embed_tokens = VocabParallelEmbedding(vocab_size, 8)
        """,
        "vllm/model_executor/models/opt.py": """
            class OPTForCausalLM(nn.Module):
                def __init__(self, config):
                    self.embed_tokens = VocabParallelEmbedding(config.vocab_size, 8)
        """,
    })
    write_release(tmp_path / "0.2.2", {
        "vllm/model_executor/layers/vocab_parallel_embedding.py": "def pad_vocab_size(vocab_size: int, pad_to: int = 64) -> int:\n    pass\n",
    })
    data = tool.build(tmp_path)
    assert data["layer_pads"] == ["0.2.2", "0.2.2"] and data["pad_to"] == 64
    assert data["model_pads"] == {"LlamaForCausalLM": [["0.1.1", "0.1.1"]]}
    assert data["split"] == {"LlamaForCausalLM": [["0.1.1", "0.1.1"]], "OPTForCausalLM": [["0.1.1", "0.1.1"]]}
