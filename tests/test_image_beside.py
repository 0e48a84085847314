"""A launch script that pins nothing, beside a Dockerfile whose image names a release, is judged as
that release with the newest release's facts beside it (engine/scan/image_beside.py): vLLM #17604
(`--enable-reasoning` on the v0.9.1 image) and #30165 (`--swap-space` on v0.10.2) started, and were
false P0s when the script was judged as the newest release only. A refusal both releases share stays
P0; images that disagree, or that sit in another folder, leave the script unpinned."""
from vllm_kb.engine.audit import audit

SERVE = "#!/bin/sh\nvllm serve {model} --tensor-parallel-size {tp} --max-model-len 8192 {extra}\n"


def _site(tmp_path, extra: str = "", model: str = "Qwen/Qwen3-8B", tp: int = 1, script: str = "serve.sh"):
    path = tmp_path / script
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SERVE.format(model=model, tp=tp, extra=extra))
    rep = audit(tmp_path, gpu="H100-80GB x8")
    return next(sr for sr in rep.sites if sr.site.file == script)


def _p0(sr) -> set[str]:
    return {r.check.id for r in sr.results if r.needs_change and r.priority == "P0"} | \
        {f.code for f in sr.remarks if f.priority == "P0"}


def test_an_option_the_image_release_accepts_is_no_p0(tmp_path):
    (tmp_path / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.9.1\n")
    sr = _site(tmp_path, "--enable-reasoning --reasoning-parser deepseek_r1")
    assert sr.version.basis == "image-beside" and str(sr.version.version) == "0.9.1"
    assert not _p0(sr)


def test_a_removed_option_is_a_p1_that_names_the_image(tmp_path):
    (tmp_path / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.10.2\nRUN pip install autoawq\n")
    sr = _site(tmp_path, "--swap-space 16")
    assert not _p0(sr)


def test_a_refusal_both_releases_share_stays_p0(tmp_path):
    (tmp_path / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.9.1\n")
    sr = _site(tmp_path, tp=3)  # 32 attention heads over 3 GPUs: every release refuses
    assert "L1" in _p0(sr)


def test_an_option_only_newer_releases_have_is_not_certain_either(tmp_path):
    (tmp_path / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.6.3\n")
    sr = _site(tmp_path, "--reasoning-parser deepseek_r1")  # first in 0.7.x: the newest has it
    assert not _p0(sr)


def test_a_script_in_a_subfolder_takes_the_image_above_it(tmp_path):
    (tmp_path / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.9.1\n")
    sr = _site(tmp_path, script="scripts/serve.sh")
    assert sr.version.basis == "image-beside"


def test_images_that_disagree_or_sit_elsewhere_leave_it_unpinned(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.9.1\n")
    assert _site(tmp_path).version.basis == "none"  # another folder's image
    (tmp_path / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.9.1\n")
    (tmp_path / "Dockerfile.old").write_text("FROM vllm/vllm-openai:v0.6.3\n")
    assert _site(tmp_path).version.basis == "none"


def test_a_pin_of_its_own_wins(tmp_path):
    (tmp_path / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.9.1\n")
    (tmp_path / "requirements.txt").write_text("vllm==0.10.2\n")
    sr = _site(tmp_path)
    assert sr.version.basis == "pin" and str(sr.version.version) == "0.10.2"


def test_the_report_says_where_the_release_comes_from(tmp_path):
    (tmp_path / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.9.1\n")
    sr = _site(tmp_path)
    from vllm_kb.engine.kb.knowledge import load
    from vllm_kb.engine.report.model import version_text

    for lang in ("en", "zh"):
        assert "vllm/vllm-openai:v0.9.1" in version_text(load(), sr.version, lang)


_WORKSPACE = ("services:\n  dev:\n    image: example.cn/repo/modelscope:ubuntu22.04-cuda12.9.1-torch2.8.0-vllm0.9.1-swift3.11.3\n"
              "    working_dir: /workspace\n    tty: true\n    volumes:\n      - {mount}:/workspace\n{extra}")


def test_a_compose_workspace_whose_tag_names_vllm_is_the_scripts_image(tmp_path):
    # atbender/editorial-faithfulness: its scripts run in a ModelScope image tagged …-vllm0.11.0-…, mounted at
    # /workspace with no command of its own; the scripts were judged as the newest release ("nothing pins vLLM")
    (tmp_path / "docker-compose.yml").write_text(_WORKSPACE.format(mount="./", extra=""))
    sr = _site(tmp_path, "--enable-reasoning --reasoning-parser deepseek_r1")
    assert (sr.version.basis, str(sr.version.version)) == ("image-beside", "0.9.1")
    assert sr.version.pin.file == "docker-compose.yml" and sr.version.pin.line == 3
    assert not _p0(sr)


def test_a_compose_service_that_runs_its_own_program_or_mounts_elsewhere_is_no_workspace(tmp_path):
    for mount, extra in (("./", "    command: python app.py\n"), ("./data", "")):
        (tmp_path / "docker-compose.yml").write_text(_WORKSPACE.format(mount=mount, extra=extra))
        assert _site(tmp_path).version.basis != "image-beside"
