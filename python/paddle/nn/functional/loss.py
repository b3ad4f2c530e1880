"""Loss functions with Paddle's semantics, arguments and defaults.

Hand-written because Paddle does work around its ops here: bce_loss, sigmoid_cross_entropy_with_
logits, huber_loss, kldiv_loss, log_loss and nll_loss are ops (paddle/ops/yaml/loss.yaml) that
the functions wrap with weights and reductions; the other losses are compositions of ops in
Paddle too, and so here, which gives them gradients in dygraph and static graph alike."""
import math

from ... import _C_ops
from ...base.framework import in_dynamic_mode, is_floating
from ...tensor._helpers import check_tensor

__all__ = ["cross_entropy", "nll_loss", "mse_loss", "l1_loss", "binary_cross_entropy",
           "binary_cross_entropy_with_logits", "smooth_l1_loss", "kl_div", "margin_ranking_loss",
           "hinge_embedding_loss", "cosine_embedding_loss", "triplet_margin_loss",
           "triplet_margin_with_distance_loss", "soft_margin_loss",
           "multi_label_soft_margin_loss", "sigmoid_focal_loss", "square_error_cost",
           "poisson_nll_loss", "gaussian_nll_loss", "label_smooth", "softmax_with_cross_entropy"]


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
    if (label_smoothing > 0.0 and input_dims == label_dims and label.shape[axis] == num_classes
            and num_classes != 1):
        # Smoothing reads a label that already has the classes on `axis` as a distribution
        # (one-hot labels), whatever soft_label says, as Paddle does.
        soft_label = True

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
    """Negative log likelihood: input holds log-probabilities [N, C, d1, ...], label int64 class
    indices [N, d1, ...]; loss = -weight[label] * input[label], 0 where label == ignore_index.
    'mean' divides by the total weight of the non-ignored positions (0 when there are none).
    The nll_loss op takes [N, C] or [N, C, H, W]; other ranks are viewed as [N, C, 1, -1], as
    Paddle does, so saved programs match."""
    check_tensor(input, "nll_loss", "input")
    check_tensor(label, "nll_loss", "label")
    _check_reduction(reduction, "nll_loss")
    input_shape = list(input.shape)
    input_dims = len(input_shape)
    label_dims = len(label.shape)
    if input_dims - 1 != label_dims and input_dims != label_dims:
        raise ValueError(f"nll_loss(): expected input_dims - 1 = label_dims or input_dims == "
                         f"label_dims, but received input shape {input_shape} and label shape "
                         f"{list(label.shape)}")
    if input_dims < 2:
        raise ValueError(f"nll_loss(): 'input' must have 2 or more dimensions, but received "
                         f"shape {input_shape}")
    if input_shape[1] == 0:
        raise ValueError("nll_loss(): 'input' must have 1 or more classes (dim 1), but received "
                         f"shape {input_shape}")
    if label.dtype.name != "int64":
        raise TypeError(f"nll_loss(): 'label' must be int64, but it is {label.dtype.name}")
    if weight is not None:
        check_tensor(weight, "nll_loss", "weight")
    if input_dims == 2 and label_dims == 2 and label.shape[1] == 1:
        # Paddle's nll_loss op also takes [N, C] input with [N, 1] labels.
        label = _C_ops.reshape(label, [-1])
    # A batch size unknown until a static program runs is copied (0) rather than given as a
    # second -1.
    n, c = (input_shape[0] if input_shape[0] >= 0 else 0), input_shape[1]
    reshaped = input_dims not in (2, 4)
    if reshaped:
        input = _C_ops.reshape(input, [n, c, 1, -1])
        label = _C_ops.reshape(label, [n, 1, -1])
    out, _ = _C_ops.nll_loss(input, label, weight, int(ignore_index), reduction)
    if reshaped and reduction == "none":
        out = _C_ops.reshape(out, [n] + input_shape[2:])
    return out


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
    _check_broadcast("l1_loss", ("input", input), ("label", label))
    return _reduce(_C_ops.abs(_C_ops.subtract(input, label)), reduction)


def _check_floating(t, api, arg):
    check_tensor(t, api, arg)
    if not is_floating(t.dtype):
        raise TypeError(f"{api}(): '{arg}' must be a floating-point tensor, but it is "
                        f"{t.dtype.name}")


def _check_same_shape(first, first_arg, other, other_arg, api):
    if list(first.shape) != list(other.shape):
        raise ValueError(f"{api}(): '{other_arg}' must have the shape of '{first_arg}' "
                         f"{list(first.shape)}, but received {list(other.shape)}")


def _check_broadcast(api, *named):
    """The (argument name, tensor) pairs broadcast together; dims unknown until a static program
    runs (-1) agree with any."""
    result = []
    shown = []
    for arg, t in named:
        shape = list(t.shape)
        shown.append(f"'{arg}' {shape}")
        width = max(len(result), len(shape))
        result = [1] * (width - len(result)) + result
        shape = [1] * (width - len(shape)) + shape
        for k, (a, b) in enumerate(zip(result, shape)):
            if a != b and a != 1 and b != 1 and a >= 0 and b >= 0:
                raise ValueError(f"{api}(): shapes of {' and '.join(shown)} cannot be broadcast "
                                 f"together (dimension {k} from the right-aligned shapes is "
                                 f"{a} and {b})")
            result[k] = b if a == 1 else a


def _sum_last(x):
    return _C_ops.sum(x, [-1], x.dtype, False)


def _constant_like(x, value):
    """A 0-d tensor holding `value` in x's dtype, which broadcasts against x."""
    return _C_ops.full([], value, x.dtype, x.place)


def binary_cross_entropy(input, label, weight=None, reduction="mean", name=None):
    """reduce(-weight * (label * log(input) + (1 - label) * log(1 - input))), input holding
    probabilities in [0, 1]; each log is clamped at -100 (the bce_loss op)."""
    _check_reduction(reduction, "binary_cross_entropy")
    _check_floating(input, "binary_cross_entropy", "input")
    _check_floating(label, "binary_cross_entropy", "label")
    out = _C_ops.bce_loss(input, label)
    if weight is not None:
        _check_floating(weight, "binary_cross_entropy", "weight")
        _check_broadcast("binary_cross_entropy", ("input", input), ("weight", weight))
        out = _C_ops.multiply(out, weight)
    return _reduce(out, reduction)


def binary_cross_entropy_with_logits(logit, label, weight=None, reduction="mean",
                                     pos_weight=None, name=None):
    """Sigmoid cross entropy of logits (the sigmoid_cross_entropy_with_logits op); pos_weight
    (broadcast against label) weighs the positive term: the op gets 1 + (pos_weight - 1) * label
    per element, as in Paddle."""
    api = "binary_cross_entropy_with_logits"
    _check_reduction(reduction, api)
    _check_floating(logit, api, "logit")
    _check_floating(label, api, "label")
    if pos_weight is not None:
        _check_floating(pos_weight, api, "pos_weight")
        _check_broadcast(api, ("label", label), ("pos_weight", pos_weight))
        one = _constant_like(logit, 1.0)
        pos_weight = _C_ops.add(_C_ops.multiply(label, _C_ops.subtract(pos_weight, one)), one)
    out = _C_ops.sigmoid_cross_entropy_with_logits(logit, label, pos_weight, False, -100)
    if weight is not None:
        _check_floating(weight, api, "weight")
        _check_broadcast(api, ("logit", logit), ("weight", weight))
        out = _C_ops.multiply(out, weight)
    return _reduce(out, reduction)


def smooth_l1_loss(input, label, reduction="mean", delta=1.0, is_huber=True, name=None):
    """reduce(huber(label - input, delta)): r^2 / 2 where |r| <= delta, else
    delta * (|r| - delta / 2); divided by delta when is_huber is False."""
    _check_reduction(reduction, "smooth_l1_loss")
    _check_floating(input, "smooth_l1_loss", "input")
    _check_floating(label, "smooth_l1_loss", "label")
    out, _ = _C_ops.huber_loss(input, label, float(delta))
    if not is_huber:
        out = _C_ops.scale(out, 1.0 / delta, 0.0, True)
    return _reduce(out, reduction)


def kl_div(input, label, reduction="mean", log_target=False, name=None):
    """Kullback-Leibler divergence of `label` from the log-probabilities `input` (the kldiv_loss
    op): label * (log(label) - input), or exp(label) * (label - input) with log_target.
    reduction 'batchmean' divides the sum by input.shape[0]. A float32 / float64 pair is
    computed in float64, as in Paddle."""
    if reduction not in ("none", "mean", "sum", "batchmean"):
        raise ValueError(f"The value of 'reduction' in kl_div should be 'none', 'batchmean', "
                         f"'mean' or 'sum', but received {reduction}, which is not allowed.")
    _check_floating(input, "kl_div", "input")
    _check_floating(label, "kl_div", "label")
    if input.dtype.name == "float32" and label.dtype.name == "float64":
        input = _C_ops.cast(input, label.dtype)
    elif input.dtype.name == "float64" and label.dtype.name == "float32":
        label = _C_ops.cast(label, input.dtype)
    return _C_ops.kldiv_loss(input, label, reduction, bool(log_target))


def margin_ranking_loss(input, other, label, margin=0.0, reduction="mean", name=None):
    """reduce(relu(-label * (input - other) + margin))."""
    _check_reduction(reduction, "MarginRankingLoss")
    for arg, t in (("input", input), ("other", other), ("label", label)):
        _check_floating(t, "margin_ranking_loss", arg)
    _check_broadcast("margin_ranking_loss", ("input", input), ("other", other), ("label", label))
    out = _C_ops.multiply(_C_ops.subtract(other, input), label)
    if margin != 0.0:
        out = _C_ops.add(out, _constant_like(out, margin))
    return _reduce(_C_ops.relu(out), reduction)


def hinge_embedding_loss(input, label, margin=1.0, reduction="mean", name=None):
    """reduce(input where label == 1, relu(margin - input) where label == -1, else 0)."""
    _check_reduction(reduction, "hinge_embedding_loss")
    _check_floating(input, "hinge_embedding_loss", "input")
    _check_floating(label, "hinge_embedding_loss", "label")
    _check_broadcast("hinge_embedding_loss", ("input", input), ("label", label))
    zero = _constant_like(input, 0.0)
    positive = _C_ops.where(_C_ops.equal(label, _constant_like(label, 1.0)), input, zero)
    hinge = _C_ops.relu(_C_ops.scale(input, -1.0, float(margin), True))
    negative = _C_ops.where(_C_ops.equal(label, _constant_like(label, -1.0)), hinge, zero)
    return _reduce(_C_ops.add(positive, negative), reduction)


def cosine_embedding_loss(input1, input2, label, margin=0, reduction="mean", name=None):
    """Per row: 1 - cos(input1, input2) where label == 1, max(0, cos - margin) where label == -1,
    else 0. Inputs are [N, M] (or [M]), label [N]; each squared norm gets 1e-11 so that a zero
    row has cosine 0."""
    _check_reduction(reduction, "cosine_embedding_loss")
    api = "cosine_embedding_loss"
    for arg, t in (("input1", input1), ("input2", input2), ("label", label)):
        check_tensor(t, api, arg)
    if len(label.shape) != 1:
        raise ValueError(f"{api}(): 'label' must be 1-D, but received shape {list(label.shape)}")
    _check_same_shape(input1, "input1", input2, "input2", api)
    if len(input1.shape) > 2:
        raise ValueError(f"{api}(): 'input1' and 'input2' must be 1-D or 2-D, but received shape "
                         f"{list(input1.shape)}")
    if input1.dtype.name not in ("float32", "float64"):
        raise TypeError(f"{api}(): 'input1' must be float32 or float64, but it is "
                        f"{input1.dtype.name}")
    if label.dtype.name not in ("int32", "int64", "float32", "float64"):
        raise TypeError(f"{api}(): 'label' must be int32, int64, float32 or float64, but it is "
                        f"{label.dtype.name}")
    dot = _sum_last(_C_ops.multiply(input1, input2))
    norm1 = _C_ops.scale(_sum_last(_C_ops.square(input1)), 1.0, 10e-12, True)
    norm2 = _C_ops.scale(_sum_last(_C_ops.square(input2)), 1.0, 10e-12, True)
    cos = _C_ops.divide(dot, _C_ops.sqrt(_C_ops.multiply(norm1, norm2)))
    zeros = _C_ops.full_like(cos, 0.0, cos.dtype)
    positive = _C_ops.scale(cos, -1.0, 1.0, True)
    negative = _C_ops.relu(_C_ops.scale(cos, 1.0, -float(margin), True))
    out = _C_ops.add(
        _C_ops.where(_C_ops.equal(label, _constant_like(label, 1)), positive, zeros),
        _C_ops.where(_C_ops.equal(label, _constant_like(label, -1)), negative, zeros))
    return _reduce(out, reduction)


def _pairwise_distance(x, y, p, epsilon):
    """The p-norm of x - y + epsilon along the last axis (Paddle's pairwise_distance): the
    largest (smallest) magnitude for p = inf (-inf), the count of non-zeros for p = 0."""
    diff = _C_ops.subtract(x, y)
    if epsilon != 0.0:
        diff = _C_ops.add(diff, _constant_like(diff, epsilon))
    magnitude = _C_ops.abs(diff)
    if p == float("inf"):
        return _C_ops.max(magnitude, [-1], False)
    if p == float("-inf"):
        return _C_ops.min(magnitude, [-1], False)
    if p == 0:
        nonzero = _C_ops.cast(_C_ops.not_equal(diff, _constant_like(diff, 0.0)), diff.dtype)
        return _sum_last(nonzero)
    total = _sum_last(_C_ops.pow(magnitude, float(p)))
    return _C_ops.pow(total, 1.0 / float(p))


def _triplet_checks(input, positive, negative, margin, reduction, api):
    _check_reduction(reduction, api)
    if margin < 0:
        raise ValueError(f"{api}(): 'margin' between positive and negative samples must not be "
                         f"negative, but received {margin}")
    for arg, t in (("input", input), ("positive", positive), ("negative", negative)):
        _check_floating(t, api, arg)
    _check_same_shape(input, "input", positive, "positive", api)
    _check_same_shape(input, "input", negative, "negative", api)


def _triplet_loss(positive_dist, negative_dist, margin, reduction):
    loss = _C_ops.relu(_C_ops.add(_C_ops.subtract(positive_dist, negative_dist),
                                  _constant_like(positive_dist, margin)))
    return _reduce(loss, reduction)


def triplet_margin_loss(input, positive, negative, margin=1.0, p=2, epsilon=1e-06, swap=False,
                        reduction="mean", name=None):
    """reduce(max(d(input, positive) - d(input, negative) + margin, 0)) with d the p-norm
    distance of pairwise_distance; swap uses min(d(input, negative), d(positive, negative))."""
    _triplet_checks(input, positive, negative, margin, reduction, "triplet_margin_loss")
    positive_dist = _pairwise_distance(input, positive, p, epsilon)
    negative_dist = _pairwise_distance(input, negative, p, epsilon)
    if swap:
        negative_dist = _C_ops.minimum(negative_dist,
                                       _pairwise_distance(positive, negative, p, epsilon))
    return _triplet_loss(positive_dist, negative_dist, margin, reduction)


def triplet_margin_with_distance_loss(input, positive, negative, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean", name=None):
    """triplet_margin_loss with a distance function of two tensors (default: the 2-norm
    pairwise distance with epsilon 1e-6). In dygraph a negative distance raises ValueError."""
    api = "triplet_margin_with_distance_loss"
    _triplet_checks(input, positive, negative, margin, reduction, api)
    if distance_function is None:
        def distance_function(x, y):
            return _pairwise_distance(x, y, 2.0, 1e-6)
    positive_dist = distance_function(input, positive)
    negative_dist = distance_function(input, negative)
    if swap:
        negative_dist = _C_ops.minimum(negative_dist, distance_function(positive, negative))
    if in_dynamic_mode():
        for dist in (positive_dist, negative_dist):
            if (dist.numpy() < 0).any():
                raise ValueError(f"{api}(): the distance function returned a negative "
                                 f"distance; distances must be >= 0")
    return _triplet_loss(positive_dist, negative_dist, margin, reduction)


def soft_margin_loss(input, label, reduction="mean", name=None):
    """reduce(log(1 + exp(-label * input))), label (cast to input's dtype) holding 1 or -1."""
    _check_reduction(reduction, "soft_margin_loss")
    _check_floating(input, "soft_margin_loss", "input")
    check_tensor(label, "soft_margin_loss", "label")
    if label.dtype.name not in ("int32", "int64", "float32", "float64"):
        raise TypeError(f"soft_margin_loss(): 'label' must be int32, int64, float32 or float64, "
                        f"but it is {label.dtype.name}")
    _check_same_shape(input, "input", label, "label", "soft_margin_loss")
    label = _C_ops.cast(label, input.dtype)
    # softplus(z) = log(1 + exp(z)), computed without overflowing exp for large z.
    out = _C_ops.softplus(_C_ops.scale(_C_ops.multiply(label, input), -1.0, 0.0, True), 1.0,
                          20.0)
    return _reduce(out, reduction)


def multi_label_soft_margin_loss(input, label, weight=None, reduction="mean", name=None):
    """Per row of [N, C]: mean over C of -weight * (label * log_sigmoid(input) + (1 - label) *
    log_sigmoid(-input)), then reduced over N."""
    api = "multi_label_soft_margin_loss"
    _check_reduction(reduction, api)
    _check_floating(input, api, "input")
    _check_floating(label, api, "label")
    _check_same_shape(input, "input", label, "label", api)
    positive = _C_ops.multiply(label, _C_ops.logsigmoid(input))
    negative = _C_ops.multiply(_C_ops.scale(label, -1.0, 1.0, True),
                               _C_ops.logsigmoid(_C_ops.scale(input, -1.0, 0.0, True)))
    loss = _C_ops.scale(_C_ops.add(positive, negative), -1.0, 0.0, True)
    if weight is not None:
        _check_floating(weight, api, "weight")
        _check_broadcast(api, ("input", input), ("weight", weight))
        loss = _C_ops.multiply(loss, weight)
    return _reduce(_C_ops.mean(loss, [-1], False), reduction)


def sigmoid_focal_loss(logit, label, normalizer=None, alpha=0.25, gamma=2.0, reduction="sum",
                       name=None):
    """Focal loss of logits: alpha_t * (1 - p_t)^gamma * bce_with_logits(logit, label), with
    p = sigmoid(logit), p_t = p * label + (1 - p) * (1 - label) and alpha_t = alpha * label +
    (1 - alpha) * (1 - label); divided by normalizer (a 0-d or 1-element tensor) if given."""
    api = "sigmoid_focal_loss"
    _check_reduction(reduction, api)
    _check_floating(logit, api, "logit")
    _check_floating(label, api, "label")
    if normalizer is not None:
        _check_floating(normalizer, api, "normalizer")
        if len(normalizer.shape) > 1:
            raise ValueError(f"{api}(): 'normalizer' must have zero or one dimension, but "
                             f"received shape {list(normalizer.shape)}")
        _check_broadcast(api, ("logit", logit), ("normalizer", normalizer))
    loss = _C_ops.sigmoid_cross_entropy_with_logits(logit, label, None, False, -100)
    pred = _C_ops.sigmoid(logit)
    not_label = _C_ops.scale(label, -1.0, 1.0, True)
    p_t = _C_ops.add(_C_ops.multiply(pred, label),
                     _C_ops.multiply(_C_ops.scale(pred, -1.0, 1.0, True), not_label))
    alpha_t = _C_ops.add(_C_ops.scale(label, float(alpha), 0.0, True),
                         _C_ops.scale(not_label, 1.0 - float(alpha), 0.0, True))
    loss = _C_ops.multiply(alpha_t, loss)
    gamma_t = _C_ops.pow(_C_ops.scale(p_t, -1.0, 1.0, True), float(gamma))
    loss = _C_ops.multiply(gamma_t, loss)
    if normalizer is not None:
        loss = _C_ops.divide(loss, normalizer)
    return _reduce(loss, reduction)


def square_error_cost(input, label):
    """(input - label)^2, elementwise."""
    _check_floating(input, "square_error_cost", "input")
    _check_floating(label, "square_error_cost", "label")
    _check_broadcast("square_error_cost", ("input", input), ("label", label))
    return _C_ops.square(_C_ops.subtract(input, label))


def poisson_nll_loss(input, label, log_input=True, full=False, epsilon=1e-08, reduction="mean",
                     name=None):
    """Poisson negative log likelihood: exp(input) - label * input when input holds log-rates,
    else input - label * log(input + epsilon); with full, Stirling's approximation of
    log(label!) is added where label > 1."""
    api = "poisson_nll_loss"
    if epsilon <= 0:
        raise ValueError(f"{api}(): 'epsilon' must be positive, but received {epsilon}")
    _check_reduction(reduction, api)
    _check_floating(input, api, "input")
    _check_floating(label, api, "label")
    _check_same_shape(input, "input", label, "label", api)
    if log_input:
        loss = _C_ops.subtract(_C_ops.exp(input), _C_ops.multiply(label, input))
    else:
        shifted = _C_ops.scale(input, 1.0, float(epsilon), True)
        loss = _C_ops.subtract(input, _C_ops.multiply(label, _C_ops.log(shifted)))
    if full:
        stirling = _C_ops.add(
            _C_ops.subtract(_C_ops.multiply(label, _C_ops.log(label)), label),
            _C_ops.scale(_C_ops.log(_C_ops.scale(label, 2 * math.pi, 0.0, True)), 0.5, 0.0,
                         True))
        above_one = _C_ops.greater_than(label, _constant_like(label, 1.0))
        loss = _C_ops.add(loss, _C_ops.where(above_one, stirling,
                                             _C_ops.full_like(stirling, 0.0, stirling.dtype)))
    return _reduce(loss, reduction)


def gaussian_nll_loss(input, label, variance, full=False, epsilon=1e-06, reduction="mean",
                      name=None):
    """Gaussian negative log likelihood: 0.5 * (log(var) + (input - label)^2 / var) (+ 0.5 *
    log(2 pi) with full), var clamped below at epsilon. variance has input's shape, or input's
    without (or with 1 as) the last dim (one variance per row)."""
    api = "gaussian_nll_loss"
    for arg, t in (("input", input), ("label", label), ("variance", variance)):
        check_tensor(t, api, arg)
        if t.dtype.name not in ("float32", "float64"):
            raise TypeError(f"{api}(): '{arg}' must be float32 or float64, but it is "
                            f"{t.dtype.name}")
    input_shape, variance_shape = list(input.shape), list(variance.shape)
    if variance_shape != input_shape:
        if input_shape[:-1] == variance_shape:
            variance = _C_ops.unsqueeze(variance, [-1])
        elif not (input_shape[:-1] == variance_shape[:-1] and variance_shape[-1:] == [1]):
            raise ValueError(f"{api}(): 'variance' must have the shape of 'input' "
                             f"{input_shape}, or that shape without (or with 1 as) its last "
                             f"dim, but received {variance_shape}")
    _check_reduction(reduction, api)
    if in_dynamic_mode() and (variance.numpy() < 0).any():
        raise ValueError(f"{api}(): 'variance' has negative entries")
    variance = _C_ops.maximum(variance, _constant_like(variance, epsilon))
    loss = _C_ops.scale(
        _C_ops.add(_C_ops.log(variance),
                   _C_ops.divide(_C_ops.square(_C_ops.subtract(input, label)), variance)),
        0.5, 0.5 * math.log(2 * math.pi) if full else 0.0, True)
    return _reduce(loss, reduction)


# Paddle's paddle.nn.functional.loss also holds these.
from .ctc import ctc_loss, edit_distance  # noqa: E402,F401


def label_smooth(label, prior_dist=None, epsilon=0.1, name=None):
    """(1 - epsilon) * label + epsilon * prior_dist, the prior being uniform (1 / C, C the size
    of the last dim) when not given."""
    check_tensor(label, "label_smooth", "label")
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"label_smooth(): 'epsilon' must be in [0, 1], but received {epsilon}")
    if not is_floating(label.dtype):
        raise TypeError(f"label_smooth(): 'label' must be a floating-point tensor, but it is "
                        f"{label.dtype.name}")
    if prior_dist is None:
        classes = label.shape[-1] if len(label.shape) else None
        if classes is None or classes < 0:
            raise ValueError("label_smooth(): the last dim of 'label' (the classes) must be "
                             f"known, but label has shape {list(label.shape)}")
        # No classes means no elements: the uniform prior adds nothing to an empty tensor.
        prior = epsilon / classes if classes else 0.0
        return _C_ops.scale(label, 1.0 - epsilon, prior, True)
    check_tensor(prior_dist, "label_smooth", "prior_dist")
    return _C_ops.add(_C_ops.scale(label, 1.0 - epsilon, 0.0, True),
                      _C_ops.scale(_C_ops.cast(prior_dist, label.dtype), epsilon, 0.0, True))


def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100,
                               numeric_stable_mode=True, return_softmax=False, axis=-1):
    """The softmax_with_cross_entropy op itself: hard labels have size 1 on `axis`, the
    per-position loss keeps that axis, and with return_softmax the softmax of `logits` comes
    too."""
    check_tensor(logits, "softmax_with_cross_entropy", "logits")
    check_tensor(label, "softmax_with_cross_entropy", "label")
    rank = len(logits.shape)
    if not -rank <= axis < rank:
        raise ValueError(f"softmax_with_cross_entropy(): 'axis' must be in [{-rank}, {rank}), "
                         f"but received {axis}")
    softmax, loss = _C_ops.cross_entropy_with_softmax(logits, label, bool(soft_label), True,
                                                      bool(numeric_stable_mode),
                                                      int(ignore_index), axis % rank)
    return (loss, softmax) if return_softmax else loss
