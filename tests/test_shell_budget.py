"""A shell file whose walk would cost the number of its call paths (functions called from every arm of
nested `case`/`if` branches, as av/harbor's harbor.sh, eval111) stops at a bound of steps, not of
seconds, and is read again without control flow (engine/scan/shell_budget.py, shell_flat.py): the
audit ends, the launch is still found at its own line, and the report says how the file was read."""
from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb.messages import msg
from vllm_kb.engine.scan import shell_budget


def _maze(levels: int, arms: int) -> str:
    """Function k dispatches on its argument to function k+1 from `arms` case arms and an `if`:
    arms ** levels paths from the top (each path also sets a variable, so every branch merges)."""
    out = ["#!/bin/bash", "MODEL=Qwen/Qwen2.5-7B-Instruct", "TP=2", 'log() { echo "$@" >&2; }']
    for k in range(levels):
        nxt = f"f{k + 1}" if k + 1 < levels else "log"
        items = " ".join(f'{a}) V{k}={a}; {nxt} "$2" "$1";;' for a in "abcdefgh"[:arms])
        out.append(f'f{k}() {{\n  case "$1" in {items} *) log none;; esac\n'
                   f'  if [ -n "$DEBUG" ]; then {nxt} "$1"; else log "$1"; fi\n}}')
    out.append('main() {\n  case "$1" in\n    serve)\n      vllm serve "$MODEL" --tensor-parallel-size "$TP"\n'
               '      ;;\n    *)\n      f0 "$2" "$3"\n      ;;\n  esac\n}')
    out.append('main "$@"')
    return "\n".join(out) + "\n"


def _serve_line(text: str) -> int:
    return next(k for k, line in enumerate(text.split("\n"), 1) if "vllm serve" in line)


def test_a_maze_of_calls_stops_at_its_step_bound_and_is_read_flat(tmp_path, monkeypatch):
    monkeypatch.setattr(shell_budget, "LIMIT", 20_000)  # the maze needs millions: the bound, not the size, decides
    text = _maze(levels=8, arms=6)
    (tmp_path / "run.sh").write_text(text)
    rep = audit(tmp_path)
    (skip,) = rep.skipped
    assert (skip.file, skip.code) == ("run.sh", "shell-too-complex")
    steps = int(skip.detail.split()[0])
    # one node, or one branch's copy of a small state, past the bound: never the maze's own size
    assert 20_000 < steps <= 20_000 + 16
    (sr,) = rep.sites  # the launch, read at its own line with the values the text gives it
    assert (sr.site.file, sr.site.line) == ("run.sh", _serve_line(text))
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert sr.site.settings["tensor_parallel_size"].value == 2


def test_the_bound_counts_steps_so_two_reads_agree(tmp_path, monkeypatch):
    monkeypatch.setattr(shell_budget, "LIMIT", 20_000)
    (tmp_path / "run.sh").write_text(_maze(levels=8, arms=6))
    first, second = audit(tmp_path), audit(tmp_path)
    assert [s.detail for s in first.skipped] == [s.detail for s in second.skipped]


def test_a_small_maze_is_walked_in_full(tmp_path, monkeypatch):
    monkeypatch.setattr(shell_budget, "LIMIT", 20_000)
    text = _maze(levels=3, arms=2)
    (tmp_path / "run.sh").write_text(text)
    rep = audit(tmp_path)
    assert rep.skipped == []
    (sr,) = rep.sites  # the call `main "$@"` runs it: the site is the call's, as for any function
    assert sr.site.settings["tensor_parallel_size"].value == 2


def test_the_note_is_written_in_both_languages():
    for lang in ("en", "zh"):
        text = msg("skip.shell-too-complex")[lang]
        assert text and "\x1b" not in text
    assert "control flow" in msg("skip.shell-too-complex")["en"]
