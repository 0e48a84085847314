"""One environment layer (engine/scan/envfile.py): compose's `.env` and `env_file:`, python-dotenv's
`load_dotenv()` read by a Python server, and what stays unknown. The projects are re-created in our
own words from public reports (URLs beside each test)."""
import json

from vllm_kb.engine.scan import envfile


def no_p0(report):
    return report["summary"]["recommendations"]["P0"] == 0 and not [
        f for st in report["sites"] for f in st["findings"] if f.get("priority") == "P0"]


def values(s):
    return {k: v.value for k, v in s.settings.items() if v.resolved}


def test_compose_rules_for_an_env_file():
    text = ("# comment\nA=one\nexport B=${A}-two\nC='${A} stays'\nD=\"x\\\"y ${B}\"\nE=plain # inline comment\n"
            "F=${MISSING}\nG=${MISSING:-fallback}\nH=${A:+alt}\nI=$$A\nJ=${EMPTY-dash}\nEMPTY=\nK=${EMPTY:-colon}\n")
    got = {k: v.value for k, v in envfile.parse(text, ".env").items()}
    assert got == {"A": "one", "B": "one-two", "C": "${A} stays", "D": 'x"y one-two', "E": "plain", "F": None,
                   "G": "fallback", "H": "alt", "I": "$A", "J": "dash", "EMPTY": "", "K": "colon"}
    assert envfile.parse(text, ".env")["F"].why and envfile.parse(text, ".env")["B"].line == 3


def test_python_dotenv_reads_only_braced_names():
    got = envfile.parse("A=1\nB=$A\nC=${A}\n", ".env", braces_only=True)
    assert (got["B"].value, got["C"].value) == ("$A", "1")


# https://github.com/vllm-project/vllm/issues/17035 — DeepSeek-V3 served from compose with every
# engine argument in one .env variable that itself names another
def test_a_compose_string_command_is_interpolated_then_split(scanned, cli, tmp_path):
    files = {".env": "CHAT_MODEL=deepseek-ai/DeepSeek-V3-0324\nVLLM_ARGS=--model ${CHAT_MODEL} --tensor-parallel-size 8 --trust-remote-code\n",
             "docker-compose.yaml": "services:\n  vllm:\n    image: vllm/vllm-openai:v0.8.4\n    ipc: host\n"
                                    "    command: ${VLLM_ARGS}\n"}
    (s,) = scanned(files)
    assert s.model.value == "deepseek-ai/DeepSeek-V3-0324"
    assert values(s) == {"tensor_parallel_size": 8, "trust_remote_code": True} and not s.unknown
    code, out, _ = cli("audit", str(tmp_path), "--gpu", "H200 x8", "--format", "json")
    assert no_p0(json.loads(out))



def test_each_line_of_a_compose_block_command_adds_to_one_argv(scanned):
    # eval70 (sko00o/playground): `command: |` with `--model $MODEL` and `${EXTRA_ARGS:-""}` on two lines, the .env
    # value holding three options; compose splits the interpolated string itself, a line break as a space
    files = {".env": 'MODEL=org/m\nEXTRA_ARGS="--tensor-parallel-size 2 --max-model-len 8192 --gpu-memory-utilization 0.85"\n',
             "docker-compose.yml": 'services:\n  vllm:\n    image: vllm/vllm-openai:latest\n    command: |\n'
                                   '      --model $MODEL\n      ${EXTRA_ARGS:-""}\n'}
    (s,) = scanned(files)
    assert s.model.value == "org/m"
    assert values(s) == {"tensor_parallel_size": 2, "max_model_len": 8192, "gpu_memory_utilization": 0.85}
    # a line break inside quotes stays: `bash -c "…"` keeps its script's lines
    (b,) = scanned({"docker-compose.yml": 'services:\n  vllm:\n    image: vllm/vllm-openai:v0.8.4\n    entrypoint: |\n'
                                          '      bash -c "pip list\n      vllm serve org/m --max-model-len 4096"\n'})
    assert (b.model.value, values(b)) == ("org/m", {"max_model_len": 4096})

def test_a_compose_variable_nothing_sets_stays_unknown_never_an_unknown_option(scanned, cli, tmp_path):
    files = {"docker-compose.yaml": "services:\n  vllm:\n    image: vllm/vllm-openai:v0.8.4\n"
                                    "    command: --model org/m ${EXTRA_ARGS}\n"}
    (s,) = scanned(files)
    assert s.model.value == "org/m" and not [k for k in s.unknown if "EXTRA" not in k and s.unknown[k].resolved]
    code, out, _ = cli("audit", str(tmp_path), "--gpu", "H100-80GB", "--format", "json")
    assert no_p0(json.loads(out))


def test_env_file_entries_are_the_container_environment(scanned):
    files = {"deploy/vllm.env": "VLLM_ATTENTION_BACKEND=FLASHINFER\nHF_HOME=/cache\n",
             "deploy/compose.yaml": "services:\n  llm:\n    image: vllm/vllm-openai:v0.9.0\n"
                                    "    env_file:\n      - path: ./vllm.env\n        required: false\n"
                                    "    environment:\n      HF_HOME: /data\n    command: [\"--model\", \"org/m\"]\n"}
    (s,) = scanned(files)
    assert s.env["VLLM_ATTENTION_BACKEND"].value == "FLASHINFER" and s.env["VLLM_ATTENTION_BACKEND"].file == "deploy/vllm.env"
    assert s.env["HF_HOME"].value == "/data"  # environment: wins over env_file


# https://github.com/xusenlinzy/api-for-open-llm/issues/259 — a server configured only through .env
SERVER = ("import os\nfrom dotenv import load_dotenv\nfrom vllm.engine.arg_utils import AsyncEngineArgs\n\nload_dotenv()\n"
          "args = AsyncEngineArgs(model=os.environ['MODEL_PATH'], dtype=os.getenv('DTYPE', 'auto'),\n"
          "    tensor_parallel_size=int(os.getenv('TP', '1')), trust_remote_code=os.getenv('TRC', 'false') == 'true',\n"
          "    max_model_len=int(os.environ.get('CONTEXT_LEN', '4096')))\n")


def test_load_dotenv_resolves_environ_reads(scanned):
    (s,) = scanned({".env": "MODEL_PATH=Qwen/Qwen1.5-14B-Chat\nDTYPE=half\nTP=2\nTRC=true\n", "app/server.py": SERVER})
    assert s.model.value == "Qwen/Qwen1.5-14B-Chat"  # found in the folder above, as find_dotenv() does
    assert values(s) == {"dtype": "half", "tensor_parallel_size": 2, "trust_remote_code": True, "max_model_len": 4096}
    assert s.settings["dtype"].pos["from_env"] == "DTYPE at .env:2"
    assert "from_env" not in (s.settings["max_model_len"].pos or {})  # the code's own default


def test_without_load_dotenv_the_env_file_is_not_read(scanned):
    (s,) = scanned({".env": "MODEL_PATH=org/m\nDTYPE=half\n", "server.py": SERVER.replace("load_dotenv()\n", "")})
    assert s.model.resolved is False and s.settings["dtype"].note.startswith("default of")


def test_an_env_file_value_naming_an_unset_variable_is_unknown(scanned):
    (s,) = scanned({".env": "MODEL_PATH=${MODELS}/qwen\nDTYPE=${DT}\n", "server.py": SERVER})
    assert s.model.resolved is False and s.settings["dtype"].resolved is False


def test_a_fix_of_a_value_from_the_env_file_names_its_line(cli, write_project):
    root = write_project({".env": "MODEL_PATH=Qwen/Qwen2.5-7B-Instruct\nDTYPE=bfloat16\n", "server.py": SERVER,
                          "requirements.txt": "vllm==0.8.4\n"})
    before = (root / "server.py").read_text()
    code, out, _ = cli("audit", str(root), "--gpu", "V100-32GB", "--format", "json")
    (ch,) = [c for st in json.loads(out)["sites"] for c in st["changes"] if "L4" in c["checks"]]
    assert ch["blocked"] == "from_env" and ch["origin"] == "DTYPE at .env:2"
    cli("audit", str(root), "--gpu", "V100-32GB", "--fix", "--unsafe-fixes")
    assert (root / "server.py").read_text() == before
