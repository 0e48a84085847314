"""A scanner bug met on one launch of a file costs that launch alone: it is reported as skipped with
its file and line, and the file's other launches are still audited (a Python file's calls, a YAML
file's documents), as one command of a shell script already was (tests/test_source_pins.py)."""
from __future__ import annotations

TWO_CALLS = """from vllm import LLM

a = LLM(model="bad/model", gpu_memory_utilization=0.9)
b = LLM(model="Qwen/Qwen3-8B", gpu_memory_utilization=0.9)
"""


def _kw(call, name):
    return next((k.value.value for k in call.keywords if k.arg == name and hasattr(k.value, "value")), None)


def test_one_python_calls_scanner_error_costs_that_call_alone(write_project, monkeypatch):
    from vllm_kb.engine.audit import audit
    from vllm_kb.engine.scan import python_calls

    real = python_calls.call_site

    def call_site(ctx, rel, text, version, call, *a, **kw):
        if _kw(call, "model") == "bad/model":
            raise ValueError("boom")
        return real(ctx, rel, text, version, call, *a, **kw)

    monkeypatch.setattr(python_calls, "call_site", call_site)
    rep = audit(write_project({"run.py": TWO_CALLS}))
    assert [(s.site.file, s.site.line) for s in rep.sites] == [("run.py", 4)]
    assert [(k.file, k.line, k.code) for k in rep.skipped] == [("run.py", 3, "scanner-error")]
    assert "boom" in rep.skipped[0].detail


def test_no_scanner_error_leaves_both_calls(write_project):
    from vllm_kb.engine.audit import audit

    rep = audit(write_project({"run.py": TWO_CALLS}))
    assert [s.site.line for s in rep.sites] == [3, 4] and rep.skipped == []


def _deployment(name: str, model: str) -> str:
    return f"""apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.8.5
          args: ["--model", "{model}", "--port", "8000"]
"""


def test_one_yaml_documents_scanner_error_costs_that_document_alone(write_project, monkeypatch):
    from vllm_kb.engine.audit import audit
    from vllm_kb.engine.scan import deploy

    real = deploy.scan_k8s

    def scan_k8s(ctx, rel, doc, *a, **kw):
        if doc.data["metadata"]["name"] == "bad":
            raise KeyError("boom")
        return real(ctx, rel, doc, *a, **kw)

    monkeypatch.setattr(deploy, "scan_k8s", scan_k8s)
    rep = audit(write_project({"k8s.yaml": _deployment("bad", "bad/model") + "---\n" + _deployment("good", "Qwen/Qwen3-8B")}))
    assert [s.site.file for s in rep.sites] == ["k8s.yaml"] and rep.sites[0].site.line > 12
    assert [(k.file, k.line, k.code) for k in rep.skipped] == [("k8s.yaml", 1, "scanner-error")]


def test_one_framework_documents_scanner_error_costs_that_document_alone(write_project, monkeypatch):
    from vllm_kb.engine.audit import audit
    from vllm_kb.engine.scan import configs

    real = configs.mapping_entries

    def mapping_entries(data, doc, *a, **kw):
        if data.get("model_name_or_path") == "bad/model":
            raise ValueError("boom")
        return real(data, doc, *a, **kw)

    monkeypatch.setattr(configs, "mapping_entries", mapping_entries)
    doc = "model_name_or_path: {m}\nstage: sft\ninfer_backend: vllm\nvllm_maxlen: 4096\n"
    rep = audit(write_project({"infer.yaml": doc.format(m="bad/model") + "---\n" + doc.format(m="Qwen/Qwen3-8B")}))
    assert [(s.site.file, s.site.line) for s in rep.sites] == [("infer.yaml", 8)]
    assert [(k.file, k.line, k.code) for k in rep.skipped] == [("infer.yaml", 1, "scanner-error")]
