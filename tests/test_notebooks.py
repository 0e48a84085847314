"""Jupyter notebooks as sites (engine/scan/notebooks.py): code cells read with the json module's
decoder, each code line at the notebook line it is written on; `LLM(...)` and subprocess argv by the
Python reader, `!vllm serve …` (with its continued lines) and `%%bash` cells by the shell model;
markdown is not code; a bad cell is skipped with its line and the others are still read; no fix is
written into the JSON."""
import json

from vllm_kb.engine.audit import audit


def _notebook(*cells) -> str:
    return json.dumps({"cells": [
        {"cell_type": kind, "metadata": {}, "source": src, **({"outputs": [], "execution_count": None} if kind == "code" else {})}
        for kind, src in cells], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)


def _line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


# https://github.com/naufalhakim23/deepseek-r1-playground/issues/1 — a Colab cell that starts
# `vllm serve` with subprocess.Popen and polls it; here beside the other ways a notebook starts vLLM
NB = _notebook(
    ("markdown", ["# Notes\n", "LLM(model=\"org/not-a-site\")\n"]),
    ("code", ["%pip install -q vllm\n", "import subprocess\n", "from vllm import LLM\n"]),
    ("code", ["llm = LLM(model=\"Qwen/Qwen2.5-7B-Instruct\",\n", "          swap_space=4)\n"]),
    ("code", ["proc = subprocess.Popen([\"vllm\", \"serve\", \"deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B\",\n",
              "                         \"--dtype\", \"half\", \"--max-model-len\", \"16384\"])\n"]),
    ("code", ["if True:\n", "    !vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 \\\n", "        --tensor-parallel-size 2\n"]),
    ("code", ["%%bash\n", "export CUDA_VISIBLE_DEVICES=0\n", "vllm serve Qwen/Qwen2.5-0.5B-Instruct --swap-space 4 &\n"]),
    ("code", ["def broken(:\n", "    pass\n"]),
)


def test_each_way_a_notebook_starts_vllm_is_a_site_at_its_notebook_line(write_project):
    root = write_project({"serve.ipynb": NB, "requirements.txt": "vllm==0.20.0\n"})
    rep = audit(root, gpu="RTX-4090")
    got = {(sr.site.kind, sr.site.line, sr.site.model.value) for sr in rep.sites}
    assert got == {("LLM()", _line_of(NB, "llm = LLM("), "Qwen/Qwen2.5-7B-Instruct"),
                   ("vllm serve", _line_of(NB, "subprocess.Popen"), "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B"),
                   ("vllm serve", _line_of(NB, "!vllm serve"), "Qwen/Qwen2.5-7B-Instruct"),
                   ("vllm serve", _line_of(NB, "vllm serve Qwen/Qwen2.5-0.5B"), "Qwen/Qwen2.5-0.5B-Instruct")}
    by_line = {sr.site.line: sr.site for sr in rep.sites}
    bang = by_line[_line_of(NB, "!vllm serve")]
    assert bang.settings["tensor_parallel_size"].value == 2 and bang.settings["tensor_parallel_size"].line == _line_of(NB, "--tensor-parallel")
    assert by_line[_line_of(NB, "vllm serve Qwen/Qwen2.5-0.5B")].env["CUDA_VISIBLE_DEVICES"].value == "0"
    assert by_line[_line_of(NB, "llm = LLM(")].settings["swap_space"].line == _line_of(NB, "swap_space=4")
    assert [(s.file, s.line, s.code) for s in rep.skipped] == [("serve.ipynb", _line_of(NB, "def broken"), "python-syntax")]


def test_a_fix_is_reported_but_never_written_into_the_notebook(cli, write_project):
    root = write_project({"serve.ipynb": NB, "requirements.txt": "vllm==0.20.0\n"})
    rep = audit(root, gpu="RTX-4090")
    assert any(ch.op == "unset" and ch.target == "swap_space" for sr in rep.sites for ch in sr.changes)
    cli("audit", str(root), "--gpu", "RTX-4090", "--fix", "--unsafe-fixes")
    assert (root / "serve.ipynb").read_text() == NB


def test_what_is_not_a_notebook_or_cannot_keep_its_lines_is_skipped_not_guessed(write_project):
    one_string = _notebook(("code", "from vllm import LLM\nllm = LLM(model='org/m', swap_space=4)\n"))
    root = write_project({"a.ipynb": "{\"cells\": [vllm", "b.ipynb": one_string})
    rep = audit(root, gpu="RTX-4090")
    assert rep.sites == [] and {(s.file, s.code) for s in rep.skipped} == {("a.ipynb", "parse-error"), ("b.ipynb", "parse-error")}


def test_a_notebooks_pip_cell_pins_its_release_and_only_that_pin_is_written(cli, write_project):
    nb = _notebook(("code", ["%pip install -q vllm==0.6.3 bitsandbytes\n"]),
                   ("code", ["from vllm import LLM\n", "llm = LLM(model=\"BAAI/bge-m3\", task=\"embedding\")\n"]))
    root = write_project({"embed.ipynb": nb})
    (sr,) = audit(root, gpu="A100-80GB").sites
    assert (sr.version.version, sr.version.basis) == ("0.6.3", "pin")
    assert [f.code for f in sr.remarks if f.subject == "task"] == ["not-in-version"]  # --task came in 0.6.4
    cli("audit", str(root), "--gpu", "A100-80GB", "--fix", "--unsafe-fixes")
    assert (root / "embed.ipynb").read_text() == nb.replace("vllm==0.6.3", "vllm==0.6.4")
    json.loads((root / "embed.ipynb").read_text())


def test_a_pip_magic_continued_over_lines_is_an_install_not_python(write_project):
    # MAOJIASONG/TinyZero-TRL's GRPO notebook: `%pip install --upgrade \` then one package a line, then the
    # vLLM install; the whole cell was skipped as "not valid Python" and the continued pins were not read
    nb = _notebook(("code", ["%pip install --upgrade \\\n", "  \"transformers==4.48.1\" \\\n", "  \"vllm==0.6.3\"\n",
                             "from vllm import LLM\n", "llm = LLM(model=\"BAAI/bge-m3\", task=\"embedding\")\n"]))
    rep = audit(write_project({"embed.ipynb": nb}), gpu="A100-80GB")
    assert rep.skipped == []
    (sr,) = rep.sites
    assert (sr.version.version, sr.version.basis) == ("0.6.3", "pin")
    assert sr.site.line == _line_of(nb, "task=")
