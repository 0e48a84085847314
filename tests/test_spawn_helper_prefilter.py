"""The cheap test before a module is parsed for spawn helpers (python_spawn_helpers.may_call): it lets
through every text that the full reading would need, and drops a file that only calls something
named like a helper."""
from __future__ import annotations

import pytest

from vllm_kb.engine.scan import python_spawn_helpers
from vllm_kb.engine.scan.context import ScanContext

HELPER = "import subprocess\n\n\ndef run(cmd):\n    return subprocess.run(cmd, shell=True)\n"
SERVE = '"vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192"'


def _ctx(tmp_path, files: dict[str, str]) -> ScanContext:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    from vllm_kb.engine.kb import catalog

    ctx = ScanContext(tmp_path, catalog.load(), "0.33.0")
    ctx.files = sorted(files)
    return ctx


@pytest.mark.parametrize("text,may", [
    ("import torch\n\nrunner.run(x)\n", False),  # a `run(` of something else: no import spells tools/launch
    ("import torch\nfrom tools.launch import run\n\nrun(x)\n", True),
    ("import tools.launch as l\n\nl.run(x)\n", True),
    ("from tools import launch\n\nlaunch.run(x)\n", True),
    ("from . import run\n\nrun(x)\n", True),  # relative: the path is not spelt
    ("import subprocess\n\nrun(x)\n", True),  # may define a helper of its own
    ("import os\n\nos.system(x)\nrun(x)\n", True),
    ("import torch\n# system\nrun(x)\n", False),  # `system` without os imported
    ("import torch\nfrom tools.\uff4caunch import run\n\nrun(x)\n", True),  # read NFKC-normalised, as Python does
    ("import torch\n\nrün = run(x)\n", False),
    ("import torch\nfrom. import run\nrun(x)\n", True),
    ("import torch\nfrom .. \\\n  import run\nrun(x)\n", True),
    ("import torch\nfrom .models import run\nrun(x)\n", False),  # a relative import that spells another module
    ("x = 1\nrun(x)\n", False),  # nothing imported
])
def test_may_call_needs_the_helpers_file_or_a_spawn_of_its_own(tmp_path, text, may):
    ctx = _ctx(tmp_path, {"tools/launch.py": HELPER, "main.py": text})
    assert "run" in python_spawn_helpers.project_index(ctx)
    assert python_spawn_helpers.may_call(ctx, text) is may


def test_a_call_of_a_helper_named_run_is_still_a_site(scanned):
    got = scanned({"tools/__init__.py": "", "tools/launch.py": HELPER,
                   "main.py": f"from tools.launch import run\n\nrun({SERVE})\n",
                   "other.py": "import torch\n\nmodel.run(x)\n"})
    assert [s.id for s in got] == ["main.py:3"]


@pytest.mark.parametrize("text", [
    "run(x)", "xrun(x)", "_run(x)", "érun (x)", "a.run\n(x)", "from m import run as r", "runas x", "run  as  y",
    "xrun( run(", "rrun(", "run", "run as", "run as 1", "éxrun(run (", "\nrun\t(",
])
def test_the_literal_first_search_answers_as_the_lookbehind_pattern(text):
    """may_call's test of a helper's name, searched literal first (python_spawn_helpers._called_or_renamed),
    answers as the pattern with its lookbehind first that it replaces."""
    import re

    for name in ("run", "r", "un"):
        want = re.search(rf"(?<!\w){re.escape(name)}(?:\s*\(|\s+as\s+\w)", text) is not None
        assert python_spawn_helpers._called_or_renamed(text, name) is want, (text, name)


@pytest.mark.parametrize("text", [
    "subprocess.run(cmd, check=True)", "subprocess.Popen( shlex.split( cmd ) )", "os.system(c)", "os.popen(x.split()) ,",
    "subprocess.check_output(args)", "import os\nos.path.join(a)\nsubprocess .run(x)", "sub = os.sys(x)", "",
])
def test_the_bare_spawn_pretest_never_skips_a_match(text):
    # project_index asks _may_bare before _BARE's findall (perf5): only a text _BARE cannot match is skipped
    from vllm_kb.engine.scan import python_spawn_helpers as h

    assert h._may_bare(text) or not h._BARE.findall(text)


TOOLS = "import subprocess\n\n\nclass Tools:\n    def _run(self, cmd):\n        return subprocess.run(cmd, shell=True)\n"


@pytest.mark.parametrize("rel,text,may", [
    # a method helper binds only through an import of its class: `runtime` (its file) alone is not enough
    ("main.py", "import torch\nfrom tools.runtime import Other\n\nobj._run(x)\n", False),
    ("main.py", "import torch\nfrom tools.runtime import Tools\n\nclass Mine(Tools):\n    def go(self):\n        self._run(x)\n", True),
    ("main.py", "import torch\nfrom tools.runtime import Tools as T\n\nclass Mine(T):\n    def go(self):\n        self._run(x)\n", True),
    ("main.py", "import torch\nfrom tools.runtime import Ｔools\n\nx._run(y)\n", True),  # read NFKC-normalised
    # a relative import naming no module binds a helper of one of the file's own packages only
    ("pkg/sub/main.py", "import torch\nfrom . import run\n\nrun(x)\n", False),
    ("main.py", "import torch\nfrom . import run\n\nrun(x)\n", False),  # at the root: no package
    ("tools/launch/main.py", "import torch\nfrom . import run\n\nrun(x)\n", True),  # tools.launch: tools/launch.py
    ("tools/launch/deep/main.py", "import torch\nfrom .. \\\n  import run\nrun(x)\n", True),
    ("pkg/sub/main.py", "import torch\nfrom . import launch\n\nlaunch.run(x)\n", True),  # spells the helper's file
    ("pkg/sub/main.py", "import subprocess\nfrom . import run\n\nrun(x)\n", True),  # may define a helper of its own
])
def test_may_call_asks_what_an_import_can_bind(tmp_path, rel, text, may):
    ctx = _ctx(tmp_path, {"tools/launch.py": HELPER, "tools/runtime.py": TOOLS, rel: text})
    assert {"run", "Tools._run"} <= set(python_spawn_helpers.project_index(ctx))
    assert python_spawn_helpers.may_call(ctx, text, rel) is may


def test_a_method_helper_and_a_package_helper_are_still_sites(scanned):
    got = scanned({"tools/__init__.py": "", "tools/runtime.py": TOOLS, "tools/launch.py": HELPER,
                   "tools/launch/__init__.py": "", "tools/launch/go.py": f"from . import run\n\nrun({SERVE})\n",
                   "main.py": f"from tools.runtime import Tools\n\n\nclass Mine(Tools):\n    def go(self):\n"
                              f"        self._run({SERVE})\n"})
    assert [s.id for s in got] == ["main.py:6", "tools/launch/go.py:3"]
