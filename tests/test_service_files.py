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
