#!/bin/sh
python3 benchmark_latency.py
