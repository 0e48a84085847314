#!/bin/sh
cd benchmarks 2>/dev/null || true
python benchmark_latency.py
