"""Two removals of shell words that overlap on the blanks between them (engine/fix/edits.py
_merge_words): the report's single-pass diff shows both, byte for byte what --fix's passes write
(the first removal, then the second on the text the first left)."""
import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.fix import edits

HEAD = "vllm serve m \\\n"


def _span(text: str, words: str, nth: int = 0) -> tuple[int, int]:
    at = -1
    for _ in range(nth + 1):
        at = text.index(words, at + 1)
    return at, at + len(words)


def _passes(text: str, words: list[str]) -> str:
    """What --fix's passes make of it: one removal a pass, each placed on the text before it."""
    for w in words:
        text = edits.apply(text, [edits.remove_words(text, *_span(text, w))])
    return text


@pytest.mark.parametrize("body", [
    "    --swap-space 8 --enforce-eager \\\n    --max-num-seqs 256\n",  # opening a continued line
    "    --max-num-seqs 256 \\\n    --swap-space 8 --enforce-eager\n",  # the command's last line
    "    --swap-space 8 --enforce-eager --max-num-seqs 256 \\\n    --port 8000\n",  # words stay after them
    "    --swap-space 8\t --enforce-eager   --disable-log-stats \\\n    --port 8000\n",  # three, tabs and runs of blanks
    "    --enforce-eager \\\n    --swap-space 8\n",  # a whole line and the last line (the continuation between them)
    "    --swap-space 8 --enforce-eager \\\r\n    --port 8000\r\n",  # CRLF
])
def test_overlapping_word_removals_are_one_removal_as_the_passes_make_it(body):
    text = HEAD.replace("\n", "\r\n") + body if "\r\n" in body else HEAD + body
    drop = [w for w in ("--swap-space 8", "--enforce-eager", "--disable-log-stats") if w in text]
    together = edits.apply(text, [edits.remove_words(text, *_span(text, w)) for w in drop])
    assert together == _passes(text, drop)
    for w in drop:
        assert w not in together
    assert together.startswith("vllm serve m") and all(w in together for w in ("--max-num-seqs 256", "--port 8000") if w in text)


def test_removals_that_do_not_touch_are_left_as_they_were():
    text = HEAD + "    --swap-space 8 --port 8000 --enforce-eager\n"
    es = [edits.remove_words(text, *_span(text, w)) for w in ("--swap-space 8", "--enforce-eager")]
    assert edits.apply(text, es) == HEAD + "    --port 8000\n"


def test_a_merge_that_would_reach_past_the_words_is_not_made():
    # a removal of words and one of other bytes (an assignment rewritten) still conflict
    text = HEAD + "    --swap-space 8 --enforce-eager\n"
    a = edits.remove_words(text, *_span(text, "--swap-space 8"))
    b = edits.TextEdit(a.end - 1, a.end + 3, "X")
    with pytest.raises(edits.EditConflict):
        edits.apply(text, [a, b])


def test_the_reports_diff_shows_both_removals_and_fix_writes_the_same_bytes(tmp_path, cli):
    (tmp_path / "requirements.txt").write_text("vllm==0.33.0\n")
    script = "#!/bin/bash\nvllm serve meta-llama/Llama-3.1-8B-Instruct \\\n    --swap-space 8 --enforce-eager \\\n" \
             "    --max-num-seqs 256 --max-model-len 8192 --kv-cache-dtype fp8 --max-cudagraph-capture-size 64\n"
    (tmp_path / "serve.sh").write_text(script)
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    assert {c.target for c in sr.changes if c.priority in ("P0", "P1")} == {"swap_space", "enforce_eager"}
    (block,) = sr.after
    lines = block["text"].splitlines()
    assert lines[2].startswith("@@ -1,4 ") and "-    --swap-space 8 --enforce-eager \\" in lines
    shown = "".join(ln[1:] + "\n" for ln in lines[3:] if not ln.startswith("-"))  # the hunk spans the file
    code, out, err = cli("audit", str(tmp_path), "--gpu", "H100-80GB x1", "--fix", "--fixable", "B4,A2,A5", "--unsafe-fixes")
    written = (tmp_path / "serve.sh").read_text()
    assert written == shown == "#!/bin/bash\nvllm serve meta-llama/Llama-3.1-8B-Instruct \\\n" \
        "    --max-num-seqs 256 --max-model-len 8192 --kv-cache-dtype fp8 --max-cudagraph-capture-size 64\n", (written, shown)


@pytest.mark.parametrize("text,drop", [
    ('command: ["--model", "m", "--swap-space", "8", "--enforce-eager"]\n', ['"--swap-space", "8"', '"--enforce-eager"']),
    ('command: ["--model", "m", "--swap-space", "8", "--enforce-eager", "--port", "80"]\n', ['"--swap-space", "8"', '"--enforce-eager"']),
    ('command: ["--swap-space", "8", "--enforce-eager", "--model", "m"]\n', ['"--swap-space", "8"', '"--enforce-eager"']),
    ('args: [\n  "--model", "m",\n  "--swap-space", "8",\n  "--enforce-eager"\n]\n', ['"--swap-space", "8"', '"--enforce-eager"']),
])
def test_overlapping_flow_list_removals_are_one_removal_as_the_passes_make_it(text, drop):
    # flow_edits.flow_cut: an entry before the last takes the comma after it, the last the comma before it
    from vllm_kb.engine.fix.flow_edits import flow_cut

    together = edits.apply(text, [flow_cut(text, *_span(text, w)) for w in drop])
    one_by_one = text
    for w in drop:
        one_by_one = edits.apply(one_by_one, [flow_cut(one_by_one, *_span(one_by_one, w))])
    assert together == one_by_one and not any(w in together for w in drop)


def test_a_compose_flow_commands_diff_shows_both_removals(tmp_path):
    import yaml

    src = ('services:\n  vllm:\n    image: vllm/vllm-openai:v0.33.0\n    command: ["--model", "meta-llama/Llama-3.1-8B-Instruct", '
           '"--max-model-len", "8192", "--kv-cache-dtype", "fp8", "--swap-space", "8", "--disable-log-requests"]\n')
    (tmp_path / "compose.yaml").write_text(src)
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    (block,) = sr.after
    plus = [ln for ln in block["text"].splitlines() if ln.startswith("+ ")]
    assert len(plus) == 1 and "--swap-space" not in plus[0] and "--disable-log-requests" not in plus[0], block["text"]
    yaml.safe_load(src.replace(src.splitlines()[3], plus[0][1:]))
