#!/bin/bash
# GPUStack worker command for the bge-m3 deployment (no backend parameters set by the user);
# the same GPU already hosts another model instance.
vllm serve BAAI/bge-m3 --host 0.0.0.0 --port 40100 --served-model-name bge-m3
