#!/bin/bash
singularity_bin=$(command -v singularity || command -v apptainer)
model_dir=${MODEL_DIR:-/models/Qwen2.5-7B-Instruct}
endpoint_port=8000
cat > launch-vllm.sh <<LAUNCHEOF
#!/bin/bash
exec "${singularity_bin}" exec --nv --writable-tmpfs \\
    --bind "${model_dir}:${model_dir}" \\
    --env HF_HUB_OFFLINE=1 \\
    "${container_ref}" \\
    python3 -m vllm.entrypoints.openai.api_server \\
        --model Qwen/Qwen2.5-7B-Instruct \\
        --host 127.0.0.1 \\
        --port ${endpoint_port} \\
        --max-model-len 8192
LAUNCHEOF
chmod +x launch-vllm.sh
./launch-vllm.sh > vllm.out 2>&1 &
