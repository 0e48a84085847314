export HYDRA_FULL_ERROR=1
export TOKENIZERS_PARALLELISM='true'

export CUDA_VISIBLE_DEVICES=0

# sample answers with the checkpoint (vLLM, offline)
python3 -m verl.trainer.main_generation \
    trainer.n_gpus_per_node=1 \
    data.path='/data/countdown/test.parquet' \
    data.output_path='./out_test.parquet' \
    data.batch_size=8 \
    data.n_samples=1 \
    model.path='Qwen/Qwen2.5-3B' \
    rollout.do_sample=False \
    rollout.response_length=1024

# score them (no model involved)
python3 -m verl.trainer.main_eval \
    data.path='./out_test.parquet' \
    data.response_key=responses
