"""engine/check/chat_template.py: a served checkpoint folder without any chat template (L286)."""
from __future__ import annotations

import json

from vllm_kb.engine.check.chat_template import no_chat_template
from vllm_kb.engine.kb.checkpoint import read_checkpoint


def _folder(tmp_path, tokenizer: dict | None, model_type: str = "chatglm", extra: str | None = None):
    m = tmp_path / "m"
    m.mkdir(parents=True)
    (m / "config.json").write_text(json.dumps({"model_type": model_type}), encoding="utf-8")
    if tokenizer is not None:
        (m / "tokenizer_config.json").write_text(json.dumps(tokenizer), encoding="utf-8")
    if extra:
        (m / extra).write_text("{}", encoding="utf-8")
    return read_checkpoint(tmp_path, "m", tmp_path)


def test_a_tokenizer_config_without_a_template(tmp_path):
    assert no_chat_template(_folder(tmp_path, {"tokenizer_class": "X"}), {})


def test_a_template_anywhere_or_a_tokenizer_of_its_own(tmp_path):
    assert not no_chat_template(_folder(tmp_path / "a", {"chat_template": "{{ x }}"}), {})
    assert not no_chat_template(_folder(tmp_path / "b", {}, extra="chat_template.jinja"), {})
    assert not no_chat_template(_folder(tmp_path / "c", {}, extra="chat_template.json"), {})
    assert not no_chat_template(_folder(tmp_path / "d", {}), {"tokenizer": "other/tok"})
    assert not no_chat_template(_folder(tmp_path / "e", None), {})  # no tokenizer_config.json read: unknown
    # transformers 5 keeps the template in chat_template.jinja only: a folder without it is a partial copy
    assert not no_chat_template(_folder(tmp_path / "f", {"tokenizer_class": "TokenizersBackend"}), {})


def test_model_types_vllm_brings_a_template_for(tmp_path):
    assert not no_chat_template(_folder(tmp_path, {}, model_type="paligemma"), {})
