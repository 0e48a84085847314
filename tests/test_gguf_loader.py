"""L135's second half: a GGUF checkpoint's model type against the release's own GGUF weight loader
(engine/check/gguf_loader.py, knowledge/vllm/gguf_loader.yaml from tools/vllm_gguf_loader.py)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import yaml

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.gguf_loader import loader_fit

ROOT = Path(__file__).resolve().parent.parent
TABLE = yaml.safe_load((ROOT / "knowledge" / "vllm" / "gguf_loader.yaml").read_text(encoding="utf-8"))
WHEELS = sorted(Path(os.environ.get("VLLM_KB_GGUF_WHEELS", "/tmp/gguf_wheels")).glob("gguf-*.whl"))
SDISTS = Path(os.environ.get("VLLM_SDISTS", "/work/sdists/src"))


def _facts(version, model_type=None, config=None, arch=None, tf_ok=True, name="m/x-Q4_K_M.gguf"):
    return {"model": {"name": name, "model_type": model_type}, "vllm": {"version": version},
            "args": {"hf_config_path": config} if config else {},
            "launch": {"gguf_arch": arch, "gguf_tf_ok": tf_ok} if arch else {}}


def test_a_config_from_hf_config_path_whose_type_the_pinned_gguf_lacks():
    # vLLM #15480: 0.8.1 pins gguf 0.10.0, whose MODEL_ARCH_NAMES has no gemma3
    got = loader_fit(_facts("0.8.1", "gemma3", "/google-gemma-3-27b-it"), TABLE)
    assert (got["gguf_loader_name"], got["gguf_loader_ok"], got["gguf_loader_pkg"]) == ("gemma3", False, "gguf==0.10.0")
    assert got["gguf_loader_vllm_first"] == "0.8.4"  # gguf>=0.13.0 admits the releases that have it
    # 0.8.4 admits older gguf releases too: a floor, not a refusal
    got = loader_fit(_facts("0.8.4", "gemma3", "/google-gemma-3-27b-it"), TABLE)
    assert got["gguf_loader_ok"] is True and got["gguf_loader_fix"] == ">=" + TABLE["gguf_first"]["gemma3"]
    assert loader_fit(_facts("0.8.1", "llama", "TinyLlama/TinyLlama-1.1B-Chat-v1.0"), TABLE)["gguf_loader_ok"] is True


def test_the_releases_own_renames():
    # deepseek_v2/v3 → deepseek2 from 0.8.0; qwen2_moe → qwen2moe from 0.10.1
    assert loader_fit(_facts("0.7.3", "deepseek_v3", "deepseek-ai/DeepSeek-R1"), TABLE)["gguf_loader_ok"] is False
    assert loader_fit(_facts("0.8.0", "deepseek_v3", "deepseek-ai/DeepSeek-R1"), TABLE)["gguf_loader_ok"] is True
    # the file's own config through transformers: qwen2moe is read as model_type qwen2_moe
    got = loader_fit(_facts("0.9.2", arch="qwen2moe"), TABLE)
    assert (got["gguf_loader_type"], got["gguf_loader_ok"], got["gguf_loader_vllm_first"]) == ("qwen2_moe", False, "0.10.1")
    assert loader_fit(_facts("0.10.1", arch="qwen2moe"), TABLE)["gguf_loader_ok"] is True
    # gemma3 is read as gemma3_text, which the loader renames from 0.11.1
    assert loader_fit(_facts("0.10.2", arch="gemma3"), TABLE)["gguf_loader_vllm_first"] == "0.11.1"


def test_nothing_is_said_where_something_else_decides():
    # transformers refuses the file first: it reads the tokenizer from it (no --tokenizer), or from 0.11.0 the config too
    assert loader_fit(_facts("0.8.1", "gemma3", "/g", arch="gemma3", tf_ok=False), TABLE, "0.11.0") == {}
    facts = _facts("0.8.1", "gemma3", "/g", arch="gemma3", tf_ok=False)
    facts["args"]["tokenizer"] = "google/gemma-3-27b-it"
    assert loader_fit(facts, TABLE, "0.11.0")["gguf_loader_ok"] is False
    assert loader_fit(_facts("0.9.2", arch="qwen2moe", tf_ok=False), TABLE) == {}  # transformers refuses first
    assert loader_fit(_facts("0.9.2", arch="qwen2moe", tf_ok=None), TABLE) == {}   # which transformers: unknown
    assert loader_fit(_facts("0.24.0", "gemma3", "/g"), TABLE) == {}               # no GGUF loader in vLLM
    assert loader_fit(_facts("0.8.1", "gemma3", "/g", name="google/gemma-3-27b-it"), TABLE) == {}  # not a GGUF file


def test_audit_end_to_end(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.8.1\n")
    (tmp_path / "run.py").write_text('from vllm import LLM\nllm = LLM(model="gemma-3-27b-it-GGUF/gemma-3-27b-it-Q4_K_M.gguf",\n'
                                     '          tokenizer="google/gemma-3-27b-it", hf_config_path="google/gemma-3-27b-it")\n')
    (site,) = audit(tmp_path, gpu="A100-80GB x1").sites
    res = next(r for r in site.results if r.check.id == "L135")
    assert res.status == "recommended" and res.priority == "P0"
    assert site.facts["launch"]["gguf_loader_name"] == "gemma3" and site.facts["launch"]["gguf_loader_ok"] is False
    # the same file with TinyLlama's config, as vLLM's GGUF page shows it: llama is in every gguf package
    (tmp_path / "run.py").write_text('from vllm import LLM\nllm = LLM(model="./tinyllama-1.1b-chat-v1.0.Q4_K_M.gguf",\n'
                                     '          tokenizer="TinyLlama/TinyLlama-1.1B-Chat-v1.0", hf_config_path="TinyLlama/TinyLlama-1.1B-Chat-v1.0")\n')
    (site,) = audit(tmp_path, gpu="A100-80GB x1").sites
    assert site.facts["launch"]["gguf_loader_ok"] is True
    assert next(r for r in site.results if r.check.id == "L135").priority != "P0"


@pytest.mark.skipif(not WHEELS or not (SDISTS / "0.23.0").is_dir(), reason="needs the gguf wheels and vLLM's sdists")
def test_table_is_what_the_tool_writes():
    sys.path.insert(0, str(ROOT / "tools"))
    import vllm_gguf_loader as tool

    text = tool.render(*tool.read_gguf(WHEELS), tool.read_loader(SDISTS))
    assert text == (ROOT / "knowledge" / "vllm" / "gguf_loader.yaml").read_text(encoding="utf-8")
