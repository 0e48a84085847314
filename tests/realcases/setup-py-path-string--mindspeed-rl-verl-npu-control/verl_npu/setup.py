import os
import site
import sys

from setuptools import find_packages, setup
from setuptools.command.install import install


def patch_installed_vllm():
    # find the installed vllm package to patch its sources after install
    found = None
    for path in site.getsitepackages() + [site.getusersitepackages()] + sys.path:
        candidate = os.path.join(path, "vllm")
        if os.path.isdir(candidate):
            found = candidate
            break
    return found is not None


class PatchingInstall(install):
    def run(self):
        super().run()
        patch_installed_vllm()


def main():
    setup(
        name="verl_npu",
        version="0.0.1",
        packages=find_packages(include=["verl_npu"]),
        python_requires=">=3.9",
        cmdclass={"install": PatchingInstall},
    )


if __name__ == "__main__":
    main()
