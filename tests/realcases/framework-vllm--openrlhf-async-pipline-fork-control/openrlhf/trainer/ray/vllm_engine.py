import ray


def create_vllm_engines(actor_cls, num_engines, pretrain, tensor_parallel_size, seed):
    engines = []
    for i in range(num_engines):
        engines.append(actor_cls.remote(
            model=pretrain,
            worker_extension_cls="openrlhf.trainer.ray.vllm_worker_wrap.WorkerWrap",
            tensor_parallel_size=tensor_parallel_size,
            seed=seed + i,
        ))
    return engines
