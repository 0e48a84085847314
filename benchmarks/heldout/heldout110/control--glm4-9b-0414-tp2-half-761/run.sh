#!/bin/sh
vllm serve xxx/ZhipuAI/GLM-4-9B-0414/ --tensor_parallel_size 2 --dtype=half --served-model-name "glm-4"
