#!/bin/bash
pip install -r requirement.txt
pip install vllm==0.7.2
