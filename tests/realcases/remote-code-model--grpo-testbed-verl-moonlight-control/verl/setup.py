from setuptools import find_packages, setup

setup(name="verl", version=open("verl/version/version").read().strip(), packages=find_packages(),
      extras_require={"vllm": ["vllm>=0.8.5,<=0.12.0"]})
