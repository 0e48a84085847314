"""L41: before 0.16.0 `vllm serve --config` hands each YAML value to argparse as str(value)
(0.6.0 utils.py:1209, 0.15.1 argparse_utils.py:489), so a mapping reaches a JSON-parsed option as
"{'k': 1}" and argparse refuses it. An empty mapping becomes "{}", which json.loads reads: no P0."""
from vllm_kb.engine.audit import audit


def _l41(tmp_path, value: str):
    (tmp_path / "requirements.txt").write_text("vllm==0.14.1\n")
    (tmp_path / "serve.sh").write_text("#!/bin/bash\nvllm serve --config config.yaml\n")
    (tmp_path / "config.yaml").write_text(f"model: Qwen/Qwen3-1.7B\nport: 8000\nhf_overrides: {value}\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    return next(r for r in sr.results if r.check.id == "L41")


def test_a_mapping_is_refused_an_empty_one_is_read(tmp_path):
    assert _l41(tmp_path, '{architectures: ["Qwen3ForCausalLM"]}').priority == "P0"
    assert _l41(tmp_path, "{}").status != "recommended"
