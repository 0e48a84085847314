"""A shell script that exports an env file and then starts a project Python file gives the file's
`os.getenv` those values (engine/scan/script_env.py); what the shell does not export, it does not."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

_APP = 'import os\nfrom vllm import LLM\n\nllm = LLM(model=os.getenv("MODEL"), max_model_len=4096)\n'


def _model(tmp_path, script: str, env: str = "MODEL=TheBloke/Mistral-7B-v0.1-AWQ\n", extra: dict | None = None):
    (tmp_path / "requirements.txt").write_text("vllm==0.4.1\n")
    (tmp_path / "app.py").write_text(_APP)
    (tmp_path / ".env").write_text(env)
    (tmp_path / "start.sh").write_text("#!/bin/bash\n" + script)
    for name, text in (extra or {}).items():
        (tmp_path / name).write_text(text)
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    return (sr.facts.get("model") or {}).get("name")


def test_set_a_then_source_exports_the_file(tmp_path):
    assert _model(tmp_path, "set -a; source .env; set +a\npython app.py\n") == "TheBloke/Mistral-7B-v0.1-AWQ"


def test_export_of_the_files_lines_exports_them(tmp_path):
    assert _model(tmp_path, "export $(grep -v '^#' .env | xargs)\npython3 -u app.py\n") == "TheBloke/Mistral-7B-v0.1-AWQ"


def test_a_plain_source_keeps_shell_variables_to_the_shell(tmp_path):
    assert _model(tmp_path, "source .env\npython app.py\n") is None


def test_a_plain_source_of_export_lines_exports_those(tmp_path):
    assert _model(tmp_path, "source .env\npython app.py\n", env="export MODEL=org/m-7b\n") == "org/m-7b"


def test_two_scripts_that_disagree_say_nothing(tmp_path):
    other = "#!/bin/bash\nset -a\nsource prod.env\nset +a\npython app.py\n"
    got = _model(tmp_path, "set -a\nsource .env\nset +a\npython app.py\n",
                 extra={"prod.sh": other, "prod.env": "MODEL=org/other-7b\n"})
    assert got is None
