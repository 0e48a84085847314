"""What a Python launch spreads into vLLM without the audit reading it (`LLM(model=m, **engine_kwargs)`,
`LLM(**cfg)`, `Popen([*BASE, *extra, ...])`, `[..., *sys.argv[1:]]`) may hold any argument it does
not write: no verdict says such an argument is missing or at its default (engine/check/hidden_args.py).
What the call writes itself is still read."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit

PIN = {"requirements.txt": "vllm==0.8.5\n"}
_SPREADS = {
    "kwargs": "import json\nfrom vllm import LLM\n\n\ndef build(m, engine_kwargs):\n    return LLM(model=m, **engine_kwargs)\n\n\n"
              "if __name__ == '__main__':\n    build('Qwen/Qwen2.5-7B-Instruct', json.load(open('kw.json')))\n",
    "argv": "import subprocess\nimport sys\n\nMODEL = 'Qwen/Qwen2.5-7B-Instruct'\n\n\ndef start(port):\n"
            "    return subprocess.Popen(['vllm', 'serve', MODEL, *sys.argv[1:], '--port', str(port)])\n",
}


def _results(root):
    rep = audit(root, gpu="T4")
    (sr,) = rep.sites
    return {r.check.id: r for r in sr.results}


@pytest.mark.parametrize("how", sorted(_SPREADS))
def test_a_spread_leaves_the_defaults_unknown(write_project, how):
    # a bfloat16 Qwen on a T4 with vLLM 0.8.5: auto would keep bfloat16 (L4) and the weights leave no KV
    # cache at the default utilisation (L16), but the spread may set dtype or quantization
    got = _results(write_project({**PIN, "launch.py": _SPREADS[how]}))
    assert got["L4"].status != "recommended"
    assert got["L16"].status != "recommended"
    assert got["B2"].status != "recommended"  # max_model_len may be in there too


def test_what_the_call_writes_is_still_read(write_project):
    code = ("import json\nfrom vllm import LLM\n\nllm = LLM(model='Qwen/Qwen2.5-7B-Instruct', dtype='bfloat16',"
            " **json.load(open('kw.json')))\n")
    got = _results(write_project({**PIN, "gen.py": code}))
    assert (got["L4"].status, got["L4"].priority) == ("recommended", "P0")


def test_without_a_spread_the_defaults_hold(write_project):
    got = _results(write_project({**PIN, "gen.py": "from vllm import LLM\n\nllm = LLM(model='Qwen/Qwen2.5-7B-Instruct')\n"}))
    assert (got["L4"].status, got["L4"].priority) == ("recommended", "P0")
