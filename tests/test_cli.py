"""The CLI boundary: exit codes, output destinations, errors people can act on."""
import json

from vllm_kb.engine.kb.errors import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE
from vllm_kb.engine.kb.knowledge import load


def test_audit_exits_1_on_p0_and_0_with_exit_zero(fixtures_dir, cli):
    code, out, _ = cli("audit", "stale-serve", "--gpu", "H100 x4", "--format", "json")
    assert code == EXIT_FINDINGS and json.loads(out)["summary"]["recommendations"]["P0"] > 0
    code, _, _ = cli("audit", "stale-serve", "--gpu", "H100 x4", "--format", "json", "--exit-zero")
    assert code == EXIT_CLEAN


def test_fail_on_threshold(fixtures_dir, cli):
    assert cli("audit", "offline-batch", "--gpu", "H100 x4", "--format", "json")[0] == EXIT_CLEAN  # no P0
    assert cli("audit", "offline-batch", "--gpu", "H100 x4", "--format", "json", "--fail-on", "P1")[0] == EXIT_FINDINGS


def test_no_vllm_project(fixtures_dir, cli):
    code, out, _ = cli("audit", "no-vllm", "--gpu", "none", "--format", "markdown")
    assert code == EXIT_CLEAN and "No vLLM deployment site found" in out


def test_output_file_and_summary_on_stderr(fixtures_dir, cli, tmp_path):
    target = tmp_path / "r.md"
    code, out, err = cli("audit", "config-yaml", "--gpu", "H100 x4", "--format", "markdown", "--lang", "zh", "-o", str(target))
    assert out == "" and "个部署点" in err and target.read_text().startswith("# vLLM 推理优化审计报告")


def test_text_format_renders(fixtures_dir, cli):
    code, out, _ = cli("audit", "offline-batch", "--gpu", "H100 x4")
    assert "batch_infer.py" in out and "B1" in out


def test_usage_errors_exit_2(fixtures_dir, cli):
    assert cli("audit", "does-not-exist")[0] == EXIT_USAGE
    code, _, err = cli("audit", "stale-serve", "--gpu", "Z9000")
    assert code == EXIT_USAGE and "unknown GPU" in err
    assert cli("audit", "stale-serve", "--vllm-version", "banana")[0] == EXIT_USAGE
    assert cli("audit", "--format", "xml")[0] == EXIT_USAGE
    assert cli()[0] == EXIT_USAGE


def test_checks_list_and_show(cli):
    code, out, _ = cli("checks", "list")
    assert code == 0 and "B3   kv-cache-fp8" in out
    code, out, _ = cli("checks", "show", "kv-cache-fp8", "--lang", "zh")
    assert code == 0 and out.startswith("B3 kv-cache-fp8 — KV Cache FP8 量化")
    assert cli("checks", "show", "Z9")[0] == EXIT_USAGE


def test_kb_validate_passes(cli):
    code, out, err = cli("kb", "validate")
    assert code == 0, err
    assert f"{len(load().checks)} checks" in out


def test_version(cli):
    code, out, _ = cli("--version")
    assert code == 0 and out.startswith("vllm-kb ")
