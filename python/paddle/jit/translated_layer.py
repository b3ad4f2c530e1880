"""TranslatedLayer: a model saved by paddle.jit.save (or save_inference_model), loaded back as a
callable Layer that runs the saved program with the Executor."""
from ..base import libpaddle
from ..nn.layer.layers import Layer
from ..nn.parameter import EagerParamBase
from ..static import io as static_io
from ..static.executor import Executor, scope_guard

__all__ = ["TranslatedLayer"]

Tensor = libpaddle.Tensor


class TranslatedLayer(Layer):
    """The loaded program's persistable values are this layer's parameters (named as in the
    file, stop_gradient=True); calling it feeds the tensors in the program's feed order and
    returns the fetch targets (one tensor, or a list of them). The saved program is the
    inference program, so train() and eval() set the mode flags but both run it; gradients do
    not flow through it."""

    def __init__(self, program, feed_names, fetch_names, values):
        super().__init__()
        self._program = program
        self._feed_names = list(feed_names)
        self._fetch_names = list(fetch_names)
        self._scope = libpaddle.Scope()
        self._executor = Executor()
        for i, (name, tensor) in enumerate(values.items()):
            param = EagerParamBase._from_tensor(tensor, name=name, trainable=False)
            param.stop_gradient = True
            self.add_parameter(f"param_{i}", param)
        self.eval()

    @classmethod
    def _construct(cls, path, configs):
        scope = libpaddle.Scope()
        executor = Executor()
        with scope_guard(scope):
            program, feed_names, fetch_targets = static_io.load_inference_model(
                path, executor, **configs)
        values = {}
        for name in static_io._saved_var_names(program):
            found = scope.find_var(name)
            if found is not None and found.is_initialized():
                values[name] = found.get_tensor()
        return cls(program, feed_names, [v.name for v in fetch_targets], values)

    def program(self, method_name="forward"):
        """The loaded inference Program (with its feed and fetch ops)."""
        if method_name != "forward":
            raise ValueError(f"TranslatedLayer.program(): the loaded model has only the "
                             f"'forward' method, but received method_name={method_name!r}")
        return self._program

    def forward(self, *inputs):
        if len(inputs) != len(self._feed_names):
            raise ValueError(f"TranslatedLayer.forward(): the model takes "
                             f"{len(self._feed_names)} inputs {self._feed_names}, but received "
                             f"{len(inputs)}")
        for i, value in enumerate(inputs):
            if not isinstance(value, Tensor):
                raise TypeError(f"TranslatedLayer.forward(): input {i} "
                                f"('{self._feed_names[i]}') must be a Tensor, but received "
                                f"{type(value).__name__}")
        for param in self.parameters():
            libpaddle._set_scope_tensor(self._scope.var(param.name), param)
        with scope_guard(self._scope):
            results = self._executor.run(self._program, feed=dict(zip(self._feed_names, inputs)),
                                         fetch_list=self._fetch_names, return_numpy=False)
        return results[0] if len(results) == 1 else results
