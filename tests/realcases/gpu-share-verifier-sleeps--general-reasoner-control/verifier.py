from vllm import LLM, SamplingParams
from verl.single_controller.base import Worker
from verl.single_controller.base.decorator import register, Dispatch


class RewardModelWorker(Worker):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.sampling_params = SamplingParams(temperature=0, max_tokens=2048)

    @register(dispatch_mode=Dispatch.ONE_TO_ALL)
    def init_model(self):
        self.llm = LLM(model="TIGER-Lab/general-verifier", gpu_memory_utilization=0.5)
        self.llm.sleep(2)

    @register(dispatch_mode=Dispatch.DP_COMPUTE_PROTO)
    def compute_rm_score(self, prompts):
        self.llm.wake_up()
        outs = self.llm.generate(prompts, self.sampling_params)
        self.llm.sleep(2)
        return outs
