#!/bin/bash
vllm serve microsoft/Phi-3-small-8k-instruct --trust-remote-code
