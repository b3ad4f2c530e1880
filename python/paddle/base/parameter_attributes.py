"""What makes a tensor a parameter, shared by dygraph's EagerParamBase and the static graph's
Parameter: `trainable` and what the optimizer and the savers read (learning-rate multiplier,
regularizer, clipping, model averaging, distribution)."""


class ParameterAttributes:
    """A mixin for Tensor subclasses; `trainable` is the inverse of `stop_gradient`."""

    def _init_parameter_attributes(self, trainable=True, optimize_attr=None, regularizer=None,
                                   do_model_average=None, need_clip=True, is_distributed=False):
        self.trainable = trainable
        self.optimize_attr = dict(optimize_attr) if optimize_attr else {"learning_rate": 1.0}
        self.regularizer = regularizer
        self.do_model_average = do_model_average
        self.need_clip = need_clip
        self.is_distributed = is_distributed

    @property
    def trainable(self):
        return not self.stop_gradient

    @trainable.setter
    def trainable(self, trainable):
        if not isinstance(trainable, bool):
            raise ValueError(f"The type of trainable MUST be bool, but the type is "
                             f"{type(trainable).__name__}")
        self.stop_gradient = not trainable
