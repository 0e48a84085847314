"""Extract what a vLLM plugin package adds to a vLLM launch from its wheel (run by hand; the output
is reviewed and committed as knowledge/vllm/plugins.yaml): its entry points in the
`vllm.general_plugins` / `vllm.platform_plugins` groups, its console scripts, the long flags its
serve CLI / engine-argument modules declare with `add_argument`, and the VLLM_* environment variables its
own envs.py declares (the keys of its `env_variables` mapping, as vLLM's envs.py writes them). Usage:
    pip download vllm-omni==0.14.0 --no-deps -d /tmp/w
    python tools/plugin_flags.py /tmp/w/*.whl
"""
from __future__ import annotations

import ast
import configparser
import re
import sys
import zipfile

# the modules through which a plugin extends `vllm serve` (not its benchmarks or tools)
SERVE_MODULES = re.compile(r"/(entrypoints/cli/serve|engine/arg_utils|entrypoints/openai/(cli_args|api_server))\.py$")
FLAG = re.compile(r"""["'](--[a-z][a-z0-9-]+)["']""")
# the package's own envs.py (vllm_ascend/envs.py), not a vendored copy deeper down
ENVS = re.compile(r"^[a-z_0-9]+/envs\.py$")


def env_names(text: str) -> set[str]:
    """The VLLM_* keys of the module's `env_variables` dict: the variables the plugin reads itself."""
    out = set()
    for node in ast.walk(ast.parse(text)):
        target = node.targets[0] if isinstance(node, ast.Assign) else node.target if isinstance(node, ast.AnnAssign) else None
        if getattr(target, "id", "") == "env_variables" and isinstance(node.value, ast.Dict):
            out |= {k.value for k in node.value.keys if isinstance(k, ast.Constant) and str(k.value).startswith("VLLM_")}
    return out


def read(wheel: str) -> dict:
    z = zipfile.ZipFile(wheel)
    meta = {"flags": set(), "entry_points": {}, "env": set()}
    for n in z.namelist():
        if n.endswith(".dist-info/METADATA"):
            head = z.read(n).decode(errors="replace")
            meta["name"] = re.search(r"^Name: (.+)$", head, re.M).group(1).strip()
            meta["version"] = re.search(r"^Version: (.+)$", head, re.M).group(1).strip()
        elif n.endswith(".dist-info/entry_points.txt"):
            cp = configparser.ConfigParser()
            cp.read_string(z.read(n).decode())
            meta["entry_points"] = {s: sorted(cp[s]) for s in cp.sections()}
        elif ENVS.match(n):
            meta["env"] |= env_names(z.read(n).decode(errors="replace"))
        elif SERVE_MODULES.search(n):
            text = z.read(n).decode(errors="replace")
            for m in re.finditer(r"add_argument\(([^)]*)", text):
                meta["flags"].update(FLAG.findall(m.group(1)))
    return meta


if __name__ == "__main__":
    for w in sys.argv[1:]:
        m = read(w)
        print(f"# {m['name']} {m['version']}: entry points {m['entry_points']}")
        print("  flags: [" + ", ".join(f'"{f}"' for f in sorted(m["flags"])) + "]")
        print("  env: [" + ", ".join(sorted(m["env"])) + "]")
