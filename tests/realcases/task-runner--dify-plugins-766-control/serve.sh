#!/bin/sh
vllm serve ./BAAI/bge-m3 --task embed
