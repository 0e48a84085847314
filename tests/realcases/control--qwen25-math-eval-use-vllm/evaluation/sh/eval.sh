set -ex

PROMPT_TYPE=$1
MODEL_NAME_OR_PATH=$2
OUTPUT_DIR=${MODEL_NAME_OR_PATH}/math_eval

DATA_NAME="gsm8k,math,svamp"
TOKENIZERS_PARALLELISM=false \
python3 -u math_eval.py \
    --model_name_or_path ${MODEL_NAME_OR_PATH} \
    --data_name ${DATA_NAME} \
    --output_dir ${OUTPUT_DIR} \
    --prompt_type ${PROMPT_TYPE} \
    --seed 0 \
    --temperature 0 \
    --n_sampling 1 \
    --use_vllm \
    --save_outputs
