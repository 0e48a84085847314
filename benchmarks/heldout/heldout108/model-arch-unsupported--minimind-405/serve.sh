#!/bin/sh
vllm serve ./MiniMind2 --trust-remote-code --dtype half
