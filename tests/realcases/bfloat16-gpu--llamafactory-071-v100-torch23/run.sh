#!/bin/bash
llamafactory-cli api infer.yaml
