#!/bin/bash
serve run config.yaml
