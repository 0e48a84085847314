"""`vllm-kb upgrade`: the plan for every fixture and example from its pinned release to the
newest, and `--fix` output that audits clean at the target (no name, value or variable the
target refuses), changing only the bytes of the settings it removes, renames or bumps."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from vllm_kb.cli.main import main
from vllm_kb.engine.advise.upgrade import MECHANICAL_FINDINGS
from vllm_kb.engine.audit import audit
from vllm_kb.engine.fix import apply as apply_mod
from vllm_kb.engine.fix.changes import Fixable, plan
from vllm_kb.engine.fix.text_edits import file_edits
from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.upgrade import fix, upgrade

ROOT = Path(__file__).resolve().parents[1]
PROJECTS = sorted([p for p in (ROOT / "tests" / "fixtures").iterdir() if p.is_dir()] + [ROOT / "examples" / "quickstart"])
NEWEST = catalog_mod.load().newest
GPU = "H100-80GB x8"


@pytest.mark.parametrize("project", PROJECTS, ids=lambda p: p.name)
def test_plan_from_pin_to_newest(project):
    res = upgrade(project, gpu=GPU)
    assert res.target == NEWEST
    assert len(res.plans) == len(res.now.sites)
    for p in res.plans:
        assert p.target == NEWEST and p.current
        for i in p.items:
            assert i.text["en"] and i.text["zh"]


@pytest.mark.parametrize("project", PROJECTS, ids=lambda p: p.name)
def test_fix_output_audits_clean_at_the_target(project, tmp_path):
    copy = tmp_path / project.name
    shutil.copytree(project, copy)
    res = fix(copy, gpu=GPU, bump_pins=True)
    apply_mod.write(copy, res)
    after = audit(copy, gpu=GPU, vllm_version=NEWEST)
    left = [(sr, f) for sr in after.sites for f in sr.remarks if f.code in MECHANICAL_FINDINGS]
    # what is left is only what the fix stage has no writer for in that syntax (a container
    # manifest's environment before engine/fix learns it), and --fix said so (manual)
    for sr, f in left:
        ch = plan(sr.site, [Fixable(f.id, "P0", True, f.fix)], catalog_mod.load(), NEWEST) if f.fix else []
        assert f.fix and not file_edits(sr.site, ch, after.ctx.read), (sr.site.file, f.id)
    assert res.manual >= len(left)
    # and the pinned release is the target now, wherever the project states one
    pinned = audit(copy, gpu=GPU)
    assert all(sr.lookup_version == NEWEST for sr in pinned.sites if sr.version.pinned and sr.version.basis != "range"), \
        [(sr.site.file, sr.lookup_version, sr.version.basis) for sr in pinned.sites]


def test_fix_touches_only_the_settings_it_removes(tmp_path):
    copy = tmp_path / "stale-serve"
    shutil.copytree(ROOT / "tests" / "fixtures" / "stale-serve", copy)
    before = (copy / "scripts" / "serve.sh").read_text()
    res = fix(copy, gpu=GPU)
    apply_mod.write(copy, res)
    after = (copy / "scripts" / "serve.sh").read_text()
    gone = [ln for ln in before.splitlines() if ln not in after.splitlines()]
    assert {ln.strip().split()[0] for ln in gone} == {"--swap-space", "--num-scheduler-steps", "--use-v2-block-manager",
                                                     "--max-seq-len-to-capture", "--disable-log-requests", "--calculate-kv-scales",
                                                     "export"}
    assert {ln for ln in gone if ln.startswith("export")} == {"export VLLM_USE_V1=0", "export VLLM_ATTENTION_BACKEND=FLASHINFER"}
    added = [ln for ln in after.splitlines() if ln not in before.splitlines()]
    assert [ln.strip() for ln in added] == ["--attention-backend FLASHINFER \\"]  # the env var carried to its flag, nothing else
    assert (copy / "requirements.txt").read_text() == (ROOT / "tests/fixtures/stale-serve/requirements.txt").read_text()  # no --bump-pins


def _project(tmp_path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path


def test_renames_carry_the_value_in_the_sites_syntax(tmp_path):
    root = _project(tmp_path, {"requirements.txt": "vllm==0.10.2\n",
                               "serve.sh": "vllm serve m \\\n    --guided-decoding-backend xgrammar \\\n    --port 8000\n"})
    res = upgrade(root, "0.12.0", gpu=GPU)
    items = {(i.kind, i.subject) for p in res.plans for i in p.items}
    assert ("renamed", "guided_decoding_backend") in items
    got = fix(root, "0.12.0", gpu=GPU, bump_pins=True)
    apply_mod.write(root, got)
    text = (root / "serve.sh").read_text()
    assert "--guided-decoding-backend" not in text and "--port 8000" in text
    assert "structured-outputs-config" in text and "xgrammar" in text
    assert (root / "requirements.txt").read_text() == "vllm==0.12.0\n"


def test_env_rename_to_a_flag(tmp_path):
    root = _project(tmp_path, {"requirements.txt": "vllm==0.11.0\n",
                               "serve.sh": "export VLLM_ATTENTION_BACKEND=FLASHINFER\nvllm serve m --port 8000\n"})
    got = fix(root, "0.16.0", gpu=GPU)
    apply_mod.write(root, got)
    text = (root / "serve.sh").read_text()
    assert "VLLM_ATTENTION_BACKEND" not in text and "--attention-backend FLASHINFER" in text


def test_defaults_that_change_under_the_site(tmp_path):
    root = _project(tmp_path, {"requirements.txt": "vllm==0.8.2\n", "serve.sh": "vllm serve m --port 8000\n"})
    res = upgrade(root, "0.9.0", gpu="A100-80GB x1")
    d = {i.subject: (i.before, i.after) for p in res.plans for i in p.of("defaults")}
    assert d["max_num_seqs"] == (1024, 256)  # 0.8.2 gives every GPU 1024; 0.9.0 keeps A100 at 256


def test_engine_change_and_framework_releases(tmp_path):
    root = _project(tmp_path, {"requirements.txt": "vllm==0.7.3\ntrl==0.17.0\n",
                               "train.py": "from trl import GRPOConfig\ncfg = GRPOConfig(output_dir='o', use_vllm=True, vllm_mode='colocate')\n"})
    res = upgrade(root, "0.12.0", gpu=GPU)
    kinds = {(i.kind, i.subject): i for p in res.plans for i in p.items}
    assert ("engine", "engine.default") in kinds and kinds[("engine", "engine.default")].after == "v1"
    fw = kinds[("frameworks", "trl")]
    assert fw.before == "0.17.0" and fw.after and fw.priority == "P0"  # a TRL release that goes with 0.12.0


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_cli_formats_and_exit_codes(fmt, lang, tmp_path, capsys):
    copy = tmp_path / "stale-serve"
    shutil.copytree(ROOT / "tests" / "fixtures" / "stale-serve", copy)
    rc = main(["upgrade", str(copy), "--to", NEWEST, "--gpu", GPU, "--format", fmt, "--lang", lang])
    out = capsys.readouterr().out
    assert rc == 1  # removed options: vLLM refuses to start at the target
    if fmt == "json":
        data = json.loads(out)
        assert data["target"] == NEWEST and data["sites"][0]["items"]
    else:
        assert ("升级计划" if lang == "zh" else "upgrade plan") in out
    assert main(["upgrade", str(copy), "--gpu", GPU, "--fix", "--bump-pins", "--format", fmt, "--lang", lang]) == 0
    capsys.readouterr()
    assert main(["upgrade", str(copy), "--gpu", GPU, "--diff"]) == 0  # nothing left to write


def test_usage_errors(capsys):
    assert main(["upgrade", str(ROOT / "examples" / "quickstart"), "--to", "banana"]) == 2
    assert main(["upgrade", str(ROOT / "examples" / "quickstart"), "--bump-pins"]) == 2
