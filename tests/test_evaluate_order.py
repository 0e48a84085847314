"""A site's verdicts do not depend on which sites were checked before it: engine/check/evaluate.py
answers most checks from a memo keyed by the facts each check reads (and the predicates keep their
own memo), so a fact `evaluate` reads that the key lacks gives a site an earlier site's verdict.
That happened once (71767131: a cuda_only check's key lacked site.platform; the in-order report and
the forked workers' differed). Here one generated tree is audited with its sites in order, in reverse
order, and with no memo at all, and each site's results are compared."""
from __future__ import annotations

import sys
from pathlib import Path

from vllm_kb.engine.audit import audit_lazily
from vllm_kb.engine.check import evaluate as ev

ROOT = Path(__file__).parent


def _forget() -> None:
    """Empty the memos (evaluate's and each predicate's) so a run starts as a fresh process would."""
    from vllm_kb.engine.kb import cel

    ev._RESULTS.clear()
    ev._OUTSIDE_MODE.clear()
    cel.compile.cache_clear()  # each Predicate holds its own memo


def _verdicts(tree: Path, order: str) -> dict[str, list]:
    _forget()
    _rep, _sites, reports = audit_lazily(tree, gpu="H100-80GB x8")
    idx = list(range(len(reports)))
    if order == "reverse":
        idx.reverse()
    out: dict[str, list] = {}
    for i in idx:
        sr = reports.make(i)
        if sr is None:
            continue
        out[f"{sr.site.file}:{sr.site.line}:{i}"] = [
            (r.check.id, r.status, r.priority, r.reason_text("en"), r.reason_text("zh"), r.safe, r.missing,
             repr([(op.kind, op.target, v) for op, v in r.fix])) for r in sr.results
        ] + [(f.code, f.priority, f.message["en"]) for f in sr.remarks]
    return out


# the same launch on images of different platforms (the generated tree's are all CUDA): sites that
# agree on every fact but the platform and the GPU
_IMAGES = {"cuda": "vllm/vllm-openai:v0.8.5", "rocm": "rocm/vllm:v0.8.5", "rocm-dev": "rocm/vllm-dev:main",
           "cpu": "public.ecr.aws/q9t5s3a7/vllm-cpu-release-repo:v0.8.5",
           "ascend": "quay.io/ascend/vllm-ascend:v0.8.5rc1"}
_COMMANDS = ("--model Qwen/Qwen2.5-7B-Instruct --quantization fp8 --kv-cache-dtype fp8",
             "--model deepseek-ai/DeepSeek-V2-Lite --trust-remote-code --enable-expert-parallel --tensor-parallel-size 2",
             "--model meta-llama/Llama-3.1-8B-Instruct --max-model-len 131072 --enable-prefix-caching")


def _platform_pairs(tree: Path) -> None:
    for name, image in _IMAGES.items():
        services = "".join(f"  s{j}:\n    image: {image}\n    command: {cmd}\n    ports:\n      - \"{9000 + j}:8000\"\n"
                           for j, cmd in enumerate(_COMMANDS))
        (tree / "platforms" / name).mkdir(parents=True)
        (tree / "platforms" / name / "docker-compose.yml").write_text("services:\n" + services, encoding="utf-8")


def test_verdicts_do_not_depend_on_the_order_of_the_sites(tmp_path, monkeypatch):
    sys.path.insert(0, str(ROOT.parent / "benchmarks"))
    import gen_repo

    tree = tmp_path / "repo"
    gen_repo.generate(tree, files=200, sites=160, seed=11)
    _platform_pairs(tree)
    forward = _verdicts(tree, "forward")
    backward = _verdicts(tree, "reverse")
    with monkeypatch.context() as m:
        m.setattr(ev, "_evaluate_once", lambda c, facts, act, unresolved, kb, shown=None: ev.evaluate(
            c, facts, act, unresolved, kb))
        plain = _verdicts(tree, "forward")
    assert len(forward) >= 40 and forward.keys() == backward.keys() == plain.keys()
    for k in forward:
        assert forward[k] == plain[k], k
        assert backward[k] == plain[k], k
