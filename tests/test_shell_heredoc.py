"""Here-documents that are scripts (engine/scan/shell_heredoc.py): a shell, `sbatch` or `ssh` reading
its commands from one, and a `.sh` file written with `cat >`; their launches are sites at the body's
own lines, fixed in place. A heredoc that is text (`cat <<EOF` help, `cat > cmd.txt`, `$(cat <<EOF …)`
building a string) is no launch."""
from __future__ import annotations

import pytest

M = "Qwen/Qwen2.5-7B-Instruct"

READ = {
    "sbatch": f"TP=2\nsbatch -p gpu --gres=gpu:2 <<EOT\n#!/bin/bash\n#SBATCH -t 1:00:00\nvllm serve {M} --tensor-parallel-size $TP\nEOT\n",
    "bash-quoted": f"bash <<'EOF'\nset -e\nvllm serve {M} --max-model-len 8192\nEOF\n",
    "ssh-bash-s": f"ssh -o BatchMode=yes -p 22 gpu01 bash -s <<EOF\ncd /srv\nnohup vllm serve {M} --max-model-len 8192 &\nEOF\n",
    "ssh-bash": f"ssh gpu01 bash <<EOF\nvllm serve {M} --max-model-len 8192\nEOF\n",
    # one remote command string that ends in `bash -s` (ssh joins its words for the remote shell)
    "ssh-string": f"ssh ${{SSH_OPTS}} \"$HOST\" \"$(env_prefix) NODE_RANK=1 bash -s\" <<'EOF'\nvllm serve {M} --max-model-len 8192\nEOF\n",
    # a function whose ssh reads the call's stdin (jasl/vllm-ds4-sm120-harness dgx_spark_start_mp_serve.sh, eval68)
    "function-stdin": ("run_remote_script() {\n  local host=\"$1\"\n  shift\n  ssh ${SSH_OPTS} \"${host}\" \"$(prefix) bash -s\" \"$@\"\n}\n"
                       f"start_head() {{\n  run_remote_script \"$HEAD\" <<'REMOTE'\nset -e\nnohup vllm serve {M} --max-model-len 8192 &\nREMOTE\n}}\n"
                       "start_head\n"),
    "cat-script": f"cat > /opt/start.sh <<'EOF'\n#!/bin/bash\nexec python -m vllm.entrypoints.openai.api_server --model {M} --max-model-len 8192\nEOF\nchmod +x /opt/start.sh\n",
    # a `.sh` file with no `#!` line: a shell script all the same (the target was read unexpanded, as None)
    "cat-script-no-shebang": f"cat > run.sh <<EOF\nvllm serve {M} --max-model-len 8192\nEOF\nbash run.sh\n",
    "tee-shebang": f"tee run_server <<-EOF >/dev/null\n\t#!/bin/sh\n\tvllm serve {M} --max-model-len 8192\n\tEOF\n",
}
NOT_READ = {
    "help-text": f"show_help() {{\n  cat <<'EOF'\nUsage:\n  vllm serve {M} --max-model-len 8192\nEOF\n}}\n",
    "txt-file": f"cat > launch_command.txt <<'EOF'\nvllm serve {M} --max-model-len 8192\nEOF\n",
    "bash-c": f"bash -c 'echo hi' <<EOF\nvllm serve {M} --max-model-len 8192\nEOF\n",
    "sbatch-script-file": f"sbatch job.sh <<EOF\nvllm serve {M} --max-model-len 8192\nEOF\n",
    "function-no-stdin": f"show() {{\n  echo \"$1\"\n}}\nshow x <<'EOF'\nvllm serve {M} --max-model-len 8192\nEOF\n",
    "ssh-string-no-shell": f"ssh gpu01 \"cat > /tmp/notes; echo done\" <<'EOF'\nvllm serve {M} --max-model-len 8192\nEOF\n",
    "python-stdin": f"python - <<EOF\nprint('vllm serve {M}')\nEOF\n",
    "command-string": f"CMD=$(cat <<EOF\nvllm serve {M} --max-model-len 8192\nEOF\n)\necho \"$CMD\"\n",
}


@pytest.mark.parametrize("name", sorted(READ))
def test_a_heredoc_a_shell_runs_is_a_launch_at_its_own_line(scanned, name):
    (s,) = scanned({"run.sh": READ[name]})
    lines = READ[name].splitlines()
    assert s.model.value == M
    assert "vllm" in lines[s.line - 1]  # the body's own line, not the command that feeds it
    if name == "sbatch":
        assert s.settings["tensor_parallel_size"].value == 2  # an unquoted body expands the writer's variables
    else:
        assert s.settings["max_model_len"].value == 8192


@pytest.mark.parametrize("name", sorted(NOT_READ))
def test_a_heredoc_that_is_text_is_no_launch(scanned, name):
    assert scanned({"run.sh": NOT_READ[name]}) == []


def test_a_heredoc_launch_is_fixed_in_its_body(cli, write_project):
    # the body is the file's own text: the fix edits its bytes and nothing else
    text = f"cat > start.sh <<'EOF'\n#!/bin/bash\nvllm serve {M} --max-model-len 131072 --swap-space 4\nEOF\n"
    root = write_project({"run.sh": text, "requirements.txt": "vllm==0.20.0\n"})
    cli("audit", str(root), "--gpu", "RTX-4090", "--fix", "--unsafe-fixes")
    got = (root / "run.sh").read_text()
    assert got.startswith("cat > start.sh <<'EOF'\n#!/bin/bash\nvllm serve ") and got.endswith("\nEOF\n")
    assert "--swap-space" not in got and "131072" not in got


@pytest.mark.parametrize("delim,stray", [("LAUNCHEOF", False), ("'LAUNCHEOF'", True), ('"LAUNCHEOF"', True)])
def test_a_doubled_backslash_in_an_unquoted_heredoc_is_a_continuation(scanned, delim, stray):
    # parallelworks/activate-rag-vllm start_service_v5.sh (https://github.com/parallelworks/activate-rag-vllm):
    # `cat > launch.sh <<LAUNCHEOF` with `\\` line ends. bash writes `\` there, so the script runs with
    # ordinary continuations; a quoted delimiter writes `\\`, which the script then passes as an argument.
    text = (f"PORT=8000\ncat > launch.sh <<{delim}\n#!/bin/bash\npython3 -m vllm.entrypoints.openai.api_server \\\\\n"
            f"    --model {M} \\\\\n    --port 8000 \\\\\n    --max-model-len 8192\nLAUNCHEOF\nchmod +x launch.sh\n./launch.sh\n")
    (s,) = scanned({"run.sh": text})
    assert any(f.code == "stray-positional" for f in s.remarks) == stray
    if not stray:
        assert s.model.value == M and s.settings["max_model_len"].value == 8192 and s.line == 4


@pytest.mark.parametrize("how,remote", [("ssh-heredoc", True), ("ssh-string", True), ("bash-heredoc", False)])
def test_a_launch_over_ssh_runs_the_remote_machines_vllm(tmp_path, how, remote):
    # the project's pin installs vLLM here; the machine ssh reaches has whatever it has (jasl/vllm-ds4-sm120-harness,
    # eval68), unless the script installs it there itself
    from vllm_kb.engine.audit import audit
    body = f"vllm serve {M} --max-model-len 8192"
    text = {"ssh-heredoc": f"ssh gpu01 bash -s <<'EOF'\n{body}\nEOF\n", "ssh-string": f"ssh gpu01 \"{body}\"\n",
            "bash-heredoc": f"bash <<'EOF'\n{body}\nEOF\n"}[how]
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\n")
    (tmp_path / "run.sh").write_text(text)
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    assert (sr.version.basis, sr.version.pinned) == (("none", False) if remote else ("pin", True))
    if how == "ssh-heredoc":  # the here-document installs its own release on that machine
        (tmp_path / "run.sh").write_text(text.replace(body, "pip install vllm==0.9.2\n" + body))
        (sr,) = audit(tmp_path, gpu="A100-80GB").sites
        assert str(sr.version.version) == "0.9.2"


@pytest.mark.parametrize("run", ["$CMD", 'eval "$CMD"', "python -m $CMD"])
def test_a_command_kept_from_a_heredoc_then_run_is_a_launch(scanned, run):
    # zlH518/PipeRLHF (eval79) and OpenRLHF's example scripts build a command from a here-document and run
    # it: `CMD=$(cat <<EOF … EOF)` gives the body as the shell expands it, as `read -r -d '' CMD` does
    body = "vllm.entrypoints.openai.api_server --model" if run.startswith("python") else "vllm serve"
    text = f"TP=2\nCMD=$(cat <<EOF\n{body} {M} \\\n   --max-model-len 8192 \\\n   --tensor-parallel-size $TP\nEOF\n)\n{run}\n"
    (s,) = scanned({"run.sh": text})
    assert s.model.value == M and s.settings["max_model_len"].value == 8192 and s.settings["tensor_parallel_size"].value == 2
    # kept and only shown, or a body with quotes left in it (unknown as one string): no launch
    assert not scanned({"run.sh": text.replace(run + "\n", 'echo "$CMD"\n')})
    assert not scanned({"run.sh": text.replace("8192", "'8192'")})
