#!/bin/bash
python startup.py -a
