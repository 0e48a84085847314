set -ex
PROMPT_TYPE=$1
MODEL_NAME_OR_PATH=$2
CUDA_VISIBLE_DEVICES=0 TOKENIZERS_PARALLELISM=false \
python3 -u math_eval.py \
    --model_name_or_path ${MODEL_NAME_OR_PATH} \
    --data_names gsm8k,minerva_math \
    --use_vllm
