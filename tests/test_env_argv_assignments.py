"""`env` takes NAME=VALUE words from its argv whether they are written out, quoted or expanded:
`env "$@" python -m vllm…` inside a function, a function whose caller hands it `env A=1` as a
command prefix, and `env A=0 $EX python -m vllm…` with EX="B=1" (engine/scan/launchers.py). Shaped
after StellaLee/vllm-experiment (eval75), whose 18 server starts were all missed. Also: Makefile
variants named `Makefile_v2` are read as Makefiles (Neelectric/open-r1_safety, eval75)."""
from vllm_kb.engine.audit import audit

_SERVE = "$PY -m vllm.entrypoints.openai.api_server --model org/m --max-num-seqs 16 &\n"


def _one(tmp_path, body: str):
    (tmp_path / "bench.sh").write_text("#!/bin/bash\nPY=python3\n" + body)
    rep = audit(tmp_path)
    (sr,) = rep.sites
    return sr.site


def test_a_caller_given_prefix_runs_the_server(tmp_path):
    site = _one(tmp_path, 'launch() {\n  local tag=$1; shift\n  "$@" ' + _SERVE + '}\nlaunch warm env KV_MODE=1\n')
    assert site.line == 7  # the call
    assert site.settings["max_num_seqs"].value == 16
    assert site.env["KV_MODE"].value == "1"
    assert site.env["KV_MODE"].pos is None  # the value has no bytes of its own here: no fix writes over "$@"


def test_env_with_the_callers_assignments(tmp_path):
    site = _one(tmp_path, 'launch() {\n  local tag=$1; shift\n  env "$@" ' + _SERVE + '}\nlaunch cold KV_MODE=2\n')
    assert site.env["KV_MODE"].value == "2"


def test_an_assignment_held_in_a_variable(tmp_path):
    site = _one(tmp_path, 'EXTRA="CHUNKS=0"\nenv KV_MODE=0 $EXTRA ' + _SERVE)
    assert (site.env["KV_MODE"].value, site.env["CHUNKS"].value) == ("0", "0")
    assert site.env["KV_MODE"].pos is not None  # the written one is still the word a fix edits


def test_bash_itself_takes_no_expanded_assignment(tmp_path):
    # without env, `$EXTRA` is the program bash runs: "CHUNKS=0" is no command, so nothing starts
    (tmp_path / "bench.sh").write_text('#!/bin/bash\nEXTRA="CHUNKS=0"\n$EXTRA python3 -m vllm.entrypoints.openai.api_server --model org/m\n')
    assert audit(tmp_path).sites == []


def test_a_makefile_variant_is_read(tmp_path):
    (tmp_path / "Makefile_v2").write_text("serve:\n\tvllm serve org/m --max-model-len 4096\n")
    (sr,) = audit(tmp_path).sites
    assert (sr.site.file, sr.site.line) == ("Makefile_v2", 2)


def test_assignments_set_in_branches(tmp_path):
    # EX holds one of two NAME=VALUE lists by a mode known only at run time: the launch is still found
    body = ('MODE=$1\nEX="CHUNKS=0"\nif [ "$MODE" = dyn ]; then EX="CHUNKS=1 CHUNK_MIN=512"; fi\n'
            'env KV_MODE=0 $EX ' + _SERVE)
    site = _one(tmp_path, body)
    assert site.settings["max_num_seqs"].value == 16 and site.env["KV_MODE"].value == "0"


def test_an_unknown_program_after_env_is_still_no_launch(tmp_path):
    (tmp_path / "bench.sh").write_text('#!/bin/bash\nenv A=1 $TOOL serve org/m\n')
    assert audit(tmp_path).sites == []
