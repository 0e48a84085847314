#!/bin/sh
# as in the report: no flags at all
vllm serve "moonshotai/Moonlight-16B-A3B-Instruct"
