#!/bin/bash
vllm serve mistralai/Magistral-Small-2506
