#!/bin/bash
# install a given vLLM release, then check that the engine starts with a short offline run
set -e
VLLM_VERSION="${VLLM_VERSION:-0.20.0}"
pip install "vllm==${VLLM_VERSION}"

SMOKE="$(mktemp -d)/smoke"
cat > "$SMOKE" <<PY
from vllm import LLM, SamplingParams


def main():
    llm = LLM(
        model="Qwen/Qwen3-4B",
        dtype="bfloat16",
        max_model_len=$MAX_LEN,
        gpu_memory_utilization=0.8,
    )
    print(llm.generate(["hello"], SamplingParams(max_tokens=8)))


main()
PY
python "$SMOKE"
