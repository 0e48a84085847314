"""Spawn helpers (engine/scan/python_spawn_helpers.py) in the shapes heldout62's projects wrote them:
a helper that splits the command it is handed (`subprocess.run(shlex.split(cmd))`, `cmd.split()`),
one imported relatively (`from . import utils`, `from .utils import run_cmd`), a method of a project
class another module subclasses (`self.run_cmd(…)`), and a method called through an instance held by
a name or an attribute (`self.runner = Runner()` + `self.runner.run_cmd(…)`). Each call is the site,
once, its command read in the caller's scope."""
from __future__ import annotations

import pytest

UTILS = '''import shlex
import subprocess


def run_split(cmd):
    return subprocess.run(shlex.split(cmd), check=True)


def run_words(cmd, log=None):
    return subprocess.Popen(cmd.split(), stdout=log)


def run_shell(cmd):
    return subprocess.run(cmd, shell=True)
'''
SERVE = '"vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192"'


def _found(got) -> list[tuple[str, int]]:
    return [(s.id, s.settings["max_model_len"].value) for s in got]


@pytest.mark.parametrize("helper", ["run_split", "run_words", "run_shell"])
def test_a_helper_that_splits_what_it_is_handed(scanned, helper):
    got = scanned({"pkg/__init__.py": "", "pkg/utils.py": UTILS,
                   "main.py": f"from pkg.utils import {helper}\n\n{helper}({SERVE})\n"})
    assert _found(got) == [("main.py:3", 8192)]


@pytest.mark.parametrize("imports,call", [
    ("from . import utils", "utils.run_split"),
    ("from .utils import run_shell", "run_shell"),
    ("from .utils import run_words as rw", "rw"),
])
def test_a_helper_imported_relatively(scanned, imports, call):
    got = scanned({"pkg/__init__.py": "", "pkg/utils.py": UTILS,
                   "pkg/main.py": f"{imports}\n\n\ndef go():\n    {call}({SERVE})\n"})
    assert _found(got) == [("pkg/main.py:5", 8192)]


BASE = '''import subprocess


class Base:
    def run_cmd(self, cmd):
        subprocess.run(cmd, shell=True, check=True)

    def quiet(self, cmd):
        print(cmd)
'''


def test_a_method_of_a_base_class_in_another_module(scanned):
    got = scanned({"pkg/__init__.py": "", "pkg/base.py": BASE,
                   "pkg/job.py": f"from pkg.base import Base\n\n\nclass Job(Base):\n    def go(self):\n"
                                 f"        self.run_cmd({SERVE})\n        self.quiet({SERVE})\n"})
    assert _found(got) == [("pkg/job.py:6", 8192)]


def test_a_method_called_through_an_instance(scanned):
    got = scanned({
        "pkg/__init__.py": "", "pkg/base.py": BASE,
        "pkg/use.py": f"from pkg.base import Base\n\nrunner = Base()\nrunner.run_cmd({SERVE})\n",
        "local.py": f'''import subprocess


class Runner:
    def run_cmd(self, cmd):
        subprocess.run(cmd.split(), check=True)


class Job:
    def __init__(self):
        self.runner = Runner()

    def go(self):
        self.runner.run_cmd({SERVE})
''',
    })
    assert _found(got) == [("local.py:14", 8192), ("pkg/use.py:4", 8192)]


def test_a_name_bound_to_two_classes_is_no_helper_call(scanned):
    got = scanned({"local.py": f'''import subprocess


class Runner:
    def run_cmd(self, cmd):
        subprocess.run(cmd, shell=True)


class Echo:
    def run_cmd(self, cmd):
        print(cmd)


r = Runner()
r = Echo()
r.run_cmd({SERVE})
'''})
    assert not [s for s in got if s.file == "local.py" and s.line == 15]


def test_an_imported_instance_bound_to_a_class_without_helpers_too_is_no_helper_call(scanned):
    """The instances are looked for only where an imported class owns a helper method, but then
    among every imported class: a name bound to one without helpers as well is left out."""
    other = "class Plain:\n    def run_cmd(self, cmd):\n        print(cmd)\n"
    got = scanned({"pkg/__init__.py": "", "pkg/base.py": BASE, "pkg/plain.py": other,
                   "pkg/use.py": f"from pkg.base import Base\nfrom pkg.plain import Plain\n\nr = Base()\nr = Plain()\n"
                                 f"r.run_cmd({SERVE})\n",
                   "pkg/only.py": f"from pkg.plain import Plain\n\nr = Plain()\nr.run_cmd({SERVE})\n"})
    assert _found(got) == []
