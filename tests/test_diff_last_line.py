"""A change on a file's last line when the file has no final newline (eval101: a Dockerfile whose
`RUN pip3 install vllm` ends the file): the diff is shown, not withheld as if it held a secret, and a
change that is withheld names its own line, not the hunk's first context line."""
from vllm_kb.engine.fix.diff_text import shown_diff

DOCKERFILE = ("FROM python:3.10\nRUN pip install openai\nRUN apt update && apt install -y libfoo*\n"
              "RUN pip3 install torch --index-url https://download.pytorch.org/whl/cpu\nRUN pip3 install vllm")


def test_last_line_without_newline_is_shown():
    text, withheld = shown_diff("Dockerfile", DOCKERFILE, DOCKERFILE.replace("install vllm", "install vllm==0.10.2"))
    assert withheld == []
    assert "-RUN pip3 install vllm\n\\ No newline at end of file\n+RUN pip3 install vllm==0.10.2\n" in text


def test_withheld_change_names_the_changed_line():
    old = "a\nb\nc\nexport HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz0123\nvllm serve m\n"
    text, withheld = shown_diff("run.sh", old, old.replace("export HF_TOKEN", "HF_TOKEN"))
    assert text == "" and withheld == [4]
