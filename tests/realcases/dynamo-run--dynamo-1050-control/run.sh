#!/bin/bash
dynamo run out=vllm deepseek-ai/DeepSeek-R1-Distill-Llama-8B --tensor-parallel-size=2
