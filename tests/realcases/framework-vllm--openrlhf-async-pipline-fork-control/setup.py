from setuptools import find_packages, setup


def _fetch_package_name():
    return "openrlhf"


def _fetch_version():
    with open("version.txt") as f:
        return f.read().strip()


setup(
    name=_fetch_package_name(),
    version=_fetch_version(),
    packages=find_packages(),
    extras_require={"vllm": ["vllm==0.8.3"]},
)
