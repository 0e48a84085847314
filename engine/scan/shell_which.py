"""Command substitutions whose result the scan knows without running them. One that only looks a
program up — `$(command -v singularity || command -v apptainer)`, `$(which vllm)` — gives a path whose
program is known (parallelworks/activate-rag-vllm runs `exec "${singularity_bin}" exec --nv … python3
-m vllm.entrypoints.openai.api_server`), so a launch through the variable is still recognised; one
built on `dirname "$0"` names the script's folder or one above it. Any other substitution stays unknown."""
from __future__ import annotations

import re

_LOOKUP = re.compile(r"\s*(?:command\s+-v|which|type\s+-[pP])\s+([\w.+-]+)\s*")
_ALIKE = ({"singularity", "apptainer"},)  # one program under two names: the scan reads both alike


def located(arg: str) -> str | None:
    """`$(command -v singularity || command -v apptainer)`, `$(which vllm)`: a path whose program is
    the one named (or one of names the scan treats alike), so a launch through the variable is still
    recognised; anything else stays unknown."""
    names = []
    for part in (arg[2:-1] if arg.startswith("$(") and arg.endswith(")") else arg).split("||"):
        m = _LOOKUP.fullmatch(part)
        if m is None:
            return None
        names.append(m.group(1))
    if names and (len(set(names)) == 1 or any(set(names) <= group for group in _ALIKE)):
        return names[0]
    return None


def script_dir(arg: str) -> str | None:
    """`$(dirname "$0")`, `$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)`: "" (the script's folder);
    `$(cd "$(dirname "$0")/.." && pwd)`: "/.." (the folder above, pulsar's cluster/start-cluster.sh),
    to add to the script folder's hole; None for any other substitution."""
    if "dirname" not in arg or ("$0" not in arg and "BASH_SOURCE" not in arg):
        return None
    up = re.search(r"\)((?:/\.\.)+)\"?\s*&&\s*pwd", arg)
    return up.group(1) if up else ""
