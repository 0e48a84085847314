"""vLLM's own config classes calling a transformers function in a form older transformers releases refuse
(knowledge/vllm/transformers_calls.yaml, tools/vllm_transformers_calls.py): vLLM 0.17.0-0.23.0's Qwen3.5
config calls layer_type_validation(layer_types, num_hidden_layers), which transformers takes only from
4.57.0, while their requirement admits 4.56.x (xorbitsai/inference#4869: "TypeError: layer_type_validation()
takes 1 positional argument but 2 were given")."""
from types import SimpleNamespace

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.transformers_calls import _table, transformers_calls



def _pin(spec: str):
    return SimpleNamespace(spec=spec, text=f"transformers{spec}", file="requirements.txt", line=3, source="pypi")


def _facts(release: str, model_type: str):
    return {"vllm": {"version": release}, "model": {"model_type": model_type}}


def test_the_table_holds_the_qwen35_call_with_the_release_that_takes_it():
    rows = [r for r in _table()["calls"] if "qwen3_5" in r["model_types"]]
    assert rows and rows[0]["call"].endswith("layer_type_validation") and rows[0]["positional"] == 2
    assert rows[0]["accepts"][0][0] == "4.57.0" and rows[0]["vllm"][0][0] == "0.17.0"


def test_a_pin_that_refuses_the_call_and_one_that_takes_it():
    got = transformers_calls(_facts("0.17.1", "qwen3_5"), _pin("==4.56.2"), {"0.17.1": ">=4.56.0,<5"})
    assert got["tf_call_fix"] == ">=4.57.0" and "1 positional argument but 2" in got["tf_call_error"]
    assert transformers_calls(_facts("0.17.1", "qwen3_5"), _pin("==4.57.6"), {}) == {}
    assert transformers_calls(_facts("0.17.1", "qwen3_5"), _pin(">=4.56.0"), {}) == {}  # allows 4.57+
    assert transformers_calls(_facts("0.16.0", "qwen3_5"), _pin("==4.56.2"), {}) == {}  # no Qwen3.5 config class yet
    assert transformers_calls(_facts("0.17.1", "qwen3"), _pin("==4.56.2"), {}) == {}  # another model type
    assert transformers_calls(_facts("0.17.1", "qwen3_5"), None, {}) == {}  # pip resolves the newest allowed


def test_an_xinference_launch_of_qwen35_with_transformers_4562(tmp_path):
    (tmp_path / "requirements.txt").write_text("xinference==2.7.0\nvllm==0.17.1\ntransformers==4.56.2\n")
    (tmp_path / "launch.sh").write_text("xinference launch --model-engine vllm --model-name qwen3.5 --size-in-billions 9 --model-format pytorch\n")
    (sr,) = audit(tmp_path, gpu="L40S").sites
    assert sr.site.model.value == "Qwen/Qwen3.5-9B"
    r = next(r for r in sr.results if r.check.id == "L125")
    assert (r.status, r.priority) == ("recommended", "P0") and "layer_type_validation" in r.reason_text("en")
    assert any(c.target == "transformers" and c.value == ">=4.57.0" for c in sr.changes)
