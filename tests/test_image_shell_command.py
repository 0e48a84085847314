"""`docker run vllm/vllm-openai:TAG bash -c "vllm serve M …"`: the image's ENTRYPOINT is vLLM's server,
so the words after the image are its arguments and it stops with "unrecognized arguments: bash -c …"
(the mechanism of opea-project/GenAIComps#336, with vLLM's own CPU image). The command the user meant
is read as the site, the mistake is a P0 that names `--entrypoint`, and no fix deletes the command."""
from vllm_kb.engine.audit import audit

RUN = 'docker run --gpus all --ipc=host vllm/vllm-openai:v0.8.5 {shell} -c "vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 3"\n'


def test_a_shell_after_the_image_is_the_servers_arguments(tmp_path):
    for shell in ("bash", "/bin/sh"):
        (tmp_path / "run.sh").write_text(RUN.format(shell=shell))
        (sr,) = audit(tmp_path, gpu="H100-80GB x4").sites
        assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct" and sr.lookup_version == "0.8.5"
        (f,) = [f for f in sr.remarks if f.code == "stray-positional"]
        assert f.priority == "P0" and "--entrypoint" in f.message["en"] and f"{shell} -c" in f.message["en"]
        assert any(r.check.id == "L1" and r.priority == "P0" for r in sr.results)  # 28 heads over 3 ranks: read inside
        # nothing removes the user's command: no change touches the words after the image
        assert not [c for c in sr.changes if c.op == "unset" and "-c" in (c.before or "")]


def test_an_entrypoint_given_runs_the_shell(tmp_path):
    (tmp_path / "run.sh").write_text('docker run --gpus all --ipc=host --entrypoint bash vllm/vllm-openai:v0.8.5 '
                                     '-c "vllm serve Qwen/Qwen2.5-7B-Instruct"\n')
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert not [f for f in sr.remarks if f.code == "stray-positional"]


def test_any_shell_option_cluster_with_c_is_read_like_the_scripts_reader():
    # one reader of `-c` for both: the shell walker (shell_c) and the image's arguments
    from vllm_kb.engine.scan.shell import c_script_at

    assert c_script_at(["bash", "-c", "x"], 0) == 2
    assert c_script_at(["/bin/sh", "-xec", "x"], 0) == 2
    assert c_script_at(["bash", "-l", "--", "x"], 0) is None  # no -c: a script file's path
    assert c_script_at(["bash", "-lc", "--", "x"], 0) == 3
    assert c_script_at(["bash", "-c"], 0) is None
