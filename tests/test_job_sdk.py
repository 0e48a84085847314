"""Launches handed to a cluster through a Python job API (engine/scan/job_sdk.py): SkyPilot's
`sky.Task(setup=…, run=…)` with `sky.Resources(accelerators=…)`, and Ray's
`JobSubmissionClient.submit_job(entrypoint=…, runtime_env={"pip": […]})`, read as the task YAML and
the shell line they stand for."""
from __future__ import annotations

SKY = '''import sky

MODEL = "Qwen/Qwen2.5-7B-Instruct"
task = sky.Task(
    setup="pip install vllm==0.8.5",
    run=f"vllm serve {MODEL} --tensor-parallel-size $SKYPILOT_NUM_GPUS_PER_NODE --max-model-len $MAX_LEN",
    envs={"MAX_LEN": "8192"},
)
task.set_resources(sky.Resources(accelerators="A100:2"))
sky.launch(task, cluster_name="vllm")
'''

RAY = '''from ray.job_submission import JobSubmissionClient

client = JobSubmissionClient("http://127.0.0.1:8265")


def submit(model):
    return client.submit_job(
        entrypoint=f"vllm serve {model} --tensor-parallel-size 2 --swap-space 4",
        runtime_env={"pip": ["vllm==0.20.0"], "env_vars": {"VLLM_USE_V1": "1"}},
        entrypoint_num_gpus=2,
    )
'''


def _values(site: dict) -> dict:
    return {s["name"]: s["value"] for s in site["settings"]}


def test_a_skypilot_task_built_in_python(write_project, json_site):
    site = json_site(write_project({"launch.py": SKY}), gpu="A100-80GB x2")
    assert site["line"] == 4 and site["vllm"]["version"] == "0.8.5"  # from setup's pip install
    assert site["model"]["name"] == "Qwen/Qwen2.5-7B-Instruct"
    # SKYPILOT_NUM_GPUS_PER_NODE from the accelerators, MAX_LEN from the task's envs
    assert _values(site) == {"tensor_parallel_size": 2, "max_model_len": 8192}
    assert site["gpu_request"] == 2


def test_a_ray_job_submitted_from_python(write_project, json_site):
    site = json_site(write_project({"submit.py": RAY}), gpu="A100-80GB x2")
    assert site["line"] == 7 and site["vllm"]["version"] == "0.20.0"  # the runtime env's pip
    assert not (site["model"] or {}).get("name")  # a function argument: unknown, never guessed
    assert _values(site)["tensor_parallel_size"] == 2 and site["gpu_request"] == 2
    assert {e["name"]: e["value"] for e in site["env"]}["VLLM_USE_V1"] == "1"


def test_the_fix_leaves_a_python_string_command_alone(cli, write_project):
    # --swap-space is gone in 0.20.0 (a P0), but the command's bytes are Python's: no edit
    root = write_project({"submit.py": RAY})
    cli("audit", str(root), "--gpu", "A100-80GB x2", "--fix")
    assert (root / "submit.py").read_text() == RAY


def test_strings_that_only_mention_a_launch_are_no_sites(write_project, scanned):
    assert scanned({
        "doc.py": '''"""Run `vllm serve M` with sky.Task(run=...) or client.submit_job(entrypoint="vllm serve M")."""
import sky
from ray.job_submission import JobSubmissionClient

print("vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 2")
task = sky.Task(run="python train.py", setup="pip install vllm==0.8.5")
JobSubmissionClient("http://h:8265").submit_job(entrypoint="python eval.py --engine vllm")
other.Task(run="vllm serve M")  # not SkyPilot's
''',
    }) == []


# TOML files whose values launch vLLM (engine/scan/toml_commands.py), after Cerebrium's cerebrium.toml
CEREBRIUM = '''[cerebrium.deployment]
name = "qwen-vllm"

[cerebrium.runtime.custom]
port = 8000
entrypoint = ["vllm", "serve", "Qwen/Qwen2.5-7B-Instruct", "--tensor-parallel-size", "2", "--swap-space", "4"]

[cerebrium.dependencies.pip]
vllm = "==0.20.0"
'''


def test_a_toml_argv_that_launches_vllm(write_project, scanned, cli):
    (site,) = scanned({"cerebrium.toml": CEREBRIUM})
    assert (site.file, site.line, site.kind) == ("cerebrium.toml", 6, "vllm serve")
    assert site.model.value == "Qwen/Qwen2.5-7B-Instruct" and site.settings["tensor_parallel_size"].value == 2
    assert site.installed[0] == "0.20.0"  # Cerebrium's pip table: `vllm = "==0.20.0"`
    root = write_project({"cerebrium.toml": CEREBRIUM}, write_project({}) / "fix")
    code, out, _ = cli("audit", str(root), "--gpu", "H100-80GB", "--fix")
    assert "0.20.0" in out and "swap" in out  # the P0 of --swap-space in 0.20.0, shown
    assert (root / "cerebrium.toml").read_text() == CEREBRIUM  # an argv joined from a list: no offsets to edit


def test_a_toml_multiline_string_and_a_dotted_key(scanned, tmp_path):
    text = 'name = "job"\n[job]\nsteps.serve = """\nvllm serve org/m \\\n  --max-model-len 4096\n"""\n'
    (site,) = scanned({"job.toml": text})
    assert site.line == 4 and site.settings["max_model_len"].value == 4096


def test_toml_that_only_mentions_vllm_or_is_a_template(scanned, cli, write_project, tmp_path):
    assert scanned({"docs.toml": 'title = "vllm"\nnote = "install vllm first"\n'}) == []
    assert scanned({"pyproject.toml": '[project]\nname = "x"\ndependencies = ["vllm==0.8.5"]\n'}, tmp_path / "p") == []
    # a template filled by str.format before it is read: invalid TOML, skipped with the usual message
    root = write_project({"tpl.toml": 'entrypoint = ["vllm", "serve", {model}, "--tensor-parallel-size", {tp}]\n'}, tmp_path / "t")
    code, out, err = cli("audit", str(root), "--gpu", "H100-80GB", "--isolated", "--format", "json")
    import json
    report = json.loads(out)
    assert report["sites"] == [] and "tpl.toml" in json.dumps(report.get("skipped") or report)
    # named file:line, though tomllib before 3.14 gives the line only in its message
    assert [(s["file"], s["line"]) for s in report["project"]["skipped"] if s["code"] == "toml-error"] == [("tpl.toml", 1)]


def test_a_str_format_toml_template_is_read_as_the_toml_it_renders(scanned, cli, tmp_path):
    """tandemn-tuna's cerebrium.toml.tpl (https://github.com/Tandemn-Labs/tandemn-tuna, eval64: a missed site):
    bare `{gpu_count}` values and `{eager_flag}` pieces after an item, filled by str.format; the pip table's
    `=={vllm_version}` leaves the release to the rendering code, so a failure of the newest release only is P1."""
    tpl = ('[cerebrium.hardware]\ngpu_count = {gpu_count}\n\n[cerebrium.dependencies.pip]\nvllm = "=={vllm_version}"\n\n'
           '[cerebrium.runtime.custom]\nentrypoint = ["vllm", "serve", "{model}", "--tensor-parallel-size", "{tp_size}", '
           '"--max-model-len", "4096", "--disable-log-requests"{eager_flag}{quantization_flag}]\n')
    (site,) = scanned({"cerebrium.toml.tpl": tpl}, tmp_path / "a")
    assert (site.line, site.kind, site.settings["max_model_len"].value) == (8, "vllm serve", 4096)
    assert site.model.value is None and site.settings["tensor_parallel_size"].value is None
    import json
    root = tmp_path / "a"
    report = json.loads(cli("audit", str(root), "--isolated", "--format", "json", "-q")[1])
    assert "disable_log_requests" in json.dumps(report["sites"])  # reported, as a P1
    assert not any(r.get("priority") == "P0" for s in report["sites"] for r in s.get("recommendations", []))
    # the same text as a plain .toml is no template: invalid TOML, skipped as before
    assert scanned({"tpl.toml": tpl}, tmp_path / "b") == []
