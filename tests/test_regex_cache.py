"""engine/kb/regex_cache.py: a pattern read back from the cache is the Pattern `re` builds (Pattern
equality compares the engine's code too), and only the code's own patterns are stored. Each check
runs in a fresh interpreter: `install` changes `re` for the whole process."""
from __future__ import annotations

import json
import os
import subprocess
import sys

_FIRST = """
from vllm_kb.engine.kb import regex_cache
regex_cache.install()
import re
import vllm_kb.engine.audit  # its modules' constants, compiled as they are imported
def runtime(word):
    return re.compile(word + "[0-9]+")  # made from data: never stored
runtime("project-secret-")
regex_cache.knowledge(r"(?i)qwen(?P<gen>\\d+)")
"""

_SECOND = """
import json, re
from vllm_kb.engine.kb import regex_cache
regex_cache.install()
keys = list(regex_cache._BUNDLE._load())
plain = regex_cache._PLAIN
same = 0
for key in keys:
    flags, _, pattern = key.partition(":")
    re.purge()
    got = re.compile(pattern, int(flags))
    if got == plain(pattern, int(flags)) and got.groupindex == plain(pattern, int(flags)).groupindex:
        same += 1
print(json.dumps({"keys": keys, "same": same}))
"""


def _run(code: str, cache_dir) -> str:
    env = {**os.environ, "VLLM_KB_CACHE_DIR": str(cache_dir)}
    env.pop("VLLM_KB_NO_CACHE", None)
    return subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True).stdout


def test_stored_patterns_compile_to_the_same_pattern_and_none_is_made_from_data(tmp_path):
    _run(_FIRST, tmp_path)
    files = list((tmp_path / "re").iterdir())
    assert len(files) == 1 and not os.stat(files[0]).st_mode & 0o077
    got = json.loads(_run(_SECOND, tmp_path))
    assert len(got["keys"]) > 200  # the modules' constants
    assert got["same"] == len(got["keys"])
    assert not any("project-secret" in k for k in got["keys"])
    assert r"0:(?i)qwen(?P<gen>\d+)" in got["keys"]


def test_no_cache_leaves_re_alone(tmp_path):
    env = {**os.environ, "VLLM_KB_NO_CACHE": "1", "VLLM_KB_CACHE_DIR": str(tmp_path)}
    code = ("import re, sys\nfrom vllm_kb.engine.kb import regex_cache\nc = getattr(re, '_compiler', None) or sys.modules['sre_compile']\n"
            "plain = c.compile\nregex_cache.install()\nprint(c.compile is plain)")
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True).stdout
    assert out.strip() == "True" and not (tmp_path / "re").exists()
