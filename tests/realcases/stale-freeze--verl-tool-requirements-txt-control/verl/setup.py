from setuptools import find_packages, setup

install_requires = ["accelerate", "datasets", "hydra-core", "ray[default]>=2.41.0", "transformers"]
VLLM_REQUIRES = ["tensordict>=0.8.0,<=0.10.0,!=0.9.0", "vllm>=0.8.5,<=0.11.0"]

setup(
    name="verl",
    version="0.6.0.dev",
    packages=find_packages(include=["verl*"]),
    install_requires=install_requires,
    extras_require={"vllm": VLLM_REQUIRES},
)
