"""TRL keys removed in 0.18 (vllm_max_model_len, vllm_device …) passed as GRPOConfig keywords: the
dataclass __init__ refuses them from 0.18.0 on (TypeError), whatever their value — a value the audit
cannot follow (`args.vllm_max_model_len`) is still a keyword written (minwukim/VRL, eval64)."""
from __future__ import annotations

import json

import pytest

SCRIPT = """\
from trl import GRPOConfig, GRPOTrainer

def main(args):
    config = GRPOConfig(
        output_dir="out",
        use_vllm=True,
        vllm_max_model_len=args.vllm_max_model_len,
    )
    GRPOTrainer(model="Qwen/Qwen2.5-0.5B", args=config)
"""


def _legacy(cli, root):
    code, out, err = cli("audit", str(root), "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    return [(r["priority"], r["location"]["line"]) for s in json.loads(out)["sites"] for r in s["recommendations"]
            if r["check"] == "trl-legacy-key"]


@pytest.mark.parametrize("pin, want", [
    ("", [("P0", 7)]),  # unpinned: the newest TRL, as the config-file check reads it
    ("trl==0.18.0\n", [("P0", 7)]),  # a keyword: refused from 0.18.0 (a config file's key only from 0.19.0)
    ("trl==0.17.0\n", []),  # 0.17 still has the field
])
def test_a_removed_grpoconfig_keyword_refuses_the_run(cli, write_project, pin, want):
    root = write_project({"train.py": SCRIPT, "requirements.txt": pin + "vllm==0.10.1\n"})
    assert _legacy(cli, root) == want
