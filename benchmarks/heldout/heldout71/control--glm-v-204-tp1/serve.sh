#!/bin/sh
vllm serve "./GLM-4.1V-9B-Thinking"
