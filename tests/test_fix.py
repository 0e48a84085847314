"""`--diff` and `--fix` on copies of the fixture projects (tests/fixtures is never written):
formatting and comments survive, only files inside the audited root are written, and a second
audit finds nothing left to fix."""
from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from vllm_kb.engine.kb.errors import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE

FIXTURES = Path(__file__).parent / "fixtures"
PROJECTS = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())
GPU = ("--gpu", "H100 x4", "--isolated")


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def pristine() -> dict[str, bytes]:
    return snapshot(FIXTURES)


def copy(name: str, tmp_path: Path) -> Path:
    dst = tmp_path / name
    shutil.copytree(FIXTURES / name, dst, symlinks=True)
    return dst


def left_to_fix(cli, root: Path, unsafe: bool) -> list[dict]:
    code, out, err = cli("audit", str(root), *GPU, "--format", "json")
    assert code in (EXIT_CLEAN, EXIT_FINDINGS), err
    return [c for s in json.loads(out)["sites"] for c in s["changes"] if c["fixable"] and (c["safe"] or unsafe)]


def assert_still_parses(root: Path) -> None:
    for p in root.rglob("*"):
        if p.suffix == ".py":
            ast.parse(p.read_text())
        elif p.suffix in (".yaml", ".yml"):
            list(yaml.safe_load_all(p.read_text()))
        elif p.suffix == ".sh" or (p.is_file() and p.read_bytes()[:2] == b"#!"):
            assert subprocess.run(["bash", "-n", str(p)], capture_output=True, check=False).returncode == 0, p


@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
@pytest.mark.parametrize("name", PROJECTS)
def test_fix_then_audit_leaves_nothing_to_fix(cli, tmp_path, name, unsafe, pristine):
    root = copy(name, tmp_path)
    before = snapshot(root)
    extra = ("--unsafe-fixes",) if unsafe else ()
    wanted = left_to_fix(cli, root, unsafe)
    code, diff, err = cli("audit", str(root), *GPU, "--diff", *extra)
    assert snapshot(root) == before  # --diff writes nothing
    assert (code == EXIT_FINDINGS) == bool(diff) and bool(diff) == bool(wanted), err
    code, _, err = cli("audit", str(root), *GPU, "--fix", *extra, "--format", "json")
    assert code in (EXIT_CLEAN, EXIT_FINDINGS), err
    assert left_to_fix(cli, root, unsafe) == []
    changed = {k for k, v in snapshot(root).items() if before.get(k) != v}
    assert bool(changed) == bool(wanted)
    assert changed == {line[6:] for line in diff.splitlines() if line.startswith("+++ b/")}  # --diff showed just that
    assert_still_parses(root)
    assert snapshot(FIXTURES) == pristine


def test_fix_keeps_formatting_and_says_what_it_did(cli, tmp_path):
    root = copy("stale-serve", tmp_path)
    script = root / "scripts/serve.sh"
    old = script.read_text()
    _, _, err = cli("audit", str(root), *GPU, "--fix")
    new = script.read_text()
    assert "fixed: 7 change(s) in 1 file(s)" in err and "scripts/serve.sh:18: remove `--swap-space 16` (B4)" in err
    assert "more fix(es) depend on hardware, accuracy or the exact vLLM release" in err
    removed = [line for line in old.splitlines() if line not in new.splitlines()]
    assert all(any(w in line for w in ("VLLM_USE_V1", "--swap-space", "--num-scheduler-steps", "--use-v2-block-manager",
                                       "--max-seq-len-to-capture", "--disable-log-requests", "--calculate-kv-scales"))
               for line in removed), removed
    assert [line for line in new.splitlines() if line not in old.splitlines()] == []  # only removals
    assert new.rstrip().endswith('"$@"')
    assert os.stat(script).st_mode == os.stat(FIXTURES / "stale-serve/scripts/serve.sh").st_mode


def test_diff_in_chinese_and_quiet(cli, tmp_path):
    root = copy("stale-serve", tmp_path)
    code, out, err = cli("audit", str(root), *GPU, "--diff", "--lang", "zh")
    assert code == EXIT_FINDINGS and out.startswith("--- a/scripts/serve.sh") and "将修复" in err
    code, out, err = cli("audit", str(root), *GPU, "--diff", "-q")
    assert out and err == ""


def test_fix_never_writes_outside_the_root(cli, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    target = outside / "serve.sh"
    target.write_text("vllm serve m --swap-space 4\n")
    root = tmp_path / "proj"
    root.mkdir()
    (root / "requirements.txt").write_text("vllm==0.33.0\n")
    (root / "serve.sh").symlink_to(target)
    code, _, err = cli("audit", str(root), *GPU, "--fix")
    assert target.read_text() == "vllm serve m --swap-space 4\n"
    assert code != EXIT_USAGE or "outside" in err


def test_fix_through_a_symlink_inside_the_root_edits_the_target(cli, tmp_path):
    root = tmp_path / "proj"
    (root / "real").mkdir(parents=True)
    (root / "requirements.txt").write_text("vllm==0.33.0\n")
    (root / "real/serve.sh").write_text("# keep me\nvllm serve m --swap-space 4  # trailing\n")
    (root / "serve.sh").symlink_to(root / "real/serve.sh")
    cli("audit", str(root), *GPU, "--fix")
    assert (root / "serve.sh").is_symlink()
    assert (root / "real/serve.sh").read_text() == "# keep me\nvllm serve m  # trailing\n"


def test_refuses_a_file_changed_while_fixing(tmp_path):
    from vllm_kb.engine.fix import apply as apply_fixes

    (tmp_path / "a.sh").write_text("new\n")
    res = apply_fixes.FixResult(originals={"a.sh": "old\n"}, texts={"a.sh": "fixed\n"})
    with pytest.raises(apply_fixes.WriteError, match="changed on disk"):
        apply_fixes.write(tmp_path, res)
    assert (tmp_path / "a.sh").read_text() == "new\n"


def test_write_refuses_a_path_that_resolves_outside(tmp_path):
    from vllm_kb.engine.fix import apply as apply_fixes

    outside = tmp_path / "outside.sh"
    outside.write_text("old\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.sh").symlink_to(outside)
    res = apply_fixes.FixResult(originals={"a.sh": "old\n"}, texts={"a.sh": "fixed\n"})
    with pytest.raises(apply_fixes.WriteError, match="outside"):
        apply_fixes.write(root, res)
    assert outside.read_text() == "old\n"


# --- which fixes a run applies (like ruff: --select/--ignore, fixable/unfixable) -----------------

SELECT_SCRIPT = "#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct \\\n    --swap-space 8 \\\n    --enforce-eager \\\n    --disable-log-requests\n"


def _select_project(tmp_path: Path, config: str = "") -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "requirements.txt").write_text("vllm==0.33.0\n")
    (root / "serve.sh").write_text(SELECT_SCRIPT)
    if config:
        (root / ".vllm-kb.toml").write_text(config)
    return root


@pytest.mark.parametrize("args, kept, gone", [
    (("--select", "B4"), ["--enforce-eager", "--disable-log-requests"], ["--swap-space"]),
    (("--ignore", "B4"), ["--swap-space"], ["--disable-log-requests"]),
    (("--fixable", "B4"), ["--enforce-eager", "--disable-log-requests"], ["--swap-space"]),
    (("--unfixable", "B4"), ["--swap-space"], ["--disable-log-requests"]),
    (("--select", "B4", "--unsafe-fixes"), ["--enforce-eager", "--disable-log-requests"], ["--swap-space"]),
])
def test_fix_applies_only_the_selected_checks(cli, tmp_path, args, kept, gone):
    root = _select_project(tmp_path)
    code, _, err = cli("audit", str(root), "--gpu", "H100-80GB x8", "--fix", *args)
    text = (root / "serve.sh").read_text()
    assert all(k in text for k in kept) and not any(g in text for g in gone), (text, err)


def test_unsafe_fixes_honour_the_selection(cli, tmp_path):
    root = _select_project(tmp_path)
    cli("audit", str(root), "--gpu", "H100-80GB x8", "--fix", "--unsafe-fixes", "--unfixable", "A2")
    assert "--enforce-eager" in (root / "serve.sh").read_text()  # A2 removes it, but only as an unsafe fix


def test_config_fixable_and_the_summary_says_what_was_held_back(cli, tmp_path):
    root = _select_project(tmp_path, 'fixable = ["B4"]\nunfixable = ["A2"]\n')
    code, _, err = cli("audit", str(root), "--gpu", "H100-80GB x8", "--fix", "--unsafe-fixes")
    text = (root / "serve.sh").read_text()
    assert "--swap-space" not in text and "--enforce-eager" in text and "--disable-log-requests" in text
    assert "not in the fixable list" in err and "marked unfixable" in err and "A2" in err, err


def test_config_rejects_unknown_fixable_ids(cli, tmp_path):
    root = _select_project(tmp_path, 'unfixable = ["B99"]\n')
    code, _, err = cli("audit", str(root), "--gpu", "H100-80GB x8")
    assert code == EXIT_USAGE and "unfixable[0]" in err


@pytest.mark.parametrize("script", [
    # an array's items read through "${ARGS[@]}": the last item has no span of its own
    'ARGS=(--api-key "$KEY" --swap-space 4)\nvllm serve org/m "${ARGS[@]}" --port 8010\necho done\n',
    # a split word ($EXTRA unquoted) and an inner script (bash -c): pieces without a place
    'EXTRA="--swap-space 4"\nvllm serve org/m $EXTRA --port 8011\necho done\n',
    'bash -c "vllm serve org/m --swap-space 4 --port 8012"\necho done\n',
])
def test_words_without_a_place_in_the_file_are_never_edited(cli, tmp_path, script):
    """A fix edits the words the scanner placed; one whose word the shell model only read (-1: no
    span) is left for a person — its slice would have run to the end of the file. An array item the
    scanner does place (its own bytes in `ARGS=(…)`, since the expansion keeps each item's line) is
    removed as exactly those bytes."""
    (tmp_path / "requirements.txt").write_text("vllm==0.33.0\n")
    (tmp_path / "serve.sh").write_text("#!/bin/bash\n" + script)
    code, out, err = cli("audit", str(tmp_path), *GPU, "--fix", "--unsafe-fixes")
    text = (tmp_path / "serve.sh").read_text()
    assert text.endswith("echo done\n"), text
    array = next((ln for ln in text.splitlines() if ln.startswith("ARGS=(")), None)
    assert "--swap-space 4" in text or array == 'ARGS=(--api-key "$KEY")', text


def test_no_keyword_is_added_to_a_call_that_spreads_a_mapping(tmp_path, cli):
    # vLLM's audio example shape: LLM(**(asdict(engine_args) | {...})). The spread already carries the
    # engine arguments; `LLM(**d, kv_cache_dtype="fp8")` would raise "got multiple values for keyword argument"
    (tmp_path / "requirements.txt").write_text("vllm==0.34.0\n")
    src = ("from dataclasses import asdict\nfrom vllm import LLM, EngineArgs\n"
           "args = EngineArgs(model='Qwen/Qwen2.5-7B-Instruct', max_model_len=8192)\n"
           "llm = LLM(**(asdict(args) | {'seed': 0}))\n")
    (tmp_path / "run.py").write_text(src)
    cli("audit", str(tmp_path), "--gpu", "H100-80GB", "--fix", "--unsafe-fixes", "-q")
    text = (tmp_path / "run.py").read_text()
    assert text.splitlines()[3] == "llm = LLM(**(asdict(args) | {'seed': 0}))"
    ast.parse(text)
