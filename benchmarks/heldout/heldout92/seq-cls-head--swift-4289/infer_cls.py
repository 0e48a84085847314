import os

# settings the reporter passes through the environment for a Qwen2-VL regression head
os.environ['MAX_PIXELS'] = '1003520'
os.environ['VIDEO_MAX_PIXELS'] = '50176'
os.environ['FPS_MAX_FRAMES'] = '12'

from swift.llm import InferRequest, RequestConfig, VllmEngine

if __name__ == '__main__':
    model = './output/qwen2_vl_cls'   # full checkpoint saved by `swift sft --task_type seq_cls --num_labels 4`
    engine = VllmEngine(model, model_type='qwen2_vl', max_model_len=8192)
    req = InferRequest(messages=[{'role': 'user', 'content': '<image>score this picture'}],
                       images=['demo.jpg'])
    print(engine.infer([req], RequestConfig(max_tokens=1)))
