@echo off
rem run from the Anaconda prompt (env fuseAI)
python infer.py
