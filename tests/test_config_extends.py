"""A TRL config section whose file names a parent (`extends: base.yaml`): the parent's keys are read only
where the project's loader visibly merges them (engine/scan/config_extends.py), else a key only the
parent sets is unknown, never TRL's default. Loader shape from nhockid235/xling-grpo-sub3b
(https://github.com/nhockid235/xling-grpo-sub3b, src/utils/io.py load_config, eval86); there base.yaml
has no `grpo:` section, here it has one."""
import pytest

from vllm_kb.engine.audit import audit

SCRIPT = '''import argparse
from src.utils.io import load_config


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--config", required=True)
    args = p.parse_args()
    cfg = load_config(args.config)
    from trl import GRPOConfig, GRPOTrainer
    grpo_kwargs = dict(cfg["grpo"])
    GRPOTrainer(model=cfg["model_name_or_path"], args=GRPOConfig(output_dir="out", **grpo_kwargs), reward_funcs=[]).train()


if __name__ == "__main__":
    main()
'''
MERGING = '''import yaml
from pathlib import Path


def load_config(path):
    path = Path(path)
    with path.open() as f:
        cfg = yaml.safe_load(f)
    if "extends" in cfg:
        parent = load_config(path.parent / cfg.pop("extends"))
        cfg = _deep_merge(parent, cfg)
    return cfg


def _deep_merge(base, over):
    out = dict(base)
    for k, v in over.items():
        out[k] = _deep_merge(out[k], v) if k in out and isinstance(out[k], dict) and isinstance(v, dict) else v
    return out
'''
PLAIN = "import yaml\n\n\ndef load_config(p):\n    return yaml.safe_load(open(p))\n"
BASE = "grpo:\n  vllm_max_model_len: 4608\n  vllm_gpu_memory_utilization: 0.5\n"
CHILD = "extends: base.yaml\nmodel_name_or_path: Qwen/Qwen2.5-1.5B-Instruct\ngrpo:\n  use_vllm: true\n  vllm_gpu_memory_utilization: 0.7\n"


def _site(root, loader: str):
    for d in ("src/trainers", "src/utils", "configs"):
        (root / d).mkdir(parents=True)
    (root / "src/trainers/grpo.py").write_text(SCRIPT)
    (root / "src/utils/io.py").write_text(loader)
    (root / "configs/base.yaml").write_text(BASE)
    (root / "configs/grpo_vi.yaml").write_text(CHILD)
    (root / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["trl>=0.15.0,<0.16.0", "vllm==0.7.2"]\n')
    (root / "train.sh").write_text("accelerate launch src/trainers/grpo.py --config configs/grpo_vi.yaml\n")
    (sr,) = audit(root, gpu="A100-80GB x1").sites
    return sr.site


@pytest.fixture(scope="module")
def merged(tmp_path_factory):
    return _site(tmp_path_factory.mktemp("merging"), MERGING)


def test_a_parent_the_loader_merges_gives_its_keys(merged):
    s = merged
    assert s.framework == "trl" and s.config_file == "configs/grpo_vi.yaml"
    mml, gmu = s.settings["max_model_len"], s.settings["gpu_memory_utilization"]
    assert (mml.value, mml.file) == (4608, "configs/base.yaml")
    assert (gmu.value, gmu.file) == (0.7, "configs/grpo_vi.yaml")  # the child's key over the parent's


def test_a_parent_the_loader_does_not_merge_leaves_its_keys_unknown(tmp_path):
    s = _site(tmp_path, PLAIN)
    mml = s.settings["max_model_len"]
    assert (mml.resolved, mml.value) == (False, None) and "base.yaml" in (mml.note or "")
    assert s.settings["gpu_memory_utilization"].value == 0.7


def test_a_file_the_script_loads_with_yaml_merges_no_parent(tmp_path):
    # `yaml.safe_load(open("configs/grpo_vi.yaml"))` reads the child alone: the parent's key is unknown
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs/base.yaml").write_text(BASE)
    (tmp_path / "configs/grpo_vi.yaml").write_text(CHILD)
    (tmp_path / "requirements.txt").write_text("vllm==0.7.2\ntrl==0.15.2\n")
    (tmp_path / "train.py").write_text('import yaml\nfrom trl import GRPOConfig\n\n'
                                       'cfg = yaml.safe_load(open("configs/grpo_vi.yaml"))\n'
                                       'args = GRPOConfig(output_dir="o", **cfg["grpo"])\n')
    (sr,) = audit(tmp_path, gpu="A100-80GB x1").sites
    s = sr.site
    assert s.config_file == "configs/grpo_vi.yaml" and s.settings["gpu_memory_utilization"].value == 0.7
    assert s.settings["max_model_len"].resolved is False and "base.yaml" in (s.settings["max_model_len"].note or "")


def test_a_section_only_the_merged_parent_holds(tmp_path):
    # the child has no `grpo:` of its own: the merging loader gives it the parent's
    for d in ("src/trainers", "src/utils", "configs"):
        (tmp_path / d).mkdir(parents=True)
    (tmp_path / "src/trainers/grpo.py").write_text(SCRIPT)
    (tmp_path / "src/utils/io.py").write_text(MERGING)
    (tmp_path / "configs/base.yaml").write_text(BASE + "  use_vllm: true\n")
    (tmp_path / "configs/grpo_vi.yaml").write_text("extends: base.yaml\nmodel_name_or_path: Qwen/Qwen2.5-1.5B-Instruct\n")
    (tmp_path / "requirements.txt").write_text("vllm==0.7.2\ntrl==0.15.2\n")
    (tmp_path / "train.sh").write_text("accelerate launch src/trainers/grpo.py --config configs/grpo_vi.yaml\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB x1").sites
    s = sr.site
    assert s.settings["gpu_memory_utilization"].value == 0.5 and s.settings["max_model_len"].value == 4608
