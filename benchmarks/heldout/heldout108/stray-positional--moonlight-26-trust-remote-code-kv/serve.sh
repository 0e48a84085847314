#!/bin/sh
vllm serve "moonshotai/Moonlight-16B-A3B-Instruct" trust_remote_code=True
