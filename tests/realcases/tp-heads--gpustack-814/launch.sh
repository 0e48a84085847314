#!/bin/bash
# what the GPUStack worker ran for the model instance
vllm serve /var/lib/gpustack/cache/model_scope/OpenGVLab/InternVL2_5-78B-AWQ \
    --trust-remote-code --quantization awq \
    --tensor-parallel-size 3 --host 0.0.0.0 --port 40021 --served-model-name internvl2.5-78b-awq
