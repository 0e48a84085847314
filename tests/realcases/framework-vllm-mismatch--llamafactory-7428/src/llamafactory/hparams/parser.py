from ..extras.misc import check_version


def _check_extra_dependencies(model_args):
    if model_args.infer_backend == "vllm":
        check_version("vllm>=0.4.3,<=0.7.3")
