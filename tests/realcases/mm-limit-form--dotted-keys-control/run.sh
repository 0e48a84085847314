#!/bin/bash
vllm serve google/gemma-3-12b-it --limit-mm-per-prompt.image 4 --limit-mm-per-prompt.audio 1
