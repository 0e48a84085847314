#!/bin/bash
CUDA_VISIBLE_DEVICES=0 llamafactory-cli train predict.yaml
