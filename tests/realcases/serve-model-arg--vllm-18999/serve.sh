#!/bin/bash
vllm serve --config config.yaml
