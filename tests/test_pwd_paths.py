"""`$(pwd)` and `$PWD` name the folder a command runs in: read as ".", so a model folder written
`$(pwd)/models/x` (or mounted with `-v $PWD/models:/models`, compose's `${PWD}/models`) is the
project's own folder and its config.json is read (here: 14 heads that TP 3 does not divide, L1)."""
import json

import pytest

from vllm_kb.engine.audit import audit

CONFIG = {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_size": 896, "num_hidden_layers": 24,
          "num_attention_heads": 14, "num_key_value_heads": 2, "vocab_size": 151936, "max_position_embeddings": 32768,
          "intermediate_size": 4864, "torch_dtype": "bfloat16"}
COMPOSE = """services:
  vllm:
    image: vllm/vllm-openai:v0.10.0
    volumes:
      - ${PWD}/models:/models
    command: --model /models/qwen --tensor-parallel-size 3
    ipc: host
"""


@pytest.mark.parametrize("name,text", [
    ("serve.sh", "vllm serve $(pwd)/models/qwen --tensor-parallel-size 3\n"),
    ("serve.sh", "vllm serve `pwd`/models/qwen --tensor-parallel-size 3\n"),
    ("serve.sh", 'vllm serve "${PWD}/models/qwen" --tensor-parallel-size 3\n'),
    ("run.sh", "docker run --gpus all --ipc host -v $PWD/models:/models vllm/vllm-openai:v0.10.0 "
               "--model /models/qwen --tensor-parallel-size 3\n"),
    ("docker-compose.yml", COMPOSE),
])
def test_a_model_folder_under_the_working_directory_is_read(tmp_path, name, text):
    (tmp_path / "models" / "qwen").mkdir(parents=True)
    (tmp_path / "models" / "qwen" / "config.json").write_text(json.dumps(CONFIG))
    (tmp_path / "requirements.txt").write_text("vllm==0.10.0\n")
    (tmp_path / name).write_text(text)
    (sr,) = audit(tmp_path, gpu="A100-80GB x4").sites
    l1 = next(r for r in sr.results if r.check.id == "L1")
    assert l1.status == "recommended" and l1.priority == "P0"


def test_a_pwd_the_script_sets_itself_is_its_own_value(tmp_path):
    (tmp_path / "serve.sh").write_text("PWD=/srv\nvllm serve $PWD/models/qwen --tensor-parallel-size 3\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB x4").sites
    assert sr.site.model.value == "/srv/models/qwen"
