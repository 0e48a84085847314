"""The shell model on launch scripts: arrays, functions called later, sourced env files, branches
(decided when the script fixes the value, else a variable set differently is unknown — never one
branch's value), `bash -c` strings, `nohup … &`, `exec`/`env`, `docker run` with its container
facts, Makefile recipes, CI steps and files with merge-conflict markers."""


def values(s):
    return {k: v.value for k, v in s.settings.items() if v.resolved}


def test_arrays_and_their_expansions(scanned):
    (s,) = scanned({"run.sh": '''
ARGS=(--tensor-parallel-size 4 --max-model-len 8192)
ARGS+=(--enforce-eager)
EXTRA=("--dtype" "bfloat16")
vllm serve org/m "${ARGS[@]}" ${EXTRA[@]} --port "${PORTS[0]:-8000}"
'''})
    assert values(s) == {"tensor_parallel_size": 4, "max_model_len": 8192, "enforce_eager": True, "dtype": "bfloat16", "port": 8000}


def test_a_function_called_later_is_a_site_at_the_call(scanned):
    (s,) = scanned({"run.sh": '''
start() {
  local model=$1
  nohup vllm serve "$model" --tensor-parallel-size "$2" > log 2>&1 &
}
start org/m 2
'''})
    assert s.line == 6 and s.model.value == "org/m" and values(s) == {"tensor_parallel_size": 2}


def test_sourced_env_file_and_exec_env(scanned):
    (s,) = scanned({".env": "MODEL=org/m\nTP=2\n", "run.sh": '''
set -a
source .env
exec env CUDA_VISIBLE_DEVICES=0,1 vllm serve $MODEL -tp $TP
'''})
    assert s.model.value == "org/m" and values(s) == {"tensor_parallel_size": 2}
    assert s.env["CUDA_VISIBLE_DEVICES"].value == "0,1"


def test_branches_decided_and_undecided(scanned):
    got = scanned({"run.sh": '''
MODE=fast
if [ "$MODE" = fast ]; then EAGER=--enforce-eager; else EAGER=; fi
case "$1" in
  big) TP=8 ;;
  *) TP=2 ;;
esac
vllm serve org/m $EAGER --tensor-parallel-size $TP
'''})
    (s,) = got
    assert s.settings["enforce_eager"].value is True  # the script fixes MODE
    tp = s.settings["tensor_parallel_size"]
    assert not tp.resolved and "one of" in (tp.note or tp.raw)  # 8 or 2: neither is read as set


def test_bash_c_strings_and_a_launch_in_each_branch(scanned):
    got = scanned({"run.sh": '''
if [ -n "$BIG" ]; then
  bash -lc "vllm serve org/big --tensor-parallel-size 8"
else
  sh -c 'python -m vllm.entrypoints.openai.api_server --model org/small'
fi
'''})
    assert [(s.line, s.model.value) for s in got] == [(3, "org/big"), (5, "org/small")]


def test_docker_run_records_container_facts(scanned):
    (s,) = scanned({"run.sh": '''
docker run --gpus all --ipc=host --shm-size 16g -e HF_TOKEN=$HF_TOKEN -e VLLM_USE_V1=1 \\
  vllm/vllm-openai:v0.9.1 --model org/m --max-model-len 4096
'''})
    assert s.image == "vllm/vllm-openai:v0.9.1" and s.model.value == "org/m"
    assert s.container["ipc"] == "host" and s.container["shm_size"] == "16g" and s.container["tool"] == "docker run"
    assert s.env["VLLM_USE_V1"].value == "1"


def test_makefile_and_ci_steps(scanned):
    got = scanned({
        "Makefile": "MODEL ?= org/m\nTP := 2\nserve:\n\tvllm serve $(MODEL) --tensor-parallel-size $(TP)\n",
        ".github/workflows/e2e.yml": '''
on: {workflow_dispatch: {inputs: {tp: {default: "4"}}}}
jobs:
  e2e:
    runs-on: gpu
    env: {MODEL: org/ci}
    steps:
      - run: vllm serve $MODEL --tensor-parallel-size ${{ inputs.tp }} &
''',
        ".gitlab-ci.yml": "variables: {MODEL: org/gl}\ntest:\n  script:\n    - vllm serve $MODEL --max-model-len 2048\n",
    })
    by_file = {s.file: s for s in got}
    assert by_file["Makefile"].model.value == "org/m" and values(by_file["Makefile"]) == {"tensor_parallel_size": 2}
    gh = by_file[".github/workflows/e2e.yml"]
    assert gh.model.value == "org/ci" and values(gh) == {"tensor_parallel_size": 4}
    assert by_file[".gitlab-ci.yml"].model.value == "org/gl"


def test_merge_conflict_sides_keep_only_what_they_agree_on(scanned):
    (s,) = scanned({"run.sh": '''vllm serve org/m \\
<<<<<<< HEAD
  --tensor-parallel-size 2 \\
=======
  --tensor-parallel-size 4 \\
>>>>>>> feature
  --max-model-len 4096
'''})
    assert s.settings["max_model_len"].value == 4096 and not s.settings["tensor_parallel_size"].resolved


def test_make_variables_end_at_a_comment(scanned):
    (s,) = scanned({"Makefile": "TP ?= 2  # GPUs per replica\nserve:\n\tif [ -n \"$(TP)\" ]; then vllm serve org/m -tp $(TP); fi\n"})
    assert s.settings["tensor_parallel_size"].value == 2
