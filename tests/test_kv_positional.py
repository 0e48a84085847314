"""`vllm serve MODEL trust_remote_code=True` (MoonshotAI/Moonlight #26): a Python keyword written as a bare
word is one more positional argparse refuses. The stray-positional P0 names the flag it was meant as, its
fix rewrites that word (and absorbs L50's added --trust-remote-code: one edit), and `diagnose` names the
stray positional, not an option the release lacks (engine/scan/kv_positional.py)."""
import pytest

from vllm_kb.engine.advise.diagnose import launch
from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb.knowledge import load


def _site(tmp_path, line: str, pin: str = "0.8.4"):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "serve.sh").write_text(f"vllm serve Qwen/Qwen2.5-7B-Instruct {line}\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    return sr


@pytest.mark.parametrize("word,after", [
    ("trust_remote_code=True", "--trust-remote-code"),
    ("max_model_len=8192", "--max-model-len=8192"),
    ("enforce-eager=true", "--enforce-eager"),
])
def test_the_word_becomes_the_flag(tmp_path, word, after):
    sr = _site(tmp_path, word)
    (f,) = [f for f in sr.remarks if f.code == "stray-positional"]
    assert f.priority == "P0" and f"Write it as the flag: `{after}`" in f.message["en"] and "请写成命令行参数" in f.message["zh"]
    (ch,) = [c for c in sr.changes if "stray-positional" in c.checks]
    assert (ch.op, ch.before, ch.after) == ("rename", word, after)


def test_a_false_store_true_switch_is_only_named(tmp_path):
    sr = _site(tmp_path, "enforce_eager=False", "0.8.4")
    (f,) = [f for f in sr.remarks if f.code == "stray-positional"]
    assert "remove the word" in f.message["en"] and not [c for c in sr.changes if "stray-positional" in c.checks]


def test_a_word_that_names_no_argument_keeps_the_plain_words(tmp_path):
    sr = _site(tmp_path, "colour=blue")
    (f,) = [f for f in sr.remarks if f.code == "stray-positional"]
    assert f.message["en"].startswith("Unexpected positional argument colour=blue")


def test_diagnose_names_a_stray_positional_for_a_word_without_dashes():
    kb = load()
    assert launch.recognise(kb, "vllm: error: unrecognized arguments: trust_remote_code=True")[0].id == "stray-positional"
    assert launch.recognise(kb, "vllm: error: unrecognized arguments: --no-such-flag 1")[0].id == "not-in-version"


def test_diagnose_reads_a_bare_model_type_key_error_as_l52():
    kb = load()
    assert launch.recognise(kb, "KeyError: 'qwen2_5_omni'")[0].id == "L52"
    assert all(h.id != "L52" for h in launch.recognise(kb, "KeyError: 'model.layers.0.mlp.weight'"))
    hits = launch.recognise(kb, "AttributeError: 'Qwen2_5OmniConfig' object has no attribute 'num_attention_heads'")
    assert "L21" in [h.id for h in hits]
