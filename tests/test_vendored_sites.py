"""Sites inside a vendored framework copy (engine/check/vendored_sites.py): a module its package's
__init__ imports only under a vLLM version test the project's releases never take, and the copy's
upstream tests (DBMing/TFGame, https://github.com/DBMing/TFGame, vendored verl 0.2.0.dev)."""
import json
import subprocess
import sys
from pathlib import Path

from vllm_kb.engine.check import vendored_sites

CASE = Path(__file__).parent / "realcases" / "vendored-framework--tfgame-verl-spmd-gated-control"
GATE = "if package_version <= '0.6.3':\n    from .vllm_rollout import R\nelse:\n    from .vllm_rollout_spmd import R\n"


def test_string_gate_takes_the_old_rollout_up_to_063():
    test, taken = vendored_sites._branches(GATE, "vllm_rollout_spmd")
    assert "0.6.3" in test
    assert not taken("0.6.3") and not taken("0.5.4") and taken("0.7.0")
    assert vendored_sites._branches(GATE, "vllm_rollout")[1]("0.6.3")


def test_parsed_gate_compares_versions_not_strings():
    text = "if vs.parse(package_version) >= vs.parse('0.7.0'):\n    from .spmd import R\nelse:\n    from .old import R\n"
    _, taken = vendored_sites._branches(text, "spmd")
    assert taken("0.10.0") and not taken("0.6.3")


def test_module_imported_outside_the_test_is_not_gated():
    assert vendored_sites._branches(GATE + "from .vllm_rollout_spmd import helper\n", "vllm_rollout_spmd") is None
    assert vendored_sites._branches("from .vllm_rollout_spmd import R\n", "vllm_rollout_spmd") is None


def _audit():
    out = subprocess.run([sys.executable, "-c", "import sys; from vllm_kb.cli.main import main; sys.exit(main())", "audit", str(CASE), "--gpu", "H100-80GB x4", "--format", "json"],
                         capture_output=True, text=True, check=False).stdout
    return {s["file"]: s for s in json.loads(out)["sites"]}


def test_tfgame_reduction_has_no_p0():
    sites = _audit()
    spmd = sites["verl/verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py"]
    test = sites["verl/tests/rollout/test_vllm_spmd.py"]
    got = {r["check"]: r["priority"] for r in spmd["recommendations"]}
    assert got["not-in-version:enable_sleep_mode"] == "P2"  # gated off: never runs on <= 0.6.3
    assert {r["check"]: r["priority"] for r in test["recommendations"]}["not-in-version:enable_sleep_mode"] == "P1"
    assert not [r for s in sites.values() for r in s["recommendations"] if r["priority"] == "P0"]


def test_unpinned_project_keeps_the_verdict():
    """With vLLM >= 0.7 allowed the spmd rollout is what runs: nothing is capped for the gate."""
    class Ctx:
        framework_copies, vendored = [type("C", (), {"root": "v"})()], []
        files = ["v/verl/workers/rollout/vllm_rollout/__init__.py", "v/verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py"]
        read = staticmethod(lambda rel: GATE if rel.endswith("__init__.py") else "")
    assert vendored_sites._gated_off(Ctx.files[1], Ctx, ["0.6.3", "0.7.0"]) is None
    assert vendored_sites._gated_off(Ctx.files[1], Ctx, ["0.6.2", "0.6.3"])[0] == Ctx.files[0]
