"""A variable a script sets itself and lets its caller override (`getopts`, a `while … case $1` loop over
its arguments) holds its default where the script's own paths meet: read as `${X:-default}` is, an
assumption with a note, not an unknown. Shapes from public scripts, in our own words:
huggingface/open-r1 slurm/experimental/serve_r1_vllm.slurm (`MODEL_PATH=…` then `getopts` `m) MODEL_PATH=$OPTARG`),
Gary-code/CADReview training_and_inference/vllm_deploy.sh (`X=$DEFAULT_X` then a `parse_args "$@"`
function whose `case` sets `X="$2"`, the backend of `swift deploy --infer_backend $X`)."""


def test_getopts_override_leaves_the_default_model(scanned):
    (s,) = scanned({"serve.slurm": '''#!/bin/bash
MODEL_PATH="org/big-model"
while getopts "m:e:h" opt; do
    case $opt in
        m) MODEL_PATH="$OPTARG" ;;
        h|?) echo usage; exit 1 ;;
    esac
done
vllm serve "$MODEL_PATH" --tensor-parallel-size 8
'''})
    assert s.model.value == "org/big-model" and s.model.resolved
    assert "default of the script" in (s.model.note or "") and "$OPTARG" in s.model.note


def test_parse_args_function_keeps_the_default_backend_so_the_launch_is_a_site(scanned):
    (s,) = scanned({"deploy.sh": '''#!/bin/bash
DEFAULT_BACKEND="vllm"
DEFAULT_MAXLEN=2280
parse_args() {
    while [[ $# -gt 0 ]]; do
        case $1 in
            --backend) BACKEND="$2"; shift 2 ;;
            --max_len) MAXLEN="$2"; shift 2 ;;
            *) exit 1 ;;
        esac
    done
}
BACKEND=$DEFAULT_BACKEND
MAXLEN=$DEFAULT_MAXLEN
parse_args "$@"
swift deploy --model org/m --infer_backend $BACKEND --max_model_len $MAXLEN --tensor_parallel_size 1 &
'''})
    assert s.framework == "ms-swift" and s.kind == "swift deploy"
    mml = s.settings["max_model_len"]
    assert mml.value == 2280 and "default of the script" in (mml.note or "")


def test_two_values_the_script_itself_chooses_between_stay_unknown(scanned):
    (s,) = scanned({"run.sh": '''#!/bin/bash
BASE=org/small
MODEL=${MODEL:-$BASE}
case "$1" in
  big) MODEL=org/big ;;
esac
vllm serve $MODEL
'''})
    assert s.model is None or not s.model.resolved  # org/small or org/big: neither is the one


def test_an_override_that_always_runs_is_no_default(scanned):
    got = scanned({"run.sh": '''#!/bin/bash
BACKEND=vllm
parse() { BACKEND="$1"; }
parse "$@"
swift deploy --model org/m --infer_backend $BACKEND
'''})
    assert got == []  # BACKEND is whatever the first argument is, "" when none


def test_a_line_read_in_a_loop_is_no_caller_choice(scanned):
    (s,) = scanned({"run.sh": '''#!/bin/bash
MODEL=org/small
while read -r m; do
  MODEL=$m
done < models.txt
vllm serve $MODEL
'''})
    assert s.model is None or not s.model.resolved  # the last line of a file the script goes through
