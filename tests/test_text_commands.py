"""A vLLM command kept in a `.txt` the project's Python reads and fills with str.format
(engine/scan/text_commands.py): Tandemn-Labs/tandemn-tuna (https://github.com/Tandemn-Labs/tandemn-tuna,
tuna/templates/shared/vllm_serve_cmd.txt read by tuna/orchestrator.py), a site eval64 missed."""
from __future__ import annotations

import json

CMD = """vllm serve {model} \\
  --port {port} \\
  --max-model-len 4096 \\
  --tensor-parallel-size {tp_size} \\
  --disable-log-requests \\
  {eager_flag} {quantization_flag}"""
READER = 'from pathlib import Path\nCMD = (Path(__file__).parent / "templates" / "vllm_serve_cmd.txt").read_text()\n'


def _report(cli, root):
    code, out, err = cli("audit", str(root), "--isolated", "--format", "json", "-q")
    assert code in (0, 1), err
    return json.loads(out)


def test_a_command_template_the_code_reads_is_a_site(cli, write_project, tmp_path):
    root = write_project({"app/templates/vllm_serve_cmd.txt": CMD, "app/render.py": READER}, tmp_path / "a")
    (site,) = _report(cli, root)["sites"]
    assert (site["file"], site["line"]) == ("app/templates/vllm_serve_cmd.txt", 1)
    got = {s["name"]: s["value"] for s in site["settings"]}
    assert got["max_model_len"] == 4096 and got["tensor_parallel_size"] is None
    # the release is the rendering code's to choose: a failure of the newest release only is no P0
    assert not any(r.get("priority") == "P0" for r in site.get("recommendations", []))
    cli("audit", str(root), "--isolated", "--fix", "-q")
    assert (root / "app/templates/vllm_serve_cmd.txt").read_text() == CMD  # told, never written


def test_notes_nobody_reads_and_requirements_are_not_sites(cli, write_project, tmp_path):
    root = write_project({"notes/vllm_serve_cmd.txt": CMD, "notes/more.txt": "How to run:\n" + CMD,
                          "requirements.txt": "vllm==0.10.0\n", "render.py": 'open("more.txt")\n'}, tmp_path / "b")
    assert _report(cli, root)["sites"] == []
