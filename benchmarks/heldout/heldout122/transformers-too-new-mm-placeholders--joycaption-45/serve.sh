#!/bin/bash
# OpenAI-compatible server for the JoyCaption LLaVA checkpoint; a captioning client posts one image per request.
vllm serve fancyfeast/llama-joycaption-beta-one-hf-llava \
  --max-model-len 4096 \
  --served-model-name joycaption
