# LLaMA-Factory checkout, installed in place (pip install -e ".[torch,metrics]")
import re

from setuptools import find_packages, setup


def get_version():
    with open("src/llamafactory/extras/env.py", encoding="utf-8") as f:
        return re.search(r'VERSION = "(.*)"', f.read()).group(1)


setup(name="llamafactory", version=get_version(), package_dir={"": "src"}, packages=find_packages("src"),
      extras_require={"vllm": ["vllm>=0.4.3"]})
