"""The CTC loss layer (paddle.nn.CTCLoss)."""
from .. import functional as F
from .layers import Layer

__all__ = ["CTCLoss"]


class CTCLoss(Layer):
    """See paddle.nn.functional.ctc_loss; norm_by_times is an argument of forward, as in
    Paddle."""

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__()
        self.blank = blank
        self.reduction = reduction
        self.zero_infinity = zero_infinity

    def forward(self, log_probs, labels, input_lengths, label_lengths, norm_by_times=False):
        return F.ctc_loss(log_probs, labels, input_lengths, label_lengths, self.blank,
                          self.reduction, norm_by_times=norm_by_times,
                          zero_infinity=self.zero_infinity)
