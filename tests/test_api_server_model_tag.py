"""From 0.10.0 `python -m vllm.entrypoints.openai.api_server` parses with make_arg_parser, which adds an
optional positional `model_tag` (0.10.0 openai/cli_args.py; 0.34.0 common/cli_args.py:440) that only
`vllm serve` reads: one stray word (`--disable_frontend_multiprocessing True`, dongteng/vllm_learn_fss
.vscode/launch.json, https://github.com/dongteng/vllm_learn_fss) is taken and ignored, not refused.
A second one, or any on 0.9.x, is still "unrecognized arguments"."""
from vllm_kb.engine.audit import audit

LINE = "python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-0.6B --enforce-eager True{more}\n"


def _stray(tmp_path, pin: str, more: str = ""):
    (tmp_path / "requirements.txt").write_text(pin)
    (tmp_path / "run.sh").write_text(LINE.format(more=more))
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    return [f.message["en"] for f in sr.remarks if f.code == "stray-positional" and f.priority == "P0"]


def test_one_stray_word_is_the_model_tag_from_0_10(tmp_path):
    assert _stray(tmp_path, "vllm==0.10.0\n") == []
    assert len(_stray(tmp_path, "vllm==0.9.2\n")) == 1
    (only,) = _stray(tmp_path, "vllm==0.11.0\n", " False")
    assert "False" in only
