#!/bin/bash
# start the ROCm container once; serve_model.sh runs inside it
docker run -it -d --name openmanus-rl \
  --ipc=host --shm-size=64g \
  --device=/dev/kfd --device=/dev/dri --group-add video \
  -e HIP_VISIBLE_DEVICES=0 \
  -v "$PWD:/workspace" -w /workspace \
  verl-agent:rocm-snap1 bash
