"""A Python argv that is a list written out plus flags built elsewhere: madhurprash/agent-serving-lab
(https://github.com/madhurprash/agent-serving-lab, model_deployment/model_serve.py:277-284) runs
`subprocess.Popen(["docker", "run", …, "--ipc=host", image] + vllm_flags)`. The list as written is
read, the added part stays a hole in its place (as `*vllm_flags` does), so the container is a site."""
from vllm_kb.engine.audit import audit

PY = '''import subprocess


def launch(vllm_flags):
    cmd = ["docker", "run", "--rm", "--gpus", "all", "--ipc=host", "vllm/vllm-openai:v0.10.1"] + vllm_flags
    return subprocess.Popen(cmd)
'''


def test_list_plus_unknown_flags_is_a_site(tmp_path):
    (tmp_path / "serve.py").write_text(PY)
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    assert sr.site.file == "serve.py" and sr.site.line == 6
    assert str(sr.version.version) == "0.10.1"


def test_flags_plus_list_written_out_is_a_site(tmp_path):
    (tmp_path / "serve.py").write_text(PY.replace('"vllm/vllm-openai:v0.10.1"] + vllm_flags', '"vllm/vllm-openai:v0.10.1", *vllm_flags]'))
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    assert sr.site.line == 6
