#!/bin/bash
cd reason && python main.py --dataset webqsp
