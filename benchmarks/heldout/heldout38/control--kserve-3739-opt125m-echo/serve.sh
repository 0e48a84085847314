#!/bin/bash
python3 -m huggingfaceserver --model_id=facebook/opt-125m --model_name=opt-125m --dtype=float32
