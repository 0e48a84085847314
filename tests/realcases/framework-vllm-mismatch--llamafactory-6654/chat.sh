#!/bin/bash
llamafactory-cli chat examples/inference/qwen2_vl.yaml
