"""A model no tensor-parallel size fits (no `min_tp` in the estimate) renders in every format: the
Markdown template once stopped with "'dict object' has no attribute 'min_tp'" on vLLM's own tree."""
import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.report import markdown, model


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_weights_that_fit_no_tp_render_in_markdown_and_text(tmp_path, lang):
    from vllm_kb.cli.main import main

    (tmp_path / "run.sh").write_text("vllm serve meta-llama/Llama-3.1-405B-Instruct\n")
    rep = audit(tmp_path, gpu="RTX-3060")
    (sr,) = rep.sites
    assert "min_tp" not in sr.facts["memory"] and sr.facts["memory"]["fits"] is False
    out = markdown.render(model.build(rep, lang))
    assert ("no tensor_parallel_size up to 64" in out) if lang == "en" else ("张量并行数到 64 为止" in out)
    assert main(["audit", str(tmp_path), "--gpu", "RTX-3060", "--lang", lang]) == 1
