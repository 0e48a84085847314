#!/bin/bash
vllm serve microsoft/Phi-3.5-MoE-instruct --trust-remote-code --tensor-parallel-size 2
