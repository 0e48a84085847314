#!/bin/sh
vllm serve ./Olmo-3-32B-Think-Q8_0.gguf
