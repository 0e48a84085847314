"""Byte-minimal `--fix` edits, syntax family by syntax family, as a table of texts before and
after (one rule's fix each, through the real audit): removing an argument leaves no empty line,
no dangling `,` and no space at a line's end, and takes a comment only with the line it ends;
adding one follows the layout already there (inline, one per line with or without a trailing
comma, aligned under the parenthesis, a backslash continuation), after a comment, never in
front of it; the words around the target (`&&` chains, pipes, quoted values with spaces, a
heredoc's text) stay as they are."""
from __future__ import annotations

import pytest
from vllm_kb.engine.audit import audit
from vllm_kb.engine.fix import apply as apply_fixes

M = "Qwen/Qwen2.5-7B-Instruct"
PY = "from vllm import LLM\n\n"
SH = "#!/bin/bash\n"
DF = "FROM vllm/vllm-openai:v0.20.0\n"
CO = "services:\n  vllm:\n    image: vllm/vllm-openai:v0.20.0\n"
K8 = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: v\nspec:\n  template:\n    spec:\n      containers:\n"
      "        - name: vllm\n          image: vllm/vllm-openai:v0.20.0\n          command: [\"vllm\", \"serve\"]\n          args:\n")
K8_END = "          resources:\n            limits:\n              nvidia.com/gpu: 1\n"
HELM = "image:\n  repository: \"vllm/vllm-openai\"\n  tag: \"v0.20.0\"\n"
# (family, name, file, text before, rule, text after)
ROWS = [
    # Python calls: a removal leaves no empty line, no dangling `,` or space; an insertion follows the call's layout
    ("python", "one-per-line, trailing comma", "a.py", PY + f'llm = LLM(\n    model="{M}",\n    swap_space=4,\n    seed=0,\n)\n', "B4",
     PY + f'llm = LLM(\n    model="{M}",\n    seed=0,\n)\n'),
    ("python", "last, no trailing comma", "a.py", PY + f'llm = LLM(\n    model="{M}",\n    swap_space=4\n)\n', "B4",
     PY + f'llm = LLM(\n    model="{M}"\n)\n'),
    ("python", "last, no trailing comma, a comment after it", "a.py", PY + f'llm = LLM(\n    model="{M}",\n    swap_space=4  # host RAM\n)\n', "B4",
     PY + f'llm = LLM(\n    model="{M}"\n)\n'),
    ("python", "a comment after the comma before it stays", "a.py", PY + f'llm = LLM(\n    model="{M}",  # the model\n    swap_space=4\n)\n', "B4",
     PY + f'llm = LLM(\n    model="{M}",  # the model\n)\n'),
    ("python", "inline", "a.py", PY + f'llm = LLM(model="{M}", swap_space=4, seed=0)\n', "B4",
     PY + f'llm = LLM(model="{M}", seed=0)\n'),
    ("python", "inline, first", "a.py", PY + f'llm = LLM(swap_space=4, model="{M}")\n', "B4",
     PY + f'llm = LLM(model="{M}")\n'),
    ("python", "ends a line that goes on", "a.py", PY + f'llm = LLM(\n    model="{M}", swap_space=4,\n    seed=0)\n', "B4",
     PY + f'llm = LLM(\n    model="{M}",\n    seed=0)\n'),
    ("python", "closing parenthesis indented", "a.py", PY + f'llm = LLM(\n    model="{M}",\n    swap_space=4,\n    )\n', "B4",
     PY + f'llm = LLM(\n    model="{M}",\n    )\n'),
    ("python", "add: one per line, no trailing comma", "a.py", PY + f'llm = LLM(\n    model="{M}",\n    seed=0  # fixed\n)\n', "B2",
     PY + f'llm = LLM(\n    model="{M}",\n    seed=0,  # fixed\n    max_model_len=16384\n)\n'),
    ("python", "add: trailing comma", "a.py", PY + f'llm = LLM(\n    model="{M}",\n    seed=0,  # fixed\n)\n', "B2",
     PY + f'llm = LLM(\n    model="{M}",\n    seed=0,  # fixed\n    max_model_len=16384,\n)\n'),
    ("python", "add: aligned under the parenthesis", "a.py", PY + f'llm = LLM(model="{M}",\n          seed=0)\n', "B2",
     PY + f'llm = LLM(model="{M}",\n          seed=0,\n          max_model_len=16384)\n'),
    ("python", "add: inline, parenthesis on the next line", "a.py", PY + f'llm = LLM(model="{M}", seed=0\n)\n', "B2",
     PY + f'llm = LLM(model="{M}", seed=0, max_model_len=16384\n)\n'),
    ("python", "add: tabs", "a.py", PY + f'llm = LLM(\n\tmodel="{M}",\n\tseed=0,\n)\n', "B2",
     PY + f'llm = LLM(\n\tmodel="{M}",\n\tseed=0,\n\tmax_model_len=16384,\n)\n'),
    # shell
    ("shell", "a flag sharing its line", "s.sh", SH + f"vllm serve {M} --swap-space 4 --enforce-eager\n", "B4",
     SH + f"vllm serve {M} --enforce-eager\n"),
    ("shell", "continuation line shared", "s.sh", SH + f"vllm serve {M} \\\n    --swap-space 4 --enforce-eager \\\n    --port 8000\n", "B4",
     SH + f"vllm serve {M} \\\n    --enforce-eager \\\n    --port 8000\n"),
    ("shell", "last continuation line, --flag=value", "s.sh", SH + f"vllm serve {M} \\\n    --port 8000 \\\n    --swap-space=4\n", "B4",
     SH + f"vllm serve {M} \\\n    --port 8000\n"),
    ("shell", "&& chain", "s.sh", SH + f"cd /app && vllm serve {M} --swap-space 4 && echo done\n", "B4",
     SH + f"cd /app && vllm serve {M} && echo done\n"),
    ("shell", "a comment after it", "s.sh", SH + f"vllm serve {M} --swap-space 4  # host RAM\n", "B4",
     SH + f"vllm serve {M}  # host RAM\n"),
    ("shell", "quoted values with spaces", "s.sh", SH + f'vllm serve {M} --swap-space "4" --served-model-name "my model"\n', "B4",
     SH + f'vllm serve {M} --served-model-name "my model"\n'),
    ("shell", "a heredoc's text is data", "s.sh",
     SH + f"cat > notes.txt <<EOF\nvllm serve {M} --swap-space 4\nEOF\nvllm serve {M} --swap-space 4 \\\n  --port 8000\n", "B4",
     SH + f"cat > notes.txt <<EOF\nvllm serve {M} --swap-space 4\nEOF\nvllm serve {M} \\\n  --port 8000\n"),
    ("shell", "add: && chain", "s.sh", SH + f"cd /app && vllm serve {M} --enable-log-outputs && echo done\n", "L44",
     SH + f"cd /app && vllm serve {M} --enable-log-outputs --enable-log-requests && echo done\n"),
    ("shell", "add: pipe and background", "s.sh", SH + f"vllm serve {M} --enable-log-outputs 2>&1 | tee log.txt &\n", "L44",
     SH + f"vllm serve {M} --enable-log-outputs --enable-log-requests 2>&1 | tee log.txt &\n"),
    ("shell", "add: one per continuation line", "s.sh", SH + f"vllm serve {M} \\\n    --enable-log-outputs \\\n    --port 8000\n", "L44",
     SH + f"vllm serve {M} \\\n    --enable-log-outputs \\\n    --port 8000 \\\n    --enable-log-requests\n"),
    # an environment variable vLLM no longer reads (A4: VLLM_USE_V1 from 0.11) goes with what joins it
    ("shell", "env: export in an && chain", "s.sh", SH + f"export VLLM_USE_V1=0 && vllm serve {M}\n", "A4",
     SH + f"vllm serve {M}\n"),
    ("shell", "env: export after an && chain", "s.sh", SH + f"cd /app && export VLLM_USE_V1=0\nvllm serve {M}\n", "A4",
     SH + f"cd /app\nvllm serve {M}\n"),
    ("shell", "env: export joined by ;", "s.sh", SH + f"export VLLM_USE_V1=0; vllm serve {M}\n", "A4",
     SH + f"vllm serve {M}\n"),
    ("shell", "env: one of two prefix assignments", "s.sh", SH + f"VLLM_USE_V1=0 CUDA_VISIBLE_DEVICES=0 vllm serve {M}\n", "A4",
     SH + f"CUDA_VISIBLE_DEVICES=0 vllm serve {M}\n"),
    ("shell", "env: one of two exports", "s.sh", SH + f"export VLLM_USE_V1=0 HF_HOME=/data\nvllm serve {M}\n", "A4",
     SH + f"export HF_HOME=/data\nvllm serve {M}\n"),
    ("python", "env: a statement among others on its line", "a.py",
     f'import os; os.environ["VLLM_USE_V1"] = "0"; import sys\nfrom vllm import LLM\nllm = LLM(model="{M}")\n', "A4",
     f'import os; import sys\nfrom vllm import LLM\nllm = LLM(model="{M}")\n'),
    ("python", "set a value: the comment after it stays", "a.py",
     f'from vllm import LLM\nllm = LLM(model="{M}", quantization="fp8",\n          kv_cache_dtype="fp8_e5m2",  # small\n)\n', "L8",
     f'from vllm import LLM\nllm = LLM(model="{M}", quantization="fp8",\n          kv_cache_dtype="fp8",  # small\n)\n'),
    ("shell", "set a value: --flag=value keeps its spelling and the comment", "s.sh",
     SH + f"vllm serve {M} --quantization fp8 --kv-cache-dtype=fp8_e5m2  # small\n", "L8",
     SH + f"vllm serve {M} --quantization fp8 --kv-cache-dtype=fp8  # small\n"),
    ("yaml", "set a value: the comment after it stays", "cfg.yaml", f"model: {M}\nkv-cache-dtype: fp8_e5m2  # small\nquantization: fp8\n", "L8",
     f"model: {M}\nkv-cache-dtype: fp8  # small\nquantization: fp8\n"),
    # YAML (vllm serve --config)
    ("yaml", "remove a key", "cfg.yaml", f"model: {M}\nswap-space: 4\nenable-log-outputs: true\n", "B4",
     f"model: {M}\nenable-log-outputs: true\n"),
    ("yaml", "add a key", "cfg.yaml", f"model: {M}\nenable-log-outputs: true  # audit\n", "L44",
     f"model: {M}\nenable-log-outputs: true  # audit\nenable-log-requests: true\n"),
    # compose
    ("compose", "block list: remove", "docker-compose.yml",
     CO + f"    command:\n      - --model\n      - {M}\n      - --swap-space\n      - \"4\"\n      - --port\n      - \"8000\"\n", "B4",
     CO + f"    command:\n      - --model\n      - {M}\n      - --port\n      - \"8000\"\n"),
    ("compose", "block list: add", "docker-compose.yml", CO + f"    command:\n      - --model\n      - {M}\n      - --enable-log-outputs\n", "L44",
     CO + f"    command:\n      - --model\n      - {M}\n      - --enable-log-outputs\n      - --enable-log-requests\n"),
    ("compose", "flow list: remove", "docker-compose.yml", CO + f'    command: ["--model", "{M}", "--swap-space", "4", "--port", "8000"]\n', "B4",
     CO + f'    command: ["--model", "{M}", "--port", "8000"]\n'),
    ("compose", "flow list: remove the last", "docker-compose.yml", CO + f'    command: ["--model", "{M}", "--swap-space", "4"]\n', "B4",
     CO + f'    command: ["--model", "{M}"]\n'),
    ("compose", "flow list: add", "docker-compose.yml", CO + f'    command: ["--model", "{M}", "--enable-log-outputs"]\n', "L44",
     CO + f'    command: ["--model", "{M}", "--enable-log-outputs", "--enable-log-requests"]\n'),
    ("compose", "flow list one per line: add", "docker-compose.yml",
     CO + f'    command: [\n      "--model",\n      "{M}",\n      "--enable-log-outputs",\n    ]\n', "L44",
     CO + f'    command: [\n      "--model",\n      "{M}",\n      "--enable-log-outputs",\n      "--enable-log-requests",\n    ]\n'),
    ("compose", "a string command is left for a person", "docker-compose.yml",
     CO + f"    command: --model {M} --swap-space 4\n", "B4", None),
    # Dockerfile exec form
    ("dockerfile", "exec form: remove", "Dockerfile", DF + f'CMD ["--model", "{M}", "--swap-space", "4", "--port", "8000"]\n', "B4",
     DF + f'CMD ["--model", "{M}", "--port", "8000"]\n'),
    ("dockerfile", "exec form: add", "Dockerfile", DF + f'CMD ["--model", "{M}", "--enable-log-outputs"]\n', "L44",
     DF + f'CMD ["--model", "{M}", "--enable-log-outputs", "--enable-log-requests"]\n'),
    ("dockerfile", "exec form over lines: remove a line", "Dockerfile",
     DF + f'ENTRYPOINT ["vllm", "serve", "{M}", \\\n            "--swap-space", "4", \\\n            "--port", "8000"]\n', "B4",
     DF + f'ENTRYPOINT ["vllm", "serve", "{M}", \\\n            "--port", "8000"]\n'),
    ("dockerfile", "exec form over lines: remove the last line", "Dockerfile",
     DF + f'ENTRYPOINT ["vllm", "serve", "{M}", \\\n            "--port", "8000", \\\n            "--swap-space", "4"]\n', "B4",
     DF + f'ENTRYPOINT ["vllm", "serve", "{M}", \\\n            "--port", "8000"]\n'),
    ("dockerfile", "exec form one per line: add", "Dockerfile",
     DF + f'ENTRYPOINT ["vllm", "serve", \\\n  "{M}", \\\n  "--enable-log-outputs"]\n', "L44",
     DF + f'ENTRYPOINT ["vllm", "serve", \\\n  "{M}", \\\n  "--enable-log-outputs", \\\n  "--enable-log-requests"]\n'),
    # Kubernetes args
    ("kubernetes", "args: remove", "deploy.yaml", K8 + f"            - {M}\n            - --swap-space=4\n            - --port=8000\n" + K8_END, "B4",
     K8 + f"            - {M}\n            - --port=8000\n" + K8_END),
    ("kubernetes", "args: add", "deploy.yaml", K8 + f"            - {M}\n            - --enable-log-outputs\n" + K8_END, "L44",
     K8 + f"            - {M}\n            - --enable-log-outputs\n            - --enable-log-requests\n" + K8_END),
    # Helm values of the vLLM chart
    ("helm", "image.command: remove", "values.yaml", HELM + f'  command: ["vllm", "serve", "{M}", "--swap-space", "4", "--port", "8000"]\n', "B4",
     HELM + f'  command: ["vllm", "serve", "{M}", "--port", "8000"]\n'),
    ("helm", "image.command: add", "values.yaml", HELM + f'  command: ["vllm", "serve", "{M}", "--enable-log-outputs"]\n', "L44",
     HELM + f'  command: ["vllm", "serve", "{M}", "--enable-log-outputs", "--enable-log-requests"]\n'),
]


@pytest.mark.parametrize("family,name,file,before,rule,after", ROWS, ids=[f"{r[0]}: {r[1]}" for r in ROWS])
def test_fix_layout(tmp_path, family, name, file, before, rule, after):
    (tmp_path / "requirements.txt").write_text("vllm==0.20.0\n")
    (tmp_path / file).write_text(before)
    if file == "cfg.yaml":
        (tmp_path / "serve.sh").write_text("vllm serve --config cfg.yaml\n")
    sel = apply_fixes.Selection(unsafe=True, fixable=frozenset({rule}))
    res = apply_fixes.run(lambda overlay: audit(tmp_path, gpu="H100 x1", overlay=overlay), sel)
    assert res.texts.get(file) == after, res.diff()
