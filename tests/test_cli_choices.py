"""argparse's `choices=` of the serve command line, per release (knowledge/vllm/cli_choices.yaml):
a value the engine takes but the command line of that release refuses (vLLM PR #7784: 0.5.4's
`--load-format` list lacked `sharded_state`, which LoadFormat had)."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.cli_choices import _span
from vllm_kb.engine.kb.knowledge import load


def _rows(dest: str) -> list[dict]:
    return load().doc("vllm", "cli_choices.yaml").data["args"][dest]


def _findings(tmp_path, pin: str, files: dict[str, str]) -> list[tuple[str, str, str]]:
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    rep = audit(tmp_path, gpu="H100 x2")
    return [(f.code, f.priority, f.subject) for s in rep.sites for f in s.remarks]


def test_table_keeps_the_hand_written_lists_of_old_releases():
    row = _span(_rows("load_format"), "0.5.4")
    assert row["flag"] == "--load-format" and "bitsandbytes" in row["choices"] and "sharded_state" not in row["choices"]
    assert row["source"]["file"] == "vllm/engine/arg_utils.py"
    # 0.5.5 builds the list from LoadFormat itself: no separate list to lag behind
    assert _span(_rows("load_format"), "0.5.5") is None


def test_a_literal_that_also_takes_str_has_no_choices():
    # 0.13's `tokenizer_mode: TokenizerMode | str` gets a metavar from literal_to_kwargs: any string passes
    assert _span(_rows("tokenizer_mode"), "0.13.0") is None


def test_serve_refuses_a_value_its_cli_list_lacks(tmp_path):
    found = _findings(tmp_path, "0.5.4", {"serve.sh": "vllm serve m --tensor-parallel-size 2 --load-format sharded_state\n"})
    assert ("value-not-in-version", "P0", "load_format=sharded_state") in found, found


def test_controls_a_listed_value_and_the_python_call(tmp_path):
    found = _findings(tmp_path, "0.5.4", {
        "serve.sh": "vllm serve m --load-format safetensors\n",
        "offline.py": "from vllm import LLM\nllm = LLM(model='m', load_format='sharded_state')\n"})
    assert not [f for f in found if f[0] == "value-not-in-version"], found
    # the release that builds the list from the enum takes it on the command line too
    assert not [f for f in _findings(tmp_path, "0.5.5", {"serve.sh": "vllm serve m --load-format sharded_state\n"})
                if f[0] == "value-not-in-version"]


def test_an_enum_listed_by_member_names_takes_its_lower_case_values(tmp_path):
    # 0.8.4's --config-format is `choices=[f.value for f in ConfigFormat]` (auto, hf, mistral); the
    # catalog lists the member names (AUTO, HF, MISTRAL): `mistral` is no unlisted value
    found = _findings(tmp_path, "0.8.4", {"serve.sh": "vllm serve m --config-format mistral --load-format safetensors\n"})
    assert not [f for f in found if f[2].startswith("config_format")], found


def test_a_json_keys_enum_counts_from_the_release_that_checks_it(tmp_path):
    # vLLM 0.8.5's own examples/offline_inference/eagle.py passes speculative_config={"method": "eagle3", …}:
    # SpeculativeConfig was a plain dataclass until 0.9.1 (pydantic from then), so 0.8.5 takes the
    # value its Literal lacks (config.py:2377 handles eagle3); 0.9.0 refuses nothing either
    code = ('from vllm import LLM\nllm = LLM(model="meta-llama/Llama-3.1-8B-Instruct", '
            'speculative_config={"method": "eagle4", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 2})\n')
    for pin, refused in (("0.8.5", False), ("0.9.0", False), ("0.9.1", True)):
        found = _findings(tmp_path, pin, {"spec.py": code})
        assert any(f[0] in ("value-not-in-version", "value-unknown") and f[2].startswith("speculative_config.method") for f in found) is refused, (pin, found)


def test_a_value_that_left_and_came_back_names_both_runs(tmp_path):
    # fp8_e5m2: a kv_cache_dtype choice in 0.3.0–0.4.0, gone in 0.4.1–0.4.2 (choices auto, fp8), back in
    # 0.4.3 (vLLM #4827 ran it on 0.4.x): "accepted in 0.3.0 … 0.34.0" would contradict the refusal
    (tmp_path / "requirements.txt").write_text("vllm==0.4.2\n")
    (tmp_path / "serve.sh").write_text("vllm serve m --kv-cache-dtype fp8_e5m2\n")
    rep = audit(tmp_path, gpu="A10")
    (f,) = [f for s in rep.sites for f in s.remarks if f.code == "value-not-in-version"]
    assert "0.3.0 … 0.4.0, 0.4.3 … " in f.message["en"] and "0.4.3" in f.message["zh"]


def test_a_value_a_later_list_takes_names_that_release_as_the_fix(tmp_path):
    # 0.5.4's --block-size takes 8/16/32 (arg_utils.py:293); 0.5.5 adds 128 … 2048 (arg_utils.py:320)
    (tmp_path / "requirements.txt").write_text("vllm==0.5.4\n")
    (tmp_path / "serve.sh").write_text("vllm serve Qwen/Qwen2-7B-Instruct --block-size 128\n")
    rep = audit(tmp_path, gpu="H100 x2")
    (f,) = [f for s in rep.sites for f in s.remarks if f.code == "value-not-in-version" and f.subject == "block_size=128"]
    assert f.priority == "P0"
    assert [(op.kind, op.target, op.alternative, v) for op, v in f.fix] == [("pin", "vllm", False, ">=0.5.5")]
