"""`--load-format bitsandbytes` on a release without BitsAndBytes (0.28+): the loader stops on it
("Load format `bitsandbytes` is not supported", model_loader/__init__.py), so removing only
`--quantization bitsandbytes` leaves a command that still fails (eval101: a tutor server script run
with both flags on the newest image). The change removes both; the load format alone is a P0 too."""
from __future__ import annotations

import json


def _audit(cli, root):
    code, out, err = cli("audit", str(root), "--isolated", "-q", "--format", "json", "--gpu", "H100-80GB x1")
    assert code in (0, 1), err
    return json.loads(out)


def _serve(*flags):
    return "#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct \\\n  " + " \\\n  ".join(flags) + "\n"


def test_removing_the_method_removes_its_load_format_too(cli, write_project):
    root = write_project({"requirements.txt": "vllm==0.30.0\n",
                          "serve.sh": _serve("--quantization bitsandbytes", "--load-format bitsandbytes", "--max-model-len 4096")})
    (site,) = _audit(cli, root)["sites"]
    unset = {c["target"]: c["before"] for c in site["changes"] if c["after"] is None}
    assert unset.get("quantization") == "--quantization bitsandbytes"
    assert unset.get("load_format") == "--load-format bitsandbytes"


def test_the_load_format_alone_is_a_p0(cli, write_project):
    root = write_project({"requirements.txt": "vllm==0.28.0\n",
                          "serve.sh": _serve("--load-format bitsandbytes", "--max-model-len 4096")})
    (site,) = _audit(cli, root)["sites"]
    (change,) = [c for c in site["changes"] if c["target"] == "load_format"]
    assert change["priority"] == "P0" and change["after"] is None


def test_a_release_with_the_loader_is_left_alone(cli, write_project):
    root = write_project({"requirements.txt": "vllm==0.27.1\n",
                          "serve.sh": _serve("--quantization bitsandbytes", "--load-format bitsandbytes", "--max-model-len 4096")})
    (site,) = _audit(cli, root)["sites"]
    assert not [c for c in site["changes"] if c["target"] in ("load_format", "quantization")]
