"""eval113 RLinf (https://github.com/RLinf/RLinf, a3816b59): the project pins no vLLM in a requirements
line — requirements/install.sh installs the `# engine: vllm==X` line of requirements/agentic/vllm_X_<cuda>.txt —
and imports its vLLM-0.8.5 executor only under `0.8.5 <= vllm < 0.9.0` (rlinf/workers/rollout/vllm/__init__.py:36-45).
The release is the range over the named files, and an import site the gate excludes is none."""
from __future__ import annotations

from pathlib import Path

from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb.versions import SpecifierSet
from vllm_kb.engine.scan import version_gates

CASE = Path(__file__).parent / "realcases" / "project-import-version-gate--rlinf-a3816b59-control"


def _copy(tmp_path):
    for f in CASE.rglob("*"):
        if f.is_file() and f.name != "case.yaml":
            (tmp_path / f.relative_to(CASE)).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / f.relative_to(CASE)).write_text(f.read_text())
    return tmp_path


def _files(root: Path):
    files = sorted(str(f.relative_to(root)) for f in root.rglob("*") if f.is_file())
    return files, lambda rel: (root / rel).read_text()


def test_the_release_is_the_range_over_the_files_named_for_it(tmp_path):
    (sr,) = audit(_copy(tmp_path), gpu="H100-80GB x8").sites
    assert str(sr.version.version) == "0.23.0" and sr.version.basis == "range"
    assert "vllm==0.8.5 | vllm==0.23.0" in sr.version.pin.text


def test_a_file_whose_text_names_another_release_gives_no_range(tmp_path):
    root = _copy(tmp_path)
    (root / "requirements/agentic/vllm_0.8.5_cu12.txt").write_text("# engine: vllm==0.9.2\n")
    (sr,) = audit(root, gpu="H100-80GB x8").sites
    assert sr.version.basis == "none"


def test_the_gate_is_read_from_every_import_of_the_module(tmp_path):
    files, read = _files(_copy(tmp_path))
    got = version_gates.gates("rlinf/hybrid_engines/vllm/vllm_0_8_5/executor.py", files, read)
    assert [str(g) for g in got or ()] == [str(SpecifierSet(">=0.8.5,<0.9.0"))]
    assert version_gates.outside("0.23.0", got) and not version_gates.outside("0.8.5", got)


def test_an_import_outside_the_gate_or_a_name_not_tied_to_vllm_is_no_gate(tmp_path):
    root = _copy(tmp_path)
    (root / "rlinf/loader.py").write_text("from rlinf.hybrid_engines.vllm.vllm_0_8_5.executor import VLLMExecutor\n")
    files, read = _files(root)
    assert version_gates.gates("rlinf/hybrid_engines/vllm/vllm_0_8_5/executor.py", files, read) is None
    (root / "rlinf/loader.py").write_text(
        "import torch\nv = torch.__version__\nif v >= '2.6':\n"
        "    from rlinf.hybrid_engines.vllm.vllm_0_8_5.executor import VLLMExecutor\n")
    files, read = _files(root)
    assert version_gates.gates("rlinf/hybrid_engines/vllm/vllm_0_8_5/executor.py", files, read) is None


def test_the_gated_import_site_stays_where_the_gate_admits_the_release(tmp_path):
    root = _copy(tmp_path)
    for f in (root / "requirements/agentic").iterdir():
        f.unlink()
    (root / "requirements.txt").write_text("vllm==0.23.0\n")
    assert [s.site.kind for s in audit(root, gpu="H100-80GB x8").sites] == ["EngineArgs()"]
    # without the gate, the 0.8.5 executor's import of vllm.executor fails on 0.23.0: its own site
    (root / "rlinf/loader.py").write_text("from rlinf.hybrid_engines.vllm.vllm_0_8_5 import executor\n")
    sites = audit(root, gpu="H100-80GB x8").sites
    assert "vllm import" in [s.site.kind for s in sites]
