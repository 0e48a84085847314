"""A framework's own source in the tree (a checkout of git main installed in place, a vendored copy):
the vLLM imports its adapter runs on load, read from that copy, against vLLM's importable names per
release (knowledge/frameworks/vllm_symbols.json, tools/vllm_public_imports.py)."""
import sys
import textwrap
from pathlib import Path

from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import schemas, vllm_symbols
from vllm_kb.engine.scan import framework_source

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import vllm_public_imports as tool  # noqa: E402

UTILS = "vllm.model_executor.model_loader.utils"


def test_the_table_knows_when_a_name_came_and_what_it_cannot_judge():
    assert vllm_symbols.resolves(UTILS, "process_weights_after_loading", "0.8.4") is False
    assert vllm_symbols.resolves(UTILS, "process_weights_after_loading", "0.8.5.post1") is False
    assert vllm_symbols.resolves(UTILS, "process_weights_after_loading", "0.9.0") is True
    assert vllm_symbols.first_release(UTILS, "process_weights_after_loading") == "0.9.0"
    assert vllm_symbols.resolves("vllm.sampling_params", "GuidedDecodingParams", "0.12.0") is False
    assert vllm_symbols.resolves("vllm.sampling_params", "GuidedDecodingParams", "0.10.2") is True
    # a module the table does not hold, a name no release binds: not judged
    assert vllm_symbols.resolves("vllm.no_such_module", "X", "0.8.4") is None
    assert vllm_symbols.resolves(UTILS, "never_a_vllm_name", "0.8.4") is None
    assert not schemas.errors("vllm_symbols", vllm_symbols.table())


def test_the_tool_reads_names_runs_submodules_and_star_imports(tmp_path):
    for ver, body in (("0.1.0", "def a(): pass\n"), ("0.2.0", "def a(): pass\ndef b(): pass\n"),
                      ("0.3.0", "from vllm.other import *\n")):
        pkg = tmp_path / ver / "vllm" / "m"
        pkg.mkdir(parents=True)
        (tmp_path / ver / "vllm" / "__init__.py").write_text("")
        (pkg / "__init__.py").write_text(body)
        (pkg / "sub.py").write_text("x = 1\n")
    data = tool.build({"vllm.m"}, tmp_path)
    m = data["modules"]["vllm.m"]
    assert m["module"] == [">=0.1.0"] and m["open"] == [">=0.3.0"]
    assert m["names"][">=0.1.0,<0.3.0"] == ["a"] and m["names"][">=0.2.0,<0.3.0"] == ["b"]
    assert m["names"][">=0.1.0"] == ["sub"]


def _tree(tmp_path, files: dict):
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))


ROLLOUT = "verl/workers/rollout/vllm_rollout"
COPY = {
    "setup.py": "from setuptools import setup\nsetup(name='verl', version='0.7.0.dev')\n",
    "verl/__init__.py": "", "verl/workers/__init__.py": "", "verl/workers/rollout/__init__.py": "",
    f"{ROLLOUT}/__init__.py": "from .spmd import vLLMRollout\n",
    f"{ROLLOUT}/spmd.py": """\
        from typing import TYPE_CHECKING
        from vllm import LLM
        from vllm.model_executor.model_loader.utils import process_weights_after_loading
        try:
            from vllm.worker.worker_base import WorkerWrapperBase
        except ModuleNotFoundError:
            from vllm.v1.worker.worker_base import WorkerWrapperBase
        if TYPE_CHECKING:
            from vllm.config import CompilationMode
        class vLLMRollout:
            pass
        """,
    "run.sh": "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen3-0.6B actor_rollout_ref.rollout.name=vllm\n",
}


def test_only_the_unguarded_imports_the_entry_reaches_are_read(tmp_path):
    _tree(tmp_path, COPY)
    files = [str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file()]
    (copy,) = framework_source.copies(files, lambda rel: (tmp_path / rel).read_text())
    assert copy.framework == "verl" and copy.root == "" and copy.package == "verl"
    assert [(i.spelled, i.line) for i in copy.imports] == [("vllm.LLM", 2), (f"{UTILS}.process_weights_after_loading", 3)]


def _l43(tmp_path, vllm: str, files=COPY):
    _tree(tmp_path, {**files, "requirements.txt": f"vllm=={vllm}\n"})
    rep = audit(tmp_path, gpu="A100-80GB")
    sr = next(s for s in rep.sites if s.site.framework == "verl")
    return sr, next(r for r in sr.results if r.check.id == "L43")


def test_a_checkout_importing_a_name_the_pinned_vllm_lacks_is_p0_with_the_release_that_has_it(tmp_path):
    sr, r = _l43(tmp_path, "0.8.4")
    assert r.status == "recommended" and r.priority == "P0"
    text = r.reason_text("en")
    assert "process_weights_after_loading" in text and f"{ROLLOUT}/spmd.py:3" in text and "0.9.0" in text
    assert sr.facts["launch"]["fw_fit_vllm"] == "==0.9.0"


def test_the_same_checkout_with_a_vllm_that_has_the_name_is_not_held_to_it(tmp_path):
    _, r = _l43(tmp_path, "0.11.0")
    assert r.priority != "P0"


def test_a_guarded_import_or_one_the_table_cannot_judge_is_no_break(tmp_path):
    files = dict(COPY)
    files[f"{ROLLOUT}/spmd.py"] = """\
        from vllm import LLM
        from vllm.not_a_module_of_any_release import thing
        try:
            from vllm.model_executor.model_loader.utils import process_weights_after_loading
        except ImportError:
            process_weights_after_loading = None
        """
    _, r = _l43(tmp_path, "0.8.4", files)
    assert r.priority != "P0" or "process_weights_after_loading" not in r.reason_text("en")


# ---- installed from git (engine/scan/framework_git.py, knowledge/frameworks/git_history.json) ----

def test_git_requirements_name_the_framework_and_the_kind_of_ref():
    from vllm_kb.engine.scan import framework_git

    g = framework_git.parse("verl @ git+https://github.com/volcengine/verl.git@v0.4.1")
    assert (g.package, g.kind, g.release) == ("verl", "release", "0.4.1")
    g = framework_git.parse("git+https://github.com/verl-project/verl@e2d45b00e514e1fa")
    assert (g.package, g.kind) == ("verl", "commit")
    g = framework_git.parse("trl[vllm] @ git+https://github.com/huggingface/trl.git")
    assert (g.package, g.kind, g.ref) == ("trl", "branch", "")
    assert framework_git.parse("git+https://github.com/someone/other.git@main") is None
    assert framework_git.parse("git+https://github.com/vllm-project/vllm.git") is None


def test_a_release_tag_is_that_release(tmp_path):
    _tree(tmp_path, {"requirements.txt": "verl @ git+https://github.com/volcengine/verl.git@v0.7.0\nvllm==0.16.0\n",
                     "run.sh": COPY["run.sh"]})
    sr = next(s for s in audit(tmp_path, gpu="A100-80GB").sites if s.site.framework == "verl")
    assert sr.facts["launch"]["fw_release"] == "0.7.0"


def _git_site(tmp_path, req: str, vllm: str):
    _tree(tmp_path, {"requirements.txt": f"{req}\nvllm=={vllm}\n", "run.sh": COPY["run.sh"]})
    sr = next(s for s in audit(tmp_path, gpu="A100-80GB").sites if s.site.framework == "verl")
    return sr, next(r for r in sr.results if r.check.id == "L43")


def test_a_commit_of_main_is_judged_by_its_own_imports(tmp_path):
    # verl PR 4130's squash commit added the import vLLM has from 0.9.0 on
    sr, r = _git_site(tmp_path, "verl @ git+https://github.com/volcengine/verl.git@e2d45b00e514e1fa914e32eeb9093226540b7560", "0.8.4")
    assert r.priority == "P0" and "process_weights_after_loading" in r.reason_text("en")
    assert "e2d45b00e5" in sr.facts["launch"]["fw_release"]


def test_the_commit_before_it_does_not_import_it(tmp_path):
    from vllm_kb.engine.kb import framework_history

    run, _, _ = framework_history.commit("verl", "e2d45b00e5")
    before = framework_history.table()["frameworks"]["verl"]["runs"]
    i = before.index(run)
    assert run["commits"].split()[0] == "e2d45b00e5" and i > 0
    assert not any(x["import"].endswith("process_weights_after_loading") for x in before[i - 1]["imports"])


def test_main_is_judged_at_its_newest_known_commit_and_only_as_p1(tmp_path):
    _, r = _git_site(tmp_path, "verl @ git+https://github.com/volcengine/verl.git@main", "0.8.4")
    assert r.priority == "P1" and "as of" in r.reason_text("en")


def test_a_module_vllm_removed_is_named_as_python_names_it(tmp_path):
    files = dict(COPY)
    files[f"{ROLLOUT}/spmd.py"] = "from vllm.lora.models import LoRAModel\n"
    sr, r = _l43(tmp_path, "0.13.0", files)
    text = r.reason_text("en")
    assert r.priority == "P0" and "No module named 'vllm.lora.models'" in text and ">=0.3.0,<0.13.0" in text
    assert sr.facts["launch"]["fw_fit_vllm"] == "==0.12.0"
