"""L19: --enable-return-routed-experts on a dense model stops the engine at start-up (0.14.0 on: the
routed-experts capture buffer reads the config's experts per token). vLLM #42593: Llama-3.1-8B on 0.15.1."""
import textwrap

import pytest
from vllm_kb.engine.audit import audit


@pytest.mark.parametrize("model,refused", [
    ("meta-llama/Llama-3.1-8B-Instruct", True),
    ("Qwen/Qwen3-30B-A3B", False),  # a mixture-of-experts model has them
])
def test_routed_experts_on_a_dense_model(tmp_path, model, refused):
    (tmp_path / "requirements.txt").write_text("vllm==0.15.1\n")
    (tmp_path / "serve.sh").write_text(textwrap.dedent(f"vllm serve {model} --enable-return-routed-experts\n"))
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    r = next(x for x in sr.results if x.check.id == "L19")
    assert (r.status == "recommended" and r.priority == "P0") is refused
