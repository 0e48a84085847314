"""Clients that ask for automatic tool choice are paired with the one server their URL reaches
(engine/check/endpoints.py, engine/scan/client_urls.py): L39 reads only that server's flags."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.endpoints import endpoint

CALL = ("from openai import OpenAI\nclient = OpenAI(base_url={url!r}, api_key='x')\n"
        "client.chat.completions.create(model='m', messages=[], tools=[{{'type': 'function'}}])\n")
PLAIN = "from openai import OpenAI\nclient = OpenAI()\nclient.chat.completions.create(model='m', messages=[], tools=[])\n"


def _verdicts(root, check: str) -> dict[str, tuple[str, str]]:
    """site file:line → (the check's status, reason)."""
    out = {}
    for sr in audit(root, gpu="H100-80GB x2").sites:
        r = next(r for r in sr.results if r.check.id == check)
        out[f"{sr.site.file}:{sr.site.line}"] = (r.status, r.reason_text("en"))
    return out


def _l39(root) -> dict[str, tuple[str, str]]:
    return _verdicts(root, "L39")


def _write(root, files):
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_endpoint_parse():
    assert endpoint("http://localhost:8000/v1") == ("localhost", 8000)
    assert endpoint("https://api.example.com/v1") == ("api.example.com", 443)
    assert endpoint("http://[::1]:9000") == ("::1", 9000)
    assert endpoint("http://$HOST:8000/v1") is None and endpoint("not a url") is None


def test_two_servers_the_client_reaches_one_by_port(tmp_path):
    _write(tmp_path, {"serve.sh": "vllm serve Qwen/Qwen3-8B --port 8000 --enable-auto-tool-choice --tool-call-parser hermes\n"
                                  "vllm serve Qwen/Qwen3-8B --port 8001\n",
                      "agent.py": CALL.format(url="http://localhost:8001/v1")})
    got = _l39(tmp_path)
    assert got["serve.sh:1"][0] == "not_applicable"  # the flags are there, but no client calls this one
    assert got["serve.sh:2"][0] == "recommended" and "agent.py:3 → localhost:8001" in got["serve.sh:2"][1]


def test_a_client_on_another_port_reaches_no_server(tmp_path):
    _write(tmp_path, {"serve.sh": "vllm serve Qwen/Qwen3-8B --port 8001\n", "agent.py": CALL.format(url="http://localhost:9999/v1")})
    assert _l39(tmp_path)["serve.sh:1"][0] == "not_applicable"


def test_compose_service_name_and_published_port(tmp_path):
    compose = ("services:\n  llm:\n    image: vllm/vllm-openai:v0.10.1\n    command: [\"--model\", \"Qwen/Qwen3-8B\"]\n"
               "    ports: [\"8080:8000\"]\n")
    _write(tmp_path, {"docker-compose.yaml": compose, "agent.py": CALL.format(url="http://llm:8000/v1")})
    ((site, (status, reason)),) = _l39(tmp_path).items()
    assert status == "recommended" and "→ llm:8000" in reason
    _write(tmp_path, {"agent.py": CALL.format(url="http://localhost:8080/v1")})  # the host port it is published on
    assert "→ localhost:8080" in next(iter(_l39(tmp_path).values()))[1]
    _write(tmp_path, {"agent.py": CALL.format(url="http://localhost:8000/v1")})  # not published there
    assert next(iter(_l39(tmp_path).values()))[0] == "not_applicable"


def test_docker_run_published_port(tmp_path):
    _write(tmp_path, {"run.sh": "docker run --gpus all -p 9000:8000 vllm/vllm-openai:v0.10.1 --model Qwen/Qwen3-8B\n",
                      "agent.py": CALL.format(url="http://127.0.0.1:9000/v1")})
    assert next(iter(_l39(tmp_path).values()))[0] == "recommended"


def test_ambiguous_endpoint_pairs_nothing(tmp_path):
    """Two servers on the same port (two scripts): the client's URL does not say which."""
    _write(tmp_path, {"a.sh": "vllm serve Qwen/Qwen3-8B\n", "b.sh": "vllm serve Qwen/Qwen3-8B --port 8000\n",
                      "agent.py": CALL.format(url="http://localhost:8000/v1")})
    assert {s for s, _ in _l39(tmp_path).values()} == {"not_applicable"}


def test_url_not_written_pairs_only_the_projects_one_server(tmp_path):
    _write(tmp_path, {"serve.sh": "vllm serve Qwen/Qwen3-8B --port 8001\n", "agent.py": PLAIN})
    status, reason = _l39(tmp_path)["serve.sh:1"]
    assert status == "recommended" and "agent.py:3" in reason and "→" not in reason
    _write(tmp_path, {"serve.sh": "vllm serve Qwen/Qwen3-8B --port 8001\nvllm serve Qwen/Qwen3-8B --port 8002\n"})
    assert {s for s, _ in _l39(tmp_path).values()} == {"not_applicable"}


def test_public_api_is_never_the_projects_server(tmp_path):
    _write(tmp_path, {"serve.sh": "vllm serve Qwen/Qwen3-8B --port 443\n", "agent.py": CALL.format(url="https://api.openai.com/v1")})
    assert _l39(tmp_path)["serve.sh:1"][0] == "not_applicable"


def test_client_variable_picks_its_own_url(tmp_path):
    code = ("from openai import OpenAI\nimport os\nBASE = 'http://localhost:8001/v1'\n"
            "a = OpenAI(base_url=os.environ.get('A_URL', 'http://localhost:8000/v1'))\nb = OpenAI(base_url=BASE)\n"
            "b.chat.completions.create(model='m', messages=[], tools=[{'type': 'function'}])\n")
    _write(tmp_path, {"serve.sh": "vllm serve Qwen/Qwen3-8B --port 8000\nvllm serve Qwen/Qwen3-8B --port 8001\n", "agent.py": code})
    got = _l39(tmp_path)
    assert got["serve.sh:1"][0] == "not_applicable" and "agent.py:6 → localhost:8001" in got["serve.sh:2"][1]


def _l172(root) -> dict[str, tuple[str, str]]:
    return _verdicts(root, "L172")


ASK = ("from openai import OpenAI\nclient = OpenAI(base_url={url!r}, api_key='x')\n"
       "client.chat.completions.create(model={model!r}, messages=[])\n")


def test_client_model_name_against_the_served_names(tmp_path):
    _write(tmp_path, {"serve.sh": "vllm serve /models/Qwen2.5-7B-Instruct --served-model-name qwen qwen-7b\n",
                      "a.py": ASK.format(url="http://localhost:8000/v1", model="Qwen2.5-7B-Instruct")})
    status, reason = _l172(tmp_path)["serve.sh:1"]
    assert status == "recommended" and "a.py:3 → localhost:8000: Qwen2.5-7B-Instruct" in reason and "qwen, qwen-7b" in reason
    _write(tmp_path, {"a.py": ASK.format(url="http://localhost:8000/v1", model="qwen-7b")})
    assert _l172(tmp_path)["serve.sh:1"][0] == "not_applicable"


def test_client_model_name_needs_the_url_and_a_plain_server(tmp_path):
    # no URL in the code: OpenAI() may call OpenAI's own API with its own model names
    _write(tmp_path, {"serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct\n",
                      "a.py": "from openai import OpenAI\nOpenAI().chat.completions.create(model='gpt-4o-mini', messages=[])\n"})
    assert _l172(tmp_path)["serve.sh:1"][0] == "not_applicable"
    # a LoRA adapter the server loads is a name it serves
    _write(tmp_path, {"serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct --enable-lora --lora-modules sql=/adapters/sql\n",
                      "a.py": ASK.format(url="http://localhost:8000/v1", model="sql")})
    assert _l172(tmp_path)["serve.sh:1"][0] == "not_applicable"


def test_requests_post_body_names_the_model(tmp_path):
    code = ("import requests\nbody = {'model': 'llama', 'messages': []}\n"
            "requests.post('http://127.0.0.1:8000/v1/chat/completions', json=body)\n")
    _write(tmp_path, {"serve.sh": "vllm serve meta-llama/Llama-3.1-8B-Instruct\n", "c.py": code})
    assert _l172(tmp_path)["serve.sh:1"][0] == "recommended"


def test_client_max_tokens_against_max_model_len(tmp_path):
    long = ("from openai import OpenAI\nclient = OpenAI(base_url='http://localhost:8000/v1', api_key='x')\n"
            "client.chat.completions.create(model='Qwen/Qwen2.5-7B-Instruct', messages=[], max_tokens={n})\n")
    _write(tmp_path, {"serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 4096\n", "a.py": long.format(n=8192)})
    status, reason = _verdicts(tmp_path, "L173")["serve.sh:1"]
    assert status == "recommended" and "a.py:3 → localhost:8000: max_tokens=8192" in reason and "4096" in reason
    _write(tmp_path, {"a.py": long.format(n=1024)})
    assert _verdicts(tmp_path, "L173")["serve.sh:1"][0] == "not_applicable"
    assert _verdicts(tmp_path, "L172")["serve.sh:1"][0] == "not_applicable"  # the name it serves


K8S = """apiVersion: apps/v1
kind: Deployment
metadata: {name: chat}
spec:
  template:
    metadata: {labels: {app: chat}}
    spec:
      containers:
      - name: vllm
        image: vllm/vllm-openai:v0.10.1
        args: ["--model", "Qwen/Qwen3-8B"]
---
apiVersion: v1
kind: Service
metadata: {name: chat-svc}
spec:
  selector: {app: chat}
  ports: [{port: 80, targetPort: 8000}]
"""


def test_kubernetes_service_name_and_port(tmp_path):
    """A client calls the Service that selects the pod, at the Service's port."""
    _write(tmp_path, {"k8s.yaml": K8S, "agent.py": CALL.format(url="http://chat-svc.default.svc.cluster.local/v1")})
    ((status, reason),) = _l39(tmp_path).values()
    assert status == "recommended" and "→ chat-svc:80" in reason
    _write(tmp_path, {"agent.py": CALL.format(url="http://chat-svc:8000/v1")})  # not the Service's port
    assert next(iter(_l39(tmp_path).values()))[0] == "not_applicable"
