"""L51 gated-model-token: a gated Hub repository (Llama, Gemma …) needs a token in the process that
loads it. P0 only where the container's environment and volumes are read in full and its image is
vLLM's own; P1 on a host or a container the audit cannot read in full; nothing for a token variable
or a mounted cache; never a token's value in the report."""
import json

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.hf_access import gated

_TABLE = [{"match": "^meta-llama/", "source": "card"}]


def _l51(tmp_path, files: dict[str, str], gpu: str = "H100-80GB x1"):
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    (sr,) = audit(tmp_path, gpu=gpu).sites
    r = next(r for r in sr.results if r.check.id == "L51")
    return r.status, r.priority


def _run(opts: str = "", model: str = "meta-llama/Llama-3.1-8B-Instruct", image: str = "vllm/vllm-openai:v0.6.3"):
    return {"run.sh": f"docker run --gpus all --ipc=host -p 8000:8000 {opts} {image} --model {model}\n"}


def test_the_gated_table_names_hub_ids_only():
    assert gated("meta-llama/Llama-3.1-8B-Instruct", _TABLE) == "card"
    assert gated("unsloth/Llama-3.1-8B-Instruct", _TABLE) is None  # a re-upload is not gated
    assert gated("/models/meta-llama/Llama-3.1-8B-Instruct", _TABLE) is None  # a local folder
    assert gated(None, _TABLE) is None


def test_vllm_image_without_a_token_or_a_cache_is_a_p0(tmp_path):
    assert _l51(tmp_path, _run()) == ("recommended", "P0")


def test_a_token_variable_or_a_cache_lets_it_start(tmp_path):
    assert _l51(tmp_path / "a", _run("-e HF_TOKEN=$HF_TOKEN"))[0] == "enabled"
    assert _l51(tmp_path / "b", _run("--env HUGGING_FACE_HUB_TOKEN"))[0] == "enabled"
    assert _l51(tmp_path / "c", _run("-v ~/.cache/huggingface:/root/.cache/huggingface"))[0] == "enabled"
    assert _l51(tmp_path / "d", _run("-v /srv/models:/models", model="meta-llama/Llama-3.1-8B-Instruct --download-dir /models"))[0] == "enabled"


def test_what_the_audit_cannot_read_is_a_p1(tmp_path):
    assert _l51(tmp_path / "a", _run("--env-file prod.env")) == ("recommended", "P1")
    assert _l51(tmp_path / "b", _run(image="registry.example.com/team/vllm:1")) == ("recommended", "P1")
    assert _l51(tmp_path / "c", {"serve.sh": "vllm serve meta-llama/Llama-3.1-8B-Instruct\n", "requirements.txt": "vllm==0.8.5\n"}) == ("recommended", "P1")


def test_a_model_that_is_not_gated_is_not_judged(tmp_path):
    assert _l51(tmp_path / "a", _run(model="Qwen/Qwen2.5-7B-Instruct"))[0] == "not_applicable"
    assert _l51(tmp_path / "b", _run(model="unsloth/Llama-3.1-8B-Instruct"))[0] == "not_applicable"


_COMPOSE = """services:
  vllm:
    image: vllm/vllm-openai:v0.8.5
    command: --model google/gemma-2-9b-it
    ipc: host
{extra}    deploy:
      resources:
        reservations:
          devices: [{{driver: nvidia, count: 1, capabilities: [gpu]}}]
"""


def test_compose(tmp_path):
    assert _l51(tmp_path / "a", {"docker-compose.yml": _COMPOSE.format(extra="")}) == ("recommended", "P0")
    env = "    environment:\n      - HF_TOKEN=${HF_TOKEN}\n"
    assert _l51(tmp_path / "b", {"docker-compose.yml": _COMPOSE.format(extra=env)})[0] == "enabled"
    missing = "    env_file: secrets.env\n"
    assert _l51(tmp_path / "c", {"docker-compose.yml": _COMPOSE.format(extra=missing)}) == ("recommended", "P1")
    base = "    extends: {file: base.yml, service: llm}\n"
    assert _l51(tmp_path / "e", {"docker-compose.yml": _COMPOSE.format(extra=base)}) == ("recommended", "P1")
    read = "    env_file: app.env\n"
    assert _l51(tmp_path / "d", {"docker-compose.yml": _COMPOSE.format(extra=read), "app.env": "HF_TOKEN=hf_notarealtokenvalue123456\n"})[0] == "enabled"


_POD = """apiVersion: v1
kind: Pod
metadata: {{name: vllm}}
spec:
  containers:
  - name: vllm
    image: vllm/vllm-openai:v0.9.2
    args: ["--model", "meta-llama/Llama-3.2-1B-Instruct"]
{extra}    resources: {{limits: {{nvidia.com/gpu: 1}}}}
"""


def test_kubernetes(tmp_path):
    assert _l51(tmp_path / "a", {"pod.yaml": _POD.format(extra="")}) == ("recommended", "P0")
    secret = "    env:\n    - name: HF_TOKEN\n      valueFrom: {secretKeyRef: {name: hf, key: token}}\n"
    assert _l51(tmp_path / "b", {"pod.yaml": _POD.format(extra=secret)})[0] == "enabled"
    env_from = "    envFrom:\n    - secretRef: {name: hf}\n"
    assert _l51(tmp_path / "c", {"pod.yaml": _POD.format(extra=env_from)}) == ("recommended", "P1")


def test_no_token_value_reaches_the_report(tmp_path):
    files = {"docker-compose.yml": _COMPOSE.format(extra="    env_file: app.env\n"), "app.env": "HF_TOKEN=hf_notarealtokenvalue123456\n"}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    report = audit(tmp_path, gpu="H100-80GB x1")
    from vllm_kb.engine.report.model import build
    assert "hf_notarealtokenvalue123456" not in json.dumps(build(report), default=str)


def test_code_that_takes_the_token_from_its_environment_gives_one(tmp_path):
    """eval81 bobduru/vllm-deployment: the handler reads the token variable and stops without it, so the
    process that loads the gated model has one (the platform's secrets give it)."""
    code = ('import os\nfrom vllm import LLM\n\ndef load():\n    token = os.getenv("HUGGING_FACE_HUB_TOKEN")\n'
            '    if token is None:\n        raise ValueError("no token")\n    return LLM(model="meta-llama/Llama-3.1-8B-Instruct")\n')
    assert _l51(tmp_path, {"handler.py": code})[0] != "recommended"


def test_code_that_reads_no_token_is_still_told(tmp_path):
    code = 'from vllm import LLM\nllm = LLM(model="meta-llama/Llama-3.1-8B-Instruct")\n'
    assert _l51(tmp_path, {"handler.py": code}) == ("recommended", "P1")
