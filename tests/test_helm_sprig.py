"""Sprig's conversions, comparisons and semverCompare in a chart's conditions (engine/scan/deploy/helm_funcs.py).
eval113 stackhpc/azimuth-llm: the image sat in a branch on `eq (.Values.api.gpus | int) 0` and `--model` under
`semverCompare "<v0.13.0" …`; both were unknown, the image was left out and the chart had no site, while
`detect` read the raw templates as YAML and called them invalid."""
from __future__ import annotations

import json
from pathlib import Path

from vllm_kb.engine.scan.deploy import helm_render
from vllm_kb.engine.scan.shell_expand import HOLE_OPEN

CASE = Path(__file__).parent / "realcases" / "control--azimuth-llm-helm-chart"


def _render(text: str, values: dict) -> str:
    return helm_render.render(text, {"Values": values, "Chart": {}, "Release": helm_render.UNKNOWN})


def test_int_and_comparisons_decide_a_branch_on_the_charts_own_values():
    t = "{{- if eq (.Values.gpus | int) 0 }}\ncpu\n{{- else if gt (int .Values.gpus) 1 }}\nmany\n{{- else }}\none\n{{- end }}"
    assert [_render(t, {"gpus": g}).strip() for g in (0, "2", 1, None)] == ["cpu", "many", "one", "cpu"]
    assert helm_render.GAP not in _render(t, {"gpus": 1})
    assert HOLE_OPEN in _render("n: {{ int .Values.g }}", {"g": "x"})  # not a number: unknown, never 0


def test_semver_compare_reads_one_plain_comparison_and_leaves_ranges_unknown():
    t = '{{- if semverCompare "<v0.13.0" .Values.v }}old{{- else }}new{{- end }}'
    assert (_render(t, {"v": "v0.11.0"}), _render(t, {"v": "0.13.0"}), _render(t, {"v": "v0.20.1"})) == ("old", "new", "new")
    assert _render('{{ if semverCompare "~1.2 || >=2" .Values.v }}x{{ end }}', {"v": "1.2.3"}) != "x"
    assert _render('{{ if semverCompare "<1.0" .Values.v }}x{{ end }}', {"v": "nightly"}) != "x"


def test_has_on_an_empty_list_and_on_a_missing_one():
    t = '{{ if has "--x" .Values.a }}yes{{ else }}no{{ end }}'
    assert (_render(t, {"a": []}), _render(t, {"a": ["--x"]}), _render(t, {})) == ("no", "yes", "no")


def test_the_azimuth_chart_is_a_site_on_its_image_release_and_detect_reads_it(cli):
    code, out, err = cli("audit", str(CASE), "--isolated", "-q", "--format", "json", "--gpu", "A100-80GB x1")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    assert site["file"] == "templates/api/deployment.yml" and site["model"]["name"] == "deepseek-ai/deepseek-llm-7b-chat"
    assert (site["vllm"]["version"], site["vllm"]["basis"]) == ("0.11.0", "image")
    code, out, err = cli("detect", str(CASE), "--all")
    assert "vLLM is used here" in out and "invalid YAML" not in out + err
