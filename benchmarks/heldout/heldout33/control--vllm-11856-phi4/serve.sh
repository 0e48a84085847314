#!/bin/sh
vllm serve microsoft/phi-4
