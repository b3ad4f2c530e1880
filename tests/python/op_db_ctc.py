"""Harness entries (op_db.py) of the CTC and sequence-decoding ops: warpctc (through
paddle._C_ops and paddle.nn.functional.ctc_loss) and its gradient kernel, ctc_align,
edit_distance and gather_tree, against the NumPy references of ctc_reference.py. Labels,
lengths and parents are integer arrays, which the harness passes through unchanged; the token
samples of the integer ops are integral floats, which it casts to each registered dtype."""
import numpy as np

import paddle.nn.functional as F
from ctc_reference import (np_ctc_align, np_ctc_loss, np_edit_distance, np_gather_tree,
                           np_warpctc, np_warpctc_grad)
from harness import ErrorSample, OpInfo, Sample
from paddle import _C_ops

FORWARD_ONLY = "forward-only, as in Paddle: its results are tokens, counts or distances"
# norm_by_times scales the gradient but not the loss, so that gradient is not the loss's.
NORM_BY_TIMES_SKIP = []


def int32(values):
    return np.asarray(values, dtype=np.int32)


def int64(values):
    return np.asarray(values, dtype=np.int64)


def logits(rng, shape):
    return np.asarray(rng.uniform(-2.0, 2.0, size=shape))


# ---------------------------------------------------------------- warpctc
def warpctc(logits, label, logits_length=None, labels_length=None, blank=0, norm_by_times=False):
    return list(_C_ops.warpctc(logits, label, logits_length, labels_length, blank,
                               norm_by_times))


def warpctc_samples(rng):
    return [
        # Repeated labels (which need a blank between them), a shorter sequence and label.
        Sample([logits(rng, (6, 3, 5)), int32([[1, 2, 2], [3, 1, 0], [4, 4, 4]]),
                int64([6, 4, 6]), int64([3, 2, 1])]),
        Sample([logits(rng, (5, 2, 4)), int32([[3, 1], [2, 2]]), int64([5, 5]), int64([2, 2])],
               {"blank": 0}),
        # blank as the last class; an empty label; a sequence of no frames with an empty label.
        Sample([logits(rng, (4, 3, 4)), int32([[0, 2, 1], [1, 1, 1], [0, 0, 0]]),
                int64([4, 3, 0]), int64([3, 0, 0])], {"blank": 3}),
        # A label too long for its frames (loss 0, no gradient) beside a feasible one.
        Sample([logits(rng, (3, 2, 3)), int32([[1, 1, 2], [2, 1, 0]]), int64([3, 3]),
                int64([3, 2])]),
        # int64 labels and [B, 1] lengths; without lengths every row is whole.
        Sample([logits(rng, (4, 2, 3)), int64([[1, 2], [2, 1]]), int64([[4], [3]]),
                int64([[2], [1]])]),
        Sample([logits(rng, (5, 2, 4)), int32([[1, 2], [3, 3]])]),
        Sample([logits(rng, (5, 2, 4)), int32([[1, 2], [3, 3]]), int64([5, 3]), int64([2, 1])],
               {"norm_by_times": True}, grad_args=NORM_BY_TIMES_SKIP),
        Sample([logits(rng, (3, 0, 4)), int32(np.zeros((0, 2))), int64([]), int64([])]),
    ]


def warpctc_errors():
    x = np.zeros((3, 2, 4))
    label, lengths, label_lengths = int32([[1, 2], [3, 1]]), int64([3, 3]), int64([2, 2])
    return [
        ErrorSample([x, int32([[1, 0], [3, 1]]), lengths, label_lengths], {}, ValueError,
                    "other than blank 0, received 0"),
        ErrorSample([x, int32([[1, 4], [3, 1]]), lengths, label_lengths], {}, ValueError,
                    "received 4 at label 1"),
        ErrorSample([x, int32([[1, -1], [3, 1]]), lengths, label_lengths], {}, ValueError,
                    "'label'"),
        ErrorSample([x, label, int64([4, 3]), label_lengths], {}, ValueError,
                    "'logits_length' must hold lengths in [0, 3]"),
        ErrorSample([x, label, int64([-1, 3]), label_lengths], {}, ValueError, "logits_length"),
        ErrorSample([x, label, lengths, int64([3, 2])], {}, ValueError,
                    "'labels_length' must hold lengths in [0, 2]"),
        ErrorSample([x, label, lengths, int64([2, -2])], {}, ValueError, "labels_length"),
        ErrorSample([x, label, lengths, label_lengths], {"blank": 4}, ValueError, "'blank'"),
        ErrorSample([x, label, lengths, label_lengths], {"blank": -1}, ValueError, "'blank'"),
        ErrorSample([x, int32([[1, 2]]), lengths, label_lengths], {}, ValueError,
                    "one row per sequence"),
        ErrorSample([x, label, int64([3, 3, 3]), label_lengths], {}, ValueError,
                    "one length per sequence"),
        ErrorSample([np.zeros((3, 4)), label, lengths, label_lengths], {}, ValueError,
                    "'logits' must be 3-D"),
        ErrorSample([x, np.zeros((2, 2)), lengths, label_lengths], {}, ValueError,
                    "'label' must be int32 or int64"),
        ErrorSample([x, int32([1, 2]), lengths, label_lengths], {}, ValueError,
                    "'label' must be 2-D"),
    ]


def ctc_loss_samples(rng):
    label, lengths, label_lengths = int32([[1, 2, 2], [3, 1, 0]]), int64([6, 4]), int64([3, 2])
    return [
        Sample([logits(rng, (6, 2, 5)), label, lengths, label_lengths]),
        Sample([logits(rng, (6, 2, 5)), label, lengths, label_lengths], {"reduction": "sum"}),
        Sample([logits(rng, (6, 2, 5)), label, lengths, label_lengths], {"reduction": "none"}),
        Sample([logits(rng, (6, 2, 5)), int32([[4, 1, 0], [2, 2, 1]]), lengths, int64([2, 3])],
               {"blank": 3, "reduction": "none", "zero_infinity": True}),
        Sample([logits(rng, (6, 2, 5)), label, lengths, label_lengths],
               {"norm_by_times": True}, grad_args=NORM_BY_TIMES_SKIP),
    ]


def ctc_loss_errors():
    x = np.zeros((3, 2, 4))
    label, lengths = int32([[1, 2], [3, 1]]), int64([3, 3])
    return [
        ErrorSample([x, label, lengths, lengths], {"reduction": "avg"}, ValueError, "reduction"),
        ErrorSample([x, label, [3, 3], lengths], {}, TypeError, "input_lengths"),
        ErrorSample([x, label, lengths, int64([2, 5])], {}, ValueError, "labels_length"),
    ]


def warpctc_grad_op(logits, logits_length, warpctcgrad, loss_grad, blank=0,
                    norm_by_times=False):
    """The gradient as a Paddle training program holds it: warpctc_grad."""
    from op_db import program_op  # op_db imports this module's entries at its end
    return program_op("warpctc_grad", {"Logits": logits, "LogitsLength": logits_length,
                                       "WarpCTCGrad": warpctcgrad, "Loss@GRAD": loss_grad},
                      {"Logits@GRAD": "Logits"},
                      {"blank": blank, "norm_by_times": norm_by_times})[0]


def warpctc_grad_samples(rng):
    """Forward samples with the gradient their forward computes."""
    samples = []
    for sample, norm_by_times in ((warpctc_samples(rng)[0], False),
                                  (warpctc_samples(rng)[2], True)):
        x, label, lengths, label_lengths = sample.args
        blank = sample.kwargs.get("blank", 0)
        grad = np_warpctc(x, label, lengths, label_lengths, blank)[1]
        samples.append(Sample([x, lengths, grad, logits(rng, (x.shape[1], 1)), blank,
                               norm_by_times]))
    return samples


# ---------------------------------------------------------------- ctc_align
def ctc_align(input, input_length=None, blank=0, merge_repeated=True, padding_value=0):
    return list(_C_ops.ctc_align(input, input_length, blank, merge_repeated, padding_value))


def tokens(values):
    """Integral floats, cast by the harness to each integer dtype of the op."""
    return np.asarray(values, dtype=np.float64)


def ctc_align_samples(rng):
    batch = tokens([[0, 1, 1, 0, 2, 2, 0, 3], [1, 1, 0, 0, 1, 4, 4, 0], [0, 0, 0, 0, 0, 0, 0, 0]])
    return [
        Sample([batch, tokens([[8], [5], [8]])]),
        Sample([batch, tokens([[8], [5], [3]])], {"merge_repeated": False, "padding_value": -1}),
        Sample([batch, tokens([[8], [8], [0]])], {"blank": 1, "padding_value": 7}),
        Sample([batch, tokens([6, 8, 2])], {"blank": 4}),
        Sample([tokens(rng.integers(0, 4, (4, 10))), tokens(rng.integers(0, 11, (4, 1)))]),
        # Without lengths: one sequence [N, 1]; all blanks decode to [[-1]].
        Sample([tokens([[0], [1], [1], [0], [2], [2], [3], [0]])]),
        Sample([tokens([[1], [1], [2]])], {"merge_repeated": False, "blank": 2}),
        Sample([tokens([[0], [0], [0]])]),
        Sample([tokens(np.zeros((0, 5))), tokens(np.zeros((0, 1)))]),
    ]


def ctc_align_errors():
    batch = int64([[0, 1, 1, 0, 2], [1, 1, 0, 0, 1]])
    return [
        ErrorSample([batch, int64([[6], [5]])], {}, ValueError,
                    "'input_length' must hold lengths in [0, 5]"),
        ErrorSample([batch, int64([[-1], [5]])], {}, ValueError, "input_length"),
        ErrorSample([batch, int64([[5], [5], [5]])], {}, ValueError, "one length per sequence"),
        ErrorSample([batch], {}, ValueError, "one sequence [N, 1]"),
        ErrorSample([int64([[[0, 1]]]), int64([[2]])], {}, ValueError, "'input' must be 2-D"),
    ]


# ---------------------------------------------------------------- edit_distance
def edit_distance(hyps, refs, hypslength=None, refslength=None, normalized=False):
    return list(_C_ops.edit_distance(hyps, refs, hypslength, refslength, normalized))


def edit_distance_samples(rng):
    hyps = tokens([[1, 2, 3], [4, 5, 6], [4, 4, 4], [1, 1, 1]])
    refs = tokens([[1, 3, 4, 1], [4, 5, 8, 1], [7, 7, 7, 1], [1, 1, 1, 1]])
    return [
        Sample([hyps, refs, tokens([3, 3, 3, 3]), tokens([4, 4, 4, 4])]),
        Sample([hyps, refs, tokens([3, 3, 3, 3]), tokens([4, 4, 4, 4])], {"normalized": True}),
        # Empty hypotheses and references (normalized needs non-empty references).
        Sample([hyps, refs, tokens([[0], [2], [3], [1]]), tokens([[4], [0], [2], [0]])]),
        Sample([hyps, refs, tokens([0, 2, 3, 1]), tokens([4, 1, 2, 3])], {"normalized": True}),
        Sample([hyps, refs]),
        Sample([tokens(rng.integers(0, 3, (5, 7))), tokens(rng.integers(0, 3, (5, 6))),
                tokens(rng.integers(0, 8, 5)), tokens(rng.integers(1, 7, 5))],
               {"normalized": True}),
        Sample([tokens(np.zeros((0, 3))), tokens(np.zeros((0, 2)))]),
    ]


def edit_distance_errors():
    hyps, refs = int64([[1, 2, 3], [4, 5, 6]]), int64([[1, 3, 4, 1], [4, 5, 8, 1]])
    return [
        ErrorSample([hyps, refs, int64([3, 2]), int64([4, 0])], {"normalized": True},
                    ValueError, "reference 1 is empty"),
        ErrorSample([hyps, refs, int64([4, 2]), int64([4, 1])], {}, ValueError,
                    "'hypslength' must hold lengths in [0, 3]"),
        ErrorSample([hyps, refs, int64([3, 2]), int64([5, 1])], {}, ValueError,
                    "'refslength' must hold lengths in [0, 4]"),
        ErrorSample([hyps, refs, int64([3, 2])], {}, ValueError, "given together"),
        ErrorSample([hyps, int64([[1, 3, 4, 1]])], {}, ValueError,
                    "must hold the same number of sequences"),
        ErrorSample([int64([1, 2, 3]), refs], {}, ValueError, "'hyps' must be 2-D"),
    ]


# ---------------------------------------------------------------- gather_tree
def gather_tree_samples(rng):
    ids = tokens([[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]])
    parents = tokens([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]])
    return [
        Sample([ids, parents]),
        Sample([tokens(rng.integers(0, 20, (6, 3, 4))), tokens(rng.integers(0, 4, (6, 3, 4)))]),
        Sample([tokens(rng.integers(0, 20, (1, 2, 3))), tokens(rng.integers(0, 3, (1, 2, 3)))]),
        Sample([tokens(np.zeros((0, 2, 3))), tokens(np.zeros((0, 2, 3)))]),
    ]


def gather_tree_errors():
    ids = int64([[[2, 2], [6, 1]], [[3, 9], [6, 1]]])
    return [
        ErrorSample([ids, int64([[[0, 0], [1, 1]], [[2, 0], [1, 0]]])], {}, ValueError,
                    "beam indices in [0, 2), received 2"),
        ErrorSample([ids, int64([[[0, 0], [1, 1]], [[-1, 0], [1, 0]]])], {}, ValueError,
                    "'parents'"),
        ErrorSample([ids, int64([[[0, 0], [1, 1]]])], {}, ValueError, "'parents' must match"),
        ErrorSample([int64([[2, 2], [6, 1]]), int64([[0, 0], [1, 1]])], {}, ValueError,
                    "'ids' must be 3-D"),
    ]


CTC_OPS = [
    OpInfo("warpctc", warpctc, np_warpctc, warpctc_samples, grad_outputs=[0],
           errors=warpctc_errors),
    OpInfo("ctc_loss", F.ctc_loss, np_ctc_loss, ctc_loss_samples, covers=["warpctc"],
           errors=ctc_loss_errors),
    OpInfo("warpctc_grad", warpctc_grad_op, np_warpctc_grad, warpctc_grad_samples,
           grad=False, no_grad_reason="a gradient kernel without a gradient of its own; it is "
                                      "checked as the first-order gradient of the warpctc entry"),
    OpInfo("ctc_align", ctc_align, np_ctc_align, ctc_align_samples,
           grad=False, no_grad_reason=FORWARD_ONLY, errors=ctc_align_errors),
    OpInfo("edit_distance", edit_distance, np_edit_distance, edit_distance_samples,
           grad=False, no_grad_reason=FORWARD_ONLY, errors=edit_distance_errors),
    OpInfo("gather_tree", F.gather_tree, np_gather_tree, gather_tree_samples,
           grad=False, no_grad_reason=FORWARD_ONLY, errors=gather_tree_errors),
]
