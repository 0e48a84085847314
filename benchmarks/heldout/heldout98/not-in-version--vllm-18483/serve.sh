#!/bin/bash
vllm serve meta-llama/Llama-3.2-1B-Instruct --enable-prompt-embeds
