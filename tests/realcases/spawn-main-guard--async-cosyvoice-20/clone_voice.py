# Clone a voice with async_cosyvoice (checked out inside a CosyVoice tree): the
# instance is created when the script is imported, as in the report.
import sys

sys.path.append("third_party/Matcha-TTS")

from async_cosyvoice.async_cosyvoice import AsyncCosyVoice2
from cosyvoice.utils.file_utils import load_wav

cosyvoice = AsyncCosyVoice2("./pretrained_models/CosyVoice2-0.5B", load_jit=True, load_trt=True, fp16=True)

prompt_speech_16k = load_wav("./my_voice.wav", 16000)
cosyvoice.frontend.generate_spk_info("001", prompt_text="a short prompt sentence",
                                     prompt_speech_16k=prompt_speech_16k, name="mine")
