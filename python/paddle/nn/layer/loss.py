"""Loss layers: hold the options and call paddle.nn.functional."""
from .. import functional as F
from .layers import Layer

__all__ = ["CrossEntropyLoss", "MSELoss", "NLLLoss", "L1Loss", "BCELoss", "BCEWithLogitsLoss",
           "SmoothL1Loss", "KLDivLoss", "MarginRankingLoss", "HingeEmbeddingLoss",
           "CosineEmbeddingLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss",
           "SoftMarginLoss", "MultiLabelSoftMarginLoss", "PoissonNLLLoss", "GaussianNLLLoss"]


def _check_reduction(reduction, layer, allowed=("sum", "mean", "none")):
    if reduction not in allowed:
        names = ", ".join(f"'{r}'" for r in allowed)
        raise ValueError(f"The value of 'reduction' in {layer} should be one of {names}, but "
                         f"received {reduction}, which is not allowed.")


class CrossEntropyLoss(Layer):
    """See paddle.nn.functional.cross_entropy."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", soft_label=False,
                 axis=-1, use_softmax=True, label_smoothing=0.0, name=None):
        super().__init__()
        if reduction not in ("sum", "mean", "none"):
            raise ValueError(f"The value of 'reduction' in CrossEntropyLoss should be 'sum', "
                             f"'mean' or 'none', but received {reduction}, which is not "
                             f"allowed.")
        self.weight = weight
        self.ignore_index = ignore_index
        self.reduction = reduction
        self.soft_label = soft_label
        self.axis = axis
        self.use_softmax = use_softmax
        self.label_smoothing = label_smoothing
        self.name = name

    def forward(self, input, label):
        return F.cross_entropy(input, label, weight=self.weight,
                               ignore_index=self.ignore_index, reduction=self.reduction,
                               soft_label=self.soft_label, axis=self.axis,
                               use_softmax=self.use_softmax,
                               label_smoothing=self.label_smoothing)


class NLLLoss(Layer):
    """See paddle.nn.functional.nll_loss."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", name=None):
        super().__init__()
        if reduction not in ("sum", "mean", "none"):
            raise ValueError(f"The value of 'reduction' in nll_loss should be 'sum', 'mean' or "
                             f"'none', but received {reduction}, which is not allowed.")
        self._weight = weight
        self._ignore_index = ignore_index
        self._reduction = reduction

    def forward(self, input, label):
        return F.nll_loss(input, label, weight=self._weight, ignore_index=self._ignore_index,
                          reduction=self._reduction)


class MSELoss(Layer):
    """reduce((input - label)^2)."""

    def __init__(self, reduction="mean"):
        super().__init__()
        if reduction not in ("sum", "mean", "none"):
            raise ValueError(f"'reduction' in 'MSELoss' should be 'sum', 'mean' or 'none', but "
                             f"received {reduction}.")
        self.reduction = reduction

    def forward(self, input, label):
        return F.mse_loss(input, label, self.reduction)


class L1Loss(Layer):
    """reduce(|input - label|)."""

    def __init__(self, reduction="mean", name=None):
        super().__init__()
        if reduction not in ("sum", "mean", "none"):
            raise ValueError(f"The value of 'reduction' in L1Loss should be 'sum', 'mean' or "
                             f"'none', but received {reduction}, which is not allowed.")
        self.reduction = reduction

    def forward(self, input, label):
        return F.l1_loss(input, label, self.reduction)


class BCELoss(Layer):
    """See paddle.nn.functional.binary_cross_entropy."""

    def __init__(self, weight=None, reduction="mean", name=None):
        super().__init__()
        _check_reduction(reduction, "BCELoss")
        self.weight = weight
        self.reduction = reduction
        self.name = name

    def forward(self, input, label):
        return F.binary_cross_entropy(input, label, self.weight, self.reduction)


class BCEWithLogitsLoss(Layer):
    """See paddle.nn.functional.binary_cross_entropy_with_logits."""

    def __init__(self, weight=None, reduction="mean", pos_weight=None, name=None):
        super().__init__()
        _check_reduction(reduction, "BCEWithLogitsLoss")
        self.weight = weight
        self.reduction = reduction
        self.pos_weight = pos_weight
        self.name = name

    def forward(self, logit, label):
        return F.binary_cross_entropy_with_logits(logit, label, self.weight, self.reduction,
                                                  self.pos_weight)


class SmoothL1Loss(Layer):
    """See paddle.nn.functional.smooth_l1_loss."""

    def __init__(self, reduction="mean", delta=1.0, is_huber=True, name=None):
        super().__init__()
        _check_reduction(reduction, "SmoothL1Loss")
        self.reduction = reduction
        self.delta = delta
        self.is_huber = is_huber
        self.name = name

    def forward(self, input, label):
        return F.smooth_l1_loss(input, label, self.reduction, self.delta, self.is_huber)


class KLDivLoss(Layer):
    """See paddle.nn.functional.kl_div."""

    def __init__(self, reduction="mean", log_target=False):
        super().__init__()
        _check_reduction(reduction, "KLDivLoss", ("none", "batchmean", "mean", "sum"))
        self.reduction = reduction
        self.log_target = log_target

    def forward(self, input, label):
        return F.kl_div(input, label, self.reduction, self.log_target)


class MarginRankingLoss(Layer):
    """See paddle.nn.functional.margin_ranking_loss."""

    def __init__(self, margin=0.0, reduction="mean", name=None):
        super().__init__()
        _check_reduction(reduction, "MarginRankingLoss")
        self.margin = margin
        self.reduction = reduction
        self.name = name

    def forward(self, input, other, label):
        return F.margin_ranking_loss(input, other, label, self.margin, self.reduction)


class HingeEmbeddingLoss(Layer):
    """See paddle.nn.functional.hinge_embedding_loss."""

    def __init__(self, margin=1.0, reduction="mean", name=None):
        super().__init__()
        _check_reduction(reduction, "HingeEmbeddingLoss")
        self.margin = margin
        self.reduction = reduction
        self.name = name

    def forward(self, input, label):
        return F.hinge_embedding_loss(input, label, self.margin, self.reduction)


class CosineEmbeddingLoss(Layer):
    """See paddle.nn.functional.cosine_embedding_loss."""

    def __init__(self, margin=0, reduction="mean", name=None):
        super().__init__()
        if margin > 1 or margin < -1:
            raise ValueError(f"The value of 'margin' in CosineEmbeddingLoss should be in "
                             f"[-1, 1], but received {margin}, which is not allowed.")
        _check_reduction(reduction, "CosineEmbeddingLoss")
        self.margin = margin
        self.reduction = reduction
        self.name = name

    def forward(self, input1, input2, label):
        return F.cosine_embedding_loss(input1, input2, label, self.margin, self.reduction)


class TripletMarginLoss(Layer):
    """See paddle.nn.functional.triplet_margin_loss."""

    def __init__(self, margin=1.0, p=2.0, epsilon=1e-06, swap=False, reduction="mean",
                 name=None):
        super().__init__()
        _check_reduction(reduction, "TripletMarginLoss")
        self.margin = margin
        self.p = p
        self.epsilon = epsilon
        self.swap = swap
        self.reduction = reduction
        self.name = name

    def forward(self, input, positive, negative):
        return F.triplet_margin_loss(input, positive, negative, self.margin, self.p,
                                     self.epsilon, self.swap, self.reduction)


class TripletMarginWithDistanceLoss(Layer):
    """See paddle.nn.functional.triplet_margin_with_distance_loss."""

    def __init__(self, distance_function=None, margin=1.0, swap=False, reduction="mean",
                 name=None):
        super().__init__()
        _check_reduction(reduction, "TripletMarginWithDistanceLoss")
        self.margin = margin
        self.swap = swap
        self.reduction = reduction
        self.distance_function = distance_function
        self.name = name

    def forward(self, input, positive, negative):
        return F.triplet_margin_with_distance_loss(input, positive, negative,
                                                   self.distance_function, self.margin,
                                                   self.swap, self.reduction)


class SoftMarginLoss(Layer):
    """See paddle.nn.functional.soft_margin_loss."""

    def __init__(self, reduction="mean", name=None):
        super().__init__()
        _check_reduction(reduction, "SoftMarginLoss")
        self.reduction = reduction
        self.name = name

    def forward(self, input, label):
        return F.soft_margin_loss(input, label, self.reduction)


class MultiLabelSoftMarginLoss(Layer):
    """See paddle.nn.functional.multi_label_soft_margin_loss."""

    def __init__(self, weight=None, reduction="mean", name=None):
        super().__init__()
        _check_reduction(reduction, "MultiLabelSoftMarginLoss")
        self.weight = weight
        self.reduction = reduction
        self.name = name

    def forward(self, input, label):
        return F.multi_label_soft_margin_loss(input, label, self.weight, self.reduction)


class PoissonNLLLoss(Layer):
    """See paddle.nn.functional.poisson_nll_loss."""

    def __init__(self, log_input=True, full=False, epsilon=1e-08, reduction="mean", name=None):
        super().__init__()
        if epsilon <= 0:
            raise ValueError(f"The value of 'epsilon' in PoissonNLLLoss should be positive, but "
                             f"received {epsilon}, which is not allowed.")
        _check_reduction(reduction, "PoissonNLLLoss")
        self._log_input = log_input
        self._full = full
        self._epsilon = epsilon
        self._reduction = reduction
        self._name = name

    def forward(self, input, label):
        return F.poisson_nll_loss(input, label, self._log_input, self._full, self._epsilon,
                                  self._reduction)


class GaussianNLLLoss(Layer):
    """See paddle.nn.functional.gaussian_nll_loss."""

    def __init__(self, full=False, epsilon=1e-06, reduction="mean", name=None):
        super().__init__()
        _check_reduction(reduction, "GaussianNLLLoss")
        self.full = full
        self.epsilon = epsilon
        self.reduction = reduction
        self.name = name

    def forward(self, input, label, variance):
        return F.gaussian_nll_loss(input, label, variance, self.full, self.epsilon,
                                   self.reduction)
