#!/bin/bash
# Ray on the Slurm allocation, then one vLLM server on the head node.

nodes=$(scontrol show hostnames "$SLURM_JOB_NODELIST")
nodes_array=($nodes)
head_node=${nodes_array[0]}
head_node_ip=$(srun --nodes=1 --ntasks=1 --overlap -w "$head_node" hostname --ip-address)

SLURM_GPUS_PER_TASK=8

USER_CPUS_PER_TASK=24

if [[ "$head_node_ip" == *" "* ]]; then
IFS=' ' read -ra ADDR <<<"$head_node_ip"
if [[ ${#ADDR[0]} -gt 16 ]]; then
  head_node_ip=${ADDR[1]}
else
  head_node_ip=${ADDR[0]}
fi
fi

port=6379
ip_head=$head_node_ip:$port
export ip_head

srun --nodes=1 --ntasks=1 -w "$head_node" \
    ray start --head --node-ip-address="$head_node_ip" --port=$port \
    --num-cpus "${USER_CPUS_PER_TASK}" --num-gpus ${SLURM_GPUS_PER_TASK} --block &

worker_num=$((SLURM_JOB_NUM_NODES - 1))

for ((i = 1; i <= worker_num; i++)); do
    node_i=${nodes_array[$i]}
    srun --nodes=1 --ntasks=1 --cpus-per-task="${USER_CPUS_PER_TASK}" -w "$node_i" \
        ray start --address "$ip_head" \
        --num-cpus "${USER_CPUS_PER_TASK}" --num-gpus "${SLURM_GPUS_PER_TASK}" --block &
    sleep 5
done

sleep 5

srun --nodes=1 --ntasks=1 --overlap -w "$head_node" vllm serve /fsx/zyhang/Qwen/Qwen3-4B \
  --trust-remote-code \
  --seed=1 \
  --port 8001 \
  --served-model-name "qwen3_4b_serve" \
  --tensor-parallel-size=$SLURM_GPUS_PER_TASK \
  --gpu-memory-utilization 0.95 \
  --enforce-eager
