#!/bin/bash
# falcon-mamba-7b-instruct downloaded from the Hub to a local folder
vllm serve /models/tiiuae/falcon-mamba-7b-instruct --max-model-len 4096
