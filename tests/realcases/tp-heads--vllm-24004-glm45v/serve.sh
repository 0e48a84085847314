vllm serve zai-org/GLM-4.5V --tensor-parallel-size 8 --pipeline-parallel-size 1
