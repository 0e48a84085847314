"""A less urgent check's "leave it unset" must not hide the catalog's P0 that the release refuses
the value (vLLM 0.2.5's --quantization choices were awq and squeezellm; D6 advised removing
`gptq` for Marlin, which 0.2.5 does not have, and its removal swallowed the refusal)."""
from vllm_kb.engine.audit import audit


def _p0(rep):
    return [f.code for s in rep.sites for f in s.remarks if f.priority == "P0"] + \
        [r.check.id for s in rep.sites for r in s.results if r.status == "recommended" and r.priority == "P0"]


def _project(tmp_path, release, method):
    (tmp_path / "requirements.txt").write_text(f"vllm=={release}\n")
    (tmp_path / "serve.sh").write_text(
        f"python -m vllm.entrypoints.openai.api_server --model TheBloke/Llama-2-7B-GPTQ --quantization {method}\n")
    return tmp_path


def test_gptq_on_a_release_without_it_is_refused(tmp_path):
    rep = audit(_project(tmp_path, "0.2.5", "gptq"), gpu="A10G x1")
    assert "L10" in _p0(rep)  # quant-name: gptq is known from 0.2.6
    d6 = [r for s in rep.sites for r in s.results if r.check.id == "D6"]
    assert d6 and d6[0].status != "recommended"  # no Marlin kernel to switch to before 0.4.2


def test_gptq_where_it_exists_is_not_refused(tmp_path):
    rep = audit(_project(tmp_path, "0.2.7", "gptq"), gpu="A10G x1")
    assert "value-not-in-version" not in _p0(rep) and "L10" not in _p0(rep)
