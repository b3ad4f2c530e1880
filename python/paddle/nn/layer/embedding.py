"""The Embedding layer."""
from ...autograd import no_grad
from ...base import libpaddle
from ...base.framework import get_default_dtype
from .. import functional as F
from .layers import Layer

__all__ = ["Embedding"]


class Embedding(Layer):
    """A lookup table of `num_embeddings` rows of size `embedding_dim`: maps int ids of shape S to
    [S..., embedding_dim]. The weight starts XavierUniform (Paddle's default for weights) with
    the `padding_idx` row (negative counts from the end) zeroed; that row gets no gradient.
    `max_norm`, `norm_type` and `scale_grad_by_freq` are F.embedding's; `_weight` is a
    [num_embeddings, embedding_dim] tensor to use as the weight (frozen with `_freeze`), and
    `dtype` the weight's dtype (the default dtype otherwise)."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, sparse=False, weight_attr=None, name=None, *,
                 scale_grad_by_freq=False, _weight=None, _freeze=False, dtype=None):
        super().__init__()
        self._num_embeddings = num_embeddings
        self._embedding_dim = embedding_dim
        self._sparse = sparse
        self._max_norm = max_norm
        self._norm_type = norm_type
        self._scale_grad_by_freq = scale_grad_by_freq
        if self._num_embeddings <= 0:
            raise ValueError("num_embeddings must be gather than 0")
        if self._embedding_dim <= 0:
            raise ValueError("embedding_dim must be gather than 0")
        if padding_idx is not None and (padding_idx >= num_embeddings
                                        or padding_idx < -num_embeddings):
            raise ValueError(f"padding_idx must be within [-{num_embeddings}, {num_embeddings})")
        padding_idx = (-1 if padding_idx is None
                       else padding_idx if padding_idx >= 0 else num_embeddings + padding_idx)
        self._padding_idx = padding_idx
        self._dtype = get_default_dtype() if dtype is None else dtype
        self._size = [self._num_embeddings, self._embedding_dim]
        self._weight_attr = weight_attr
        self._name = name
        if _weight is not None:
            if list(_weight.shape) != self._size:
                raise ValueError(f"Embedding: '_weight' must have shape {self._size} "
                                 f"(num_embeddings, embedding_dim), received {list(_weight.shape)}")
            self.weight = _weight
            self.weight.stop_gradient = _freeze
            return
        self.weight = self.create_parameter(attr=self._weight_attr, shape=self._size,
                                            dtype=self._dtype, is_bias=False)
        if self._weight_attr is None:
            self.weight.stop_gradient = _freeze
        # As in Paddle, only in dygraph mode: in a static program the assignment would become an
        # op of the main program, run (and differentiated through) at every step.
        if padding_idx != -1 and not libpaddle._in_static_mode():
            with no_grad():
                self.weight[padding_idx] = 0.0

    def forward(self, x):
        return F.embedding(x, weight=self.weight,
                           padding_idx=None if self._padding_idx == -1 else self._padding_idx,
                           max_norm=self._max_norm, norm_type=self._norm_type,
                           sparse=self._sparse, scale_grad_by_freq=self._scale_grad_by_freq,
                           name=self._name)

    def extra_repr(self):
        main_str = "{_num_embeddings}, {_embedding_dim}"
        if self._padding_idx != -1:
            main_str += ", padding_idx={_padding_idx}"
        main_str += ", sparse={_sparse}"
        if self._name is not None:
            main_str += ", name={_name}"
        return main_str.format(**self.__dict__)
