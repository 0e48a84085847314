from setuptools import find_packages, setup

setup(
    name="open-r1",
    version="0.1.0.dev0",
    packages=find_packages("src"),
    package_dir={"": "src"},
    install_requires=["accelerate>=1.2.1", "trl==0.16.0", "vllm==0.7.2"],
)
