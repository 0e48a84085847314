# the repository's own vLLM implementation of the model (not reproduced here)
import torch.nn as nn


class DeepseekOCRForCausalLM(nn.Module):
    pass
