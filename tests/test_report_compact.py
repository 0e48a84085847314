"""A many-site Markdown report names a repeated recommendation instead of repeating it (eval109:
GPUStack's 319 catalog specs made a 13 MB report); --fix -q still says what it wrote."""
from __future__ import annotations

from vllm_kb.engine.report.compact import COMPACT_FROM, compact


def _site(i: int, reason: str = "same words") -> dict:
    rec = {"priority": "P1", "kind": "check", "check": "B3", "title": "FP8 KV cache", "reason": reason,
           "file": "catalog.yaml", "line": 10 * i}
    return {"id": f"catalog.yaml:{10 * i}", "file": "catalog.yaml", "line": 10 * i, "recommendations": [rec]}


def test_few_sites_are_written_in_full_where_their_changes_differ():
    sites = [_site(i) for i in range(1, COMPACT_FROM)]
    for i, s in enumerate(sites):
        s["recommendations"][0]["changes"] = [{"op": "set", "file": "catalog.yaml", "line": 10 * i, "after": "fp8"}]
    got = compact({"sites": sites})
    assert got["compact"] is False and got["repeated"] == []
    assert all("same_as" not in r for s in got["sites"] for r in s["recommendations"])


def test_few_sites_with_one_cause_name_it_once():
    """eval113 General-Reasoner: one unpinned transformers under vLLM 0.8.3, L125 in full at 7 sites, each
    with the pin `transformers<5` no file holds yet; told once, the later sites naming the first."""
    sites = [_site(i) for i in range(1, 8)]
    for s in sites:
        s["recommendations"][0]["changes"] = [{"op": "pin", "target": "transformers", "file": s["file"] + str(s["line"]),
                                               "line": None, "after": "transformers<5", "fixable": False}]
    got = compact({"sites": sites})
    assert got["compact"] is False
    recs = [s["recommendations"][0] for s in got["sites"]]
    assert "same_as" not in recs[0] and all(r["same_as"] == 1 for r in recs[1:])
    (g,) = got["repeated"]
    assert g["n"] == 7 and g["check"] == "B3"


def test_a_repeated_recommendation_is_named_once_with_its_sites():
    sites = [_site(i) for i in range(1, COMPACT_FROM + 10)] + [_site(99, "other words")]
    got = compact({"sites": sites})
    assert got["compact"] is True
    recs = [s["recommendations"][0] for s in got["sites"]]
    assert "same_as" not in recs[0] and all(r["same_as"] == 1 for r in recs[1:-1])
    assert "same_as" not in recs[-1]  # different words: written in full
    (g,) = got["repeated"]
    assert g["n"] == COMPACT_FROM + 9 and g["check"] == "B3" and len(g["where"]) == 8 and g["more"] == COMPACT_FROM + 1


def test_markdown_of_many_sites_leaves_the_per_check_tables_out(tmp_path, cli):
    lines = ["#!/bin/bash"] + [f"vllm serve Qwen/Qwen2.5-7B-Instruct --port {8000 + i}" for i in range(COMPACT_FROM)]
    (tmp_path / "run.sh").write_text("\n".join(lines) + "\n")
    _, out, _ = cli("audit", str(tmp_path), "--gpu", "H100", "--isolated", "--format", "markdown", "--exit-zero")
    assert "<details>" not in out and "same as site 1" in out
    _, zh, _ = cli("audit", str(tmp_path), "--gpu", "H100", "--isolated", "--format", "markdown", "--exit-zero", "--lang", "zh")
    assert "同部署点 1" in zh and "多个部署点重复的建议" in zh


def test_fix_quiet_still_says_what_it_wrote(tmp_path, cli):
    (tmp_path / "requirements.txt").write_text("vllm==0.29.0\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct --swap-space 4 --max-model-len 4096\n")
    _, _, err = cli("audit", str(tmp_path), "--gpu", "H100", "--isolated", "--fix", "-q", "--exit-zero")
    assert "--swap-space" not in (tmp_path / "run.sh").read_text()
    assert "--fix wrote 1 change(s) in 1 file(s): run.sh" in err and "need --unsafe-fixes" in err


def test_one_install_one_cause_is_told_once_in_text_and_markdown(tmp_path, cli):
    (tmp_path / "requirements.txt").write_text("vllm==0.8.3\n")  # transformers unpinned: L125 at each engine
    for name, model in (("a.py", "Qwen/Qwen2.5-7B-Instruct"), ("b.py", "Qwen/Qwen2.5-1.5B-Instruct")):
        (tmp_path / name).write_text(f'from vllm import LLM\nllm = LLM(model="{model}")\n')
    _, text, _ = cli("audit", str(tmp_path), "--gpu", "H100", "--isolated", "--format", "text", "--exit-zero")
    assert "same as site 1" in text
    _, md, _ = cli("audit", str(tmp_path), "--gpu", "H100", "--isolated", "--format", "markdown", "--exit-zero")
    assert "## Repeated across sites" in md and "**P1 L125**" in md
    assert md.count("(`transformers-newer-than-vllm`)") == 1 and "same as site 1" in md
    _, js, _ = cli("audit", str(tmp_path), "--gpu", "H100", "--isolated", "--format", "json", "--exit-zero")
    assert js.count("transformers-newer-than-vllm") >= 2  # the JSON report stays complete
