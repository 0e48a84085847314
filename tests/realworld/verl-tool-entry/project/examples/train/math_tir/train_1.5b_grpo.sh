set -x
dataset_name=deepmath_torl
train_data=$(pwd)/data/${dataset_name}/train.parquet
model_name=models/qwen2.5_math_1.5b
rl_alg=grpo
n_gpus_per_node=8
n_nodes=1
n=16
batch_size=128
max_prompt_length=1024
max_response_length=3072
enable_agent=True
strategy="fsdp"
tensor_model_parallel_size=1
gpu_memory_utilization=0.8 # a higher value tends to stall vLLM
do_offload=True
run_name_postfix="acc-only"
if [ "$enable_agent" = "True" ]; then
    run_name="torl-${strategy}-agent-${rl_alg}-n${n}-b${batch_size}${run_name_postfix}"
else
    run_name="torl-${strategy}-${rl_alg}-n${n}-b${batch_size}${run_name_postfix}"
fi
export VERL_RUN_ID=$run_name
export VLLM_USE_V1=1
rollout_mode='async'

host=$(hostname -i | awk '{print $1}')
port=$(shuf -i 30000-31000 -n 1)
tool_server_url=http://$host:$port/get_observation
python -m verl_tool.servers.serve --host $host --port $port --tool_type "ipython_code" > logs/tool_server.log &
server_pid=$!

PYTHONUNBUFFERED=1 python3 -m verl_tool.trainer.main_ppo \
    algorithm.adv_estimator=$rl_alg \
    data.train_files=$train_data \
    data.train_batch_size=$batch_size \
    data.max_prompt_length=$max_prompt_length \
    data.max_response_length=$max_response_length \
    actor_rollout_ref.model.path=$model_name \
    actor_rollout_ref.actor.strategy=$strategy \
    actor_rollout_ref.actor.fsdp_config.param_offload=$do_offload \
    actor_rollout_ref.agent.enable_agent=$enable_agent \
    actor_rollout_ref.agent.tool_server_url=$tool_server_url \
    actor_rollout_ref.rollout.tensor_model_parallel_size=$tensor_model_parallel_size \
    actor_rollout_ref.rollout.enforce_eager=False \
    actor_rollout_ref.rollout.free_cache_engine=True \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.gpu_memory_utilization=$gpu_memory_utilization \
    actor_rollout_ref.rollout.n=$n \
    actor_rollout_ref.rollout.max_num_seqs=512 \
    actor_rollout_ref.rollout.mode=$rollout_mode \
    trainer.experiment_name=$run_name \
    trainer.n_gpus_per_node=$n_gpus_per_node \
    trainer.nnodes=$n_nodes \
    trainer.total_epochs=10

pkill -P $server_pid
