"""Every kind of "settings may arrive unseen" note a scanner records has its words in en and zh.

A missing string is not a cosmetic slip: the report raises on it, so one conditional keyword in
a real repository (vLLM's own tree has them) stopped the whole audit.
"""
import ast
from pathlib import Path

import yaml


ROOT = Path(__file__).resolve().parents[1]


def _opaque_codes() -> set[str]:
    codes: set[str] = set()
    for path in (ROOT / "engine" / "scan").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
                if {"code", "what", "where"} <= set(keys):
                    for k, v in zip(node.keys, node.values):
                        if isinstance(k, ast.Constant) and k.value == "code":
                            codes |= {c.value for c in ast.walk(v) if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    return codes


def test_every_opaque_code_has_words_in_both_languages():
    strings = yaml.safe_load((ROOT / "knowledge" / "i18n.yaml").read_text(encoding="utf-8"))
    flat = strings.get("strings", strings)
    codes = _opaque_codes()
    assert {"conditional", "spread", "command-line"} <= codes
    missing = [f"opaque.{c} ({lang})" for c in sorted(codes) for lang in ("en", "zh")
               if not (flat.get(f"opaque.{c}") or {}).get(lang)]
    assert not missing, missing


def test_a_conditional_engine_argument_is_reported_not_fatal(tmp_path, cli):
    # A subprocess argv that adds a flag under a condition (seen in vLLM's own benchmarks).
    (tmp_path / "launch.py").write_text(
        "import subprocess, sys\n"
        "cmd = ['vllm', 'serve', 'Qwen/Qwen2.5-7B-Instruct', '--port', '8000']\n"
        "if len(sys.argv) > 1:\n"
        "    cmd += ['--enforce-eager']\n"
        "subprocess.run(cmd)\n", encoding="utf-8")
    (tmp_path / "run_args.py").write_text(
        "import argparse\n"
        "from vllm import LLM, EngineArgs\n"
        "parser = argparse.ArgumentParser()\n"
        "EngineArgs.add_cli_args(parser)\n"
        "args = parser.parse_args()\n"
        "llm = LLM(**vars(args))\n", encoding="utf-8")
    for lang, word in (("en", "condition"), ("zh", "条件")):
        for fmt in ("text", "json", "markdown"):
            code, out, err = cli("audit", str(tmp_path), "--gpu", "H100-80GB", "--format", fmt, "--lang", lang, "--exit-zero")
            assert code == 0, err
            assert word in out and "vars(args)" in out  # the spread note of run_args.py, in every format
