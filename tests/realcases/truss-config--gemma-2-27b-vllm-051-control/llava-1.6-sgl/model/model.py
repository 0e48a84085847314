import sglang as sgl


class Model:
    def load(self):
        self.runtime = sgl.Runtime(model_path="liuhaotian/llava-v1.6-vicuna-7b")
