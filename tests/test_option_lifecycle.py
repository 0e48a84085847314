"""An option some vLLM release has but the pinned one does not is `not-in-version` on every surface
(argv of a script, Kubernetes args, compose command, an env-configured worker image, a Python
keyword, a --config YAML key), with the releases that have it, never `unknown-option`; an option
added later is what the launch asks for: the change is the first release that has it, not its
removal (vllm-project/vllm#9840: `--task embedding` on the 0.6.3.post1 image, first in 0.6.4)."""
from pathlib import Path

import pytest
from vllm_kb.engine.audit import audit

K8S = """apiVersion: apps/v1
kind: Deployment
metadata: {name: emb}
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.6.3.post1
          args: ["--model", "BAAI/bge-m3", "--task", "embedding"]
"""
COMPOSE = """services:
  v:
    image: vllm/vllm-openai:v0.6.3
    command: ["--model", "BAAI/bge-m3", "--task", "embedding"]
"""
RUNPOD = """services:
  w:
    image: runpod/worker-v1-vllm:v1.5.0
    environment:
      MODEL_NAME: BAAI/bge-m3
      TASK: embedding
"""
SURFACES = {
    "k8s": ({"deploy.yaml": K8S}, "0.6.3.post1"),
    "compose": ({"docker-compose.yml": COMPOSE}, "0.6.3"),
    "env-image": ({"docker-compose.yml": RUNPOD}, "0.6.2"),  # worker v1.5.0 installs vLLM 0.6.2
    "python": ({"requirements.txt": "vllm==0.6.3\n", "run.py": 'from vllm import LLM\nllm = LLM(model="BAAI/bge-m3", task="embedding")\n'},
               "0.6.3"),
    "script": ({"requirements.txt": "vllm==0.6.3\n", "serve.sh": "vllm serve BAAI/bge-m3 --task embedding\n"}, "0.6.3"),
    "yaml-config": ({"requirements.txt": "vllm==0.6.3\n", "cfg.yaml": "model: BAAI/bge-m3\ntask: embedding\n",
                     "serve.sh": "vllm serve --config cfg.yaml\n"}, "0.6.3"),
}


def _site(tmp_path: Path, files: dict[str, str]):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    rep = audit(tmp_path, gpu="A100-80GB")
    (sr,) = [sr for sr in rep.sites if sr.site.model is not None]
    return sr


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_an_option_added_later_is_not_in_version_and_the_change_is_the_release_that_has_it(tmp_path, surface):
    files, release = SURFACES[surface]
    sr = _site(tmp_path, files)
    assert sr.version.version == release
    codes = {f.code: f for f in sr.remarks if f.subject == "task"}
    assert "unknown-option" not in codes and codes["not-in-version"].priority == "P0"
    assert "0.6.4 to 0.12.0" in codes["not-in-version"].message["en"]
    ops = {(c.op, c.target): c.value for c in sr.changes}
    assert ("unset", "task") not in ops, "the option is the point of the launch: never removed"
    assert ops[("pin", "vllm")] == ">=0.6.4,<=0.12.0"


def test_the_pin_is_written_in_the_image_tag_only_where_the_tag_is_the_vllm_release(tmp_path):
    sr = _site(tmp_path, {"deploy.yaml": K8S})
    (pin,) = [c for c in sr.changes if c.op == "pin"]
    assert (pin.before, pin.after) == ("vllm/vllm-openai:v0.6.3.post1", "vllm/vllm-openai:v0.6.4")
    worker = tmp_path / "worker"
    worker.mkdir()
    sr = _site(worker, {"docker-compose.yml": RUNPOD})
    (pin,) = [c for c in sr.changes if c.op == "pin"]
    assert pin.before is None, "a worker's own tag (v1.5.0) is not a vLLM release: named, not rewritten"


def test_an_option_removed_earlier_is_removed_and_what_it_selected_is_kept(tmp_path):
    # vllm-project/vllm#35603: `--task embedding` on 0.16 (gone in 0.13): `--runner pooling` serves the same
    sr = _site(tmp_path, {"requirements.txt": "vllm==0.14.0\n",
                          "serve.sh": "vllm serve BAAI/bge-m3 --task embedding --use-v2-block-manager\n"})
    found = {f.subject: f for f in sr.remarks if f.code == "not-in-version"}
    assert "removed in 0.13.0; vLLM 0.6.4 to 0.12.0 have it" in found["task"].message["en"]
    assert "--runner" in found["task"].message["en"]
    ops = {(c.op, c.target): c.value for c in sr.changes}
    assert ("unset", "use_v2_block_manager") in ops  # a no-op long before it went
    assert ("unset", "task") in ops and ops[("set", "runner")] == "pooling" and ("pin", "vllm") not in ops


def test_a_removed_selecting_option_whose_value_is_not_known_keeps_the_release_that_has_it(tmp_path):
    sr = _site(tmp_path, {"requirements.txt": "vllm==0.14.0\n", "serve.sh": "vllm serve BAAI/bge-m3 --task \"$TASK\"\n"})
    ops = {(c.op, c.target): c.value for c in sr.changes}
    assert ("unset", "task") not in ops and ops[("pin", "vllm")] == "<=0.12.0"


def test_an_option_no_release_has_stays_unknown(tmp_path):
    sr = _site(tmp_path, {"requirements.txt": "vllm==0.6.3\n", "serve.sh": "vllm serve BAAI/bge-m3 --taskk embedding\n"})
    assert {f.code for f in sr.remarks if f.subject == "taskk"} == {"unknown-option"}


def test_a_pin_in_a_dockerfile_run_line_is_written_as_one_release_not_a_shell_redirection(tmp_path):
    sr = _site(tmp_path, {"Dockerfile": "FROM python:3.11\nRUN pip install vllm==0.6.3 && pip cache purge\nCOPY serve.sh /serve.sh\n",
                          "serve.sh": "vllm serve BAAI/bge-m3 --task embedding\n"})
    (pin,) = [c for c in sr.changes if c.op == "pin" and c.target == "vllm"]
    assert (pin.before, pin.after) == ("vllm==0.6.3", "vllm==0.6.4")


# https://github.com/vllm-project/vllm/issues/46325 — `-language-model-only` (one dash): argparse maps
# no single-dash word to its `--` option, so "unrecognized arguments"; a real short option stays one
def test_a_long_option_written_with_one_dash_is_unrecognised(tmp_path):
    sr = _site(tmp_path, {"requirements.txt": "vllm==0.23.0\n",
                          "serve.sh": "vllm serve Qwen/Qwen3-8B -language-model-only -tp 1 --port 8000\n"})
    (f,) = [f for f in sr.remarks if f.subject == "language_model_only"]
    assert f.code == "unknown-option" and f.priority == "P0" and "`--language-model-only`" in f.message["en"]
    assert not [f for f in sr.remarks if f.subject == "tensor_parallel_size"]
