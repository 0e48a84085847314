#!/bin/bash
# serve IBM's attention-only Granite 4.0 with adapters allowed (the adapters are loaded later, per request)
vllm serve ibm-granite/granite-4.0-micro --enable-lora --max-lora-rank 64
