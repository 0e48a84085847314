"""A Chinese report says its explanations in Chinese: only what a program prints (an error quoted
verbatim), names, flags and versions stay as written. eval105 found L43's zh text ending in English
sentences ("… which vLLM 0.8.0+ takes", "trl 0.17.0.dev0 declares vllm>=0.8.3", TRL's V1-worker note)."""
from __future__ import annotations

import re

import pytest

from vllm_kb.engine.audit import audit

# a run of words and versions written with spaces between them ("which vLLM 0.8.0+ takes")
_RUN = re.compile(r"[A-Za-z0-9][\w.+'=<>-]*(?:[ ,]+[A-Za-z0-9][\w.+'=<>-]*)+")
_WORD = re.compile(r"[A-Za-z]{2,}")


# words a name, a flag or a version never is: a run that holds one is a sentence
_GLUE = {"a", "an", "the", "is", "are", "was", "which", "that", "it", "of", "and", "or", "to", "from", "in", "on", "with",
         "by", "as", "for", "not", "only", "does", "do", "has", "have", "takes", "passes", "declares", "set", "move", "whose"}


def english_prose(zh: str, quoted: str = "") -> list[str]:
    """The runs of English words in a Chinese text, once the verbatim error `quoted` is taken out: three
    tokens or more with a word of English grammar among them, or three plain words among four tokens."""
    text = zh.replace(quoted, "") if quoted else zh
    out = []
    for m in _RUN.findall(text):
        words = [w.strip(",") for w in m.split()]
        plain = sum(bool(_WORD.fullmatch(w)) for w in words)
        if len(words) >= 3 and any(w in _GLUE for w in words) or len(words) >= 4 and plain >= 3:
            out.append(m)
    return out


def test_the_detector_finds_a_sentence_and_passes_names():
    assert english_prose("请固定 trl==0.17.0，它会传入 worker_extension_cls。")== []
    assert english_prose("版本不兼容：which vLLM 0.8.0+ takes。")
    assert english_prose("只有一个能搭配 vLLM 0.7.2：trl 0.17.0.dev0 declares vllm>=0.8.3。")
    assert english_prose("在 NVIDIA H100 SXM 80GB 上，trl ==0.17.0 搭配 vLLM 0.8.4。") == []
    assert english_prose("TypeError: got an unexpected keyword argument 'x' — 说明", "TypeError: got an unexpected keyword argument 'x'") == []


SERVE = "trl vllm-serve --model Qwen/Qwen2.5-3B-Instruct\n"
PROJECTS = {
    # a compat row's own explanation (grpo_weave: trl 0.16.1's V0 worker under V1)
    "row": {"requirements.txt": "trl==0.16.1\nvllm==0.8.4\n", "serve.sh": SERVE},
    # an argument a release passes that the pinned vLLM lacks (framework_kwargs)
    "kwargs": {"requirements.txt": "trl==0.17.0\nvllm==0.7.2\n", "serve.sh": SERVE},
    # an attribute a release reads that the pinned vLLM lacks (framework_imports)
    "import": {"requirements.txt": "trl==0.16.0\nvllm==0.6.6\n", "serve.sh": SERVE},
    # only the range the release declares (trl 0.17.0: vllm>=0.8.3)
    "declared": {"requirements.txt": "trl==0.17.0\nvllm==0.8.1\n", "serve.sh": SERVE},
}


@pytest.mark.parametrize("name", sorted(PROJECTS))
def test_l43_explains_in_chinese(write_project, name):
    (sr,) = audit(write_project(PROJECTS[name]), gpu="A100-80GB").sites
    l43 = next(r for r in sr.results if r.check.id == "L43")
    assert l43.status == "recommended", l43.reason_text("en")
    launch = sr.facts["launch"]
    quoted = launch["fw_problem_text_zh"].split(" — ", 1)[0] if launch["fw_problem"] != "declared" else ""
    assert quoted in l43.reason_text("en")  # the error itself is the program's words, in both
    assert english_prose(l43.reason_text("zh"), quoted) == [], l43.reason_text("zh")
