"""Environment variables of the endpoint turned into `vllm serve` options."""
import os

FLAGS = {"MODEL_NAME": "--model", "MAX_MODEL_LEN": "--max-model-len", "TENSOR_PARALLEL_SIZE": "--tensor-parallel-size"}


def build_vllm_args():
    out = []
    for name, flag in FLAGS.items():
        value = os.getenv(name)
        if value:
            out += [flag, value]
    return out
