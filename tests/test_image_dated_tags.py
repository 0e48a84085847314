"""Image tags that date a build or name the tag beside the image (eval109): AMD's rocm/vllm-dev tags write
the day month first (`open-mi300-08052025`: 5 August 2025, dstack's gpt-oss recipe), and llmaz's
BackendRuntime writes the tag as `version:` beside an untagged `image:` (its controller appends it)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.images import dated_release, image_date


@pytest.mark.parametrize(("image", "day"), [
    ("rocm/vllm-dev:open-mi300-08052025", "2025-08-05"),
    ("rocm/vllm-dev:nightly_main_20250815", "2025-08-15"),
    ("lmcache/vllm-openai:2025-05-05-v1", "2025-05-05"),
    ("someone/vllm:08252025", "2025-08-25"),  # the 25th: month first is the only reading
    ("someone/vllm:08052025", None),  # 5 August or 8 May: not read
    ("vllm/vllm-openai:nightly-2a4b6c8", None),
])
def test_build_days(image, day):
    assert image_date(image) == day


def test_amd_gpt_oss_build_is_judged_at_its_day():
    assert dated_release("rocm/vllm-dev:open-mi300-08052025") == "0.10.0"


def test_llmaz_backend_runtime_version_is_the_tag(write_project):
    runtime = ("apiVersion: inference.llmaz.io/v1alpha1\nkind: BackendRuntime\nmetadata:\n  name: vllm\nspec:\n"
               "  command: [python3, -m, vllm.entrypoints.openai.api_server]\n  image: vllm/vllm-openai\n  version: v0.6.0\n"
               "  recommendedConfigs:\n    - name: default\n      args: [--model, \"{{ .ModelPath }}\", --port, \"8080\"]\n")
    (sr,) = audit(write_project({"vllm.yaml": runtime}), gpu="H100-80GB").sites
    assert (sr.site.image, sr.version.version) == ("vllm/vllm-openai:v0.6.0", "0.6.0")
