"""`docker exec NAME CMD …` runs CMD in the container the script (or another project script,
heldout47 xinference-1622) started with `docker run --name NAME`: the launch is read as a site with
that container's facts (GPUs, IPC, /dev/shm)."""
from vllm_kb.engine.audit import audit

_RUN = ("docker run -d --name xinf --gpus all {opts} xprobe/xinference:v1.2.1 xinference-local -H 0.0.0.0\n"
        "docker exec xinf xinference launch --model-engine vllm --model-name qwen2.5-instruct "
        "--size-in-billions 32 --model-format pytorch --n-gpu {n}\n")


def _l40(tmp_path, opts: str, script: str = _RUN, n: int = 8):
    (tmp_path / "requirements.txt").write_text("vllm==0.7.0\n")
    (tmp_path / "run.sh").write_text(script.format(opts=opts, n=n))
    (sr,) = audit(tmp_path, gpu=f"A100-80GB x{n}").sites
    assert sr.site.kind == "xinference launch" and sr.site.settings["tensor_parallel_size"].value == n
    return next(r for r in sr.results if r.check.id == "L40")


def test_exec_in_a_container_without_shared_memory_is_a_p0(tmp_path):
    r = _l40(tmp_path, "")
    assert (r.status, r.priority) == ("recommended", "P0")
    # four workers may start in 64 MiB where NCCL links the GPUs directly (vLLM #11054, #26360): a risk
    r = _l40(tmp_path, "", n=4)
    assert (r.status, r.priority) == ("recommended", "P1")


def test_exec_in_a_container_with_ipc_host_or_shm_starts(tmp_path):
    assert _l40(tmp_path, "--ipc=host").status == "enabled"
    assert _l40(tmp_path, "--shm-size 16g").status == "enabled"


def test_exec_in_a_container_started_elsewhere_is_not_judged_as_one(tmp_path):
    only_exec = _RUN.split("\n", 1)[1]
    assert _l40(tmp_path, "", only_exec).status == "not_applicable"


def _two_scripts(tmp_path, starts: dict[str, str]):
    (tmp_path / "requirements.txt").write_text("vllm==0.7.0\n")
    for name, opts in starts.items():
        (tmp_path / name).write_text(_RUN.split("\n", 1)[0].format(opts=opts) + "\n")
    (tmp_path / "launch.sh").write_text(_RUN.split("\n", 1)[1].format(n=8))
    (sr,) = audit(tmp_path, gpu="A100-80GB x8").sites
    return next(r for r in sr.results if r.check.id == "L40")


def test_exec_in_a_container_another_script_starts(tmp_path):
    r = _two_scripts(tmp_path, {"start.sh": ""})
    assert (r.status, r.priority) == ("recommended", "P0")


def test_exec_in_a_name_two_scripts_start_differently_is_not_judged(tmp_path):
    assert _two_scripts(tmp_path, {"start.sh": "", "start_big.sh": "--shm-size 16g"}).status == "not_applicable"


# L40's change: `--ipc=host` right after the `run` of the script that starts the container (never safe: the
# container then shares the host's IPC namespace), whichever script serves in it
_START = ("#!/bin/bash\ndocker run -d --gpus all \\\n  --name box \\\n  --entrypoint /bin/bash \\\n"
          "  vllm/vllm-openai:v0.9.2 -c 'sleep infinity'\n")
_SERVE = "#!/bin/bash\ndocker exec -d box vllm serve Qwen/Qwen2.5-72B-Instruct-AWQ --tensor-parallel-size 2\n"


def test_the_change_is_the_option_on_the_other_scripts_docker_run(cli, write_project):
    root = write_project({"start.sh": _START, "serve.sh": _SERVE})
    (sr,) = audit(root, gpu="A100-80GB x2").sites
    (ch,) = [c for c in sr.changes if "L40" in c.checks]
    assert (ch.file, ch.line, ch.after, ch.safe) == ("start.sh", 2, "--ipc=host", False)
    code, _, _ = cli("audit", str(root), "--gpu", "A100-80GB x2", "--fix", "--fixable", "L40")
    assert (root / "start.sh").read_text() == _START  # unsafe: not without --unsafe-fixes
    for _ in range(2):  # the second run finds nothing left to write
        cli("audit", str(root), "--gpu", "A100-80GB x2", "--fix", "--unsafe-fixes", "--fixable", "L40")
        assert (root / "start.sh").read_text() == _START.replace("docker run -d", "docker run --ipc=host -d", 1)
        assert (root / "serve.sh").read_text() == _SERVE
    (sr,) = audit(root, gpu="A100-80GB x2").sites
    assert next(r for r in sr.results if r.check.id == "L40").status == "enabled"


def test_no_change_where_the_run_sets_shared_memory_or_two_scripts_start_it(write_project):
    small = _START.replace("--name box", "--name box --shm-size 512m")  # P1: the size is the project's to raise
    (sr,) = audit(write_project({"start.sh": small, "serve.sh": _SERVE}), gpu="A100-80GB x2").sites
    assert not [c for c in sr.changes if "L40" in c.checks]
    (sr,) = audit(write_project({"start.sh": _START, "again.sh": _START, "serve.sh": _SERVE}), gpu="A100-80GB x2").sites
    assert next(r for r in sr.results if r.check.id == "L40").priority == "P1"  # two workers: a risk
    assert not [c for c in sr.changes if "L40" in c.checks]


def test_a_run_inside_bash_c_is_left_for_a_person(write_project):
    wrapped = "#!/bin/bash\nbash -c \"docker run -d --gpus all --name box vllm/vllm-openai:v0.9.2 --model Qwen/Qwen2.5-72B-Instruct-AWQ --tensor-parallel-size 2\"\n"
    root = write_project({"run.sh": wrapped})
    (sr,) = audit(root, gpu="A100-80GB x2").sites
    from vllm_kb.engine.fix.apply import fixable
    got = [(c, ok) for c, ok in zip(sr.changes, fixable(sr.site, sr.changes, lambda f: (root / f).read_text())) if "L40" in c.checks]
    assert all(not ok for _, ok in got)
