"""`launch.evaluator`: the evaluation harness that builds a site's engine (B3 drops an FP8 KV cache to P2 there)."""
from vllm_kb.engine.check.launch_facts import evaluator, launch_facts
from vllm_kb.engine.scan.site import Site


def _site(file: str, **kw) -> Site:
    s = Site(file=file, line=1, syntax=kw.pop("syntax", "python-call"), kind=kw.pop("kind", "LLM()"), mode="standalone_offline",
             mode_evidence=f"{file}:1")
    for k, v in kw.items():
        setattr(s, k, v)
    return s


def test_harness_command_line():
    assert evaluator(_site("eval.sh", syntax="cli", kind="lm_eval vllm", tool="lm_eval")) == "lm_eval"


def test_harness_own_model_backend():
    assert evaluator(_site("src/lighteval/models/vllm/vllm_model.py")) == "lighteval"
    assert evaluator(_site("lmms_eval/models/simple/vllm.py")) == "lmms_eval"


def test_framework_eval_command():
    assert evaluator(_site("run.sh", syntax="cli", kind="swift eval", framework="ms-swift", framework_command="eval")) == "ms-swift"


def test_plain_offline_is_none():
    assert evaluator(_site("scripts/generate.py")) is None
    assert evaluator(_site("lm_eval.py")) is None  # a file so named is not the harness's package
    assert "evaluator" not in launch_facts(_site("scripts/generate.py"))


def test_wrapper_mark_kept():
    s = _site("run.py")
    s.launch["evaluator"] = "opencompass"
    assert launch_facts(s)["evaluator"] == "opencompass"
