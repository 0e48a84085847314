"""A Python program a shell script hands to Python in a here-document (`python - <<'EOF'`, `cat > x.py <<EOF`)
is read at the script's own lines (engine/scan/heredoc_python.py). PshySimon/DB-Opt-R1
(https://github.com/PshySimon/DB-Opt-R1, scripts/setup_sm120_vllm_flashinfer_env.sh) writes an `LLM(…)`
smoke test so, after `pip install vllm==$VLLM_VERSION` with 0.20.0 as the default: a missed site in eval66."""
from __future__ import annotations

from pathlib import Path

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan import heredoc_python

QUOTED = """\
#!/bin/bash
set -e
echo "smoke test"
python - <<'EOF'
from vllm import LLM

llm = LLM(model="Qwen/Qwen2.5-7B-Instruct",
          tensor_parallel_size=3)
print(llm.generate("hi"))
EOF
echo done
"""

UNQUOTED = """\
#!/bin/bash
MODEL=${MODEL:-Qwen/Qwen2.5-7B-Instruct}
LEN=$(cat len.txt)
cat > "$WORK/smoke.py" <<PY
from vllm import LLM

def main():
    llm = LLM(
        model="$MODEL",
        max_model_len=$LEN,
        tensor_parallel_size=3,
    )

main()
PY
python "$WORK/smoke.py"
"""


def _site(tmp_path: Path, name: str, text: str, req: str = "vllm==0.7.0\n"):
    (tmp_path / name).write_text(text)
    (tmp_path / "requirements.txt").write_text(req)
    return audit(tmp_path, gpu="A10G x4").sites


def test_a_quoted_heredoc_python_runs_is_a_site_at_the_script_lines(tmp_path: Path) -> None:
    (sr,) = _site(tmp_path, "smoke.sh", QUOTED)
    assert (sr.site.file, sr.site.line, sr.site.kind) == ("smoke.sh", 7, "LLM()")
    assert sr.facts["model"]["name"] == "Qwen/Qwen2.5-7B-Instruct" and sr.facts["engine"]["tensor_parallel_size"] == 3
    assert sr.site.settings["tensor_parallel_size"].line == 8


def test_an_unquoted_body_leaves_what_the_shell_fills_unknown(tmp_path: Path) -> None:
    (sr,) = _site(tmp_path, "setup.sh", UNQUOTED)
    assert (sr.site.line, sr.facts["engine"]["tensor_parallel_size"]) == (8, 3)
    model, mml = sr.site.model, sr.site.settings["max_model_len"]
    assert (model.value, model.resolved, model.raw) == (None, False, '"$MODEL"')  # shown as written, never `_MODEL__`
    assert (mml.value, mml.resolved, mml.raw) == (None, False, "$LEN")


def test_fix_edits_only_the_targeted_bytes_inside_the_heredoc(cli, tmp_path: Path) -> None:
    literal = UNQUOTED.replace('"$MODEL"', '"Qwen/Qwen2.5-7B-Instruct"')  # the model known, `$LEN` still the shell's
    for name, text in (("smoke.sh", QUOTED), ("setup.sh", literal)):
        root = tmp_path / name.split(".")[0]
        root.mkdir()
        _site(root, name, text)
        cli("audit", str(root), "--gpu", "A10G x4", "--fix", "--select", "L1", "-q")
        assert (root / name).read_text() == text.replace("tensor_parallel_size=3", "tensor_parallel_size=4")


def test_the_install_earlier_in_the_script_is_the_release(tmp_path: Path) -> None:
    text = 'VLLM_VERSION="${VLLM_VERSION:-0.20.0}"\npip install "vllm==$VLLM_VERSION"\n' + QUOTED.split("\n", 1)[1]
    (sr,) = _site(tmp_path, "setup.sh", text, req="vllm==0.11.0\n")
    assert sr.site.installed and sr.site.installed[0] == "0.20.0"


def test_heredocs_python_does_not_run_are_not_read(tmp_path: Path) -> None:
    body = "from vllm import LLM\nllm = LLM(model='Qwen/Qwen2.5-7B-Instruct')\n"
    for i, head in enumerate(("cat > notes.md <<'EOF'", "cat <<'EOF'", "cat > run.sh <<'EOF'", "mysql -u root <<'EOF'",
                              "cat > cfg.txt <<'EOF'\n# not python")):
        root = tmp_path / str(i)
        root.mkdir()
        assert not _site(root, "a.sh", f"{head}\n{body}EOF\n"), head


def test_what_counts_as_python_running_or_written():
    body = "from vllm import LLM\nLLM(model='m')\nEOF\n"
    for head in ("python - <<'EOF'", "python3.11 <<EOF", '"${PYTHON_BIN}" - <<EOF', "cat <<EOF | python", "uv run python - <<-EOF",
                 "cat > /tmp/smoke.py <<'EOF'", 'cat > "$S" <<EOF', "tee x.py <<EOF >/dev/null"):
        assert heredoc_python.bodies(f"{head}\n{body}"), head
    assert not heredoc_python.bodies("python <<<'print(1)'\nfrom vllm import LLM\n")


def test_filled_keeps_lengths_and_turns_a_filled_literal_into_a_name():
    body = 'x = "$M"\ny = $LEN\nz = "${A:-b}/c"\nw = f"{k}-$(date)"\np = """\n$P\n"""\nq = \\$NOT\n'
    out = heredoc_python.filled(body)
    assert len(out) == len(body) and out.count("\n") == body.count("\n") and "$" not in out.replace("\\$NOT", "")
    assert out.startswith("x = _M__\ny = _LEN\n") and '"""' in out
    compile(out.replace("\\$NOT", "0"), "<body>", "exec")



INLINE = """\
#!/bin/bash
MODEL=Qwen/Qwen2.5-7B-Instruct
python -c "
from vllm import LLM
llm = LLM(model=\\"$MODEL\\", tensor_parallel_size=3)
"
python3 -c 'from vllm import LLM; LLM(model="Qwen/Qwen2.5-7B-Instruct", tensor_parallel_size=3)'
python -c "import vllm; print(vllm.__version__)"
"""


def test_the_program_of_python_c_is_read_at_the_script_lines(cli, tmp_path: Path) -> None:
    dq, sq = sorted(_site(tmp_path, "check.sh", INLINE), key=lambda r: r.site.line)
    assert (dq.site.line, sq.site.line) == (5, 7)
    assert dq.site.model.value is None and "$MODEL" in dq.site.model.raw  # the shell's value: unknown
    assert dq.site.settings["tensor_parallel_size"].value == 3
    assert sq.site.model.value == "Qwen/Qwen2.5-7B-Instruct" and sq.site.settings["tensor_parallel_size"].value == 3
    cli("audit", str(tmp_path), "--gpu", "A10G x4", "--fix", "--select", "L1", "-q")
    single = 'LLM(model="Qwen/Qwen2.5-7B-Instruct", tensor_parallel_size='
    assert (tmp_path / "check.sh").read_text() == INLINE.replace(single + "3", single + "4")  # the single-quoted program's bytes only


def test_dq_keeps_offsets_and_puts_the_space_outside_the_literal():
    body = 'LLM(model=\\"Qwen/Q\\", x=\\"a\\")'
    out = heredoc_python._dq(body)
    assert len(out) == len(body) and out == 'LLM(model= "Qwen/Q" , x= "a" )'
    assert heredoc_python.inline_bodies("python -c 'print(1)'\n") == []  # no vLLM


def test_fix_never_writes_a_character_the_shell_reads_in_that_string():
    """`kv_cache_dtype="fp8"` inserted into `python -c "…"` would end the shell's string: told, not written."""
    from vllm_kb.engine.fix.edits import TextEdit
    from vllm_kb.engine.fix.text_edits import _quoting_kept
    from vllm_kb.engine.scan.site import Site

    site = Site(file="a.sh", line=1, syntax="python-call", kind="LLM()", mode="standalone_offline", mode_evidence="a.sh:1")
    for quoting, bad, good in (("dq", 'x="fp8"', "x=4"), ("sq", "x='fp8'", 'x="fp8"'), ("heredoc", "x=f'{a}$b'", 'x="fp8"')):
        site.launch["shell_quoting"] = quoting
        assert _quoting_kept(site, TextEdit(0, 0, bad)) is None, quoting
        assert _quoting_kept(site, [TextEdit(0, 0, good)]) is not None, quoting
    site.launch.pop("shell_quoting")
    assert _quoting_kept(site, TextEdit(0, 0, 'x="fp8"')) is not None
