"""Launch failures named by vLLM's own words: every check's `error_text` is recognised in a real
log line (a prefix, other values in its placeholders, line breaks), `vllm-kb diagnose --error`
names the check with its verdict and change at each site, and `kb validate` holds P0 rules to a
cited source inside their vLLM range."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from vllm_kb.engine.advise.diagnose import launch
from vllm_kb.engine.diagnosis import diagnose
from vllm_kb.engine.kb import error_text
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.report.diagnosis import record

KB = load()
WORDINGS = [(c, e) for c in KB.checks for e in c.error_text]


def _fill(text: str) -> str:
    import re

    text = re.sub(r"\{[A-Za-z_][^{}]*:int\}", "12", text)  # a whole-number placeholder
    return re.sub(r"\{[A-Za-z_][^{}]*\}", "X_1.5 'v'", text)


@pytest.mark.parametrize("check,wording", WORDINGS, ids=[f"{c.id}-{i}" for i, (c, _) in enumerate(WORDINGS)])
def test_every_wording_names_its_check(check, wording):
    line = "ERROR 05-12 10:01:02 [core.py:412] (EngineCore_0 pid=77) " + _fill(wording["text"]).replace(" ", "  \n    ", 1)
    hits = launch.recognise(KB, line)
    # a wording two causes share (NCCL's duplicate-GPU refusal: H8 and a framework's known break)
    # names every check that quotes it, first; with a project, the one failing at a site leads
    sharing = {c.id for c, e in WORDINGS if e["text"] == wording["text"]}
    assert hits and check.id in {h.id for h in hits[:len(sharing)]}, [h.id for h in hits]


def test_an_opening_sentence_is_enough_and_unrelated_text_is_not():
    assert not error_text.match(KB, "everything started fine; serving on port 8000")
    got = launch.recognise(KB, "vllm: error: unrecognized arguments: --enable-reasoning")
    assert [h.id for h in got] == ["L31", "not-in-version"]
    # argparse's generic wording names the catalog finding when no check's own wording matches
    got = launch.recognise(KB, "api_server.py: error: unrecognized arguments: --foo-bar 3")
    assert [h.id for h in got] == ["not-in-version"]


def test_the_findings_wordings_follow_the_checks_schema_and_a_generic_one_gives_way():
    from vllm_kb.engine.kb import schemas
    from jsonschema import Draft202012Validator

    wording = Draft202012Validator({"$ref": schemas.BASE + "checks.schema.json#/$defs/error_text"}, registry=schemas._registry())
    for code, texts in launch.FINDING_TEXTS.items():
        for t in texts:
            assert not list(wording.iter_errors(t)), (code, t)
    # parse_type's words (option-not-json, `generic`) stand alone, and give way to L32's for the same line
    alone = "vllm serve: error: argument --speculative-config: Value {method: ngram} cannot be converted to <function loads>."
    assert [h.id for h in launch.recognise(KB, alone)] == ["option-not-json"]
    both = "vllm serve: error: argument --limit-mm-per-prompt: Value image=2 cannot be converted to <function loads>."
    assert "option-not-json" not in [h.id for h in launch.recognise(KB, both)]


def _project(tmp_path: Path) -> Path:
    (tmp_path / "requirements.txt").write_text("vllm==0.10.0\n")
    (tmp_path / "serve.sh").write_text("#!/bin/bash\nvllm serve Qwen/Qwen2.5-VL-7B-Instruct --limit-mm-per-prompt image=2\n")
    return tmp_path


def test_diagnose_names_the_launch_check_with_the_change(tmp_path):
    root = _project(tmp_path)
    res = diagnose(root, error="vllm serve: error: argument --limit-mm-per-prompt: Value image=2 cannot be converted to "
                               "<function loads at 0x7f00>.", gpu="H100 x1")
    rec = record(res, "en")
    assert rec["symptom"] is None and rec["diagnoses"] == []
    (hit,) = rec["launch"]
    assert hit["id"] == "L32" and hit["name"] == "mm-limit-form"
    (site,) = hit["sites"]
    assert site["status"] == "recommended" and site["priority"] == "P0"
    assert site["changes"][0]["after"] == """--limit-mm-per-prompt '{"image": 2}'"""
    zh = record(res, "zh")
    assert "argparse" in zh["launch"][0]["sites"][0]["reason"] or "key=value" in zh["launch"][0]["sites"][0]["reason"]


def test_diagnose_cli_prints_the_launch_check(tmp_path, cli):
    root = _project(tmp_path)
    code, out, _ = cli("diagnose", str(root), "--gpu", "H100 x1", "--error",
                       "argument --limit-mm-per-prompt: Value image=2 cannot be converted to <function loads>")
    assert code == 0 and "L32 `mm-limit-form`" in out and "--limit-mm-per-prompt '{\"image\": 2}'" in out
    code, out, _ = cli("diagnose", "--gpu", "none", "--error", "Error: --enable-auto-tool-choice requires --tool-call-parser",
                       "--format", "json", "--lang", "zh")
    data = json.loads(out)
    assert code == 0 and data["launch"][0]["id"] == "L30" and data["symptom"] is None


def test_a_verdict_line_always_carries_a_reason(tmp_path):
    # eval104 (pascal-pkgs-ci#21): L4 recognised, printed "not applicable — —" — a check's `otherwise` says "—";
    # a launch whose model the audit cannot read reaches it
    (tmp_path / "requirements.txt").write_text("vllm==0.8.1\n")
    (tmp_path / "serve.sh").write_text('vllm serve "$MODEL_PATH"\n')
    res = diagnose(tmp_path, error="Bfloat16 is only supported on GPUs with compute capability of at least 8.0. "
                                   "Your Tesla P40 GPU has compute capability 6.1.", gpu="P40")
    for lang in ("en", "zh"):
        (hit,) = record(res, lang)["launch"]
        (site,) = hit["sites"]
        assert hit["id"] == "L4" and site["status"] == "not_applicable"
        assert site["reason"].strip("— ") and len(site["reason"]) > 20


def test_p0_rules_must_cite_a_source_in_their_range():
    from vllm_kb.engine.kb import validate_sources
    from vllm_kb.engine.kb.catalog import load as catalog
    from vllm_kb.engine.kb.knowledge import _check_from

    class V:
        cat = catalog()

        def __init__(self):
            self.problems = []

        def add(self, *a):
            self.problems.append(a)

    raw = {"id": "L99", "name": "x", "applies_to": {"modes": ["standalone_serve"], "vllm": ">=0.10.0"}, "priority": "P0",
           "rules": [{"status": "recommended", "when": "true", "reason": {"en": "x", "zh": "x"}},
                     {"status": "recommended", "when": "true", "reason": {"en": "x", "zh": "x"},
                      "source": [{"release": "0.9.0", "file": "vllm/config.py", "line": 1}]},
                     {"status": "recommended", "when": "true", "reason": {"en": "x", "zh": "x"},
                      "source": [{"release": "0.99.0", "file": "vllm/config.py", "line": 1}]},
                     {"status": "recommended", "when": "true", "priority": "P2", "reason": {"en": "x", "zh": "x"}}]}
    v = V()
    c = _check_from(raw, "L", "knowledge/checks/L.yaml")
    validate_sources.rule_sources(v, c)
    validate_sources.error_texts(v, c)
    where = sorted(p[2] for p in v.problems)
    assert where == ["error_text", "rules[0].source", "rules[1].source[0].release", "rules[2].source[0].release"]


SDISTS = Path(os.environ.get("VLLM_SDISTS", "/work/sdists/src"))


@pytest.mark.skipif(not SDISTS.is_dir(), reason="vLLM sdists not unpacked here (set VLLM_SDISTS)")
def test_cited_lines_exist_in_the_sdists():
    """Each rule's `source` names a file and line that exist in that release's sources."""
    missing = []
    for c in KB.checks:
        for r in c.rules:
            for s in r.source:
                if "release" not in s:
                    continue
                f = SDISTS / s["release"] / s["file"]
                if not (SDISTS / s["release"]).is_dir():
                    continue  # a release without an sdist (0.15.0)
                if not f.is_file() or len(f.read_text(errors="replace").splitlines()) < s["line"]:
                    missing.append(f"{c.id} {s['release']} {s['file']}:{s['line']}")
    assert not missing, missing


def test_container_shm_facts_from_compose_and_kubernetes(tmp_path):
    from vllm_kb.engine.audit import audit

    (tmp_path / "docker-compose.yml").write_text(
        "services:\n  a:\n    image: vllm/vllm-openai:v0.10.0\n    command: [--model, m/x, --tensor-parallel-size, '2']\n"
        "  b:\n    image: vllm/vllm-openai:v0.10.0\n    shm_size: 16gb\n    command: [--model, m/y, --tensor-parallel-size, '2']\n")
    (tmp_path / "pod.yaml").write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  hostIPC: true\n  containers:\n"
        "    - name: v\n      image: vllm/vllm-openai:v0.10.0\n      args: [--model, m/z, --tensor-parallel-size, '2']\n")
    rep = audit(tmp_path, gpu="H100-80GB x8")
    got = {sr.site.file + ":" + str(sr.site.line): (sr.facts["launch"].get("shm_gib"), sr.facts["launch"].get("ipc_host"),
                                                      next(r for r in sr.results if r.check.id == "L40").status) for sr in rep.sites}
    assert sorted(got.values()) == [(0.0625, False, "recommended"), (0.0625, True, "enabled"), (16.0, False, "enabled")]


def test_tool_clients_are_calls_asking_for_automatic_tool_choice(tmp_path):
    from vllm_kb.engine.scan.clients import tool_clients
    from vllm_kb.engine.scan.context import ScanContext

    (tmp_path / "a.py").write_text("c.chat.completions.create(model='m', messages=[], tools=T)\n"
                                   "c.chat.completions.create(model='m', messages=[], tools=T, tool_choice='none')\n"
                                   "c.chat.completions.create(model='m', messages=[])\n"
                                   "client.beta.chat.completions.parse(model='m', messages=[], tool_choice='auto', tools=T)\n")
    from vllm_kb.engine.kb import catalog

    ctx = ScanContext(tmp_path, catalog.load(), "0.20.0")
    assert tool_clients(ctx, ["a.py"]) == ["a.py:1", "a.py:4"]


def test_model_gpu_memory_reports_are_named_by_their_own_words():
    """The error line of every public report of the model/GPU/memory launch checks (L1–L29,
    tests/realcases) names the check the case expects, first."""
    import yaml
    from vllm_kb.engine.check.rules import rules

    root = Path(__file__).parent / "realcases"
    missed = []
    for case in sorted(root.glob("*/case.yaml")):
        c = yaml.safe_load(case.read_text(encoding="utf-8"))
        check = (c.get("expect") or {}).get("check") or ""
        wants = {w.id for w in (rules().find(k) for k in (check if isinstance(check, list) else [check])) if w is not None}
        text = c.get("traceback") or c.get("error")
        if c["kind"] != "failure" or not any(w.startswith("L") and int(w[1:]) < 30 for w in wants) or not text:
            continue  # (a report that quotes no error line has none to name; a list: any of its rules, first)
        got = launch.recognise(KB, text)
        hits = [h.id for h in got]
        # a wording several checks print (error_text `shared`: FusedMoE's bare assert for bnb and AWQ MoE
        # models) with nothing else in the text to tell them apart: the expected check among the candidates
        alike = got and all(h.kind == "shared" for h in got) and got[0].match.score == got[-1].match.score
        if not hits or (hits[0] not in wants and not (alike and wants & set(hits))):
            missed.append(f"{case.parent.name}: {hits}")
    assert not missed, missed


def test_docker_run_shm_including_nvidia_docker(tmp_path):
    from vllm_kb.engine.audit import audit

    (tmp_path / "run.sh").write_text(
        "nvidia-docker run --gpus all vllm/vllm-openai:v0.8.5 --model m/x --tensor-parallel-size 2\n"
        "docker run --gpus all --ipc=host vllm/vllm-openai:v0.8.5 --model m/y --tensor-parallel-size 2\n"
        "docker run --gpus all --shm-size 16g vllm/vllm-openai:v0.8.5 --model m/z --tensor-parallel-size 2\n")
    rep = audit(tmp_path, gpu="H100-80GB x8")
    got = [next(r for r in sr.results if r.check.id == "L40").status for sr in sorted(rep.sites, key=lambda s: s.site.line)]
    assert got == ["recommended", "enabled", "enabled"]


def test_an_error_no_wording_matches_names_the_closest_checks_as_such():
    hits = launch.recognise(KB, "The requested device for vllm (cuda:1) is not available")
    assert hits and hits[0].id == "L34" and hits[0].kind == "closest"
    hits = launch.recognise(KB, "kernel needs a higher compute capability for this quantization")
    assert [h.id for h in hits][:1] == ["L7"] and all(h.kind == "closest" for h in hits)
    assert launch.recognise(KB, "hello world") == []
    # a check's own wording is recognised, never routed by keywords
    assert launch.recognise(KB, "Pipeline parallelism is not supported for this model. Supported models implement the `SupportsPP` interface.")[0].kind == "check"


def test_whole_number_placeholders_need_numbers():
    # divide()'s words with its two numbers name the TP checks; a hybrid model's page-size refusal,
    # which only shares "is not divisible by", names neither
    assert {"L2", "L67"} <= {h.id for h in launch.recognise(KB, "AssertionError: 40 is not divisible by 6")}
    page = "NotImplementedError: The page size of the layer is not divisible by the maximum page size. Cannot unify by adjusting block_size."
    assert not {"L2", "L67"} & {h.id for h in launch.recognise(KB, page)}
