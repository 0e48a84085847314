"""Changes land where the setting is written, and nothing else in the file moves."""
from vllm_kb.engine.audit import audit
from vllm_kb.engine.fix import edits, python_edits

SCRIPT = """#!/bin/bash
export VLLM_USE_V1=0
vllm serve m \\
    --swap-space 16 \\
    --gpu_memory_utilization=0.6 \\
    --enforce-eager \\
    "$@"
"""


def apply_all(rep_site, read):
    by_file = {}
    from vllm_kb.engine.fix.text_edits import file_edits

    for f, es in file_edits(rep_site.site, rep_site.changes, read).items():
        by_file[f] = edits.apply(read(f), es)
    return by_file


def test_shell_script_fix_keeps_formatting(tmp_path):
    (tmp_path / "serve.sh").write_text(SCRIPT)
    (tmp_path / "requirements.txt").write_text("vllm==0.33.0\n")
    rep = audit(tmp_path, gpu="H100 x1")
    (site,) = rep.sites
    new = apply_all(site, lambda f: (tmp_path / f).read_text())["serve.sh"]
    assert "--swap-space" not in new and "VLLM_USE_V1" not in new and "--enforce-eager" not in new
    assert "--gpu_memory_utilization=0.92 \\\n" in new  # same spelling, new value
    assert new.startswith("#!/bin/bash\n") and new.rstrip().endswith('"$@"')
    lines = new.splitlines()
    assert "    --kv-cache-dtype fp8 \\" in lines  # added on its own continuation line
    assert lines[-1] == '    "$@"'  # ... before the forwarded args


def test_python_fix_edits_the_dict_entry_not_the_call(tmp_path):
    (tmp_path / "job.py").write_text(
        'from vllm import LLM\nKW = dict(\n    gpu_memory_utilization=0.5,\n    enable_prefix_caching=False,\n)\n'
        'llm = LLM("Qwen/Qwen2.5-7B-Instruct", **KW)\n')
    rep = audit(tmp_path, gpu="H100 x1", vllm_version="0.33.0")
    (site,) = rep.sites
    new = apply_all(site, lambda f: (tmp_path / f).read_text())["job.py"]
    assert "gpu_memory_utilization=0.92," in new and "enable_prefix_caching" not in new
    # the additions go to the call, after **KW, in the order of their priority (B3 P1, then B2's P2 guard on V1)
    call = next(line for line in new.splitlines() if line.startswith("llm = LLM("))
    assert call.startswith('llm = LLM("Qwen/Qwen2.5-7B-Instruct", **KW, ') and call.endswith(")")
    assert sorted(call[len('llm = LLM("Qwen/Qwen2.5-7B-Instruct", **KW, '):-1].split(", ")) == [
        'kv_cache_dtype="fp8"', "max_model_len=16384"]
    compile(new, "job.py", "exec")


def test_remove_and_insert_primitives():
    text = "f(\n    a=1,\n    b=2,\n)\n"
    assert edits.apply(text, [python_edits.remove_python_item(text, text.index("a=1"), text.index("a=1") + 3)]) == "f(\n    b=2,\n)\n"
    line = "vllm serve m --x 1 --y\n"
    e = edits.remove_words(line, line.index("--x"), line.index("--x") + 5)
    assert edits.apply(line, [e]) == "vllm serve m --y\n"


def test_removing_the_last_argument_takes_the_continuation_with_it():
    text = "vllm serve m \\\n    --max-num-seqs 256 \\\n    --enforce-eager\necho done\n"
    a = text.index("--enforce-eager")
    e = edits.remove_words(text, a, a + len("--enforce-eager"))
    assert edits.apply(text, [e]) == "vllm serve m \\\n    --max-num-seqs 256\necho done\n"


def test_appending_after_a_removed_last_argument(tmp_path):
    # the new flags follow the argument before the removed one, on continuation lines of their own
    (tmp_path / "serve.sh").write_text("#!/bin/bash\nvllm serve meta-llama/Llama-3.1-8B-Instruct \\\n"
                                       "    --max-num-seqs 256 \\\n    --enforce-eager\n")
    (tmp_path / "requirements.txt").write_text("vllm==0.33.0\n")
    (site,) = audit(tmp_path, gpu="H100 x1").sites
    new = apply_all(site, lambda f: (tmp_path / f).read_text())["serve.sh"]
    assert "--enforce-eager" not in new and "--kv-cache-dtype fp8" in new
    lines = new.splitlines()
    cmd = lines[next(i for i, ln in enumerate(lines) if ln.startswith("vllm serve")):]
    assert all(ln.endswith("\\") for ln in cmd[:-1]) and not cmd[-1].endswith("\\")
    assert all(ln.startswith("    --") for ln in cmd[1:])


def test_insertion_inside_a_replaced_span_goes_after_it():
    text = "a --x 1\n"
    out = edits.apply(text, [edits.TextEdit(2, 7, "--x 2"), edits.TextEdit(5, 5, " --y 3")])
    assert out == "a --x 2 --y 3\n"


def test_removing_a_python_statement_keeps_its_neighbours_on_the_line():
    text = 'import os\nos.environ["A"] = "1"; os.environ["B"] = "0"\nos.environ["C"] = "0"  # old\nx = 1\n'
    b = text.index('os.environ["B"]')
    assert edits.apply(text, [python_edits.remove_statement(text, b, text.index("\n", b))]) == \
        'import os\nos.environ["A"] = "1"\nos.environ["C"] = "0"  # old\nx = 1\n'
    a = text.index('os.environ["A"]')
    assert edits.apply(text, [python_edits.remove_statement(text, a, text.index(";", a))]) == \
        'import os\nos.environ["B"] = "0"\nos.environ["C"] = "0"  # old\nx = 1\n'
    c = text.index('os.environ["C"]')
    assert edits.apply(text, [python_edits.remove_statement(text, c, text.index("  #", c))]) == \
        'import os\nos.environ["A"] = "1"; os.environ["B"] = "0"\nx = 1\n'
