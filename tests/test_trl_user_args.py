"""A config file read by a project script's own dataclass (`TrlParser(dataclass_types=[MyArguments])`,
minwukim/VRL, eval64): TRL refuses only the keys no dataclass of the parser takes (trl 1.16.0
trl/scripts/utils.py:353), so a key the project's dataclass declares is no TRL key, and a file only such
dataclasses read is no TRL config site (the script's GRPOConfig(...) call is)."""
from __future__ import annotations

import json

import pytest

OWN = """\
from dataclasses import dataclass

from trl import GRPOConfig, GRPOTrainer, ModelConfig, TrlParser


@dataclass
class RunArgs:
    model_name: str
    use_vllm: bool
    vllm_max_model_len: int
    max_steps: int


@dataclass
class ExtraArgs:
    vllm_max_model_len: int = 4096


parser = TrlParser(dataclass_types={types})
args = parser.parse_args_and_config()[0]
config = GRPOConfig(output_dir="out", use_vllm=True, vllm_max_model_length=args.vllm_max_model_len)
GRPOTrainer(model=args.model_name, reward_funcs=[], args=config).train()
"""
CONFIG = "model_name: Qwen/Qwen2.5-0.5B\nuse_vllm: true\nvllm_max_model_len: 4096\nmax_steps: 10\n"


def _audit(cli, root):
    code, out, err = cli("audit", str(root), "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    sites = json.loads(out)["sites"]
    legacy = [(r["priority"], r["location"]["file"]) for s in sites for r in s["recommendations"] if r["check"] == "trl-legacy-key"]
    writes = [c for s in sites for r in s["recommendations"] for c in r.get("changes") or [] if c.get("file") == "grpo.yaml"]
    return sorted(s["file"] for s in sites), legacy, writes


@pytest.mark.parametrize("launch", [None, "python train.py --config grpo.yaml\n"])
def test_a_file_only_the_projects_dataclass_reads_is_no_trl_config(cli, write_project, launch):
    files = {"train.py": OWN.format(types="[RunArgs]"), "grpo.yaml": CONFIG}
    if launch:
        files["run.sh"] = launch
    sites, legacy, writes = _audit(cli, write_project(files))
    assert sites == ["train.py"] and legacy == [] and writes == []


def test_a_key_the_projects_dataclass_declares_beside_trls_is_no_trl_key(cli, write_project):
    # ExtraArgs takes vllm_max_model_len, GRPOConfig the rest: the file is still TRL's config (use_vllm)
    files = {"train.py": OWN.format(types="(ExtraArgs, GRPOConfig, ModelConfig)"),
             "grpo.yaml": "use_vllm: true\nvllm_mode: colocate\nvllm_max_model_len: 4096\n"}
    sites, legacy, _ = _audit(cli, write_project(files))
    assert "grpo.yaml" in sites and legacy == []


@pytest.mark.parametrize("types", ["(GRPOConfig, ModelConfig)", "[ImportedArgs]"])
def test_a_file_trls_dataclasses_read_or_an_unknown_parser_keeps_the_refusal(cli, write_project, types):
    # TRL's own dataclasses lack the key; a dataclass from another module cannot be told: read as TRL's
    script = OWN.format(types=types).replace("from trl import", "from args import ImportedArgs\nfrom trl import")
    sites, legacy, _ = _audit(cli, write_project({"train.py": script, "grpo.yaml": CONFIG}))
    assert ("P0", "grpo.yaml") in legacy


ARGS_MODULE = """\
from dataclasses import dataclass
from typing import Optional

from transformers import TrainingArguments


@dataclass
class ImportedArgs(TrainingArguments):
    use_vllm: bool = False
    vllm_mode: str = "server"
    vllm_device: Optional[str] = None
"""


def test_a_dataclass_imported_from_a_project_module_is_read_there(cli, write_project):
    # yflyzhang/simpleR1 (eval86): the parser's classes live in the project's arguments module; its
    # TrainingArguments subclass declares the dropped vllm_device, and the run.sh launch stays a site
    # (use_vllm, vllm_mode are read as TRL's: the project runs a copy of TRL's trainer on them)
    script = ("from args import ImportedArgs\nfrom trl import GRPOTrainer, TrlParser\n"
              "args = TrlParser((ImportedArgs,)).parse_args_and_config()[0]\n"
              "GRPOTrainer(model='Qwen/Qwen2.5-0.5B', reward_funcs=[], args=args).train()\n")
    files = {"train.py": script, "args.py": ARGS_MODULE, "grpo.yaml": "vllm_device: auto\nmax_steps: 10\n",
             "run.sh": "python train.py --config grpo.yaml --use_vllm True --vllm_mode colocate\n"}
    sites, legacy, _ = _audit(cli, write_project(files))
    assert "run.sh" in sites and legacy == []
    # the same module without the field: TrlParser refuses the key again
    files["args.py"] = ARGS_MODULE.replace("    vllm_device: Optional[str] = None\n", "")
    sites, legacy, _ = _audit(cli, write_project(files))
    assert "run.sh" in sites and ("P0", "grpo.yaml") in legacy
