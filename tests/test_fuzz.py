"""Property-based fuzzing: random and mutated inputs (mutations of the fixture files, random
bytes, shell/YAML/Python-ish text, hostile files: deep nesting, alias bombs, NUL bytes, huge
lines, non-UTF-8, py2) go to every scanner and to the CLI. No exception may escape, and an audit
always ends with a report (a file it cannot read is listed as skipped, with the reason).

Bounded for CI: VLLM_KB_FUZZ_EXAMPLES (default 40) examples per property, fewer for the CLI
ones; set it higher to fuzz for real, e.g. VLLM_KB_FUZZ_EXAMPLES=2000."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import catalog, cel, yamlio
from vllm_kb.engine.scan import (
    cli_args,
    configs,
    deploy,
    pins,
    python_calls,
    scripts,
    serve_config,
    shell,
    shell_expand,
)
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.project import scan_project
from vllm_kb.engine.scan.yaml_docs import load_docs as _load_yaml_docs

N = int(os.environ.get("VLLM_KB_FUZZ_EXAMPLES", "40"))
cel._backend()  # celpy raises the recursion limit when it starts; do it before hypothesis watches
FIXTURES = Path(__file__).parent / "fixtures"
CAT = catalog.load()
VERSIONS = ["0.6.3", "0.8.5", "0.10.1", CAT.newest]

fuzz = settings(max_examples=N, deadline=None, derandomize=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
fuzz_cli = settings(max_examples=max(4, N // 4), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])


def _fixture_files() -> list[tuple[str, bytes]]:
    out = []
    for p in sorted(FIXTURES.rglob("*")):
        if p.is_file() and p.stat().st_size < 64 * 1024:
            out.append((p.relative_to(FIXTURES).as_posix(), p.read_bytes()))
    return out


FIXTURE_FILES = _fixture_files()
SEEDS = [b for _, b in FIXTURE_FILES]

# -- strategies --------------------------------------------------------------------------------

SHELL_ATOMS = ["vllm", "serve", "vllm serve", "python -m vllm.entrypoints.openai.api_server", "--model", "--tp", "-tp",
               "--tensor-parallel-size", "--config", "x.yaml", "$", "${", "}", "${TP:-2}", "${X:?}", "$(", ")", "`", "'", '"',
               "\\", "\\\n", "\n", " ", "=", "&&", "||", ";", "|", "&", "<<EOF", "EOF", "<<-'E'", "#", "export ", "A=1",
               "--gpu-memory-utilization", "0.9", "--no-enable-prefix-caching", "-O3", "--compilation-config",
               '\'{"level": 3}\'', "--compilation-config.mode", "ray job submit --", "srun", "nohup", "torchrun",
               "accelerate launch", "trl vllm-serve", "swift rlhf", "verl.trainer.main_ppo", "actor_rollout_ref.rollout.name=vllm",
               "$@", '"$@"', "$'\\n'", "{", "(", "<", ">", ">>", "2>&1", "--api-key", "sk-x", "--kv-cache-dtype", "fp8", "\t"]
YAML_ATOMS = ["vllm:", "model:", " ", "  ", "\n", "- ", ": ", "&a ", "*a", "<<: *a", "[", "]", "{", "}", ",", "'", '"', "|",
              ">-", "---", "...", "#", "!!python/object:os.system", "!!binary", "?", "%YAML 1.2", "command:", "args:",
              "image: vllm/vllm-openai:v0.10.1", "services:", "vllmConfig:", "servingEngineSpec:", "use_vllm: true",
              "actor_rollout_ref:", "rollout:", "name: vllm", "gpu_memory_utilization: 0.9", "env:", "value:", "${X:-1}",
              "infer_backend: vllm", "kind: Deployment", "containers:", "1e999", "0x1f", "null", "~", "yes", "2024-01-01"]
PY_ATOMS = ["from vllm import LLM", "import vllm", "LLM(", "EngineArgs(", ")", "(", "model=", "'m'", '"m"', "**kw", "**dict(",
            "tensor_parallel_size=", "2", "os.environ.get('TP', 4)", "def f():", "    ", "\n", "x = ", "{", "}", ":", ",",
            "lambda: 0", "print 'py2'", "exec 'x'", "async def g():", "await", "GRPOConfig(", "use_vllm=True", "[", "]",
            "'''", '"""', "\\", "#", "@dec", "class C:", "return", "*args", "f'{x}'", "b'\\x00'", "\t", "if x:", "else:"]


def _joined(atoms: list[str]) -> st.SearchStrategy[str]:
    return st.lists(st.one_of(st.sampled_from(atoms), st.text(max_size=6)), max_size=60).map("".join)


def _mutate(data: bytes, ops: list[tuple[int, int, int, bytes]]) -> bytes:
    b = bytearray(data)
    for kind, i, j, chunk in ops:
        n = len(b)
        i, j = (i % (n + 1), j % (n + 1)) if n else (0, 0)
        if i > j:
            i, j = j, i
        if kind == 0:
            b[i:i] = chunk  # insert
        elif kind == 1:
            del b[i:j]  # delete a range
        elif kind == 2:
            b[i:i] = b[i:j]  # duplicate a range
        elif kind == 3 and n:
            b[i % n] ^= (chunk[0] if chunk else 0xFF)  # flip a byte
        elif kind == 4:
            b = b[:i]  # truncate
        elif kind == 5:
            b[i:j] = chunk  # replace a range
    return bytes(b)


MUTATION = st.tuples(st.integers(0, 5), st.integers(0, 1 << 16), st.integers(0, 1 << 16),
                     st.one_of(st.binary(max_size=12), st.sampled_from([b"\x00", b"\xff\xfe", b"\n", b"'", b'"', b"\\",
                                                                        b"${", b"*a", b"&a ", b"- ", b": ", b"(", b"\t", b"\r"])))
MUTATED = st.tuples(st.sampled_from(SEEDS), st.lists(MUTATION, max_size=6)).map(lambda t: _mutate(*t))
RAW = st.one_of(MUTATED, st.binary(max_size=400))


def _text(b: bytes) -> str:
    return b.decode("utf-8", "replace")


ANY_TEXT = st.one_of(RAW.map(_text), st.text(max_size=300), _joined(SHELL_ATOMS), _joined(YAML_ATOMS), _joined(PY_ATOMS))
SHELL_TEXT = st.one_of(_joined(SHELL_ATOMS), RAW.map(_text))
YAML_TEXT = st.one_of(_joined(YAML_ATOMS), RAW.map(_text))
PY_TEXT = st.one_of(_joined(PY_ATOMS), RAW.map(_text))


@pytest.fixture(scope="module")
def root():
    d = Path(tempfile.mkdtemp(prefix="vllm-kb-fuzz-"))
    yield d
    shutil.rmtree(d, ignore_errors=True)


def _ctx(root: Path, version: str = "0.10.1") -> ScanContext:
    return ScanContext(root=root, catalog=CAT, default_version=version)


# -- scanners, one by one ----------------------------------------------------------------------

@fuzz
@given(SHELL_TEXT)
def test_shell_parse_raises_only_its_own_error(text):
    try:
        cmds = shell.parse(text)
    except shell.ShellSyntaxError:
        return
    ex = shell_expand.Expander()
    for c in cmds:
        for w in c.words:
            ex.expand(w)
            shell_expand.split_assignment(w)
            _ = w.literal, w.is_all_args


@fuzz
@given(SHELL_TEXT, st.sampled_from(VERSIONS), st.sampled_from(["run.sh", "scripts/train.sh", "launch"]))
def test_scripts_scan(root, text, version, rel):
    ctx = _ctx(root, version)
    sites = scripts.scan(ctx, rel, text)
    assert isinstance(sites, list)


@fuzz
@given(PY_TEXT, st.sampled_from(VERSIONS))
def test_python_calls_scan(root, text, version):
    ctx = _ctx(root, version)
    assert isinstance(python_calls.scan(ctx, "job.py", "from vllm import LLM\n" + text), list)
    assert isinstance(python_calls.scan(ctx, "job.py", text), list)


@fuzz
@given(ANY_TEXT, st.sampled_from(["requirements.txt", "requirements/gpu.in", "pyproject.toml", "setup.py", "setup.cfg",
                                  "environment.yml", "uv.lock", "poetry.lock", "constraints.txt"]))
def test_pins_scan(root, text, rel):
    ctx = _ctx(root)
    found = pins.scan(ctx, rel, "vllm trl verl\n" + text) + pins.scan(ctx, rel, text)
    known = [__import__("vllm_kb.engine.kb.versions", fromlist=["parse"]).parse(v) for v in CAT.raw["versions"]]
    pins.choose([p for p in found if p.package == "vllm"], known, CAT.newest)


@fuzz
@given(ANY_TEXT, st.sampled_from(VERSIONS))
def test_dockerfile_scan(root, text, version):
    ctx = _ctx(root, version)
    assert isinstance(deploy.scan_dockerfile(ctx, "Dockerfile", text), list)
    assert isinstance(deploy.scan_dockerfile(ctx, "Dockerfile", "FROM vllm/vllm-openai:v0.10.1\n" + text), list)


@fuzz
@given(YAML_TEXT, st.sampled_from(["docker-compose.yml", "k8s/deploy.yaml", "values.yaml", "conf/grpo.yaml", "x.json"]))
def test_yaml_scanners(root, text, rel):
    ctx = _ctx(root)
    try:
        yamlio.load_all(text)
    except yamlio.YamlError:
        pass
    docs = _load_yaml_docs(ctx, rel, text)
    assert isinstance(deploy.scan_yaml(ctx, rel, text, docs), list)
    assert isinstance(configs.scan(ctx, rel, docs), list)


JSONISH = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=10),
              st.sampled_from(["vllm", "vllm/vllm-openai:v0.9.0", "--model", "m", "-tp", "2", "$(TP)", "${TP:-1}"])),
    lambda children: st.one_of(st.lists(children, max_size=5),
                               st.dictionaries(st.one_of(st.text(max_size=8), st.sampled_from(
                                   ["services", "command", "args", "image", "env", "name", "value", "vllm", "model",
                                    "servingEngineSpec", "modelSpec", "vllmConfig", "spec", "containers", "template",
                                    "kind", "use_vllm", "actor_rollout_ref", "rollout", "defaults", "environment",
                                    "entrypoint", "tensor-parallel-size", "gpu_memory_utilization", "extraArgs"]), st.integers()),
                                   children, max_size=6)),
    max_leaves=30)


@fuzz
@given(JSONISH, st.sampled_from(["docker-compose.yml", "k8s/deploy.yaml", "values.yaml", "train.yaml"]))
def test_yaml_scanners_on_random_structures(root, data, rel):
    ctx = _ctx(root)
    doc = yamlio.Document(data=data)
    text = json.dumps(data, default=str)
    assert isinstance(deploy.scan_yaml(ctx, rel, text, [doc]), list)
    assert isinstance(configs.scan(ctx, rel, [doc]), list)
    if isinstance(data, dict):
        serve_config.settings_from_mapping(ctx, rel, "0.10.1", data, doc)


@fuzz
@given(YAML_TEXT, st.sampled_from(VERSIONS))
def test_serve_config_read(root, text, version):
    (root / "serve.yaml").write_text(text, encoding="utf-8", errors="replace")
    ctx = _ctx(root, version)
    serve_config.read_config(ctx, "serve.yaml", version)


@fuzz
@given(SHELL_TEXT, st.sampled_from(VERSIONS), st.booleans())
def test_cli_args_parser(text, version, positional):
    try:
        cmds = shell.parse(text)
    except shell.ShellSyntaxError:
        cmds = []
    words = [w for c in cmds for w in c.words]
    ex = shell_expand.Expander()
    words = [ex.expand(w) for w in words]
    parser = cli_args.ArgParser(CAT, version, "run.sh")
    parser.parse(cli_args.args_from_words(words), positional_model=positional)
    for w in words[:5]:
        cli_args.normalise_flag(w.raw)
        for typ in ("int", "float", "bool", "str", "json", "list", "dict", "literal", "optional[int]"):
            cli_args.coerce(w.raw, typ)


# -- whole projects through the engine and the CLI ---------------------------------------------

NAMES = ["serve.sh", "run", "train.py", "Dockerfile", "docker-compose.yml", "k8s.yaml", "config.json", "requirements.txt",
         "pyproject.toml", "values.yaml", ".env", "README.md", "conf/serve.yaml", "deep/a/b/c.py", "blob.bin"]


@st.composite
def projects(draw) -> dict[str, bytes]:
    files = {}
    for _ in range(draw(st.integers(1, 6))):
        name = draw(st.one_of(st.sampled_from(NAMES), st.sampled_from([n for n, _ in FIXTURE_FILES])))
        files[name] = draw(RAW)
    return files


def _write(root: Path, files: dict[str, bytes]) -> None:
    shutil.rmtree(root, ignore_errors=True)
    for rel, data in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if p.is_dir():
            continue
        p.write_bytes(data)


@fuzz
@given(projects())
def test_scan_and_audit_random_projects(root, files):
    proj = root / "proj"
    _write(proj, files)
    sc = scan_project(proj)
    assert isinstance(sc.sites, list)
    from vllm_kb.engine.report import markdown, model, text

    rep = audit(proj, gpu="H100-80GB x8")
    assert not [k for k in rep.skipped if k.code == "scanner-error"], rep.skipped  # the guard hid a scanner bug
    data = model.build(rep)
    markdown.render(data)
    text.render(data)
    json.dumps(data)


CONFIG_KEYS = ["num_hidden_layers", "hidden_size", "num_attention_heads", "num_key_value_heads", "intermediate_size",
               "vocab_size", "max_position_embeddings", "torch_dtype", "quantization_config", "architectures", "model_type",
               "text_config", "head_dim", "num_experts", "num_local_experts", "moe_intermediate_size", "sliding_window",
               "layer_types", "rope_scaling", "kv_lora_rank", "n_routed_experts", "tie_word_embeddings",
               "num_experts_per_tok", "first_k_dense_replace", "shared_expert_intermediate_size", "use_sliding_window"]
CONFIG_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-5, 1 << 70), st.floats(allow_nan=False), st.text(max_size=5),
                          st.sampled_from([0, 1, 2, 8, 64, 4096, 32768, 151936, "bfloat16", ["sliding_attention", "full_attention"],
                                           {"quant_method": "fp8"}, [1, "x"], {}]))


@fuzz
@given(st.dictionaries(st.sampled_from(CONFIG_KEYS), CONFIG_VALUES, max_size=len(CONFIG_KEYS)),
       st.sampled_from(["1", "2", "8", "0", "-1", "x", "$TP", "1e3"]), st.sampled_from(["4096", "0", "-5", "1e9", "32k", "abc"]),
       st.sampled_from(["H100-80GB x8", "A100-40GB", "none", "L40S:2"]))
def test_local_checkpoint_configs(root, config, tp, mml, gpu):
    """A model given as a folder of the project is sized from its config.json, whatever it says."""
    proj = root / "ckpt-proj"
    _write(proj, {"ckpt/config.json": json.dumps(config).encode(),
                  "serve.sh": f"#!/bin/bash\nvllm serve ./ckpt --tensor-parallel-size {tp} --max-model-len {mml}\n".encode()})
    rep = audit(proj, gpu=gpu)
    assert not [k for k in rep.skipped if k.code == "scanner-error"], rep.skipped
    from vllm_kb.engine.report import model

    model.build(rep)


@fuzz_cli
@given(projects(), st.sampled_from(["text", "markdown", "json"]), st.sampled_from(["en", "zh"]))
def test_cli_audit_always_reports(root, cli, files, fmt, lang):
    proj = root / "cli-proj"
    _write(proj, files)
    code, out, err = cli("audit", str(proj), "--gpu", "H100-80GB x8", "--format", fmt, "--lang", lang)
    assert code in (0, 1), err
    assert "internal error" not in err
    if fmt == "json":
        data = json.loads(out)
        assert data["schema_version"] == 2
        assert "scanner-error" not in {k["code"] for k in data["project"]["skipped"]}, data["project"]["skipped"]
    else:
        assert out.strip()
    code, out, err = cli("detect", str(proj), "--format", "json")
    assert code in (0, 1), err


# -- hostile files, each named ----------------------------------------------------------------

def _hostile() -> dict[str, bytes]:
    bomb = b"a: &a [x, x, x, x, x, x, x, x, x]\n" + b"".join(
        b"%s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n" % ((chr(98 + i).encode(),) * 2 + (chr(97 + i).encode(),) * 9)
        for i in range(8)) + b"vllm: *i\n"
    return {
        "py2.py": b"from vllm import LLM\nprint 'hello'\nexec 'x = 1'\nLLM(model='m')\n",
        "broken.yaml": b"vllm:\n  model: [unclosed\n  - : :\n\t- bad\n",
        "broken.json": b'{"vllm": {"model": "m",,}',
        "pyproject.toml": b"[project\ndependencies = ['vllm==0.9.0'\n",
        "requirements.txt": b"vllm==0.10.1\n-r requirements.txt\n",
        "binary.sh": b"#!/bin/bash\nvllm serve m\n\x00\x01\x02" * 10,
        "latin1.sh": "#!/bin/bash\nvllm serve m --served-model-name caf\xe9\n".encode("latin-1"),
        "nul-late.py": b"from vllm import LLM\n" + b"#" * 9000 + b"\x00\nLLM(model='m')\n",
        "deep.py": b"from vllm import LLM\nx = " + b"(" * 5000 + b"1" + b")" * 5000 + b"\nLLM(model='m')\n",
        "deep-list.py": b"from vllm import LLM\nx = " + b"[" * 200 + b"]" * 200 + b"\nLLM(model='m', tensor_parallel_size=x)\n",
        "deep.yaml": b"vllm: " + b"[" * 3000 + b"]" * 3000 + b"\n",
        "deep-map.yaml": b"".join(b"  " * i + b"vllm%d:\n" % i for i in range(400)),
        "deep.json": b'{"vllm": ' + b"[" * 5000 + b"]" * 5000 + b"}",
        "bomb.yaml": bomb,
        "huge-line.sh": b"#!/bin/bash\nvllm serve m " + b"--x " * 20_000 + b"--served-model-name " + b"a" * 200_000 + b"\n",
        "huge-line.yaml": b"vllm: " + b"a" * 1_500_000 + b"\n",
        "too-large.py": b"from vllm import LLM\n" + b"# pad\n" * 400_000,
        "crlf.sh": b"#!/bin/bash\r\nvllm serve m \\\r\n  --tensor-parallel-size 2\r\n",
        "bom.yaml": b"\xef\xbb\xbfvllm:\n  model: m\n",
        "weird-heredoc.sh": b"#!/bin/bash\ncat <<EOF\nvllm serve x\n",
        "unterminated.sh": b"#!/bin/bash\nvllm serve 'm\n",
        "Dockerfile": b"FROM vllm/vllm-openai:v0.10.1\nCMD [\"--model\", \nENTRYPOINT \\\n",
        "docker-compose.yml": b"services:\n  a:\n    image: vllm/vllm-openai\n    command: *nope\n",
        "empty.yaml": b"",
        "only-comments.sh": b"#!/bin/sh\n# vllm serve\n",
        "tabs.yaml": b"vllm:\n\tmodel: m\n",
        "surrogates.py": "from vllm import LLM\nLLM(model='\ud800')\n".encode("utf-8", "surrogatepass"),
    }


def test_hostile_files_are_skipped_with_reasons_and_the_audit_completes(tmp_path, cli):
    proj = tmp_path / "hostile"
    _write(proj, _hostile())
    (proj / "loop").symlink_to(proj)
    (proj / "self.sh").symlink_to(proj / "self.sh")
    if hasattr(os, "mkfifo"):
        os.mkfifo(proj / "fifo.yaml")
    reports = {}
    for fmt in ("text", "markdown", "json"):
        code, out, err = cli("audit", str(proj), "--gpu", "H100-80GB x8", "--format", fmt)
        assert code in (0, 1), err
        assert "internal error" not in err
        reports[fmt] = out
    data = json.loads(reports["json"])
    skipped = {s["file"]: s["code"] for s in data["project"]["skipped"]}
    assert "scanner-error" not in skipped.values(), data["project"]["skipped"]
    assert skipped.get("py2.py") == "python-syntax"
    assert skipped.get("broken.yaml") == "yaml-error"
    assert skipped.get("broken.json") == "parse-error"
    assert skipped.get("binary.sh") == "binary"
    assert skipped.get("latin1.sh") == "not-utf8"
    assert skipped.get("too-large.py") == "too-large"
    assert skipped.get("bomb.yaml") == "yaml-error"
    assert skipped.get("deep.yaml") == "yaml-error"
    assert skipped.get("deep.json") == "parse-error"
    assert skipped.get("deep.py") in ("parse-error", "python-syntax")
    assert skipped.get("nul-late.py") in ("parse-error", "python-syntax")
    assert skipped.get("unterminated.sh") == "shell-syntax"
    for s in data["project"]["skipped"]:
        assert s["reason"], s
    # the reports say how many and why
    for fmt in ("text", "markdown"):
        assert f"{len(skipped)}" in reports[fmt] and "python-syntax" not in reports[fmt]
        assert "Python syntax error" in reports[fmt]
    code, out, err = cli("detect", str(proj))
    assert code in (0, 1), err


# -- redaction on any text ---------------------------------------------------------------------

@fuzz
@given(st.one_of(ANY_TEXT, st.lists(st.sampled_from(["HF_TOKEN=", "--api-key ", "api_key=", "https://u:p@h", "?token=", "'", '"',
                                                    "\n", " ", "x", "${A:-", "}", "name: HF_TOKEN\n  value: ", "hf_" + "a" * 30]),
                                    max_size=40).map("".join)))
def test_redaction_never_fails_and_is_idempotent(text):
    from vllm_kb.engine.kb import redact

    once = redact.redact_text(text)
    assert redact.redact_text(once) == once


def test_redaction_is_linear_on_megabyte_lines():
    """Every pattern is anchored where a name starts: no backtracking blow-up on huge lines."""
    import time

    from vllm_kb.engine.kb import redact

    for text in ("a" * 1_000_000 + " token", "a." * 500_000 + "key=1", "--a " * 250_000 + "--api-key x",
                 "&token" * 150_000, "name: x\n" * 120_000 + "value: y", "x=" * 500_000 + "secret"):
        t = time.perf_counter()
        redact.redact_text(text)
        # not a speed goal: backtracking on a megabyte line takes hours, a linear pass well under a
        # second; the bound is wide so a machine shared by a dozen test runs does not trip it
        assert time.perf_counter() - t < 120, text[:20]


# -- the on-disk cache (CEL parser tables, parsed knowledge) degrades gracefully ---------------

def _run_cli(env_extra: dict, *args: str):
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("VLLM_KB_")}
    env.update(env_extra)
    return subprocess.run([sys.executable, "-m", "vllm_kb.cli.main", *args], capture_output=True, text=True, env=env,
                          timeout=120)


def test_cache_missing_corrupt_unwritable_or_off_gives_the_same_report(tmp_path):
    proj = FIXTURES / "stale-serve"
    args = ("audit", str(proj), "--gpu", "H100-80GB x8", "--format", "json")
    cache = tmp_path / "cache"
    first = _run_cli({"VLLM_KB_CACHE_DIR": str(cache)}, *args)
    assert first.returncode in (0, 1), first.stderr
    files = [p for p in cache.rglob("*") if p.is_file()]
    assert any(p.parent.name == "cel" for p in files) and any(p.parent.name == "knowledge" for p in files), files
    assert not [p for p in files if p.name.endswith(".tmp")], "no temporary file is left behind"
    again = _run_cli({"VLLM_KB_CACHE_DIR": str(cache)}, *args)
    for p in files:  # garbage in every entry
        p.write_bytes(b"\x80garbage{" * 10)
    corrupt = _run_cli({"VLLM_KB_CACHE_DIR": str(cache)}, *args)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    unwritable = _run_cli({"VLLM_KB_CACHE_DIR": str(blocker / "sub")}, *args)
    off = _run_cli({"VLLM_KB_NO_CACHE": "1", "VLLM_KB_CACHE_DIR": str(tmp_path / "unused")}, *args)
    assert not (tmp_path / "unused").exists()
    for r in (again, corrupt, unwritable, off):
        assert r.returncode == first.returncode, r.stderr
        assert r.stdout == first.stdout
