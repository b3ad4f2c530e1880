"""paddle.inference: serving a model saved by paddle.static.save_inference_model (or by
PaddlePaddle) through the same Config / Predictor / Tensor classes that C++ programs use from
libpaddle_inference (bound in paddle/pybind/inference_py.cc). PredictorPool is written here
because it is only a list of clones."""
from ..base.libpaddle.inference import (Config, DataType, PlaceType, PrecisionType, Predictor,
                                        Tensor, create_predictor, get_num_bytes_of_data_type,
                                        get_version)

__all__ = ["Config", "DataType", "PlaceType", "PrecisionType", "Predictor", "PredictorPool",
           "Tensor", "create_predictor", "get_num_bytes_of_data_type", "get_version"]


class PredictorPool:
    """`size` predictors of one model sharing its weights: the first is created from `config`,
    the others are its clones, so each thread can run one of them at the same time."""

    def __init__(self, config, size=1):
        if not isinstance(size, int) or size < 1:
            raise ValueError(f"PredictorPool: 'size' must be a positive int, but received {size!r}")
        first = create_predictor(config)
        self._predictors = [first] + [first.clone() for _ in range(size - 1)]

    def retrive(self, idx):
        """The predictor at `idx` (Paddle's spelling of the method name)."""
        if not 0 <= idx < len(self._predictors):
            raise IndexError(f"PredictorPool.retrive: index {idx} is out of range for a pool of "
                             f"{len(self._predictors)}")
        return self._predictors[idx]
