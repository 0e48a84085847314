#!/bin/bash
vllm serve google/gemma-4-E2B-it-qat-q4_0-unquantized
