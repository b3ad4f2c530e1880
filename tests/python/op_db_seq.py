"""Harness entries (op_db.py) of the step-wise decoders of decode.yaml: beam_search and
beam_search_decode (through paddle._C_ops, with the LoD as offset tensors) and viterbi_decode
(through paddle.text.viterbi_decode), against the NumPy references of decode_reference.py, which
text/test_decode_ops.py checks against values recorded from PaddlePaddle 3.3.1. Ids, offsets,
parents and lengths are integer arrays, which the harness passes through unchanged; scores and
potentials run in each registered dtype."""
import numpy as np

import paddle
import paddle.text
from decode_reference import np_beam_search, np_beam_search_decode, np_viterbi_decode
from harness import ErrorSample, OpInfo, Sample
from paddle import _C_ops

FORWARD_ONLY = "forward-only, as in Paddle: its results are selections, tokens and paths"


def int64(values):
    return np.asarray(values, dtype=np.int64)


# ---------------------------------------------------------------- beam_search
def beam_search(pre_ids, pre_scores, ids, scores, source_offsets=None, beam_size=1, end_id=0,
                is_accumulated=True):
    return list(_C_ops.beam_search(pre_ids, pre_scores, ids, scores, source_offsets, beam_size,
                                   end_id, is_accumulated))


def beam_search_samples(rng):
    ids = int64([[3, 4, 5], [6, 7, 8], [9, 10, 11]])
    return [
        # Two sources; ties across rows and columns; an ended row (end_id 0) in source 1.
        Sample([int64([[1], [2], [0]]), np.array([[0.1], [0.2], [0.3]]), ids,
                np.array([[0.5, 0.3, 0.5], [0.5, 0.25, 0.15], [0.9, 0.8, 0.7]]),
                int64([0, 2, 3])], {"beam_size": 2, "end_id": 0}),
        # Every row its own source; probabilities; the column is the id.
        Sample([int64([[4], [5], [6]]), np.log(rng.uniform(0.2, 0.9, (3, 1))), None,
                rng.dirichlet(np.ones(5), 3)], {"beam_size": 2, "end_id": 0,
                                                "is_accumulated": False}),
        # Random scores over four sources, one without rows, a beam wider than some sources.
        Sample([int64(rng.integers(1, 9, (7, 1))), rng.normal(size=(7, 1)),
                int64(rng.integers(0, 20, (7, 5))), rng.normal(size=(7, 5)),
                int64([0, 2, 2, 6, 7])], {"beam_size": 4, "end_id": 3}),
        # Source 0 ended in every row: pruned.
        Sample([int64([[0], [0], [2]]), np.array([[-1.0], [-2.0], [-0.5]]),
                int64([[5, 6], [7, 8], [0, 9]]),
                np.array([[-1.5, -2.5], [-3.0, -4.0], [-0.7, -0.9]]), int64([0, 2, 3])],
               {"beam_size": 3, "end_id": 0}),
        Sample([int64(np.zeros((0, 1))), np.zeros((0, 1)), int64(np.zeros((0, 3))),
                np.zeros((0, 3))], {"beam_size": 2, "end_id": 0}),
    ]


def beam_search_errors():
    pre_ids, pre_scores = int64([[1], [2]]), np.array([[0.1], [0.2]])
    ids, scores = int64([[3, 4], [5, 6]]), np.array([[0.5, 0.3], [0.2, 0.1]])
    return [
        ErrorSample([pre_ids, pre_scores, ids, scores], {"beam_size": 0}, ValueError,
                    "beam_search: argument 'beam_size' must be positive, received 0"),
        ErrorSample([pre_ids, pre_scores, ids, scores, int64([0, 3])], {"beam_size": 2},
                    ValueError, "'source_offsets' must be offsets from 0 to 2"),
        ErrorSample([pre_ids, pre_scores, ids, scores, int64([0, 2, 1, 2])], {"beam_size": 2},
                    ValueError, "non-decreasing"),
        ErrorSample([pre_ids, pre_scores, ids[:, :1], scores], {"beam_size": 2}, ValueError,
                    "'ids' must have the shape of 'scores'"),
        ErrorSample([int64([[1], [2], [3]]), pre_scores, ids, scores], {"beam_size": 2},
                    ValueError, "'pre_ids' must be [2, 1]"),
        ErrorSample([pre_ids.astype(np.int32), pre_scores, ids, scores], {"beam_size": 2},
                    TypeError, "'pre_ids' must be int64, received int32"),
        ErrorSample([pre_ids, pre_scores, ids, scores.ravel()], {"beam_size": 2}, ValueError,
                    "'scores' must be 2-D"),
    ]


# ---------------------------------------------------------------- beam_search_decode
def beam_search_decode(ids, scores, parent_idx, source_offsets, beam_size=1, end_id=0):
    # The error samples' step lists arrive as arrays (the harness converts only top-level ones).
    steps = [[paddle.to_tensor(v) if isinstance(v, np.ndarray) else v for v in listed]
             for listed in (ids, scores, parent_idx, source_offsets)]
    return list(_C_ops.beam_search_decode(*steps, beam_size, end_id))


def decode_steps(rng, sources, beam_size, width, steps, end_prob):
    """A beam search of random candidates run with the NumPy reference: the step lists of a
    beam_search_decode sample (step 0 holds the start tokens)."""
    ids, scores = [int64(np.ones((sources, 1)))], [np.zeros((sources, 1))]
    parents, offsets = [np.arange(sources, dtype=np.int32)], [int64(np.arange(sources + 1))]
    given = offsets[0]
    for _ in range(1, steps):
        rows = ids[-1].shape[0]
        candidates = int64(rng.integers(1, 30, (rows, width)))
        candidates[rng.uniform(size=(rows, width)) < end_prob] = 0
        step_scores = scores[-1] + np.log(rng.uniform(0.05, 1.0, (rows, width)))
        selected_ids, selected_scores, parent_idx, next_offsets = np_beam_search(
            ids[-1], scores[-1], candidates, step_scores, given, beam_size, 0)
        if selected_ids.shape[0] == 0:
            break
        ids.append(selected_ids)
        scores.append(selected_scores)
        parents.append(parent_idx)
        offsets.append(given)
        given = next_offsets
    return [ids, scores, parents, offsets]


def beam_search_decode_samples(rng):
    return [
        Sample(decode_steps(rng, 2, 2, 4, 4, 0.3), {"beam_size": 2, "end_id": 0}),
        Sample(decode_steps(rng, 3, 3, 5, 6, 0.25), {"beam_size": 3, "end_id": 0}),
        # Only the start tokens: one one-token sentence per source, the others empty.
        Sample([[int64([[1], [1]])], [np.array([[0.0], [-1.0]])], [int64([0, 1])],
                [int64([0, 1, 2])]], {"beam_size": 2, "end_id": 0}),
    ]


def beam_search_decode_errors():
    ids, scores = [int64([[1], [1]])], [np.array([[0.0], [-1.0]])]
    parents, offsets = [int64([0, 1])], [int64([0, 1, 2])]
    return [
        ErrorSample([ids, scores, parents, offsets], {"beam_size": 0}, ValueError,
                    "beam_search_decode: argument 'beam_size' must be positive, received 0"),
        ErrorSample([ids, scores, parents, offsets + offsets], {"beam_size": 2}, ValueError,
                    "'source_offsets' must hold one tensor per step of 'ids' (1), received 2"),
        ErrorSample([ids, scores, [int64([1, 0])], offsets], {"beam_size": 2}, ValueError,
                    "'parent_idx[0]' must be non-decreasing prefix rows in [0, 2)"),
        ErrorSample([ids, scores, parents, [int64([0, 2])]], {"beam_size": 1}, ValueError,
                    "source 0 has 2 candidates at step 0, more than beam_size (1)"),
        ErrorSample([ids, scores, parents, [int64([1, 2])]], {"beam_size": 2}, ValueError,
                    "'source_offsets[0]' must be offsets from 0 to 2"),
    ]


# ---------------------------------------------------------------- viterbi_decode
def viterbi_decode_samples(rng):
    return [
        Sample([rng.normal(size=(4, 6, 5)), rng.normal(size=(5, 5)), int64([6, 3, 1, 5])]),
        Sample([rng.normal(size=(3, 5, 4)), rng.normal(size=(4, 4)), int64([2, 5, 4])],
               {"include_bos_eos_tag": False}),
        # Lengths below the steps of potentials; a sequence of length 0.
        Sample([rng.normal(size=(3, 7, 3)), rng.normal(size=(3, 3)), int64([4, 0, 2])]),
        Sample([rng.normal(size=(2, 1, 4)), rng.normal(size=(4, 4)), int64([1, 1])],
               {"include_bos_eos_tag": False}),
        Sample([np.zeros((0, 3, 4)), rng.normal(size=(4, 4)), int64(np.zeros(0))]),
    ]


def viterbi_decode_errors():
    potentials, transitions = np.zeros((2, 3, 4)), np.zeros((4, 4))
    return [
        ErrorSample([potentials, transitions, int64([4, 1])], {}, ValueError,
                    "viterbi_decode: argument 'lengths' must hold lengths in [0, 3]"),
        ErrorSample([potentials, transitions, int64([-1, 1])], {}, ValueError, "'lengths'"),
        ErrorSample([potentials, np.zeros((3, 3)), int64([1, 1])], {}, ValueError,
                    "'transition_params' must be [4, 4]"),
        ErrorSample([potentials, transitions, int64([1, 1, 1])], {}, ValueError,
                    "'lengths' must hold one length per sequence [2]"),
        ErrorSample([potentials, transitions, np.array([1, 1], np.int32)], {}, TypeError,
                    "'lengths' must be int64, received int32"),
        ErrorSample([potentials[0], transitions, int64([1, 1])], {}, ValueError,
                    "'potentials' must be 3-D"),
        ErrorSample([np.zeros((2, 3, 1)), np.zeros((1, 1)), int64([1, 1])], {}, ValueError,
                    "include_bos_eos_tag=True needs at least 2 tags"),
    ]


SEQ_OPS = [
    OpInfo("beam_search", beam_search, np_beam_search, beam_search_samples, grad=False,
           no_grad_reason=FORWARD_ONLY, errors=beam_search_errors),
    OpInfo("beam_search_decode", beam_search_decode, np_beam_search_decode,
           beam_search_decode_samples, grad=False, no_grad_reason=FORWARD_ONLY,
           errors=beam_search_decode_errors),
    OpInfo("viterbi_decode", paddle.text.viterbi_decode, np_viterbi_decode,
           viterbi_decode_samples, grad=False, no_grad_reason=FORWARD_ONLY,
           errors=viterbi_decode_errors),
]
