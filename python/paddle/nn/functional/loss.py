"""Loss functions: cross_entropy, nll_loss, mse_loss, l1_loss (Paddle's semantics)."""
from ... import _C_ops
from ...base.framework import is_floating
from ...tensor._helpers import check_tensor

__all__ = ["cross_entropy", "nll_loss", "mse_loss", "l1_loss"]


def _check_reduction(reduction, api):
    if reduction not in ("sum", "mean", "none"):
        raise ValueError(f"The value of 'reduction' in {api} should be 'sum', 'mean' or 'none', "
                         f"but received {reduction}, which is not allowed.")


def _reduce(loss, reduction):
    if reduction == "sum":
        return _sum_all(loss)
    if reduction == "mean":
        return _C_ops.mean(loss, [], False)
    return loss


def _sum_all(x):
    return _C_ops.sum(x, [], x.dtype, False)


def _safe_divide(total, count):
    """total / count, or total (that is 0) when count is 0: a batch whose labels are all
    ignored has loss 0 rather than NaN."""
    is_zero = _C_ops.cast(_C_ops.equal(count, _C_ops.full_like(count, 0.0, count.dtype)),
                          count.dtype)
    return _C_ops.divide(total, _C_ops.add(count, is_zero))


def _one_hot(label, num_classes, axis, dtype):
    """One-hot of `label` (size 1 on `axis`) along `axis`, as `dtype`."""
    shape = [1] * len(label.shape)
    shape[axis] = num_classes
    classes = _C_ops.reshape(_C_ops.arange(0, num_classes, 1, label.dtype, label.place), shape)
    return _C_ops.cast(_C_ops.equal(label, classes), dtype)


def _class_weight(weight, rank, axis, dtype):
    """`weight` of shape [C] reshaped to broadcast along `axis` of a rank-`rank` tensor."""
    shape = [1] * rank
    shape[axis] = weight.shape[0]
    weight = weight if weight.dtype == dtype else _C_ops.cast(weight, dtype)
    return _C_ops.reshape(weight, shape)


def cross_entropy(input, label, weight=None, ignore_index=-100, reduction="mean",
                  soft_label=False, axis=-1, use_softmax=True, label_smoothing=0.0, name=None):
    """Softmax cross entropy between logits `input` and `label` along `axis`.

    Hard labels hold class indices with the input's shape minus the class axis, or with a class
    axis of size 1; soft labels hold a distribution per position. label_smoothing > 0 turns
    hard labels into (1 - eps) * one_hot + eps / C. `weight` (shape [C]) scales each position
    by the weight of its class. 'mean' divides by the number of non-ignored positions, or with
    a weight by their total weight; 'none' returns the per-position losses (the class axis
    dropped when the label came without it)."""
    check_tensor(input, "cross_entropy", "input")
    check_tensor(label, "cross_entropy", "label")
    _check_reduction(reduction, "softmax_cross_entropy")
    if ignore_index > 0 and soft_label:
        raise ValueError(f"When soft_label == True, the value of 'ignore_index' in "
                         f"softmax_cross_entropy should be '-100', but received {ignore_index}, "
                         f"which is not allowed.")
    input_dims = len(input.shape)
    if input_dims == 0:
        raise ValueError("The dimension of input should be larger than zero!")
    if not -input_dims <= axis < input_dims:
        raise ValueError(f"cross_entropy(): 'axis' must be in [{-input_dims}, {input_dims}), "
                         f"but received {axis}")
    axis = axis % input_dims
    label_dims = len(label.shape)
    if input_dims - 1 == label_dims:
        label = _C_ops.unsqueeze(label, [axis])
    elif input_dims != label_dims:
        raise ValueError(f"Expected input_dims - 1 = label_dims or input_dims == label_dims "
                         f"(got input_dims {input_dims}, label_dims {label_dims})")
    # Paddle drops the class axis of a 'none' result only when the label came without one and
    # was not turned into a soft label by smoothing.
    squeeze_result = input_dims - 1 == label_dims and not label_smoothing > 0
    num_classes = input.shape[axis]
    dtype = input.dtype

    valid = None       # 1.0 where a hard label is not ignore_index, else 0.0
    class_index = None  # hard labels with ignored positions replaced by class 0
    if not soft_label:
        is_valid = _C_ops.not_equal(label, _C_ops.full_like(label, ignore_index, label.dtype))
        valid = _C_ops.cast(is_valid, dtype)
        class_index = _C_ops.where(is_valid, label, _C_ops.full_like(label, 0, label.dtype))

    soft = soft_label
    if label_smoothing > 0.0:
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"cross_entropy(): 'label_smoothing' must be in [0, 1], but "
                             f"received {label_smoothing}")
        distribution = (_one_hot(class_index, num_classes, axis, dtype) if not soft_label
                        else _C_ops.cast(label, dtype))
        label = _C_ops.scale(distribution, 1.0 - label_smoothing,
                             label_smoothing / num_classes, True)
        soft = True

    _, loss = _C_ops.cross_entropy_with_softmax(input, label, soft, use_softmax, True,
                                                int(ignore_index), axis)
    if soft and valid is not None:
        # Smoothed hard labels: ignored positions still contribute nothing.
        loss = _C_ops.multiply(loss, valid)

    weight_per_position = None
    if weight is not None:
        check_tensor(weight, "cross_entropy", "weight")
        if num_classes != weight.shape[-1]:
            raise ValueError(f"input's class_dimension({num_classes}) must equal to weight's "
                             f"class_dimension({weight.shape[-1]}) because weight is for each "
                             f"class.")
        if soft:
            weights = _class_weight(weight, input_dims, axis, dtype)
            weight_per_position = _C_ops.sum(_C_ops.multiply(_C_ops.cast(label, dtype), weights),
                                             [axis], dtype, True)
        else:
            weight = weight if weight.dtype == dtype else _C_ops.cast(weight, dtype)
            gathered = _C_ops.gather(weight, _C_ops.reshape(class_index, [-1]), 0)
            weight_per_position = _C_ops.reshape(gathered, list(label.shape))
        if valid is not None:
            weight_per_position = _C_ops.multiply(weight_per_position, valid)
        loss = _C_ops.multiply(loss, weight_per_position)

    if reduction == "sum":
        return _sum_all(loss)
    if reduction == "mean":
        if weight_per_position is not None:
            return _safe_divide(_sum_all(loss), _sum_all(weight_per_position))
        if valid is not None:
            return _safe_divide(_sum_all(loss), _sum_all(valid))
        return _C_ops.mean(loss, [], False)
    return _C_ops.squeeze(loss, [axis]) if squeeze_result else loss


def nll_loss(input, label, weight=None, ignore_index=-100, reduction="mean", name=None):
    """Negative log likelihood: input holds log-probabilities [N, C, d1, ...], label class
    indices [N, d1, ...]; loss = -weight[label] * input[label]. 'mean' divides by the total
    weight of the non-ignored positions."""
    check_tensor(input, "nll_loss", "input")
    check_tensor(label, "nll_loss", "label")
    _check_reduction(reduction, "nll_loss")
    input_dims = len(input.shape)
    if input_dims < 2:
        raise ValueError(f"Expected 2 or more dimensions (got {input_dims})")
    expected = [input.shape[0]] + list(input.shape[2:])
    if len(label.shape) != len(expected) or any(
            d != e and d >= 0 and e >= 0 for d, e in zip(label.shape, expected)):
        raise ValueError(f"Expected label of shape {expected} "
                         f"for input of shape {list(input.shape)}, but received "
                         f"{list(label.shape)}")
    dtype = input.dtype
    label = _C_ops.unsqueeze(label, [1])
    is_valid = _C_ops.not_equal(label, _C_ops.full_like(label, ignore_index, label.dtype))
    class_index = _C_ops.where(is_valid, label, _C_ops.full_like(label, 0, label.dtype))
    picked = _C_ops.multiply(_one_hot(class_index, input.shape[1], 1, dtype),
                             _C_ops.cast(is_valid, dtype))
    if weight is not None:
        check_tensor(weight, "nll_loss", "weight")
        picked = _C_ops.multiply(picked, _class_weight(weight, input_dims, 1, dtype))
    loss = _C_ops.scale(_C_ops.sum(_C_ops.multiply(input, picked), [1], dtype, False),
                        -1.0, 0.0, True)
    if reduction == "mean":
        return _safe_divide(_sum_all(loss), _sum_all(picked))
    return _reduce(loss, reduction)


def _check_float_pair(input, label, api):
    check_tensor(input, api, "input")
    check_tensor(label, api, "label")
    for arg, t in (("input", input), ("label", label)):
        if not is_floating(t.dtype):
            raise TypeError(f"{api}(): '{arg}' must be a floating-point tensor, but it is "
                            f"{t.dtype.name}")


def mse_loss(input, label, reduction="mean", name=None):
    """Mean squared error: reduce((input - label)^2)."""
    _check_float_pair(input, label, "mse_loss")
    _check_reduction(reduction, "MSELoss")
    return _reduce(_C_ops.square(_C_ops.subtract(input, label)), reduction)


def l1_loss(input, label, reduction="mean", name=None):
    """Mean absolute error: reduce(|input - label|)."""
    _check_float_pair(input, label, "l1_loss")
    _check_reduction(reduction, "L1Loss")
    return _reduce(_C_ops.abs(_C_ops.subtract(input, label)), reduction)


# Paddle's paddle.nn.functional.loss also holds these.
from .ctc import ctc_loss, edit_distance  # noqa: E402,F401
