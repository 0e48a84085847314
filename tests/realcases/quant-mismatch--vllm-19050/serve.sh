export VLLM_USE_V1=0
export CUDA_VISIBLE_DEVICES=4,5
vllm serve ./DeepSeek-R1-0528-UD-IQ2_XXS-00001-of-00005.gguf --quantization gguf \
    --hf-config-path deepseek-ai/DeepSeek-R1-0528 --tokenizer deepseek-ai/DeepSeek-R1-0528 \
    --tensor-parallel-size 2 --max-model-len 8192 --trust-remote-code
