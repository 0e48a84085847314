from vllm.multimodal import MultiModalKwargs


def cached_embeddings(inputs: MultiModalKwargs):
    return inputs
