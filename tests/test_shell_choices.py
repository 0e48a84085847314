"""An argv array set in the branches of an undecided `if` (engine/scan/shell_choices.py): every branch is a
possible value. Agentic-Scene-Generation/Task3.2 (https://github.com/Agentic-Scene-Generation/Task3.2,
scripts/start_vllm.sh and scripts/run_experiment.sh) picks `vllm serve M …` or `python -m
vllm.entrypoints.openai.api_server --model M …` by whether the `vllm` command exists, then runs
`"${VLLM_ARGS[@]}"`: two sites eval66 missed."""
from __future__ import annotations

from pathlib import Path

from vllm_kb.engine.audit import audit

TASK32 = """\
#!/bin/bash
MODE=""
if command -v vllm >/dev/null 2>&1; then
    MODE="cli"
else
    MODE="python-module"
fi
if [ "$MODE" = "cli" ]; then
    VLLM_ARGS=(
        vllm serve "Qwen/Qwen2.5-7B-Instruct"
        --tensor-parallel-size 2
        --max-model-len 8192
    )
else
    VLLM_ARGS=(
        python -m vllm.entrypoints.openai.api_server
        --model "Qwen/Qwen2.5-7B-Instruct"
        --tensor-parallel-size 2
        --max-model-len 8192
    )
fi
if [ "$EAGER" = "1" ]; then
    VLLM_ARGS+=(--enforce-eager)
fi
"${VLLM_ARGS[@]}" > vllm.log 2>&1 &
"""

FLAGS = """\
#!/bin/bash
if [ "$BIG" = "1" ]; then
    ARGS=(--tensor-parallel-size 4 --enforce-eager)
else
    ARGS=(--tensor-parallel-size 2)
fi
vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192 "${ARGS[@]}"
"""


def _sites(tmp_path: Path, text: str, req: str = "vllm==0.11.0\n"):
    (tmp_path / "start.sh").write_text(text)
    (tmp_path / "requirements.txt").write_text(req)
    return audit(tmp_path, gpu="H100-80GB x4").sites


def test_an_array_either_branch_sets_is_one_site(tmp_path: Path) -> None:
    (sr,) = _sites(tmp_path, TASK32)
    site = sr.site
    assert site.line == 25 and site.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert site.settings["tensor_parallel_size"].value == 2 and site.settings["max_model_len"].value == 8192
    assert set(site.launch["branch_kinds"]) == {"vllm serve", "api_server"}


def test_flags_only_some_branches_give_are_unknown_never_one_branch(tmp_path: Path) -> None:
    (sr,) = _sites(tmp_path, FLAGS)
    s = sr.site.settings
    assert s["max_model_len"].value == 8192  # written outside the branches
    tp, eager = s["tensor_parallel_size"], s["enforce_eager"]
    assert (tp.value, tp.resolved) == (None, False) and "2" in tp.note and "4" in tp.note
    assert (eager.value, eager.resolved) == (None, False) and "(not given)" in eager.note


def test_fix_writes_nothing_inside_a_branch(cli, tmp_path: Path) -> None:
    """`--swap-space` is gone from 0.18 on: the branch that passes it fails, yet the edit is told, not
    written — each branch's array is its own place, and the launch line holds neither."""
    text = FLAGS.replace("--enforce-eager", "--swap-space 8")
    _sites(tmp_path, text, req="vllm==0.20.0\n")
    cli("audit", str(tmp_path), "--gpu", "H100-80GB x4", "--fix", "-q")
    after = (tmp_path / "start.sh").read_text().splitlines()
    assert after[:6] == text.splitlines()[:6]


def test_branches_that_start_nothing_or_agree_element_by_element(tmp_path: Path) -> None:
    none = TASK32.replace('vllm serve "Qwen/Qwen2.5-7B-Instruct"', "echo skip").replace(
        "python -m vllm.entrypoints.openai.api_server", "echo nothing here")
    (tmp_path / "a").mkdir()
    assert not _sites(tmp_path / "a", none)
    same_length = FLAGS.replace("ARGS=(--tensor-parallel-size 4 --enforce-eager)", "ARGS=(--tensor-parallel-size 4)")
    (tmp_path / "b").mkdir()
    (sr,) = _sites(tmp_path / "b", same_length)
    assert sr.site.settings["tensor_parallel_size"].value is None and "enforce_eager" not in sr.site.settings


def test_case_arms_with_a_catch_all_set_the_array_on_every_path(tmp_path: Path) -> None:
    """A `*)` arm leaves no path that skips every arm: the arms' arrays are all the values there are."""
    text = """\
case "$MODE" in
  big) ARGS=(vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 4 --enforce-eager) ;;
  *) ARGS=(python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 2) ;;
esac
"${ARGS[@]}"
"""
    (sr,) = _sites(tmp_path, text)
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct" and sr.site.settings["tensor_parallel_size"].value is None


def test_a_command_line_string_the_branches_set_differently(tmp_path: Path) -> None:
    """`CMD="vllm serve M …"` or `CMD="python -m vllm.entrypoints.openai.api_server --model M …"`, run as
    `nohup $CMD &`: split as the shell splits it, once per branch; `"$CMD"` is one word, no program."""
    text = """\
if command -v vllm >/dev/null; then
    CMD="vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 2 --enforce-eager"
else
    CMD="python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 2"
fi
nohup $CMD > vllm.log 2>&1 &
"""
    (sr,) = _sites(tmp_path, text)
    s = sr.site.settings
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct" and s["tensor_parallel_size"].value == 2
    assert s["enforce_eager"].value is None and "(not given)" in s["enforce_eager"].note
    (tmp_path / "b").mkdir()
    assert not _sites(tmp_path / "b", text.replace("nohup $CMD", 'nohup "$CMD"'))
