#!/bin/bash
vllm serve ibm-granite/granite-4.0-micro --enable-lora
