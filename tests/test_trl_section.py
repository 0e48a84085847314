"""A TRL script that hands one section of its config file to GRPOConfig (`GRPOConfig(**cfg["grpo"])`,
`grpo_kwargs = dict(cfg["grpo"])`): the section's keys are the trainer's, read from the file the shell
line names, or over every file a partly unknown `--config` word may name (a key they differ on unknown).
Shape from nhockid235/xling-grpo-sub3b (https://github.com/nhockid235/xling-grpo-sub3b): src/trainers/
grpo.py, configs/grpo_*.yaml, scripts/train_grpo.sh (eval86)."""
import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.fix.changes import _change
from vllm_kb.engine.kb.catalog import load as catalog

SCRIPT = '''import argparse
from src.utils.io import load_config


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--config", required=True)
    p.add_argument("--model", required=True)
    args = p.parse_args()
    cfg = load_config(args.config)
    from trl import GRPOConfig, GRPOTrainer
    grpo_kwargs = dict(cfg["grpo"])
    attn = grpo_kwargs.pop("attn_implementation", "sdpa")
    config = GRPOConfig(output_dir="out", **grpo_kwargs)
    GRPOTrainer(model=args.model, args=config, reward_funcs=[]).train()


if __name__ == "__main__":
    main()
'''
CONFIG = "model_name_or_path: Qwen/Qwen2.5-1.5B-Instruct\ngrpo:\n  learning_rate: 1.0e-6\n  use_vllm: true\n" \
         "  vllm_gpu_memory_utilization: {gmu}\n  vllm_max_model_len: 4608\n"


def _project(tmp_path, launch: str):
    (tmp_path / "src/trainers").mkdir(parents=True)
    (tmp_path / "src/utils").mkdir()
    (tmp_path / "configs").mkdir()
    (tmp_path / "scripts").mkdir()
    (tmp_path / "src/trainers/grpo.py").write_text(SCRIPT)
    (tmp_path / "src/utils/io.py").write_text("import yaml\n\ndef load_config(p):\n    return yaml.safe_load(open(p))\n")
    (tmp_path / "configs/grpo_en.yaml").write_text(CONFIG.format(gmu=0.7))
    (tmp_path / "configs/grpo_vi.yaml").write_text(CONFIG.format(gmu=0.25))
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["trl>=0.15.0,<0.16.0", "vllm==0.7.2"]\n')
    (tmp_path / "scripts/train_grpo.sh").write_text(launch)
    return audit(tmp_path, gpu="A100-80GB x1")


@pytest.fixture(scope="module")
def named(tmp_path_factory):
    return _project(tmp_path_factory.mktemp("named"), "accelerate launch src/trainers/grpo.py --config configs/grpo_en.yaml --model q\n")


def test_the_section_a_named_config_hands_on(named):
    (sr,) = named.sites
    s = sr.site
    assert s.framework == "trl" and s.config_file == "configs/grpo_en.yaml"
    gmu = s.settings["gpu_memory_utilization"]
    assert (gmu.value, gmu.file, gmu.line, gmu.pos) == (0.7, "configs/grpo_en.yaml", 5, {"yaml": [0, ["grpo", "vllm_gpu_memory_utilization"]]})
    assert s.settings["max_model_len"].value == 4608


def test_a_key_the_section_lacks_is_told_not_written_on_the_command_line(named):
    site = named.sites[0].site
    ch = _change(site, "set", "enforce_eager", True, catalog(), "0.7.2")
    assert (ch.blocked, ch.after, ch.key) == ("in_section", None, "`grpo:` (configs/grpo_en.yaml)")


def test_a_config_word_partly_unknown_reads_every_file_it_may_name(tmp_path):
    rep = _project(tmp_path, 'CONDITION="${1:?condition}"\nGRPO_CONFIG="configs/grpo_${CONDITION}.yaml"\n'
                   'accelerate launch src/trainers/grpo.py --config "${GRPO_CONFIG}" --model q\n')
    (sr,) = rep.sites
    s = sr.site
    assert s.settings["max_model_len"].value == 4608 and s.settings["max_model_len"].pos is None  # in both files
    gmu = s.settings["gpu_memory_utilization"]
    assert not gmu.resolved and "0.25" in gmu.note and "0.7" in gmu.note  # never one file's value


def test_a_config_a_case_chooses_reads_each_file_it_names(tmp_path):
    # xling's scripts/train_a2_a3.sh: `case "${CELL}" in a2) CONFIG="configs/grpo_a2_vi.yaml" ;; …`
    rep = _project(tmp_path, 'case "$1" in\n  en) CONFIG="configs/grpo_en.yaml" ;;\n  vi) CONFIG="configs/grpo_vi.yaml" ;;\nesac\n'
                   'accelerate launch src/trainers/grpo.py --config "${CONFIG}" --model q\n')
    (sr,) = rep.sites
    assert not sr.site.settings["gpu_memory_utilization"].resolved and sr.site.settings["max_model_len"].value == 4608


def test_a_file_the_script_names_itself_is_read_at_the_config_call(tmp_path):
    # `cfg = yaml.safe_load(open("configs/grpo_en.yaml"))`: the script's own file, whatever a --config says
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs/grpo_en.yaml").write_text(CONFIG.format(gmu=0.6))
    (tmp_path / "requirements.txt").write_text("vllm==0.7.2\ntrl==0.15.2\n")
    (tmp_path / "train.py").write_text('import yaml\nfrom trl import GRPOConfig\n\n'
                                       'cfg = yaml.safe_load(open("configs/grpo_en.yaml"))\n'
                                       'args = GRPOConfig(output_dir="o", **cfg["grpo"])\n')
    (tmp_path / "run.sh").write_text("accelerate launch train.py --config configs/other.yaml\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB x1").sites
    s = sr.site
    assert (s.file, s.line, s.config_file) == ("train.py", 5, "configs/grpo_en.yaml")
    assert s.settings["gpu_memory_utilization"].value == 0.6 and s.settings["gpu_memory_utilization"].line == 5
