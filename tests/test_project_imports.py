"""The project's own imports of vLLM modules (L139): which imports a launch file runs at start and
which later, and how the audit judges them against the release the folder pins."""
import sys
import textwrap
from pathlib import Path

from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import vllm_symbols
from vllm_kb.engine.scan import project_imports

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import vllm_public_imports as tool  # noqa: E402

APP = """\
from vllm import LLM
from vllm.worker.worker import Worker
import helpers

llm = LLM(model="facebook/opt-125m")
"""
HELPERS = """\
try:
    from vllm.model_executor.parallel_utils import parallel_state
except ImportError:
    parallel_state = None
if False:
    import vllm.gated.never
import vllm.engine.arg_utils

def cleanup():
    from vllm.model_executor.parallel_utils.parallel_state import destroy_model_parallel
    destroy_model_parallel()
"""


def _project(root: Path, pin: str | None, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text))
    if pin:
        (root / "requirements.txt").write_text(pin + "\n")
    return root


def _read(root: Path):
    return lambda rel: (root / rel).read_text() if (root / rel).is_file() else None


def test_start_imports_are_the_unguarded_module_level_ones_the_launch_file_reaches(tmp_path):
    root = _project(tmp_path, None, {"app.py": APP, "helpers.py": HELPERS, "unused.py": "import vllm.worker.worker\n"})
    got = project_imports.for_launch("app.py", ["app.py", "helpers.py", "unused.py"], _read(root))
    seen = [(i.spelled, i.file, i.at_start) for i in got]
    assert seen == [("from vllm.worker.worker import Worker", "app.py", True),
                    ("import vllm.engine.arg_utils", "helpers.py", True),
                    ("from vllm.model_executor.parallel_utils.parallel_state import destroy_model_parallel",
                     "helpers.py", False)]  # the try- and if-guarded ones are the project's fallbacks


def test_a_launch_file_in_a_folder_finds_its_siblings_and_the_packages_of_the_root(tmp_path):
    files = {"src/main.py": "from backend.gen import G\nfrom pkg import util\n", "src/backend/__init__.py": "",
             "src/backend/gen.py": "from vllm.distributed.parallel_state import destroy_model_parallel\n",
             "pkg/__init__.py": "", "pkg/util.py": "import vllm.worker.worker\n"}
    root = _project(tmp_path, None, files)
    got = project_imports.for_launch("src/main.py", list(files), _read(root))
    assert [(i.module, i.file) for i in got] == [("vllm.distributed.parallel_state", "src/backend/gen.py"),
                                                 ("vllm.worker.worker", "pkg/util.py")]


def test_the_table_holds_every_module_and_judges_a_submodule_through_its_package():
    # a module no framework imports from: the table covers every module of every release now
    assert vllm_symbols.resolves("vllm.entrypoints.openai.api_server", "app", "0.5.1") is True
    assert vllm_symbols.resolves("vllm.entrypoints.openai.api_server", "app", "0.6.1") is False
    assert vllm_symbols.judged_module("vllm.model_executor.models.llama") == ("vllm.model_executor.models", "llama")
    assert vllm_symbols.holders("destroy_model_parallel", "0.4.3") == ["vllm.distributed.parallel_state"]
    assert vllm_symbols.holders("Optional", "0.10.0") is None  # everywhere: moved nowhere in particular


def test_the_tool_keeps_every_module_but_the_model_files(tmp_path):
    for ver in ("0.1.0", "0.2.0"):
        pkg = tmp_path / ver / "vllm"
        (pkg / "model_executor" / "models").mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        (pkg / "serving.py").write_text("class Chat: pass\n")
        (pkg / "model_executor" / "__init__.py").write_text("")
        (pkg / "model_executor" / "models" / "__init__.py").write_text("")
        (pkg / "model_executor" / "models" / "llama.py").write_text("class Llama: pass\n")
    assert tool.all_modules(tmp_path) == {"vllm", "vllm.serving", "vllm.model_executor", "vllm.model_executor.models"}


def _l139(rep):
    return [(r.priority, r.reason_text("en")) for sr in rep.sites for r in sr.results
            if r.check.id == "L139" and r.status == "recommended"]


def test_an_import_the_pinned_release_lacks_is_p0_and_names_where_the_name_is(tmp_path):
    root = _project(tmp_path, "vllm==0.4.3", {"app.py": """\
        from vllm import LLM
        from vllm.model_executor.parallel_utils.parallel_state import destroy_model_parallel
        llm = LLM(model="facebook/opt-125m")
        """})
    [(prio, text)] = _l139(audit(root))
    assert prio == "P0"
    assert "No module named 'vllm.model_executor.parallel_utils'" in text
    assert "`from vllm.distributed.parallel_state import destroy_model_parallel`" in text
    # beside the import that works there, the release the project was written for (deepseek-ocr #176)
    rep = audit(root)
    pins = [ch for sr in rep.sites for ch in sr.changes if ch.op == "pin" and "L139" in ch.checks]
    assert [ch.after for ch in pins] == ["vllm==0.4.0.post1"], [ch.after for ch in pins]


def test_unpinned_or_inside_a_function_is_p1_and_a_guarded_import_is_nothing(tmp_path):
    body = {"app.py": "from vllm import LLM\nfrom vllm.worker.worker import Worker\nllm = LLM(model='facebook/opt-125m')\n"}
    [(prio, _)] = _l139(audit(_project(tmp_path / "unpinned", None, body)))
    assert prio == "P1"  # the newest release lacks it, but nothing says the project runs that one
    lazy = {"app.py": "from vllm import LLM\ndef f():\n    from vllm.worker.worker import Worker\n"
                      "llm = LLM(model='facebook/opt-125m')\n"}
    [(prio, _)] = _l139(audit(_project(tmp_path / "lazy", "vllm==0.11.0", lazy)))
    assert prio == "P1"
    guarded = {"app.py": "from vllm import LLM\ntry:\n    from vllm.worker.worker import Worker\nexcept ImportError:\n"
                         "    Worker = None\nllm = LLM(model='facebook/opt-125m')\n"}
    assert _l139(audit(_project(tmp_path / "guarded", "vllm==0.11.0", guarded))) == []
    fine = {"app.py": "from vllm import LLM\nfrom vllm.worker.worker import Worker\nllm = LLM(model='facebook/opt-125m')\n"}
    assert _l139(audit(_project(tmp_path / "fine", "vllm==0.10.2", fine))) == []


def test_a_range_is_certain_only_when_every_release_it_allows_lacks_the_import(tmp_path):
    body = {"app.py": "from vllm import LLM\nfrom vllm.worker.worker import Worker\nllm = LLM(model='facebook/opt-125m')\n"}
    [(prio, _)] = _l139(audit(_project(tmp_path / "wide", "vllm>=0.10.0", body)))
    assert prio == "P1"  # 0.10.x still has vllm.worker.worker
    [(prio, _)] = _l139(audit(_project(tmp_path / "narrow", "vllm>=0.11.0,<0.12", body)))
    assert prio == "P0"


def test_one_index_per_audit_reads_each_module_once_and_skips_a_tree_that_carries_vllm(tmp_path):
    files = {"src/a.py": "import shared\nimport vllm.worker.worker\n", "src/b.py": "import shared\n",
             "src/shared.py": "from vllm.distributed import parallel_state\n"}
    root = _project(tmp_path, None, files)
    reads: list[str] = []

    def read(rel):
        reads.append(rel)
        return _read(root)(rel)
    launches = project_imports.Launches(list(files), read)
    for launch in ("src/a.py", "src/a.py", "src/b.py"):  # a file's sites come one after the other
        got = project_imports.imports_of(launches.files(launch))
        assert got == project_imports.for_launch(launch, list(files), _read(root))
    assert sorted(reads) == ["src/a.py", "src/b.py", "src/shared.py"]  # shared.py: parsed once for both
    # vLLM's own sources in the tree: the imports are of that copy, and nothing is parsed
    reads.clear()
    assert project_imports.Launches([*files, "vllm/__init__.py"], read).files("src/a.py") == []
    assert reads == []


def test_a_module_no_launch_site_reaches_is_a_site_of_its_own_at_its_failing_import(tmp_path):
    """gitcode f685d25e: a wrapper's server module imports a name vLLM 0.8.3 spells otherwise and
    starts nothing itself; tests, a guarded import and a module the launch file loads give no site."""
    root = _project(tmp_path, "vllm==0.8.3", {
        "serve.py": "import os\nfrom vllm.entrypoints.openai.protocol import LoadLoraAdapterRequest\n",
        "guarded.py": "try:\n    from vllm.model_executor.parallel_utils import parallel_state\nexcept ImportError:\n    pass\n",
        "tests/test_serve.py": "from vllm.entrypoints.openai.protocol import LoadLoraAdapterRequest\n",
        "fine.py": "from vllm.entrypoints.openai.protocol import LoadLoRAAdapterRequest\n",
        "app.py": "from vllm import LLM\nimport helper\nllm = LLM(model='facebook/opt-125m')\n",
        "helper.py": "from vllm.model_executor.parallel_utils import parallel_state\n",
    })
    rep = audit(root)
    flagged = {(sr.site.file, sr.site.line, sr.site.kind) for sr in rep.sites for r in sr.results
               if r.check.id == "L139" and r.status == "recommended"}
    assert flagged == {("serve.py", 2, "vllm import"), ("app.py", 3, "LLM()")}, flagged
    [serve] = [sr for sr in rep.sites if sr.site.file == "serve.py"]
    assert [r.check.id for r in serve.results if r.status == "recommended"] == ["L139"]
