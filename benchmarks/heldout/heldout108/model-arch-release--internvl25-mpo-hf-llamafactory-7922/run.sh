#!/bin/sh
llamafactory-cli chat internvl_vllm.yaml
