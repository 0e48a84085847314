#!/bin/sh
vllm serve ibm-granite/granite-embedding-english-r2 --task=embedding
