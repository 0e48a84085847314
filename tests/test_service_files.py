"""Process managers that start vLLM from a line of their own (engine/scan/service_files.py): systemd
units, supervisord programs and Procfiles, each with the environment it gives the command. The
shapes are the ones public repositories and reports use; the projects are written in our own words."""


def values(s):
    return {k: v.value for k, v in s.settings.items() if v.resolved}


# https://github.com/community-scripts/ProxmoxVED/issues/2047 — a vLLM LXC whose systemd unit runs
# `vllm serve` with the model, host and extra arguments from an EnvironmentFile
UNIT = ("[Unit]\nDescription=vLLM\n\n[Service]\nEnvironmentFile=-/opt/vllm/vllm.env\n"
        'Environment="CUDA_VISIBLE_DEVICES=0" VLLM_LOGGING_LEVEL=INFO\n'
        "ExecStart=/opt/vllm/.venv/bin/vllm serve ${VLLM_MODEL} --host ${VLLM_HOST} \\\n    $VLLM_SERVE_ARGS --swap-space 4\n"
        "Restart=always\n")


def test_a_systemd_unit_with_its_environment_file(scanned):
    (s,) = scanned({"deploy/vllm.service": UNIT, "deploy/vllm.env":
                    "VLLM_MODEL=Qwen/Qwen2.5-0.5B-Instruct\nVLLM_HOST=0.0.0.0\nVLLM_SERVE_ARGS=--gpu-memory-utilization 0.9\n"})
    assert (s.kind, s.tool, s.line) == ("vllm serve", "systemd", 7) and s.model.value == "Qwen/Qwen2.5-0.5B-Instruct"
    assert values(s) == {"host": "0.0.0.0", "gpu_memory_utilization": 0.9, "swap_space": 4.0}
    assert s.env["CUDA_VISIBLE_DEVICES"].value == "0" and s.env["VLLM_MODEL"].file == "deploy/vllm.env"


def test_a_fix_in_a_unit_edits_only_its_own_words(cli, write_project):
    root = write_project({"vllm.service": UNIT, "vllm.env": "VLLM_MODEL=org/m\nVLLM_HOST=0.0.0.0\nVLLM_SERVE_ARGS=\n",
                          "requirements.txt": "vllm==0.20.0\n"})
    cli("audit", str(root), "--gpu", "H100-80GB", "--fix")
    assert (root / "vllm.service").read_text() == UNIT.replace(" --swap-space 4", "")


def test_supervisord_programs_with_continued_commands_and_their_environment(scanned):
    conf = ("[supervisord]\nnodaemon=true\n\n[program:api]\ncommand=uvicorn app:api --port 9000\n\n"
            "[program:vllm-primary]\ncommand=/opt/venv/bin/vllm serve mistralai/Mistral-7B-Instruct-v0.3\n"
            "        --port 8300 --gpu-memory-utilization 0.75 --max-model-len 8192\n"
            'environment=CUDA_VISIBLE_DEVICES="1",HF_HOME="/data"\nautorestart=true\n\n'
            "[program:vllm-shell]\ncommand=/bin/bash -lc 'export TP=2; exec vllm serve org/b --tensor-parallel-size $TP'\n")
    a, b = scanned({"conf.d/llm.conf": conf, "conf.d/other.conf": "[program:x]\ncommand=sleep 1\n"})
    assert (a.tool, a.line, a.model.value) == ("supervisord", 8, "mistralai/Mistral-7B-Instruct-v0.3")
    assert values(a) == {"port": 8300, "gpu_memory_utilization": 0.75, "max_model_len": 8192}
    assert a.env["CUDA_VISIBLE_DEVICES"].value == "1"
    assert (b.model.value, values(b)) == ("org/b", {"tensor_parallel_size": 2})


def test_a_procfile_reads_the_env_file_foreman_loads(scanned):
    (s,) = scanned({"Procfile": "web: vllm serve $MODEL --tensor-parallel-size 2\nworker: python worker.py\n",
                    ".env": "MODEL=org/m\n"})
    assert (s.tool, s.model.value, values(s)) == ("procfile", "org/m", {"tensor_parallel_size": 2})


def test_files_of_those_names_without_a_vllm_command_are_not_sites(scanned):
    assert scanned({"app.service": "[Service]\nExecStart=/usr/bin/python app.py\n", "nginx.conf": "server { listen 80; }\n",
                    "Procfile": "web: gunicorn app:app\n", "settings.ini": "[program:vllm]\nmodel=org/m\n"}) == []


# https://github.com/vllm-project/vllm/issues/12847 (a comment on v0.11.0) — two `vllm serve` programs
# of one supervisord conf that a Dockerfile copies into the vllm/vllm-openai image; the TP-2 program
# sees GPUs "1,2" through a quoted environment value that holds a comma
PROGRAMS = ("[program:small]\nenvironment=CUDA_VISIBLE_DEVICES=0\n"
            "command=vllm serve Qwen/Qwen2.5-7B-Instruct --gpu-memory-utilization 0.45 --max-model-len 8192 --port 8001\n\n"
            "[program:big]\nenvironment=CUDA_VISIBLE_DEVICES=\"1,2\",HF_HOME=/models/hf ,  VLLM_LOGGING_LEVEL='DEBUG'\n"
            "command=vllm serve mistralai/Mistral-Small-24B-Instruct-2501 --tensor-parallel-size 2 --port 8002\n")
IMAGE = "FROM vllm/vllm-openai:v0.11.0\nRUN pip install supervisor\nCOPY supervisord.conf /etc/supervisor/conf.d/vllm.conf\n" \
        'ENTRYPOINT ["supervisord", "-n"]\n'


def test_supervisord_environment_by_its_own_grammar_quoted_values_keep_commas(scanned):
    small, big = scanned({"supervisord.conf": PROGRAMS})
    assert small.env["CUDA_VISIBLE_DEVICES"].value == "0"
    assert {k: v.value for k, v in big.env.items()} == {"CUDA_VISIBLE_DEVICES": "1,2", "HF_HOME": "/models/hf",
                                                         "VLLM_LOGGING_LEVEL": "DEBUG"}


def test_an_environment_supervisord_refuses_is_skipped_with_its_line_not_guessed(write_project):
    from vllm_kb.engine.scan.project import scan_project

    conf = "[program:x]\nenvironment=CUDA_VISIBLE_DEVICES=1,2\ncommand=vllm serve org/m --tensor-parallel-size 2\n"
    scan = scan_project(write_project({"x.conf": conf, "y.conf": conf.replace("=1,2", "=\"1,2")}))
    assert all(not s.env for s in scan.sites) and len(scan.sites) == 2
    assert {(k.file, k.line, k.code) for k in scan.ctx.skipped} == {("x.conf", 2, "parse-error"), ("y.conf", 2, "parse-error")}


def test_programs_of_a_conf_an_image_copies_in_run_that_images_release(scanned, tmp_path):
    sites = scanned({"supervisord.conf": PROGRAMS, "Dockerfile": IMAGE}, tmp_path / "a")
    assert [(s.file, s.image) for s in sites] == [("supervisord.conf", "vllm/vllm-openai:v0.11.0")] * 2
    built = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN pip install vllm==0.8.5 supervisor\nCOPY conf/ /etc/supervisor/conf.d/\n"
    (s, _) = scanned({"conf/vllm.conf": PROGRAMS, "Dockerfile": built}, tmp_path / "b")
    assert s.installed[0] == "0.8.5" and s.installed[1] == "Dockerfile:2"
    (s, _) = scanned({"conf/vllm.conf": PROGRAMS, "Dockerfile": built.replace("COPY conf/", "COPY --from=build /conf/")}, tmp_path / "c")
    assert s.image is None and s.installed is None


def test_a_tp_2_program_that_sees_two_gpus_gets_no_p0(write_project):
    from vllm_kb.engine.audit import audit

    rep = audit(write_project({"supervisord.conf": PROGRAMS, "Dockerfile": IMAGE}), gpu="A100-80GB x3")
    assert {sr.version.version for sr in rep.sites} == {"0.11.0"}
    p0 = [(r.check.id, sr.site.line) for sr in rep.sites for r in sr.results if r.status == "recommended" and r.priority == "P0"]
    assert p0 == [] and not [f for sr in rep.sites for f in sr.remarks if f.priority == "P0"]


# an Ansible role's templates/vllm.service.j2: each `{{ … }}` is unknown until the role renders it
TEMPLATED = ("[Service]\nEnvironment=HF_HOME={{ hf_home }}\n"
             "ExecStart={{ venv }}/bin/vllm serve {{ vllm_model }} --max-model-len {{ max_len | default(4096) }} --swap-space 4\n")


def test_a_unit_template_reads_its_jinja_actions_as_unknowns(cli, write_project, scanned, tmp_path):
    (s,) = scanned({"roles/vllm/templates/vllm.service.j2": TEMPLATED}, tmp_path / "a")
    assert (s.kind, s.line) == ("vllm serve", 3) and not s.model.resolved  # `{{ venv }}/bin/vllm`: the name is known
    assert values(s) == {"swap_space": 4.0} and not s.settings["max_model_len"].resolved
    root = write_project({"vllm.service.j2": TEMPLATED, "requirements.txt": "vllm==0.20.0\n"}, tmp_path / "b")
    cli("audit", str(root), "--gpu", "H100-80GB", "--fix")
    assert (root / "vllm.service.j2").read_text() == TEMPLATED.replace(" --swap-space 4", "")  # the file's own offsets
    assert scanned({"t/vllm.service.j2": "{% if x %}\n" + TEMPLATED + "{% endif %}\n"}, tmp_path / "c") == []


def test_a_program_in_an_unknown_folder_is_known_by_its_name(scanned, tmp_path):
    # `$VENV/bin/vllm serve …`: the folder is the script's variable, the program is vLLM's CLI; a
    # program held whole in a variable (`$VLLM_BIN serve …`) stays unknown
    got = scanned({"a.sh": "#!/bin/bash\n$VENV/bin/vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192\n",
                   "b.sh": "#!/bin/bash\n$VLLM_BIN serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192\n",
                   "c.sh": "#!/bin/bash\n${ENV_DIR}/bin/python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-7B-Instruct\n"})
    assert [(s.file, s.kind) for s in got] == [("a.sh", "vllm serve"), ("c.sh", "api_server")]
