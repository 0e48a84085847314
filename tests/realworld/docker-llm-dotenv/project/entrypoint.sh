#!/bin/bash
set -e

if [ -f "./.env" ]; then
    source ./.env
fi

python -c "import huggingface_hub; huggingface_hub.login(token='${HF_TOKEN}', add_to_git_credential=False)"
python \
		-m vllm.entrypoints.openai.api_server \
		--download-dir="./models" \
		--host "${HOST}" \
		--model "${MODEL}" \
    --port "${PORT}" \
		--tensor-parallel-size="${TENSOR_PARALLEL_SIZE}"
