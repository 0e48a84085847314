#!/bin/bash
# api-for-open-llm reads .env (python-dotenv) and builds the vLLM engine in server.py
cd api && python server.py
