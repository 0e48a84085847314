#!/bin/bash
export CUDA_VISIBLE_DEVICES=1
OMNI=/opt/src/vllm-omni
vllm serve /models/Qwen3-TTS-12Hz-1.7B-CustomVoice/ \
    --stage-configs-path $OMNI/vllm_omni/model_executor/stage_configs/qwen3_tts.yaml \
    --port 10012 --served-model-name Qwen3-TTS-12Hz-1.7B-CustomVoice \
    --trust-remote-code --enforce-eager --omni
