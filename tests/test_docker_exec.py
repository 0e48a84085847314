"""`docker exec NAME CMD …` runs CMD in the container the script (or another project script,
heldout47 xinference-1622) started with `docker run --name NAME`: the launch is read as a site with
that container's facts (GPUs, IPC, /dev/shm)."""
from vllm_kb.engine.audit import audit

_RUN = ("docker run -d --name xinf --gpus all {opts} xprobe/xinference:v1.2.1 xinference-local -H 0.0.0.0\n"
        "docker exec xinf xinference launch --model-engine vllm --model-name qwen2.5-instruct "
        "--size-in-billions 32 --model-format pytorch --n-gpu 4\n")


def _l40(tmp_path, opts: str, script: str = _RUN):
    (tmp_path / "requirements.txt").write_text("vllm==0.7.0\n")
    (tmp_path / "run.sh").write_text(script.format(opts=opts))
    (sr,) = audit(tmp_path, gpu="A100-80GB x4").sites
    assert sr.site.kind == "xinference launch" and sr.site.settings["tensor_parallel_size"].value == 4
    return next(r for r in sr.results if r.check.id == "L40")


def test_exec_in_a_container_without_shared_memory_is_a_p0(tmp_path):
    r = _l40(tmp_path, "")
    assert (r.status, r.priority) == ("recommended", "P0")


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
    (tmp_path / "launch.sh").write_text(_RUN.split("\n", 1)[1])
    (sr,) = audit(tmp_path, gpu="A100-80GB x4").sites
    return next(r for r in sr.results if r.check.id == "L40")


def test_exec_in_a_container_another_script_starts(tmp_path):
    r = _two_scripts(tmp_path, {"start.sh": ""})
    assert (r.status, r.priority) == ("recommended", "P0")


def test_exec_in_a_name_two_scripts_start_differently_is_not_judged(tmp_path):
    assert _two_scripts(tmp_path, {"start.sh": "", "start_big.sh": "--shm-size 16g"}).status == "not_applicable"
