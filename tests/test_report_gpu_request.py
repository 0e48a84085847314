"""The Markdown hardware line of a container that asks for GPUs while the site has no GPU facts (another
accelerator's image, here vLLM Ascend): eval113 MinerU rendered "so the checks count ?" mid-sentence."""
from __future__ import annotations

COMPOSE = """\
services:
  vllm:
    image: quay.io/ascend/vllm-ascend:v0.11.0
    command: vllm serve Qwen/Qwen2.5-7B-Instruct
    deploy:
      resources:
        reservations:
          devices:
            - {driver: nvidia, count: 1, capabilities: [gpu]}
"""


def test_no_question_mark_where_the_count_is_unknown(cli, write_project):
    root = write_project({"compose.yaml": COMPOSE})
    for lang, words in (("en", "the container asks for 1 GPU(s); how many"), ("zh", "该容器申请 1 张 GPU；")):
        code, out, err = cli("audit", str(root), "--isolated", "-q", "--format", "markdown", "--gpu", "H100-80GB x8", "--lang", lang)
        assert code in (0, 1), err
        (line,) = [ln for ln in out.splitlines() if ln.startswith("- **") and words in ln]
        assert "?" not in line and "？" not in line
