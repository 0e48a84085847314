"""A program a project's Dockerfile runs opens its model at a path inside the image; when the final
stage COPYs a folder of the project there, the checkpoint is read where it lies in the project
(its config.json: the architecture, torch_dtype) — as for a `docker run -v ./ckpt:/model` mount."""
import json

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.deploy.image_files import copied_paths

_CONFIG = {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "torch_dtype": "bfloat16", "hidden_size": 3584,
           "intermediate_size": 18944, "num_attention_heads": 28, "num_key_value_heads": 4, "num_hidden_layers": 28,
           "max_position_embeddings": 32768, "vocab_size": 152064}
_APP = 'from vllm import LLM\n\nif __name__ == "__main__":\n    llm = LLM("/app/models/local-7b")\n'


def _project(tmp_path, copy_line: str):
    (tmp_path / "models" / "local-7b").mkdir(parents=True)
    (tmp_path / "models" / "local-7b" / "config.json").write_text(json.dumps(_CONFIG))
    (tmp_path / "app.py").write_text(_APP)
    (tmp_path / "Dockerfile").write_text(f"FROM vllm/vllm-openai:v0.6.3\nWORKDIR /app\n{copy_line}\n"
                                         'COPY app.py .\nENTRYPOINT ["python3", "app.py"]\n')
    (sr,) = audit(tmp_path, gpu="V100-32GB").sites
    return next(r for r in sr.results if r.check.id == "L4")


@pytest.mark.parametrize("copy_line", ["COPY models/local-7b ./models/local-7b", "COPY . .", "COPY models /app/models/"])
def test_the_copied_checkpoint_is_read(tmp_path, copy_line):
    r = _project(tmp_path, copy_line)
    assert (r.status, r.priority) == ("recommended", "P0")  # bfloat16 on a V100


def test_a_folder_the_image_does_not_hold_is_not(tmp_path):
    assert _project(tmp_path, "COPY requirements.txt* ./").priority != "P0"


def test_copied_paths_follow_workdir_files_and_stages():
    text = ("FROM python:3.11 AS build\nCOPY . /src\nFROM vllm/vllm-openai:v0.8.5\nWORKDIR /srv\n"
            "COPY --from=build /src/wheel /tmp/w\nCOPY conf/serve.yaml conf/\nCOPY weights /models/w\nWORKDIR sub\nCOPY a.py .\n")
    got = copied_paths("deploy/Dockerfile", text, lambda p: p == "deploy/weights")
    assert got == {"/srv/conf/serve.yaml": ["deploy/conf/serve.yaml"], "/models/w": ["deploy/weights"],
                   "/srv/sub/a.py": ["deploy/a.py"]}


def test_the_dockerfiles_own_command_reads_the_copied_checkpoint(tmp_path):
    """`CMD ["--model", "/app/models/local-7b", …]` over vLLM's image: the KV estimate comes from the
    config.json the COPY puts there, not "unknown" (a name nothing in the catalog knows)."""
    (tmp_path / "models" / "local-7b").mkdir(parents=True)
    (tmp_path / "models" / "local-7b" / "config.json").write_text(json.dumps(_CONFIG))
    (tmp_path / "Dockerfile").write_text('FROM vllm/vllm-openai:v0.10.2\nCOPY models /app/models\n'
                                         'CMD ["--model", "/app/models/local-7b", "--max-model-len", "32768"]\n')
    (sr,) = audit(tmp_path, gpu="L4").sites
    assert sr.facts["model"]["num_hidden_layers"] == 28
    assert next(r for r in sr.results if r.check.id == "L15").status != "unknown"
