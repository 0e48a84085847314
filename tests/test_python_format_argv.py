"""A shell command line Python builds with `%` or `str.format` (os.system, subprocess shell=True): each
value read, a hole for what the code leaves unknown, as an f-string's parts are. Shape from
nonokangwei/LLM-Tuning-On-GCP (https://github.com/nonokangwei/LLM-Tuning-On-GCP),
Serve/vLLM-on-Vertex/dockerfile/launcher.py: the container launcher forwards its own arguments."""
from vllm_kb.engine.audit import audit

LAUNCHER = '''import os
import sys

model_path = "/models/llama-2-7b"
vllm_args = [a for a in sys.argv[1:] if not a.startswith("--model")]
os.system("python3 -m vllm.entrypoints.api_server --model='%s' --swap-space %d %s" % (model_path, 16, " ".join(vllm_args)))
os.system("vllm serve {} --max-model-len {} --served-model-name 100%%".format(sys.argv[1], 4096))
os.system("vllm serve %(m)s" % {"m": model_path})
'''


def test_percent_and_format_command_lines_are_sites(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.10.1\n")
    (tmp_path / "launcher.py").write_text(LAUNCHER)
    sites = {sr.site.line: sr.site for sr in audit(tmp_path, gpu="H100-80GB x1").sites}
    assert sorted(sites) == [6, 7]  # a `%(name)s` mapping is not read
    first = sites[6]
    assert first.model.value == "/models/llama-2-7b" and first.settings["swap_space"].value == 16
    assert first.opaque  # the forwarded arguments: unknown, never guessed
    second = sites[7]
    assert second.settings["max_model_len"].value == 4096 and not second.model.resolved
    assert second.settings["served_model_name"].value == ["100%%"]  # str.format keeps `%%`


def test_a_command_line_added_up_with_plus(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.10.1\n")
    (tmp_path / "run.py").write_text('import os, sys\nmodel = sys.argv[1]\ntp = int(sys.argv[2])\n'
                                     'os.system("vllm serve " + model + " --tensor-parallel-size " + str(tp) + " --max-model-len 4096")\n'
                                     'cmd = "vllm serve " + model + " --swap-space 4"\nos.system(cmd)\n'
                                     'os.system(model + model)\n')  # no text of its own: not read
    sites = {sr.site.line: sr.site for sr in audit(tmp_path, gpu="H100-80GB x1").sites}
    assert sorted(sites) == [4, 6]
    assert sites[4].settings["max_model_len"].value == 4096 and not sites[4].settings["tensor_parallel_size"].resolved
    assert sites[6].settings["swap_space"].value == 4
