#!/bin/bash
axolotl vllm-serve grpo.yaml
