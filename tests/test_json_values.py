"""A JSON-valued option whose text, as the command line hands it to vLLM, is not JSON: quotes the
shell removed, a stray quote or brace, literal quotes around the braces. argparse stops before
anything starts (option-not-json, P0); JSON, a Python dict, human-readable numbers and values the
scan cannot see stay quiet."""
from vllm_kb.engine.audit import audit


def _findings(tmp_path, files: dict[str, str], gpu="H100-80GB x1"):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    rep = audit(tmp_path, gpu=gpu)
    return [f for sr in rep.sites for f in sr.remarks if f.code == "option-not-json"]


REQ = "vllm==0.17.1\n"


def test_unquoted_json_in_a_script_loses_its_quotes(tmp_path):
    got = _findings(tmp_path, {"requirements.txt": REQ, "serve.sh":
                               'vllm serve Qwen/Qwen3-8B --speculative-config {"method":"ngram","num_speculative_tokens":3,"prompt_lookup_max":4}\n'})
    assert [(f.priority, f.subject) for f in got] == [("P0", "speculative_config")]
    assert "{method:ngram" in got[0].message["en"] and got[0].fix  # the JSON as written, quoted
    assert got[0].fix[0][1] == {"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4}


def test_quoted_json_python_dicts_and_human_numbers_are_quiet(tmp_path):
    for arg in ("""'{"method":"ngram","num_speculative_tokens":3}'""",
                '"{\\"method\\": \\"ngram\\", \\"num_speculative_tokens\\": 3}"',
                """'{"method":"ngram","num_speculative_tokens":3,"max_model_len":8k}'""",
                '"$SPEC"', "'{{ .Values.spec }}'"):
        got = _findings(tmp_path, {"requirements.txt": REQ,
                                   "serve.sh": f"vllm serve Qwen/Qwen3-8B --speculative-config {arg}\n"})
        assert got == [], arg


def test_a_stray_quote_in_kubernetes_args(tmp_path):
    manifest = """apiVersion: apps/v1
kind: Deployment
metadata: {name: vllm}
spec:
  template:
    spec:
      containers:
      - name: vllm
        image: vllm/vllm-openai:v0.17.1
        command: ["vllm", "serve"]
        args:
        - Qwen/Qwen3-8B
        - --compilation-config
        - '{"cudagraph_mode": "FULL_DECODE_ONLY","cudagraph_capture_sizes":[5, 10, 15]"}'
        resources: {limits: {nvidia.com/gpu: 1}}
"""
    got = _findings(tmp_path, {"deploy.yaml": manifest})
    assert [(f.priority, f.subject) for f in got] == [("P0", "compilation_config")]
    assert not got[0].fix  # nothing to restore: the text itself is wrong


def test_literal_quotes_around_the_braces(tmp_path):
    code = ('import subprocess\n'
            'subprocess.run(["vllm", "serve", "Qwen/Qwen3-8B", "--speculative-config", "\'{\\"method\\": \\"ngram\\"}\'"])\n')
    got = _findings(tmp_path, {"requirements.txt": REQ, "launch.py": code})
    assert [(f.priority, f.subject) for f in got] == [("P0", "speculative_config")]
    # --hf-overrides keeps a text without braces as a string (union_dict_and_str): not judged
    code = ('import subprocess\n'
            'subprocess.run(["vllm", "serve", "Qwen/Qwen3-8B", "--hf-overrides", "\'{\\"a\\": 1}\'"])\n')
    assert _findings(tmp_path, {"requirements.txt": REQ, "launch.py": code}) == []


def test_quotes_kept_by_an_unquoted_variable_are_said_so(tmp_path):
    # review7: `vllm serve $ARGS` splits the variable's value but keeps its quotes, so vLLM gets
    # '{…}' with the quote characters; the finding said the shell had removed the double quotes
    # and offered the same single-quoted JSON that is already written
    script = """ARGS="--speculative-config '{\\"method\\":\\"ngram\\",\\"num_speculative_tokens\\":3}'"
vllm serve Qwen/Qwen3-8B $ARGS
"""
    (f,) = _findings(tmp_path, {"requirements.txt": REQ, "serve.sh": script})
    assert f.priority == "P0" and not f.fix
    assert "quote characters included" in f.message["en"] and "shell removes" not in f.message["en"]
    assert "引号字符" in f.message["zh"]


def test_cors_lists_are_json(tmp_path):
    # --allowed-origins/-methods/-headers: argparse type=json.loads in every release (0.19.0
    # vllm/entrypoints/openai/cli_args.py:292): a bare * stops it (eval86 gemma4-modal-vllm-inference)
    got = _findings(tmp_path, {"requirements.txt": "vllm==0.19.0\n", "serve.sh":
                               'vllm serve Qwen/Qwen3-8B --allowed-origins "*" --allowed-methods \'["*"]\' '
                               '--allowed-headers "$HEADERS"\n'})
    assert [(f.priority, f.subject) for f in got] == [("P0", "allowed_origins")]
    assert got[0].fix[0][1] == ["*"] and '["*"]' in got[0].message["en"]


def test_cors_lists_in_a_python_argv(tmp_path):
    code = ('import subprocess\nORIGINS = "*"\n'
            'subprocess.Popen(["vllm", "serve", "Qwen/Qwen3-8B", "--allowed-origins", "*", "--allowed-methods",\n'
            '                  \'["GET", "POST"]\', "--allowed-headers", ORIGINS])\n')
    got = _findings(tmp_path, {"requirements.txt": "vllm==0.19.0\n", "app.py": code})
    # the name's value is not the text as written: left alone rather than guessed
    assert [(f.priority, f.subject) for f in got] == [("P0", "allowed_origins")]


def test_fix_writes_the_cors_list_as_json(cli, tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.19.0\n")
    (tmp_path / "serve.sh").write_text("vllm serve Qwen/Qwen3-8B --allowed-origins http://a.example,http://b.example\n")
    cli("audit", str(tmp_path), "--gpu", "H100-80GB", "--fix")
    assert (tmp_path / "serve.sh").read_text() == \
        """vllm serve Qwen/Qwen3-8B --allowed-origins '["http://a.example", "http://b.example"]'\n"""


def test_a_python_dict_compilation_config_per_release(tmp_path):
    # vLLM's own docs wrote `--compilation-config "{'cudagraph_capture_sizes': [1, 2, 4, 8]}"` (docs/source/
    # design/v1/torch_compile.md, https://github.com/vllm-project/vllm/pull/16729): CompilationConfig.from_cli read
    # it with ast.literal_eval in 0.6.5-0.8.5.post1; from 0.9.0 the text is JSON only and argparse stops
    line = "vllm serve meta-llama/Llama-3.2-1B --compilation-config \"{'cudagraph_capture_sizes': [1, 2, 4, 8]}\"\n"
    assert _findings(tmp_path, {"requirements.txt": "vllm==0.8.5\n", "serve.sh": line}) == []
    (f,) = _findings(tmp_path, {"requirements.txt": "vllm==0.9.0\n", "serve.sh": line})
    assert (f.priority, f.subject) == ("P0", "compilation_config") and "Python dict" in f.message["en"]
    assert f.fix[0][1] == {"cudagraph_capture_sizes": [1, 2, 4, 8]} and "Python 字典" in f.message["zh"]
    # any other dict option was JSON only in every release
    line = "vllm serve Qwen/Qwen3-8B --speculative-config \"{'method': 'ngram', 'num_speculative_tokens': 3}\"\n"
    (f,) = _findings(tmp_path, {"requirements.txt": "vllm==0.8.5\n", "serve.sh": line})
    assert (f.priority, f.subject) == ("P0", "speculative_config")


def test_json_booleans_stop_the_literal_eval_releases(tmp_path):
    # 0.8.4 from_cli: ast.literal_eval('{"level": 3, "use_cudagraph": true}') raises ValueError ("invalid from_cli
    # value"); the same JSON starts on 0.9.0
    line = """vllm serve Qwen/Qwen3-8B -O '{"level": 3, "use_cudagraph": true}'\n"""
    (f,) = _findings(tmp_path, {"requirements.txt": "vllm==0.8.4\n", "serve.sh": line})
    assert (f.priority, f.subject, f.fix) == ("P0", "compilation_config", []) and "literal_eval" in f.message["en"]
    assert _findings(tmp_path, {"requirements.txt": "vllm==0.9.0\n", "serve.sh": line}) == []
    assert _findings(tmp_path, {"requirements.txt": "vllm==0.8.4\n",
                                "serve.sh": """vllm serve Qwen/Qwen3-8B -O '{"level": 3}'\n"""}) == []
