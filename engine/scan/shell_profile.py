"""A file a script sources by a path known only at run time (`. "$REPO_DIR/models/$1.conf"`) is a
profile that sets what the script emptied before it (pulsar-gb10-vllm-stack's load_conf: `MODEL=""
IMAGE=""`, then the profile): those values are unknown, not empty. A virtualenv's, conda's or a
shell's own set-up file is no such profile."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.scan.shell_expand import is_known, shown

# files a script sources for its shell, not for its settings: a virtualenv, conda, a login profile
_SETUP_FILES = re.compile(r"(?:^|/)(?:activate|\.?bashrc|\.?profile|\.bash_profile|conda\.sh|setvars\.sh|mamba\.sh)$")


def forget_emptied(ex: Any, text: str) -> None:
    """After `. TEXT` whose file could not be resolved: the variables and arrays set empty become unset,
    as if from the environment — unknown, and `${IMAGE:-$VLLM_IMAGE_MAINLINE}` still takes its default."""
    if is_known(text) or _SETUP_FILES.search(shown(text)):
        return
    for name in [n for n, val in ex.vars.items() if val == ""] + [n for n, items in ex.arrays.items() if not items]:
        ex.vars.pop(name, None)
        ex.arrays.pop(name, None)
        ex.unset.discard(name)
