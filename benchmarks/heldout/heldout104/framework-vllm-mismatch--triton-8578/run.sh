#!/usr/bin/env bash
tritonserver --model-repository ./triton/
