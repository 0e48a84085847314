"""Xinference launches over its REST API (engine/scan/xinference_rest.py): a POST of a JSON body to
/v1/models from curl (inline or `-d @file.json`) or from Python requests/httpx is the same launch as
`Client.launch_model(**body)` — the server hands every key that is not its own to vLLM."""
import pytest
from vllm_kb.engine.audit import audit

COMPOSE = "services:\n  xinference:\n    image: xprobe/xinference:v1.2.2\n    command: xinference-local -H 0.0.0.0\n"
BODY = ('{{"model_engine": "{engine}", "model_name": "qwen2.5-instruct", "model_size_in_billions": 7,\n'
        ' "model_format": "pytorch", "quantization": "none"{extra}}}')


def _sites(rep):
    return [sr for sr in rep.sites if sr.site.tool == "xinference"]


def _p0(sr):
    return {f.code for f in sr.remarks if f.priority == "P0"} | {r.check.id for r in sr.results if r.priority == "P0" and r.needs_change}


def _curl(body: str) -> str:
    return f"#!/bin/bash\ncurl -X POST http://localhost:9997/v1/models -H 'Content-Type: application/json' -d '{body}'\n"


def _python(body: str, call: str = "requests.post") -> str:
    return f"import requests\nimport httpx\nurl = 'http://localhost:9997'\nr = {call}(url + '/v1/models', json={body})\n"


@pytest.mark.parametrize("files", [
    lambda b: {"launch.sh": _curl(b)},
    lambda b: {"launch.sh": "#!/bin/bash\ncurl -s localhost:9997/v1/models -H 'Content-Type: application/json' -d @conf/m.json\n",
               "conf/m.json": b},
    lambda b: {"launch.py": _python(b)},
    lambda b: {"launch.py": _python(b, "httpx.post")},
])
@pytest.mark.parametrize("engine, extra, found, p0", [
    ("vllm", ', "tensor_parallel_size": 2', True, True),  # n_gpu auto: one GPU for a TP-2 engine
    ("vLLM", ', "n_gpu": 2, "tensor_parallel_size": 2', True, False),
    ("vllm", ', "gpu_memory_utilization": 0.85', True, False),
    ("transformers", ', "tensor_parallel_size": 2', False, False),  # another engine: no vLLM site
])
def test_a_rest_launch_body_is_an_xinference_site(write_project, files, engine, extra, found, p0):
    project = {"docker-compose.yml": COMPOSE, **files(BODY.format(engine=engine, extra=extra))}
    sites = _sites(audit(write_project(project), gpu="A100-80GB x2"))
    assert bool(sites) == found
    if found:
        sr = sites[0]
        assert sr.site.kind == "xinference POST /v1/models"
        assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"
        assert sr.version.version == "0.6.4.post1"  # the release the server's image installs
        assert ("xinference-n-gpu" in _p0(sr)) == p0
        if "gpu_memory_utilization" in extra:
            assert sr.site.settings["gpu_memory_utilization"].value == 0.85


def test_a_get_of_the_model_list_is_no_launch(write_project):
    project = {"docker-compose.yml": COMPOSE, "check.sh": "#!/bin/bash\ncurl -s http://localhost:9997/v1/models | jq .\n"
               "curl -X DELETE http://localhost:9997/v1/models/qwen -d '{\"model_engine\": \"vllm\"}'\n"}
    assert not _sites(audit(write_project(project), gpu="A100-80GB"))


def test_fix_does_not_insert_keywords_into_a_rest_body(write_project):
    from vllm_kb.engine.fix import text_edits
    body = BODY.format(engine="vllm", extra=', "n_gpu": 1, "tensor_parallel_size": 2')
    root = write_project({"docker-compose.yml": COMPOSE, "launch.py": _python(body)})
    sr = _sites(audit(root, gpu="A100-80GB x2"))[0]
    assert "xinference-n-gpu" in _p0(sr)
    edits = text_edits.file_edits(sr.site, sr.changes, lambda f: (root / f).read_text())
    assert not edits.get("launch.py")  # `n_gpu=2,` inside the dict would not parse
