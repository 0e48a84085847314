#!/bin/bash
vllm serve bnb-community/Llama-4-Scout-17B-16E-Instruct-bnb-4bit
