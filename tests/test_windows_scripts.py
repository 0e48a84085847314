"""Windows launch scripts (engine/scan/windows_shell.py, engine/scan/windows_scripts.py): batch files and
PowerShell scripts read by their own grammars, their launches fed to the shell scripts' argv parser,
and the platform check (L28) told that vLLM runs in native Windows there. The projects are written in
our own words after the shapes public reports use."""
from vllm_kb.engine.scan.powershell import powershell_commands
from vllm_kb.engine.scan.windows_shell import ALL_ARGS, batch_commands


def argv(stmt):
    return [w.value for w in stmt.words]


def test_batch_continuations_set_and_expansion():
    text = ('@echo off\r\nsetlocal\r\nset CUDA_VISIBLE_DEVICES=0\r\nset "MODEL=Qwen/Qwen2.5-7B-Instruct"\r\n'
            "rem a comment\r\n:: another\r\ncall conda activate vllm\r\n"
            "vllm serve %MODEL% ^\r\n  --tensor-parallel-size %TP% ^\r\n  --max-model-len 8192 %* > log.txt 2>&1\r\n")
    cmds, env = batch_commands(text)
    assert [argv(c)[:2] for c in cmds] == [["conda", "activate"], ["vllm", "serve"]]
    serve = cmds[1]
    assert (serve.line, serve.end_line) == (8, 10)
    assert argv(serve)[:4] == ["vllm", "serve", "Qwen/Qwen2.5-7B-Instruct", "--tensor-parallel-size"]
    assert serve.words[4].value is None and serve.words[4].unresolved == "%TP%"  # never set
    assert serve.words[-1].unresolved == ALL_ARGS and serve.words[-1].is_all_args  # the script's own arguments
    assert "log.txt" not in argv(serve) and serve.env.get("cuda_visible_devices") == (True, "0")


def test_batch_caret_escapes_quotes_and_separators():
    cmds, _ = batch_commands('set A=x\nif exist model.bin (echo hi) & "C:\\Py\\python.exe" -m vllm.entrypoints.openai.api_server '
                             '--model "C:\\m dir" --chat-template a^&b\nset A=\n')
    (c,) = [c for c in cmds if argv(c)[0].endswith("python")]
    assert argv(c) == ["C:/Py/python", "-m", "vllm.entrypoints.openai.api_server", "--model", "C:\\m dir", "--chat-template", "a&b"]


def test_batch_delayed_expansion_and_script_folder():
    cmds, _ = batch_commands("setlocal enabledelayedexpansion\nset P=8001\npy -3.11 %~dp0serve.py --port !P!\n")
    assert argv(cmds[0]) == ["python", "-3.11", "./serve.py", "--port", "8001"]


def test_powershell_backticks_env_and_variables():
    text = ('# start\n$env:CUDA_VISIBLE_DEVICES = "0,1"\n$model = \'Qwen/Qwen2.5-7B-Instruct\'\n<# block\n comment #>\n'
            'vllm serve $model `\n  --tensor-parallel-size 2 `\n  --served-model-name "my-$model" --api-key $(Get-Secret) '
            '| Tee-Object log.txt\n& "C:\\venv\\Scripts\\python.exe" -m vllm.entrypoints.openai.api_server --model $model > out.log\n')
    cmds, env = powershell_commands(text)
    serve = cmds[0]
    assert (serve.line, serve.end_line) == (6, 8)
    assert argv(serve)[:6] == ["vllm", "serve", "Qwen/Qwen2.5-7B-Instruct", "--tensor-parallel-size", "2", "--served-model-name"]
    assert argv(serve)[6] == "my-Qwen/Qwen2.5-7B-Instruct" and serve.words[8].value is None  # $(…) is not run
    assert serve.env.values == {"CUDA_VISIBLE_DEVICES": "0,1"}  # $model is the script's, not the process's
    assert argv(cmds[2]) == ["C:/venv/Scripts/python", "-m", "vllm.entrypoints.openai.api_server", "--model", "Qwen/Qwen2.5-7B-Instruct"]


def test_powershell_operators_right_after_a_word_split_it():
    # unsloth's install.ps1 writes `cmd;cmd` with no space: the word scan stopped on the `;` without
    # taking it and looped there, growing until the machine ran out of memory (census 36)
    text = 'python serve.py;echo done\n$a = 1;$b = 2\nvllm serve org/m --port 8000|Tee-Object log.txt\npython x.py&&exit\nwrite-host a`'
    cmds, _ = powershell_commands(text)
    assert [argv(c) for c in cmds] == [["python", "serve.py"], ["echo", "done"], ["vllm", "serve", "org/m", "--port", "8000"],
                                       ["Tee-Object", "log.txt"], ["python", "x.py"], ["exit"], ["write-host", "a"]]


def test_a_batch_launch_is_a_site_read_like_a_shell_script(scanned):
    (s,) = scanned({"serve.bat": "@echo off\nset VLLM_USE_V1=1\nvllm serve org/m ^\n  --tensor-parallel-size 2 --swap-space 4\n"})
    assert (s.kind, s.line, s.model.value) == ("vllm serve", 3, "org/m")
    assert {k: v.value for k, v in s.settings.items()} == {"tensor_parallel_size": 2, "swap_space": 4.0}
    assert s.env["VLLM_USE_V1"].value == "1" and s.launch["windows_shell"] == "serve.bat:3 (cmd.exe)"


def test_a_python_file_a_powershell_script_runs_is_marked(scanned):
    sites = scanned({"run.ps1": '$env:HF_HOME = "D:\\hf"\npython .\\app.py\n',
                     "app.py": 'from vllm import LLM\nllm = LLM(model="org/m")\n'})
    (s,) = sites
    assert s.file == "app.py" and s.launch["windows_shell"] == "run.ps1:2 (PowerShell)"


def test_docker_run_from_a_windows_script_is_not_native(scanned):
    (s,) = scanned({"up.ps1": "docker run --gpus all -p 8000:8000 vllm/vllm-openai:v0.10.0 --model org/m\n"})
    assert s.image == "vllm/vllm-openai:v0.10.0" and "windows_shell" not in s.launch



def test_a_command_whose_output_a_powershell_variable_keeps_is_run(scanned):
    # `$id = docker run …` runs docker and stores its output (eval70: a start script keeping the container id)
    text = ('$model = if ($env:MODEL) { $env:MODEL } else { "org/m" }\n$name = "srv"\n'
            '$id = docker run `\n  -d --name $name --gpus all `\n  vllm/vllm-openai:v0.10.0 `\n  --model org/m --max-model-len 1024\n'
            'Write-Host "started $id"\n')
    cmds, _env = powershell_commands(text)
    assert [argv(c)[0] for c in cmds] == ["docker", "Write-Host"]  # `$model = if …` is an expression, not a command
    (s,) = scanned({"up.ps1": text})
    assert (s.line, s.image, s.settings["max_model_len"].value) == (3, "vllm/vllm-openai:v0.10.0", 1024)
    assert powershell_commands('$n = "a" + $b\n$m = (Get-Date)\n$k = 4\n')[0] == []

# https://github.com/bojieli/ai-agent-book/issues/436 — `python main.py` from PowerShell on native Windows
# with vLLM 0.26.0 crashes: the Windows build of vLLM has no compiled CUDA extension
def test_native_windows_launch_is_a_p0(cli, write_project):
    import json

    root = write_project({"run.ps1": "python main.py\n", "requirements.txt": "vllm==0.26.0\n",
                          "main.py": 'from vllm import LLM\nllm = LLM(model="Qwen/Qwen2.5-0.5B-Instruct")\n'})
    code, out, _ = cli("audit", str(root), "--format", "json")
    (site,) = json.loads(out)["sites"]
    (l28,) = [c for c in site["checks"] if c["id"] == "L28"]
    assert (l28["status"], l28["priority"]) == ("recommended", "P0")


def test_a_python_file_a_linux_script_runs_too_is_not_marked(scanned):
    (s,) = scanned({"run.bat": "python app.py\n", "run.sh": "#!/bin/bash\npython app.py\n",
                    "app.py": 'from vllm import LLM\nllm = LLM(model="org/m")\n'})
    assert "windows_shell" not in s.launch


# https://github.com/hiyouga/LlamaFactory/issues/5767 — `llamafactory-cli chat .\infer_vllm.yaml` from
# PowerShell with vLLM 0.6.0: the Windows build has no vllm._C, and the engine stops at its first kernel
def test_a_framework_config_named_with_backslashes_is_a_native_windows_p0(cli, write_project):
    import json

    root = write_project({"run_chat.ps1": "Set-Location C:\\dev\\LLaMA-Factory\nllamafactory-cli chat .\\infer_vllm.yaml\n",
                          "infer_vllm.yaml": "model_name_or_path: Qwen/Qwen2.5-1.5B-Instruct\ntemplate: qwen\ninfer_backend: vllm\n",
                          "requirements.txt": "llamafactory==0.9.0\nvllm==0.6.0\n"})
    code, out, _ = cli("audit", str(root), "--format", "json", "--gpu", "RTX-4070")
    (site,) = json.loads(out)["sites"]
    assert site["file"] == "run_chat.ps1"
    (l28,) = [c for c in site["checks"] if c["id"] == "L28"]
    assert (l28["status"], l28["priority"]) == ("recommended", "P0")


def test_relative_backslash_paths_only(scanned):
    from vllm_kb.engine.scan.windows_scripts import _relative_slashes
    from vllm_kb.engine.scan.windows_shell import Stmt, word

    st = Stmt([word(r, r, 1) for r in (".\\a.yaml", "cfg\\b.yml", "C:\\models\\m", "\\\\srv\\share\\c.yaml", "x\\y")], 1, 1)
    _relative_slashes(st)
    assert [w.value for w in st.words] == ["./a.yaml", "cfg/b.yml", "C:\\models\\m", "\\\\srv\\share\\c.yaml", "x\\y"]
