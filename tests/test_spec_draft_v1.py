"""G3: a separate draft model on the releases whose V1 engine has none (0.10.0–0.14.x), written as
`method: draft_model` or as a speculative_config model with no method (SpeculativeConfig takes it
as draft_model and raises NotImplementedError, 0.10.0 config.py:2852 … 0.14.1 speculative.py:389);
one with no method on 0.15–0.16, which find no head type in it ("Unsupported speculative method:
'None'", 0.15.0 speculative.py:407) — 0.17 takes it as draft_model; and VLLM_USE_V1=1 with one on
0.8.3–0.9.2, where the oracle raises instead of falling back to V0."""
import pytest

from vllm_kb.engine.audit import audit

SPEC = {"inferred": '{"model": "Qwen/Qwen2.5-0.5B-Instruct", "num_speculative_tokens": 5}',
        "explicit": '{"method": "draft_model", "model": "Qwen/Qwen2.5-0.5B-Instruct", "num_speculative_tokens": 5}',
        "eagle": '{"model": "yuhuili/EAGLE-Qwen2-7B-Instruct", "num_speculative_tokens": 5}',
        "ngram": '{"method": "ngram", "num_speculative_tokens": 5, "prompt_lookup_max": 4}'}


def _g3(tmp_path, version: str, spec: str, env: str = ""):
    (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
    (tmp_path / "serve.sh").write_text(f"{env}vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192 --speculative-config '{SPEC[spec]}'\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    return next(r for r in sr.results if r.check.id == "G3")


@pytest.mark.parametrize("version", ["0.10.0", "0.10.2", "0.11.0", "0.12.0", "0.13.0", "0.14.1"])
@pytest.mark.parametrize("spec", ["inferred", "explicit"])
def test_refused_from_010_to_014(tmp_path, version, spec):
    r = _g3(tmp_path, version, spec)
    assert r.status == "recommended" and r.priority == "P0", r.reason_text("en")


@pytest.mark.parametrize("version", ["0.15.0", "0.16.0"])
def test_no_method_refused_on_015_016(tmp_path, version):
    r = _g3(tmp_path, version, "inferred")
    assert r.status == "recommended" and r.priority == "P0", r.reason_text("en")
    assert [(op.kind, op.target) for op, _ in r.fix] == [("set", "speculative_config")]


@pytest.mark.parametrize("version,spec", [("0.15.0", "explicit"), ("0.17.0", "inferred"), ("0.9.2", "inferred"),
                                          ("0.13.0", "eagle"), ("0.13.0", "ngram")])
def test_not_refused(tmp_path, version, spec):
    r = _g3(tmp_path, version, spec)
    assert not (r.status == "recommended" and r.priority == "P0"), r.reason_text("en")


def test_forced_v1_before_010(tmp_path):
    r = _g3(tmp_path, "0.9.2", "inferred", env="VLLM_USE_V1=1 ")
    assert r.status == "recommended" and r.priority == "P0"
    assert [(op.kind, op.target) for op, _ in r.fix] == [("unset_env", "VLLM_USE_V1")]
    # n-gram is one of 0.9.2's V1 methods: forced V1 takes it
    r = _g3(tmp_path, "0.9.2", "ngram", env="VLLM_USE_V1=1 ")
    assert not (r.status == "recommended" and r.priority == "P0")
