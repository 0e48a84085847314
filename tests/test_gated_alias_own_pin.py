"""eval121's false P0s: a launch in a module loaded only under a vLLM version test the release fails, a
name rebound by a later import, an LLM subclass's own parameters, and a sibling Dockerfile's checkout."""
from __future__ import annotations

import json
from pathlib import Path

from vllm_kb.engine.scan import version_gates

REAL = Path(__file__).parent / "realcases"

GATE = """from importlib.metadata import version
package_name = 'vllm'
package_version = version(package_name)
if package_version <= '0.6.3':
    from .old import Rollout
else:
    from .spmd import Rollout
"""


def _audit(cli, root: Path) -> dict:
    code, out, err = cli("audit", str(root), "--gpu", "H100-80GB x8", "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    return json.loads(out)


def test_the_else_of_a_string_comparison_is_its_negation(write_project):
    root = write_project({"pkg/__init__.py": "", "pkg/r/__init__.py": GATE, "pkg/r/spmd.py": "", "pkg/r/old.py": ""})
    files = ["pkg/__init__.py", "pkg/r/__init__.py", "pkg/r/spmd.py", "pkg/r/old.py"]
    read = lambda rel: (root / rel).read_text()  # noqa: E731
    (gate,) = version_gates.gates("pkg/r/spmd.py", files, read)
    assert (gate.spec, gate.lexical, gate.at) == (">0.6.3", True, "pkg/r/__init__.py:4")
    assert version_gates.outside("0.6.3", [gate]) and not version_gates.outside("0.7.0", [gate])
    # Python's string order: '0.10.0' > '0.6.3' is False, so 0.10.0 loads the old module, not spmd
    assert version_gates.outside("0.10.0", [gate])
    assert not version_gates.outside("0.10.0", [version_gates.Gate("<=0.6.3", True)])
    assert str(gate) == "str>0.6.3" and version_gates.Gate.parse(str(gate)) == version_gates.Gate(">0.6.3", True)


def test_an_import_of_the_module_from_the_package_root_is_not_overlooked(write_project):
    # `verl.workers.x` for VERL-STILL/verl/workers/x.py: an ungated import by another spelling keeps the site
    root = write_project({"V/pkg/r/__init__.py": GATE, "V/pkg/r/spmd.py": "", "V/run.py": "from pkg.r.spmd import Rollout\n"})
    files = ["V/pkg/r/__init__.py", "V/pkg/r/spmd.py", "V/run.py"]
    assert version_gates.gates("V/pkg/r/spmd.py", files, lambda rel: (root / rel).read_text()) is None


def test_a_launch_in_a_gated_out_module_is_not_judged(cli):
    # RUCAIBox/Slow_Thinking_with_LLMs VERL-STILL/verl/workers/rollout/vllm_rollout/__init__.py:28-33
    report = _audit(cli, REAL / "project-import-version-gate--rucaibox-verl-still-834e1b79-control")
    assert report["sites"] == []
    skipped = [s for s in report["project"]["skipped"] if s["code"] == "gated-out"]
    assert {s["file"].split("/")[0] for s in skipped} == {"VERL-STILL", "entropy2performance"}
    assert all(">0.6.3" in s["reason"] and "__init__.py:" in s["reason"] for s in skipped)


def test_a_name_rebound_by_a_later_import_is_not_vllm_llm(scanned):
    # intel/ipex-llm docker/llm/serving/xpu/docker/audio_language.py:8-9
    base = "from vllm import LLM\nfrom ipex_llm.vllm.xpu.engine import IPEXLLMClass as LLM\n"
    assert scanned({"a.py": base + "llm = LLM(model='m', load_in_low_bit='fp8')\n"}) == []
    again = "from other import LLM\nfrom vllm import LLM\nllm = LLM(model='m')\n"
    assert [s.kind for s in scanned({"b.py": again})] == ["LLM()"]
    inside = "from vllm import LLM\ndef f():\n    from other import LLM\n    return LLM(model='m')\nllm = LLM(model='m')\n"
    assert len(scanned({"c.py": inside})) >= 1  # a function's own import leaves the module's name alone


def test_an_llm_subclass_forwarding_its_parameters_is_p1_at_most(cli):
    # intel/ipex-llm python/llm/src/ipex_llm/vllm/xpu/engine/engine.py:193: swap_space like task, unpinned
    report = _audit(cli, REAL / "llm-subclass-wrapper--ipex-llm-xpu-engine-de6bce27-control")
    (site,) = report["sites"]
    got = {r["check"]: r["priority"] for r in site["recommendations"]}
    assert got["B4"] == "P1" and "P0" not in got.values()


def test_each_dockerfile_runs_its_own_checkout(cli):
    # substratusai/vllm-docker Dockerfile.cpu:2/29, Dockerfile.cuda-arm:104-107, Dockerfile.tpu:20
    report = _audit(cli, REAL / "dockerfile-own-pin--substratusai-vllm-docker-2e0f8101-control")
    got = {s["file"]: (s["vllm"]["version"], s["vllm"]["source"]) for s in report["sites"]}
    assert got["Dockerfile.cpu"][0] == "0.6.4.post1" and "Dockerfile.cpu:5" in got["Dockerfile.cpu"][1]
    assert "git checkout v${VERSION}" in got["Dockerfile.cpu"][1]  # the file's bytes, not the filled-in tag
    assert got["Dockerfile.cuda-arm"][0] == "0.8.2" and "Dockerfile.cuda-arm:3" in got["Dockerfile.cuda-arm"][1]
