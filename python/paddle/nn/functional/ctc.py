"""CTC loss and edit distance (paddle.nn.functional.ctc_loss, paddle.nn.functional.loss.
edit_distance). Hand-written because Paddle does work here beyond the ops: ctc_loss reduces
warpctc's per-sequence losses (its 'mean' divides each by its label length first) and can zero
infinite ones; edit_distance rejects ignored_tokens and returns its two results in the order
Paddle returns them in each mode."""
from ... import _C_ops
from ...base.framework import in_dynamic_mode
from ...tensor._helpers import check_tensor

__all__ = ["ctc_loss", "edit_distance"]


def ctc_loss(log_probs, labels, input_lengths, label_lengths, blank=0, reduction="mean",
             norm_by_times=False, zero_infinity=False):
    """The CTC loss of logits `log_probs` [T, B, C] (unnormalized: warpctc applies the softmax)
    against padded labels [B, L] (int32), with each sequence's frame count `input_lengths` and
    label count `label_lengths` (int64, [B]). 'none' returns the losses [B], 'sum' their sum, and
    'mean' the mean of each loss divided by its label length. norm_by_times divides each
    sequence's gradient by its frame count (the loss is unchanged)."""
    if input_lengths is None or label_lengths is None:
        raise ValueError("ctc_loss(): input_lengths and label_lengths must not be None (tensors "
                         "carry no LoD here)")
    for arg, t in (("log_probs", log_probs), ("labels", labels), ("input_lengths", input_lengths),
                   ("label_lengths", label_lengths)):
        check_tensor(t, "ctc_loss", arg)
    if reduction not in ("sum", "mean", "none"):
        raise ValueError(f"ctc_loss(): argument 'reduction' must be 'sum', 'mean' or 'none', "
                         f"received {reduction!r}")
    loss = _C_ops.warpctc(log_probs, labels, input_lengths, label_lengths, blank,
                          norm_by_times)[0]
    loss = _C_ops.squeeze(loss, [-1])
    if zero_infinity:
        loss = _C_ops.where(_C_ops.isinf(loss), _C_ops.full_like(loss, 0.0, loss.dtype), loss)
    if reduction == "mean":
        return _C_ops.mean(_C_ops.divide(loss, _C_ops.cast(label_lengths, loss.dtype)), [], False)
    if reduction == "sum":
        return _C_ops.sum(loss, [], loss.dtype, False)
    return loss


def edit_distance(input, label, normalized=True, ignored_tokens=None, input_length=None,
                  label_length=None):
    """The Levenshtein distances [B, 1] (float32) between the hypotheses `input` [B, Th] and the
    references `label` [B, Tr] (int64), each cut to its length when lengths are given, divided
    by the reference's length when `normalized`; and the number of sequences [1] (int64).

    Paddle returns (sequence_num, distances) in dygraph and (distances, sequence_num) in a static
    program; both orders are kept, so scripts written for either mode read the same values."""
    check_tensor(input, "edit_distance", "input")
    check_tensor(label, "edit_distance", "label")
    if ignored_tokens is not None and len(ignored_tokens) > 0:
        raise ValueError(f"Expected ignored_tokens is None (got {ignored_tokens})")
    if (input_length is None) != (label_length is None):
        raise ValueError("edit_distance(): 'input_length' and 'label_length' must be given "
                         "together")
    sequence_num, distance = _C_ops.edit_distance(input, label, input_length, label_length,
                                                  normalized)
    if in_dynamic_mode():
        return sequence_num, distance
    return distance, sequence_num
