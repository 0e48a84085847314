"""How the human reports lay out what people copy and what they look at: in the terminal report
code never wraps (a change, a command, a diff line stays one line at any width) while prose may;
one GPU's memory is drawn as a bar (weights | KV cache | reserve | free) in the terminal report
and in `vllm-kb estimate`, and as a table in the Markdown report — in English and Chinese."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from vllm_kb.engine.audit import audit
from vllm_kb.engine.report import markdown, memory_bar, model, text

ROOT = Path(__file__).resolve().parents[1]
GLYPHS = "".join(memory_bar.GLYPH.values())


@pytest.fixture(scope="module")
def example():
    return audit(ROOT / "examples/quickstart", gpu="H100-80GB x8")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", [40, 80])
def test_code_keeps_its_full_width_while_prose_wraps(example, lang, width):
    data = model.build(example, lang)
    lines = text.render(data, width=width).splitlines()
    diff_lines = [x for s in data["sites"] for b in s["after"] for x in b["text"].splitlines()]
    spec = next(c for s in data["sites"] for r in s["recommendations"] for c in r["changes"]
                if (c.get("after") or "").startswith("--speculative-config"))
    # the example has code a narrow terminal cannot hold (the speculative config at least; score.py's
    # generate line only while B3 writes into that file, which it no longer does at no KV pressure: db34168c)
    assert any(len(x) > width for x in diff_lines + [spec["after"]])
    for x in diff_lines:
        assert x in lines, f"diff line broken at width {width}: {x!r}"
    assert any(line.endswith(spec["after"]) and len(line) > width for line in lines)
    # prose does wrap: the longest recommendation is folded to the width
    from rich.cells import cell_len

    reason = max((r["reason"] for s in data["sites"] for r in s["recommendations"]), key=cell_len)
    assert cell_len(reason) > width and not any(reason in line for line in lines)


@pytest.mark.parametrize("lang,heading,words", [
    ("en", "GPU memory, per GPU (estimated):", ("weights", "KV cache", "reserve", "free")),
    ("zh", "每卡显存（估计值）：", ("权重", "KV Cache", "预留", "空闲")),
])
def test_the_terminal_report_draws_each_gpus_memory(example, lang, heading, words):
    data = model.build(example, lang)
    lines = text.render(data, width=100).splitlines()
    at = [i for i, x in enumerate(lines) if x == heading]
    assert len(at) == 2  # one per site with a memory estimate
    for i, s in zip(at, data["sites"]):
        bar, legend = lines[i + 1].strip(), lines[i + 2]
        assert len(bar) == memory_bar.WIDTH and set(bar) <= set(GLYPHS)
        assert all(w in legend for w in words)
        parts = memory_bar.split(s["memory"], data["hardware"]["gpu"]["memory_gib"])
        assert parts["weights_gib"] == s["memory"]["weights_per_gpu_gib"] and parts["kv_cache_gib"] == s["memory"]["kv_cache_gib"]
        assert abs(sum(parts[f"{k}_gib"] for k in memory_bar.SEGMENTS) - parts["total_gib"]) < 0.01
    # the 8×H100 serving site: gpu_memory_utilization 0.9, so most of the bar is weights and KV cache
    serve = lines[at[1] + 1].strip()
    assert serve.count(memory_bar.GLYPH["kv_cache"]) > serve.count(memory_bar.GLYPH["weights"]) > serve.count(memory_bar.GLYPH["free"])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_markdown_report_has_a_memory_table(example, lang):
    data = model.build(example, lang)
    md = markdown.render(data)
    from vllm_kb.engine.kb.knowledge import load

    def t(key):
        return load().t(key, lang)

    header = f"| {t('memory_bar.title')} | {t('memory_bar.weights')} | {t('memory_bar.kv_cache')} | {t('memory_bar.reserve')} | {t('memory_bar.free')} | {t('memory_bar.total')} |"
    assert md.count(header) == 2
    rows = re.findall(rf"^\| {re.escape(t('memory_bar.share'))} \| (\d+)% \| (\d+)% \| (\d+)% \| (\d+)% \| 100% \|$", md, re.M)
    assert len(rows) == 2 and all(98 <= sum(map(int, r)) <= 102 for r in rows)
    from vllm_kb.engine.kb.messages import num

    serve = data["sites"][1]["memory"]  # the table says what the memory line says
    assert f"| GiB | {num(round(serve['weights_per_gpu_gib'], 2))} | {num(round(serve['kv_cache_gib'], 2))} |" in md


def test_bar_cells_are_proportional_and_never_hide_a_segment():
    parts = {"total_gib": 80.0, "weights_gib": 70.0, "kv_cache_gib": 9.7, "reserve_gib": 0.2, "free_gib": 0.1, "over_gib": 0.0}
    cells = dict(memory_bar.cells(parts))
    assert sum(cells.values()) == memory_bar.WIDTH and min(cells.values()) == 1
    assert cells["weights"] > cells["kv_cache"]
    empty = dict(parts, kv_cache_gib=0.0)
    assert "kv_cache" not in dict(memory_bar.cells(empty))
    assert memory_bar.split({"weights_per_gpu_gib": 10}, None) is None
    over = memory_bar.split({"weights_per_gpu_gib": 131.4, "fits": False, "kv_cache_gib": -94.0, "activation_peak_gib": 1.0}, 40.0)
    assert over["kv_cache_gib"] == 0 and over["free_gib"] == 0 and round(over["over_gib"], 1) == 92.4


@pytest.mark.parametrize("lang,heading", [("en", "GPU memory, per GPU (estimated):"), ("zh", "每卡显存（估计值）：")])
def test_estimate_draws_the_bar(cli, lang, heading):
    code, out, _ = cli("estimate", "--model", "meta-llama/Llama-3.3-70B-Instruct", "--gpu", "H100-80GB x8", "--tp", "8",
                       "--lang", lang)
    lines = out.splitlines()
    i = lines.index(heading)
    assert code == 0 and len(lines[i + 1].strip()) == memory_bar.WIDTH and set(lines[i + 1].strip()) <= set(GLYPHS)
    # a model that does not fit: the legend says by how much
    _, out, _ = cli("estimate", "--model", "meta-llama/Llama-3.3-70B-Instruct", "--gpu", "A100-40GB")
    assert re.search(r"over by [\d.]+ GiB: it does not fit", out)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_site_with_tables_and_no_scenario_renders(tmp_path, lang):
    """An RL site can carry the memory-split table without a matched scenario (heldout56: an
    OpenRLHF script of RUCAIBox/R1-Searcher); the note after the site's own value renders with the
    sentence space of its language instead of stopping the Markdown report."""
    (tmp_path / "train.sh").write_text(
        "ray job submit -- python3 -m openrlhf.cli.train_ppo_ray --vllm_num_engines 1 --vllm_tensor_parallel_size 2 "
        "--pretrain Qwen/Qwen2.5-1.5B-Instruct --vllm_gpu_memory_utilization 0.95\n")
    data = model.build(audit(tmp_path, gpu="H100-80GB x8"), lang)
    site = next(s for s in data["sites"] if s.get("tables"))
    site["scenario"] = None
    assert any(row.get("note") and row.get("site_value") for tb in site["tables"] for row in tb["rows"])
    out = markdown.render(data)
    row = next(row for tb in site["tables"] for row in tb["rows"] if row.get("note") and row.get("site_value"))
    assert row["note"] in out
