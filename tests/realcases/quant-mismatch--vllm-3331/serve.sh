python -m vllm.entrypoints.openai.api_server --model neuralmagic/Nous-Hermes-2-Yi-34B-marlin --quantization gptq
