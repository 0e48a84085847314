#!/bin/bash
python startup.py --all-webui
