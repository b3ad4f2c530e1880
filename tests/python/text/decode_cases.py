"""The cases of the decoding ops that tools/record_paddle_decode.py runs under PaddlePaddle
(into paddle_decode_reference.npz) and test_decode_ops.py runs here: beam search steps with
several sources, finished rows and pruned sources, whole beam searches to trace back, and
Viterbi decoding of sequences of several lengths. Each case is a dict of NumPy arrays and
Python values; a beam search's steps are built with the NumPy reference (decode_reference.py),
which the recorded steps check in turn."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from decode_reference import np_beam_search  # noqa: E402


def beam_search_cases():
    rng = np.random.default_rng(7)
    cases = {}
    # Two sources of 2 and 1 prefixes; ties across rows and columns; an ended prefix.
    cases["ties"] = dict(
        pre_ids=np.array([[1], [2], [0]], np.int64),
        pre_scores=np.array([[0.1], [0.2], [0.3]], np.float32),
        ids=np.array([[3, 4, 5], [6, 7, 8], [9, 10, 11]], np.int64),
        scores=np.array([[0.5, 0.3, 0.5], [0.5, 0.25, 0.15], [0.9, 0.8, 0.7]], np.float32),
        source_offsets=np.array([0, 2, 3], np.int64), beam_size=2, end_id=0,
        is_accumulated=True)
    # Probabilities (is_accumulated=False), no ids (the column is the id), end_id among them.
    cases["probabilities"] = dict(
        pre_ids=np.array([[4], [0], [2], [5], [1]], np.int64),
        pre_scores=np.log(rng.uniform(0.2, 0.9, (5, 1))).astype(np.float32),
        ids=None, scores=rng.dirichlet(np.ones(6), 5).astype(np.float32),
        source_offsets=np.array([0, 3, 5], np.int64), beam_size=3, end_id=0,
        is_accumulated=False)
    # Random accumulated scores over four sources, one of them with no rows.
    cases["random"] = dict(
        pre_ids=rng.integers(1, 9, (7, 1)).astype(np.int64),
        pre_scores=rng.normal(size=(7, 1)).astype(np.float32),
        ids=rng.integers(0, 20, (7, 5)).astype(np.int64),
        scores=np.round(rng.normal(size=(7, 5)), 1).astype(np.float32),
        source_offsets=np.array([0, 2, 2, 6, 7], np.int64), beam_size=4, end_id=3,
        is_accumulated=True)
    # Every row of source 0 ended: it is pruned; the beam of source 1 is larger than its rows.
    cases["pruned"] = dict(
        pre_ids=np.array([[0], [0], [2]], np.int64),
        pre_scores=np.array([[-1.0], [-2.0], [-0.5]], np.float32),
        ids=np.array([[5, 6], [7, 8], [0, 9]], np.int64),
        scores=np.array([[-1.5, -2.5], [-3.0, -4.0], [-0.7, -0.9]], np.float32),
        source_offsets=np.array([0, 2, 3], np.int64), beam_size=3, end_id=0,
        is_accumulated=True)
    return cases


def beam_search_decode_cases():
    """Whole searches: step 0 holds the start tokens; each later step is a beam search over
    random candidates, so some beams end (end_id 0) and sources finish early."""
    rng = np.random.default_rng(11)
    cases = {}
    for name, sources, beam_size, width, steps, end_prob in (
            ("two_sources", 2, 2, 4, 4, 0.3), ("three_sources", 3, 3, 5, 6, 0.25),
            ("one_source", 1, 4, 6, 5, 0.4)):
        ids = [np.ones((sources, 1), np.int64)]
        scores = [np.zeros((sources, 1), np.float32)]
        parent_idx = [np.arange(sources, dtype=np.int32)]
        source_offsets = [np.arange(sources + 1, dtype=np.int64)]
        offsets = source_offsets[0]
        for _ in range(1, steps):
            pre_ids, pre_scores = ids[-1], scores[-1]
            rows = pre_ids.shape[0]
            if rows == 0:
                break
            step_ids = rng.integers(1, 30, (rows, width)).astype(np.int64)
            step_ids[rng.uniform(size=(rows, width)) < end_prob] = 0
            step_scores = (pre_scores + np.log(rng.uniform(0.05, 1.0, (rows, width)))).astype(
                np.float32)
            sel_ids, sel_scores, parents, next_offsets = np_beam_search(
                pre_ids, pre_scores, step_ids, step_scores, offsets, beam_size, 0, True)
            if sel_ids.shape[0] == 0:
                break
            ids.append(sel_ids)
            scores.append(sel_scores)
            parent_idx.append(parents)
            source_offsets.append(offsets)
            offsets = next_offsets
        cases[name] = dict(ids=ids, scores=scores, parent_idx=parent_idx,
                           source_offsets=source_offsets, beam_size=beam_size, end_id=0)
    return cases


def viterbi_cases():
    rng = np.random.default_rng(3)
    cases = {}
    cases["bos_eos"] = dict(potentials=rng.normal(size=(4, 6, 5)).astype(np.float32),
                            transition_params=rng.normal(size=(5, 5)).astype(np.float32),
                            lengths=np.array([6, 3, 1, 5], np.int64), include_bos_eos_tag=True)
    cases["no_bos_eos"] = dict(potentials=rng.normal(size=(3, 5, 4)),
                               transition_params=rng.normal(size=(4, 4)),
                               lengths=np.array([2, 5, 4], np.int64), include_bos_eos_tag=False)
    # The longest length is below the steps of potentials; a sequence of length 0.
    cases["short"] = dict(potentials=rng.normal(size=(3, 7, 3)).astype(np.float32),
                          transition_params=rng.normal(size=(3, 3)).astype(np.float32),
                          lengths=np.array([4, 0, 2], np.int64), include_bos_eos_tag=True)
    cases["one_step"] = dict(potentials=rng.normal(size=(2, 1, 4)),
                             transition_params=rng.normal(size=(4, 4)),
                             lengths=np.array([1, 1], np.int64), include_bos_eos_tag=False)
    return cases
