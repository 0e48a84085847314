"""engine/kb/regex_cache.py on every CPython the package supports that this machine has (3.10's
sre_compile, 3.11-3.13's re._compiler; the running one always): a pattern read back is the Pattern
`re` builds; a file written with another engine MAGIC is never read; an `re` that does not compile
through its module's `_sre` is left alone; a damaged entry is compiled by `re` again. Each step in a
fresh interpreter that imports only the cache modules (no third-party package), the repository on
its path through a `vllm_kb` link."""
from __future__ import annotations

import glob
import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# patterns of the kinds the package compiles: flags, named groups, classes, look-arounds, Unicode, VERBOSE
_PATTERNS = r'''
import re
PATTERNS = [(r"(?P<name>[A-Za-z_][\w.-]*)==(?P<ver>\d+(?:\.\d+)*)", 0), (r"(?i)qwen(?P<gen>\d+(?:\.\d+)?)", 0),
            (r"^\s*--(?P<flag>[a-z0-9-]+)(?:=(?P<v>\S+))?", re.M), (r"(?<![\w-])vllm(?:\s+serve\b)", 0),
            (r"[\u4e00-\u9fff]+|[^\x00-\x7f]", 0), (r"""  \$\{ (?P<var>\w+) (?: :?- (?P<d>[^}]*) )? \}  """, re.X),
            (r"(a|b)*?c{2,5}(?=d)", re.I | re.S), (r"\bH100(?:-80GB)?\s*x\s*(\d+)\b", re.A)]
COMPILED = [re.compile(p, f) for p, f in PATTERNS]  # a module's body: the code's own, stored
'''

_SECOND = r'''
import json, re, sys
from vllm_kb.engine.kb import regex_cache
regex_cache.install()
read = []  # the patterns the cache answered (a miss is compiled by re and stored)
if regex_cache._BUNDLE is not None:
    get = regex_cache._BUNDLE.get
    regex_cache._BUNDLE.get = lambda key: read.append(key) or get(key) if get(key) is not None else None
exec(compile(PATTERNS_SRC, "<patterns>", "exec"), ns := {})
plain = regex_cache._PLAIN
same = sum(1 for (p, f), got in zip(ns["PATTERNS"], ns["COMPILED"])
           if got == plain(p, f) and got.groupindex == plain(p, f).groupindex)
hits = len(read)
print(json.dumps({"n": len(ns["PATTERNS"]), "same": same, "hits": hits}))
'''


def _pythons() -> list[str]:
    """This interpreter, and a CPython 3.10-3.13 of pyenv's or on PATH (not a pyenv shim: it runs the
    version pyenv selects, or fails)."""
    from shutil import which

    found = {sys.executable}
    for minor in (10, 11, 12, 13):
        cands = sorted(glob.glob(os.path.expanduser(f"~/.pyenv/versions/3.{minor}.*/bin/python3"))) + [which(f"python3.{minor}") or ""]
        path = next((c for c in cands if c and "/shims/" not in c and os.access(c, os.X_OK)), None)
        if path:
            found.add(path)
    return sorted(found)


def _run(py: str, code: str, cache: Path, link: Path, pre: str = "") -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VLLM_KB_NO_CACHE"))}
    env.update(PYTHONPATH=str(link), VLLM_KB_CACHE_DIR=str(cache), PATTERNS_SRC=_PATTERNS)
    src = "import os\nPATTERNS_SRC = os.environ['PATTERNS_SRC']\n" + pre + code
    return subprocess.run([py, "-c", src], env=env, check=True, capture_output=True, text=True, timeout=120).stdout


@pytest.fixture
def link(tmp_path) -> Path:
    d = tmp_path / "path"
    d.mkdir()
    (d / "vllm_kb").symlink_to(ROOT, target_is_directory=True)
    return d


def _store(py: str, cache: Path, link: Path, pre: str = "") -> None:
    _run(py, "from vllm_kb.engine.kb import regex_cache\nregex_cache.install()\n" + _PATTERNS, cache, link, pre)


@pytest.mark.parametrize("py", _pythons())
def test_read_back_is_the_pattern_re_builds(py, tmp_path, link):
    _store(py, tmp_path / "c", link)
    got = json.loads(_run(py, _SECOND, tmp_path / "c", link))
    assert got["same"] == got["n"] and got["hits"] == got["n"], got


@pytest.mark.parametrize("py", _pythons())
def test_another_magic_is_never_read_and_a_foreign_re_is_left_alone(py, tmp_path, link):
    _store(py, tmp_path / "c", link, pre="import re, _sre\n_sre.MAGIC = 1\n")  # as another engine would name it (re itself refuses a mismatched _sre)
    got = json.loads(_run(py, _SECOND, tmp_path / "c", link))
    assert got["same"] == got["n"] and got["hits"] == 0, got
    # an `re` whose compiler holds another `_sre` than the interpreter's (here a copy of it)
    code = ("import re, sys, types, _sre\nc = getattr(re, '_compiler', None) or sys.modules['sre_compile']\n"
            "c._sre = types.ModuleType('_sre')\nc._sre.__dict__.update(_sre.__dict__)\n"
            "plain = c.compile\nfrom vllm_kb.engine.kb import regex_cache\nregex_cache.install()\nprint(c.compile is plain)\n")
    assert _run(py, code, tmp_path / "d", link).strip() == "True"


@pytest.mark.parametrize("py", _pythons())
def test_a_damaged_entry_is_compiled_by_re_again(py, tmp_path, link):
    _store(py, tmp_path / "c", link)
    (path,) = (tmp_path / "c" / "re").iterdir()
    entries = marshal.loads(path.read_bytes()) if py == sys.executable else None
    code = ("import marshal, sys\np = sys.argv[1]\nd = marshal.loads(open(p, 'rb').read())\n"
            "d = {k: (v[0], [0xdead, 7], *v[2:]) for k, v in d.items()}\nopen(p, 'wb').write(marshal.dumps(d))\n")
    subprocess.run([py, "-c", code, str(path)], check=True, timeout=60)
    if entries is not None:
        assert entries and all(isinstance(v, tuple) for v in entries.values())
    got = json.loads(_run(py, _SECOND, tmp_path / "c", link))
    assert got["same"] == got["n"], got
