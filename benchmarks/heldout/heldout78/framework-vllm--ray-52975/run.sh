#!/bin/sh
serve run serve_config.yaml
