#!/usr/bin/env bash
# the second try in the thread: the keyword written after the model name
vllm serve "moonshotai/Moonlight-16B-A3B-Instruct" trust_remote_code=True
