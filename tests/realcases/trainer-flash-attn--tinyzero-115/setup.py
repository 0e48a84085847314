import os

from setuptools import find_packages, setup

with open(os.path.join(os.path.dirname(__file__), "verl/version/version")) as f:
    __version__ = f.read().strip()

setup(name="verl", version=__version__, packages=find_packages(), install_requires=["ray", "vllm<=0.6.3"])
