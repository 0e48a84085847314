# a checkout of verl's git main, installed in place (pip install -e .)
import os

from setuptools import find_packages, setup

with open(os.path.join(os.path.dirname(__file__), "verl/version/version")) as f:
    version = f.read().strip()

setup(name="verl", version=version, packages=find_packages(),
      extras_require={"vllm": ["vllm>=0.8.5,<=0.11.0"]})
