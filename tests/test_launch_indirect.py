"""Launches whose model, flags or release come from somewhere else than the line that starts vLLM:
a `.env` a script sources or compose reads, a Dockerfile whose CMD runs the project's own script,
a Python argv split from a string, sliced, or started through `sys.executable`. Each must be found
with the model, the TP and the release it runs; a value read from another file is changed there
(the fix names that file and line and leaves the launch line alone)."""
from __future__ import annotations

from pathlib import Path

import pytest

from vllm_kb.engine.audit import audit

_M = "Qwen/Qwen2.5-7B-Instruct"
_DOTENV = f"# served model\nMODEL={_M}\nTP=3\n"

# id: (files, model, tp, release the site runs, where the TP is changed: None for the launch line)
FORMS = {
    "shell-set-a-source-dotenv": ({"run.sh": "#!/bin/bash\nset -a\nsource .env\nset +a\nvllm serve $MODEL --tensor-parallel-size $TP\n",
                                   ".env": _DOTENV, "requirements.txt": "vllm==0.8.5\n"}, _M, 3, "0.8.5", "TP at .env:3"),
    "shell-dot-dotenv-exec": ({"run.sh": '#!/usr/bin/env bash\nset -euo pipefail\n. ./.env\nexec vllm serve "$MODEL" --tensor-parallel-size "$TP"\n',
                               ".env": _DOTENV, "requirements.txt": "vllm==0.8.5\n"}, _M, 3, "0.8.5", "TP at .env:3"),
    "shell-source-env-in-folder": ({"start.sh": "#!/bin/bash\nsource ./env/prod.env\nvllm serve ${MODEL} --tensor-parallel-size ${TP}\n",
                                    "env/prod.env": _DOTENV, "requirements.txt": "vllm==0.8.5\n"}, _M, 3, "0.8.5", "TP at env/prod.env:3"),
    "shell-eval-cat-dotenv": ({"run.sh": '#!/bin/bash\neval "$(cat .env)"\nvllm serve $MODEL --tensor-parallel-size $TP\n',
                               ".env": _DOTENV, "requirements.txt": "vllm==0.8.5\n"}, _M, 3, "0.8.5", "TP at .env:3"),
    "shell-export-xargs-dotenv": ({"run.sh": "#!/bin/bash\nexport $(grep -v '^#' .env | xargs)\nvllm serve $MODEL --tensor-parallel-size $TP\n",
                                   ".env": _DOTENV, "requirements.txt": "vllm==0.8.5\n"}, _M, 3, "0.8.5", "TP at .env:3"),
    "shell-bash-source-dir-dotenv": ({"run.sh": '#!/bin/bash\nsource "${BASH_SOURCE%/*}/.env"\nvllm serve $MODEL --tensor-parallel-size $TP\n',
                                      ".env": _DOTENV, "requirements.txt": "vllm==0.8.5\n"}, _M, 3, "0.8.5", "TP at .env:3"),
    "compose-string-command-dotenv": ({"docker-compose.yml": "services:\n  vllm:\n    image: vllm/vllm-openai:v0.8.5\n    ipc: host\n"
                                                             "    env_file: .env\n    command: --model ${MODEL} --tensor-parallel-size ${TP}\n",
                                       ".env": _DOTENV}, _M, 3, "0.8.5", "TP at .env:3"),
    "compose-list-command-dotenv": ({"docker-compose.yml": "services:\n  vllm:\n    image: vllm/vllm-openai:v0.8.5\n    ipc: host\n"
                                                           '    command: ["--model", "${MODEL}", "--tensor-parallel-size", "${TP:-1}"]\n',
                                     ".env": _DOTENV}, _M, 3, "0.8.5", "TP at .env:3"),
    # `$$VAR` is compose's escape: the container's shell expands it from the env_file's variables
    "compose-sh-c-env-file": ({"docker-compose.yml": "services:\n  vllm:\n    image: vllm/vllm-openai:v0.8.5\n    ipc: host\n"
                                                     "    env_file: ./config/vllm.env\n    entrypoint: [\"/bin/sh\", \"-c\"]\n"
                                                     '    command: ["vllm serve $$MODEL --tensor-parallel-size $$TP"]\n',
                               "config/vllm.env": _DOTENV}, _M, 3, "0.8.5", None),
    "dockerfile-cmd-python-script-env": ({"Dockerfile": "FROM vllm/vllm-openai:v0.8.5\nCOPY serve.py /app/serve.py\nENV TP=3\n"
                                                        'ENTRYPOINT ["python3", "/app/serve.py"]\n',
                                          "serve.py": f'import os\nfrom vllm import LLM\nllm = LLM(model="{_M}", tensor_parallel_size=int(os.environ["TP"]))\n'},
                                         _M, 3, "0.8.5", "TP at Dockerfile:3"),
    "dockerfile-cmd-bash-script-env": ({"Dockerfile": "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN pip install vllm==0.8.5\n"
                                                      f"COPY start.sh /start.sh\nENV MODEL_NAME={_M}\nENV TP=3\n" 'CMD ["bash", "/start.sh"]\n',
                                        "start.sh": "#!/bin/bash\nvllm serve $MODEL_NAME --tensor-parallel-size $TP\n"},
                                       _M, 3, "0.8.5", "TP at Dockerfile:5"),
    "dockerfile-workdir-copy-folder": ({"Dockerfile": "FROM vllm/vllm-openai:v0.8.5\nWORKDIR /app\nCOPY app/ .\n"
                                                      'ENTRYPOINT ["python3", "-u", "main.py"]\n',
                                        "app/main.py": f'import subprocess\nsubprocess.run(["vllm", "serve", "{_M}", "--tensor-parallel-size", "3"], check=True)\n'},
                                       _M, 3, "0.8.5", None),
    "python-shlex-split-fstring": ({"launch.py": f'import shlex, subprocess, sys\nport = sys.argv[1]\nmodel = "{_M}"\n'
                                                'subprocess.run(shlex.split(f"vllm serve {model} --port {port} --tensor-parallel-size 3"))\n',
                                    "requirements.txt": "vllm==0.8.5\n"}, _M, 3, "0.8.5", None),
    "python-str-split": ({"launch.py": f'import subprocess\ncmd = "vllm serve {_M} --tensor-parallel-size 3"\nsubprocess.Popen(cmd.split())\n',
                          "requirements.txt": "vllm==0.8.5\n"}, _M, 3, "0.8.5", None),
    "python-sliced-argv": ({"launch.py": f'import subprocess\nargs = ["python", "-m", "vllm.entrypoints.openai.api_server", "--model", "{_M}", '
                                         '"--tensor-parallel-size", "3"]\nsubprocess.run(args[:], check=True)\n',
                            "requirements.txt": "vllm==0.8.5\n"}, _M, 3, "0.8.5", None),
    "python-sys-executable-concat": ({"launch.py": 'import subprocess, sys\nbase = [sys.executable, "-m", "vllm.entrypoints.openai.api_server"]\n'
                                                   f'args = base + ["--model", "{_M}", "--tensor-parallel-size", "3"]\nsubprocess.run(args, check=True)\n',
                                      "requirements.txt": "vllm==0.8.5\n"}, _M, 3, "0.8.5", None),
    "python-os-system-fstring-hole": ({"launch.py": f'import os, sys\nport = sys.argv[1]\nos.system(f"CUDA_VISIBLE_DEVICES=0,1,2 nohup vllm serve {_M} '
                                                    '--port {port} --tensor-parallel-size 3 > log 2>&1 &")\n',
                                       "requirements.txt": "vllm==0.8.5\n"}, _M, 3, "0.8.5", None),
    # a helper of the same file builds the command; the call's fixed arguments stand for its parameters
    "python-helper-returns-list": ({"launch.py": f'import subprocess\nMODEL = "{_M}"\ndef build(model, tp):\n    cmd = ["vllm", "serve", model]\n'
                                                '    cmd.append("--tensor-parallel-size")\n    cmd.append(str(tp))\n    return cmd\n'
                                                'subprocess.run(build(MODEL, 3))\n',
                                    "requirements.txt": "vllm==0.8.5\n"}, _M, 3, "0.8.5", None),
    "python-helper-returns-fstring": ({"launch.py": 'import os, sys\ndef serve_command(model, port=8000, tp=1):\n'
                                                   '    return f"vllm serve {model} --port {port} --tensor-parallel-size {tp}"\n'
                                                   f'os.system(serve_command("{_M}", port=int(sys.argv[1]), tp=3))\n',
                                       "requirements.txt": "vllm==0.8.5\n"}, _M, 3, "0.8.5", None),
}


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


@pytest.mark.parametrize("name", sorted(FORMS))
def test_indirect_launch_is_read(tmp_path: Path, name: str) -> None:
    files, model, tp, release, origin = FORMS[name]
    _write(tmp_path, files)
    rep = audit(tmp_path, gpu="H100-80GB x4")
    assert len(rep.sites) == 1, [s.site.id for s in rep.sites]
    sr = rep.sites[0]
    assert sr.facts["model"]["name"] == model
    assert sr.facts["engine"]["tensor_parallel_size"] == tp
    assert sr.version.version == release
    # 28 heads, TP 3: the P0 is raised, and its change is made where the value is written
    l1 = next(r for r in sr.results if r.check.id == "L1")
    assert l1.status == "recommended" and l1.priority == "P0"
    tp_setting = sr.site.settings["tensor_parallel_size"]
    assert (tp_setting.pos or {}).get("from_env") == origin


@pytest.mark.parametrize("name", [n for n, f in FORMS.items() if f[4]])
def test_fix_leaves_a_value_read_from_another_file_alone(cli, tmp_path: Path, name: str) -> None:
    files = FORMS[name][0]
    _write(tmp_path, files)
    cli("audit", str(tmp_path), "--gpu", "H100-80GB x4", "--fix", "--select", "L1", "-q")
    for rel, text in files.items():
        assert (tmp_path / rel).read_text() == text, rel


def test_the_image_tag_is_changed_in_the_dockerfile_not_the_script(cli, tmp_path: Path) -> None:
    files = {"Dockerfile": "FROM vllm/vllm-openai:v0.6.0\nCOPY serve.py /app/serve.py\nENTRYPOINT [\"python3\", \"/app/serve.py\"]\n",
             "serve.py": 'from vllm import LLM\nllm = LLM(model="google/gemma-3-27b-it", max_model_len=8192)\n'}
    _write(tmp_path, files)
    cli("audit", str(tmp_path), "--gpu", "H100-80GB", "--fix", "--unsafe-fixes", "--fixable", "L21", "-q")
    assert (tmp_path / "Dockerfile").read_text() == files["Dockerfile"].replace("v0.6.0", "v0.8.0")
    assert (tmp_path / "serve.py").read_text() == files["serve.py"]


CONTROLS = {
    # the script is not what the image runs: its folder's pin stands, the image's ENV does not reach it
    "script-beside-not-run": {"Dockerfile": "FROM vllm/vllm-openai:v0.6.0\nCOPY serve.py /app/serve.py\nENV TP=3\n"
                                            'ENTRYPOINT ["python3", "/app/other.py"]\n',
                              "serve.py": f'from vllm import LLM\nllm = LLM(model="{_M}", tensor_parallel_size=4)\n',
                              "requirements.txt": "vllm==0.8.5\n"},
    # compose interpolates `${TP}` from the .env beside it only, never from env_file
    "compose-env-file-not-interpolated": {"docker-compose.yml": "services:\n  vllm:\n    image: vllm/vllm-openai:v0.8.5\n    ipc: host\n"
                                                                "    env_file: ./config/vllm.env\n"
                                                                f"    command: --model {_M} --tensor-parallel-size ${{TP:-4}}\n",
                                          "config/vllm.env": "TP=3\n"},
    "dotenv-tp-that-divides": {"run.sh": "#!/bin/bash\nset -a\nsource .env\nset +a\nvllm serve $MODEL --tensor-parallel-size $TP\n",
                               ".env": f"MODEL={_M}\nTP=4\n", "requirements.txt": "vllm==0.8.5\n"},
    "python-split-of-another-program": {"launch.py": 'import subprocess\nsubprocess.run("ls -la /models".split())\n'
                                                     f'subprocess.run(["vllm", "serve", "{_M}", "--tensor-parallel-size", "4"])\n',
                                        "requirements.txt": "vllm==0.8.5\n"},
}


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_controls_stay_free_of_p0(tmp_path: Path, name: str) -> None:
    _write(tmp_path, CONTROLS[name])
    rep = audit(tmp_path, gpu="H100-80GB x4")
    assert len(rep.sites) == 1, [s.site.id for s in rep.sites]
    sr = rep.sites[0]
    assert sr.facts["engine"]["tensor_parallel_size"] == 4
    assert sr.version.version == "0.8.5"
    assert not [r.check.id for r in sr.results if r.status == "recommended" and r.priority == "P0"]


# commands written in front of `vllm serve` on clusters and in container entrypoints, and runners
# that hand the command line to another shell (engine/scan/launchers.py, engine/scan/shell_wrap.py)
_SERVE = f"vllm serve {_M} --tensor-parallel-size 3"
WRAPPED = [
    f"sbatch --gres=gpu:4 --wrap=\"{_SERVE}\"",
    f"sbatch -p gpu --wrap 'python -m vllm.entrypoints.openai.api_server --model {_M} --tensor-parallel-size 3'",
    f"salloc -N1 --gres=gpu:4 srun {_SERVE}",
    f"ssh -p 2222 node1 \"{_SERVE}\"",
    f"ssh node1 {_SERVE}",
    f"pdsh -w node[1-2] \"{_SERVE}\"",
    f"flock /tmp/vllm.lock -c \"{_SERVE}\"",
    f"flock -w 60 /tmp/vllm.lock {_SERVE}",
    f"script -q -c \"{_SERVE}\" /dev/null",
    f"su - vllm -c \"{_SERVE}\"",
    f"exec -a vllm-server {_SERVE}",
    f"chrt -f 10 {_SERVE}",
    f"gosu vllm {_SERVE}",
    f"su-exec vllm:vllm {_SERVE}",
    f"runuser -u vllm -- {_SERVE}",
    f"dumb-init -- {_SERVE}",
    f"tini -g -- {_SERVE}",
    f"nsys profile -o report --trace cuda,nvtx {_SERVE}",
    f"py-spy record -o profile.svg -- {_SERVE}",
    f"watchmedo auto-restart -d . -p '*.py' -- {_SERVE}",
    f"systemd-run --scope -p MemoryMax=100G --unit vllm {_SERVE}",
    f"xvfb-run -a {_SERVE}",
    f"enroot start --rw -m /data:/data vllm {_SERVE}",
    f"caffeinate -i {_SERVE}",
    f"/usr/bin/time -o time.log {_SERVE}",
]


@pytest.mark.parametrize("line", WRAPPED)
def test_wrapped_launch_is_read(tmp_path: Path, line: str) -> None:
    _write(tmp_path, {"run.sh": f"#!/bin/bash\n{line}\n", "requirements.txt": "vllm==0.8.5\n"})
    rep = audit(tmp_path, gpu="H100-80GB x4")
    assert len(rep.sites) == 1, [s.site.id for s in rep.sites]
    sr = rep.sites[0]
    assert sr.facts["model"]["name"] == _M and sr.facts["engine"]["tensor_parallel_size"] == 3


@pytest.mark.parametrize("line", ["nsys stats report.nsys-rep", "ssh node1 nvidia-smi", "sbatch --wrap=\"echo hi\"",
                                  "sbatch job.sbatch", "flock -n 200 || exit 1", "chrt -p 1234"])
def test_wrappers_without_a_vllm_command_are_no_site(tmp_path: Path, line: str) -> None:
    _write(tmp_path, {"run.sh": f"#!/bin/bash\n# vllm\n{line}\n", "requirements.txt": "vllm==0.8.5\n"})
    assert audit(tmp_path, gpu="H100-80GB x4").sites == []


def test_a_helper_parameter_the_call_leaves_unknown_is_not_its_default(tmp_path: Path) -> None:
    _write(tmp_path, {"launch.py": 'import subprocess, sys\ndef build(model, tp=3):\n'
                                   '    return ["vllm", "serve", model, "--tensor-parallel-size", str(tp)]\n'
                                   f'subprocess.run(build("{_M}", int(sys.argv[1])))\n'
                                   f'subprocess.run(build("{_M}", 4))\n',
                      "requirements.txt": "vllm==0.8.5\n"})
    rep = audit(tmp_path, gpu="H100-80GB x4")
    assert [sr.facts["engine"].get("tensor_parallel_size") for sr in rep.sites] == [None, 4]
    assert not [r.check.id for sr in rep.sites for r in sr.results if r.status == "recommended" and r.priority == "P0"]
