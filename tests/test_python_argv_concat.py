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


def test_an_argv_grown_by_a_helper_not_followed_is_seen_as_run_time_args(scanned):
    """RunPod's worker (src/main.py): `argv += build_vllm_args()`, whose items come from the endpoint's
    environment; the model is among them, unknown rather than missing (no L33 "no model is given")."""
    helper = ("import os\nFLAGS = {'MODEL_NAME': '--model'}\n\n\ndef build_vllm_args():\n    out = []\n"
              "    for name, flag in FLAGS.items():\n        if os.getenv(name):\n            out += [flag, os.getenv(name)]\n    return out\n")
    main = ("import subprocess\nfrom args_builder import build_vllm_args\n\n\ndef start():\n"
            "    argv = ['vllm', 'serve', '--port', '8000']\n    argv += build_vllm_args()\n    return subprocess.Popen(argv)\n")
    (s,) = scanned({"src/main.py": main, "src/args_builder.py": helper})
    assert [o["code"] for o in s.opaque] == ["run-time-args"] and "build_vllm_args()" in s.opaque[0]["what"]
