"""An adapter path under a guessed flag (`--lora-path DIR`, vllm-project/vllm#13669) is not deleted
(that would start the base model alone): the change is vLLM's own form, `--enable-lora
--lora-modules NAME=DIR`, which every release from 0.3.2 parses. Never a safe edit: it is a guess."""
from pathlib import Path

import pytest
from vllm_kb.engine.audit import audit


def _changes(tmp_path: Path, line: str, pin: str = "0.7.3"):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "serve.sh").write_text(f"#!/bin/sh\n{line}\n")
    rep = audit(tmp_path, gpu="A100-80GB")
    (sr,) = rep.sites
    (f,) = [f for f in sr.remarks if f.code == "unknown-option"]
    return f, {(ch.op, ch.target): ch for ch in sr.changes}


@pytest.mark.parametrize("flag", ["--lora-path", "--lora_path", "--adapter-path", "--lora"])
def test_guessed_lora_flag_becomes_lora_modules(tmp_path, flag):
    f, got = _changes(tmp_path, f"vllm serve meta-llama/Llama-3.1-8B-Instruct {flag} /data/ckpt/sql-lora/")
    assert f.priority == "P0" and not f.safe
    dash = "_" if "_" in flag else "-"  # the site's own spelling of flags
    assert got[("set", "lora_modules")].after == f"--lora{dash}modules sql-lora=/data/ckpt/sql-lora/"
    assert got[("set", "enable_lora")].after == f"--enable{dash}lora"
    assert ("unset", flag.lstrip("-").replace("-", "_")) in got or any(op == "unset" for op, _ in got)
    assert "--lora-modules sql-lora=/data/ckpt/sql-lora/" in f.message["en"] and "--lora-modules" in f.message["zh"]


def test_enable_lora_already_there_is_kept(tmp_path):
    _, got = _changes(tmp_path, "vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora --lora-path ./out")
    assert ("set", "enable_lora") not in got and got[("set", "lora_modules")].after == "--lora-modules out=./out"


def test_an_unrelated_unknown_flag_is_still_removed(tmp_path):
    _, got = _changes(tmp_path, "vllm serve meta-llama/Llama-3.1-8B-Instruct --frobnicate-widgets 3")
    assert ("set", "lora_modules") not in got and ("set", "enable_lora") not in got


def test_release_without_lora_modules_falls_back(tmp_path):
    # --lora-modules arrived in 0.3.2 (openai/api_server.py:96)
    f, got = _changes(tmp_path, "python -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-2-7b-hf --lora-path ./out", "0.3.0")
    assert ("set", "lora_modules") not in got
