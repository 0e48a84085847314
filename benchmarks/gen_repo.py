"""A synthetic repository for the audit benchmark: N files of mixed kinds (Python, shell, YAML,
JSON, Markdown, binaries, a few other texts) holding S vLLM launch sites spread over the
syntaxes the auditor reads (vllm serve scripts, LLM(...) calls, Dockerfiles, compose, Kubernetes).
The same seed gives the same tree.

    python benchmarks/gen_repo.py OUT [--files 5000] [--sites 50] [--seed 0]
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

MODELS = ["meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen2.5-7B-Instruct", "mistralai/Mistral-7B-Instruct-v0.3",
          "meta-llama/Llama-3.3-70B-Instruct", "Qwen/Qwen2.5-32B-Instruct"]
WORDS = ("data model batch token layer cache queue worker shard split epoch metric loss step config "
         "train eval score sample index buffer stream handle client server route").split()
# How the files divide among kinds (the rest of each share is filled with non-vLLM content).
SHARES = [("py", 0.32), ("sh", 0.08), ("yaml", 0.14), ("json", 0.12), ("md", 0.18), ("bin", 0.08), ("txt", 0.08)]
# Site kinds and their share of the sites.
SITE_KINDS = [("shell", 0.4), ("python", 0.3), ("docker", 0.1), ("compose", 0.1), ("k8s", 0.1)]


def _ident(r: random.Random) -> str:
    return "_".join(r.choice(WORDS) for _ in range(r.randint(1, 3)))


def py_module(r: random.Random) -> str:
    out = ['"""' + " ".join(r.choice(WORDS) for _ in range(12)) + '."""', "from __future__ import annotations", "",
           "import json", "import os", "from typing import Any", ""]
    for _ in range(r.randint(3, 14)):
        name = _ident(r)
        args = ", ".join(_ident(r) for _ in range(r.randint(0, 3)))
        out.append(f"def {name}({args}) -> Any:")
        out.append(f'    """{" ".join(r.choice(WORDS) for _ in range(8))}."""')
        for _ in range(r.randint(2, 12)):
            a, b = _ident(r), _ident(r)
            out.append(f"    {a} = {{'{b}': {r.randint(0, 999)}, 'path': os.path.join('{a}', '{b}')}}")
        out.append(f"    return json.dumps({a})")
        out.append("")
    if r.random() < 0.3:
        out += [f"class {_ident(r).title().replace('_', '')}:", "    def __init__(self, cfg):",
                "        self.cfg = cfg", "        self.batch_size = cfg.get('batch_size', 32)", ""]
    return "\n".join(out) + "\n"


def sh_script(r: random.Random) -> str:
    out = ["#!/usr/bin/env bash", "set -euo pipefail", f"OUT=${{OUT:-/tmp/{_ident(r)}}}", 'mkdir -p "$OUT"']
    for _ in range(r.randint(2, 10)):
        out.append(f'python tools/{_ident(r)}.py --input data/{_ident(r)}.jsonl --output "$OUT/{_ident(r)}.json" --seed {r.randint(0, 99)}')
    if r.random() < 0.2:
        out.append(f"torchrun --nproc_per_node 8 train.py --config configs/{_ident(r)}.yaml")
    return "\n".join(out) + "\n"


def yaml_doc(r: random.Random) -> str:
    if r.random() < 0.3:  # a CI workflow
        return ("name: ci\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - uses: actions/checkout@v4\n      - run: pip install -e .\n      - run: pytest -q\n")
    out = [f"# {_ident(r)}"]
    for _ in range(r.randint(4, 30)):
        k = _ident(r)
        if r.random() < 0.3:
            out.append(f"{k}:")
            out += [f"  {_ident(r)}: {r.randint(0, 5000)}" for _ in range(r.randint(1, 6))]
        else:
            out.append(f"{k}: {r.choice([r.randint(0, 100), round(r.random(), 3), 'true', _ident(r)])}")
    return "\n".join(out) + "\n"


def json_doc(r: random.Random) -> str:
    import json

    rows = [{_ident(r): r.randint(0, 1000), "name": _ident(r), "score": round(r.random(), 4)} for _ in range(r.randint(3, 80))]
    return json.dumps({"version": 1, "rows": rows}, indent=1) + "\n"


def md_doc(r: random.Random) -> str:
    out = [f"# {_ident(r).replace('_', ' ').title()}", ""]
    for _ in range(r.randint(3, 20)):
        out.append(" ".join(r.choice(WORDS) for _ in range(r.randint(8, 30))) + ".")
        out.append("")
    if r.random() < 0.15:  # documentation that mentions vLLM (grep finds it, the audit must not count it)
        out += ["```bash", "vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 2", "```", ""]
    return "\n".join(out)


def text_doc(r: random.Random) -> str:
    return "\n".join(" ".join(r.choice(WORDS) for _ in range(r.randint(5, 15))) for _ in range(r.randint(5, 60))) + "\n"


def binary(r: random.Random) -> bytes:
    return bytes([0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0]) + r.randbytes(r.randint(512, 64 * 1024))


# -- the sites -------------------------------------------------------------------------------

def site_shell(r: random.Random, i: int) -> tuple[str, str]:
    model = r.choice(MODELS)
    tp = r.choice([1, 2, 4, 8])
    extra = r.sample(["    --enable-prefix-caching \\", "    --enforce-eager \\", "    --max-num-seqs 256 \\",
                      "    --kv-cache-dtype fp8 \\", "    --swap-space 4 \\", "    --max-model-len 32768 \\"], k=r.randint(0, 3))
    body = ["#!/usr/bin/env bash", "set -euo pipefail", f"MODEL=${{MODEL:-{model}}}", f"PORT=${{PORT:-{8000 + i}}}",
            "export VLLM_LOGGING_LEVEL=INFO", "", 'exec vllm serve "$MODEL" \\', '    --port "$PORT" \\',
            *extra, f"    --tensor-parallel-size {tp} \\", f"    --gpu-memory-utilization 0.{r.randint(80, 95)}"]
    return f"services/svc{i}/serve.sh", "\n".join(body) + "\n"


def site_python(r: random.Random, i: int) -> tuple[str, str]:
    model = r.choice(MODELS)
    kw = [f'model="{model}"', f"tensor_parallel_size={r.choice([1, 2, 4])}", f"max_model_len={r.choice([4096, 8192, 16384])}"]
    if r.random() < 0.5:
        kw.append("enable_prefix_caching=True")
    text = (f'"""Offline batch job {i}."""\nfrom vllm import LLM, SamplingParams\n\n\ndef main():\n'
            f"    llm = LLM({', '.join(kw)})\n    params = SamplingParams(temperature=0.0, max_tokens=256)\n"
            "    for out in llm.generate(['hello'], params):\n        print(out.outputs[0].text)\n\n\n"
            'if __name__ == "__main__":\n    main()\n')
    return f"jobs/batch{i}/run.py", text


def site_docker(r: random.Random, i: int) -> tuple[str, str]:
    model = r.choice(MODELS)
    text = (f"FROM vllm/vllm-openai:v0.{r.choice([8, 9, 10])}.{r.randint(0, 1)}\nENV VLLM_LOGGING_LEVEL=INFO\n"
            f'CMD ["--model", "{model}", "--tensor-parallel-size", "{r.choice([1, 2])}", "--max-model-len", "8192"]\n')
    return f"docker/img{i}/Dockerfile", text


def site_compose(r: random.Random, i: int) -> tuple[str, str]:
    model = r.choice(MODELS)
    text = (f"services:\n  vllm:\n    image: vllm/vllm-openai:latest\n    ports:\n      - \"{8000 + i}:8000\"\n"
            f"    environment:\n      - VLLM_LOGGING_LEVEL=INFO\n    command:\n      - --model\n      - {model}\n"
            f"      - --gpu-memory-utilization\n      - \"0.9\"\n")
    return f"compose/stack{i}/docker-compose.yml", text


def site_k8s(r: random.Random, i: int) -> tuple[str, str]:
    model = r.choice(MODELS)
    text = (f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vllm-{i}\nspec:\n  replicas: 1\n"
            f"  selector:\n    matchLabels:\n      app: vllm-{i}\n  template:\n    metadata:\n      labels:\n"
            f"        app: vllm-{i}\n    spec:\n      containers:\n        - name: vllm\n"
            f"          image: vllm/vllm-openai:v0.10.1\n          args:\n            - --model\n            - {model}\n"
            f"            - --tensor-parallel-size\n            - \"{r.choice([1, 2, 4])}\"\n")
    return f"k8s/app{i}/deployment.yaml", text


SITE_MAKERS = {"shell": site_shell, "python": site_python, "docker": site_docker, "compose": site_compose, "k8s": site_k8s}
FILLERS = {"py": py_module, "sh": sh_script, "yaml": yaml_doc, "json": json_doc, "md": md_doc, "bin": binary, "txt": text_doc}


def generate(out: Path, files: int = 5000, sites: int = 50, seed: int = 0) -> dict[str, int]:
    r = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, int] = {}

    def put(rel: str, data: str | bytes, kind: str) -> None:
        p = out / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            p.write_bytes(data)
        else:
            p.write_text(data, encoding="utf-8")
        written[kind] = written.get(kind, 0) + 1

    put("requirements.txt", "vllm==0.10.1\ntorch==2.7.1\ntransformers>=4.50\n", "pin")
    put("README.md", "# Synthetic benchmark repository\n\nGenerated by benchmarks/gen_repo.py.\n", "md")
    kinds = [k for k, share in SITE_KINDS for _ in range(round(share * sites))]
    kinds = (kinds + ["shell"] * sites)[:sites]
    for i, k in enumerate(kinds):
        rel, text = SITE_MAKERS[k](r, i)
        put(rel, text, "site")
    remaining = max(0, files - sum(written.values()))
    n = 0
    for kind, share in SHARES:
        count = round(share * remaining) if kind != SHARES[-1][0] else remaining - n
        for j in range(count):
            pkg = f"pkg{(n + j) % 97:02d}/mod{(n + j) % 13}"
            ext = {"bin": r.choice(["png", "bin", "pt", "so"])}.get(kind, kind)
            put(f"{pkg}/{kind}_{n + j}.{ext}", FILLERS[kind](r), kind)
        n += count
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--files", type=int, default=5000)
    ap.add_argument("--sites", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    counts = generate(Path(a.out), a.files, a.sites, a.seed)
    print(f"{sum(counts.values())} files in {a.out}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
