"""Launches a README gives only in its shell code fences (eugr/spark-vllm-docker's README.md runs every
`vllm serve` through `./launch-cluster.sh exec …`, eval99): each one a site, documentation that never
carries a P0, that `--fix` leaves alone, and whose fences are alternatives, not engines run together — in a
project that installs vLLM itself (a README that only names it as a server to run describes no launch of its own)."""
import json

README = '''# Serving

Install the package, then start the server:

```console
$ pip install vllm
$ vllm serve org/chat-model \\
    --tensor-parallel-size 2 --disable-log-requests
INFO:     Started server process
```

Or a second model on the same GPUs:

```bash
vllm serve org/other-model --gpu-memory-utilization 0.7 &
```

```bash
vllm serve org/third-model --gpu-memory-utilization 0.7
```

```python
from vllm import LLM  # not shell: no site here
llm = LLM("org/python-model")
```

```bash
vllm serve <your-model> --port 8000
./launch.sh exec vllm serve ...
```

```
vllm serve MODEL_NAME --tensor-parallel-size 2
vllm serve model_name --max-num-seqs 32
vllm serve /path/to/model --quantization awq
vllm serve {model_name} --max-model-len 4096
vllm serve path_to_merged_model --max-model-len 4096
```
'''


def test_each_shell_fence_launch_is_a_site_at_its_line(scanned, tmp_path):
    got = scanned({"README.md": README, "requirements.txt": "vllm==0.20.0\n"})
    assert [(s.line, s.model.value if s.model else None) for s in got] == [
        (7, "org/chat-model"), (15, "org/other-model"), (19, "org/third-model")]
    first = got[0]
    assert first.settings["tensor_parallel_size"].value == 2 and first.launch["documented"] == 6
    assert not scanned({"docs/guide.md": README, "requirements.txt": "vllm==0.20.0\n"}, tmp_path / "docs")  # a README only
    # a project that does not install vLLM: its README names it as a server the reader may run (tests/fixtures/neg-mentions)
    assert not scanned({"README.md": README}, tmp_path / "mentions")


def test_a_refusal_in_a_readme_is_p1_and_fix_leaves_the_file(cli, write_project):
    root = write_project({"README.md": README, "requirements.txt": "vllm==0.20.0\n"})
    code, out, _ = cli("audit", str(root), "--gpu", "H100-80GB x8", "--isolated", "-q", "--format", "json")
    report = json.loads(out)
    prios = [x["priority"] for s in report["sites"] for x in [*s["recommendations"], *(s.get("findings") or [])]]
    assert "P0" not in prios and code == 0
    gone = [r for s in report["sites"] for r in s["recommendations"] if "disable_log_requests" in r["check"]]
    assert gone and "README" in gone[0]["title"] and gone[0]["priority"] == "P1"
    # two fences are two ways to run it, not two engines on one GPU (L37)
    assert not [r for s in report["sites"] for r in s["recommendations"] if r["check"] == "L37"]
    cli("audit", str(root), "--gpu", "H100-80GB x8", "--isolated", "-q", "--fix")
    assert (root / "README.md").read_text() == README


def test_a_config_a_fence_launches_stays_a_site_of_its_own(scanned):
    got = scanned({"requirements.txt": "vllm==0.20.0\ntrl==0.19.0\n",
                   "recipes/grpo.yaml": "model_name_or_path: org/m\nuse_vllm: true\nvllm_mode: colocate\n",
                   "src/app/grpo.py": "from trl import GRPOConfig, GRPOTrainer, TrlParser\nTrlParser((GRPOConfig,)).parse_args_and_config()\n",
                   "README.md": "```shell\naccelerate launch src/app/grpo.py --config recipes/grpo.yaml --vllm_mode colocate\n```\n"})
    # huggingface/open-r1's README launches recipes/…/config_demo.yaml so; its P0s are not capped as the README's are
    assert {s.file for s in got} == {"README.md", "recipes/grpo.yaml"}
