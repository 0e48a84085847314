#!/bin/sh
# the reporter runs this from PowerShell on Windows (Docker Desktop); written here for sh
docker run --rm \
  --gpus all \
  -v /d/workspace/text-generation-webui/models:/opt/models \
  -e "HF_ENDPOINT=https://hf-mirror.com" \
  -p 5000:8000 \
  --ipc=host \
  vllm/vllm-openai:v0.6.4.post1 \
  --gpu-memory-utilization=0.99 \
  --tensor-parallel-size=2 \
  --served-model=gpt-4 \
  --max-model-len=20000 \
  --host=0.0.0.0 \
  --port=8000 \
  --kv-cache-dtype=fp8 \
  --quantization=gguf \
  --tokenizer=princeton-nlp/Llama-3-8B-ProLong-512k-Instruct \
  --model=/opt/models/princeton-nlp.Llama-3-8B-ProLong-512k-Instruct.Q8_0.gguf
