"""Beam search decoding over an RNN cell: paddle.nn.BeamSearchDecoder and paddle.nn.dynamic_decode,
as Paddle has them in dygraph. The cell is any callable `cell(inputs, states, **kwargs) ->
(outputs, new_states)` whose states are a tensor or a nested list/tuple/dict of tensors with the
batch first. Each step scores every (beam, token) pair by its accumulated log-probability, keeps
the beam_size best per batch entry, and records the chosen tokens and their parent beams;
finalize traces the beams back with gather_tree. A finished beam keeps its score and can only
emit end_token again."""
from typing import NamedTuple

import numpy as np

import paddle

from ..base.framework import in_dynamic_mode
from .functional import gather_tree, log_softmax

__all__ = ["BeamSearchDecoder", "dynamic_decode"]

# The log-probability of the tokens a beam cannot take: the empty initial beams and every token
# but end_token after a beam has finished (Paddle's value).
_LOG_ZERO = -1e9


def _is_namedtuple(value):
    return isinstance(value, tuple) and hasattr(value, "_fields")


def _flatten(structure):
    """The tensors of a nested list/tuple/dict structure, in order (dicts by sorted key)."""
    if isinstance(structure, dict):
        return [leaf for key in sorted(structure) for leaf in _flatten(structure[key])]
    if isinstance(structure, (list, tuple)):
        return [leaf for item in structure for leaf in _flatten(item)]
    return [structure]


def _map_structure(fn, *structures):
    """fn applied to the corresponding leaves of structures of one shape, in that shape."""
    first = structures[0]
    if _is_namedtuple(first):
        return type(first)(*(_map_structure(fn, *items) for items in zip(*structures)))
    if isinstance(first, (list, tuple)):
        return type(first)(_map_structure(fn, *items) for items in zip(*structures))
    if isinstance(first, dict):
        return {key: _map_structure(fn, *(s[key] for s in structures)) for key in first}
    return fn(*structures)


class Decoder:
    """What dynamic_decode drives: initialize(inits) returns (initial_inputs, initial_states,
    finished); step(time, inputs, states, **kwargs) returns (outputs, next_states, next_inputs,
    finished); finalize(outputs, final_states, sequence_lengths), where a decoder has one,
    rewrites the stacked outputs. A decoder whose tracks_own_finished is True keeps its finished
    flags itself (beam search reorders its beams)."""

    def initialize(self, inits):
        raise NotImplementedError(f"{type(self).__name__} does not implement initialize")

    def step(self, time, inputs, states, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} does not implement step")

    def finalize(self, outputs, final_states, sequence_lengths):
        raise NotImplementedError(f"{type(self).__name__} does not implement finalize")

    @property
    def tracks_own_finished(self):
        return False


class BeamSearchDecoder(Decoder):
    """Beam search over `cell`: start_token begins every beam, end_token finishes it.
    embedding_fn maps the chosen token ids [batch_size * beam_size] to the cell's inputs (without
    it the cell takes the ids); output_fn maps the cell's outputs to logits over the vocabulary.
    The cell sees its inputs and states with the beams merged into the batch, [batch_size *
    beam_size, ...]; other tensors it reads per batch entry must be tiled the same way
    (tile_beam_merge_with_batch)."""

    class OutputWrapper(NamedTuple):
        """What each step outputs, [batch_size, beam_size] each."""
        scores: paddle.Tensor
        predicted_ids: paddle.Tensor
        parent_ids: paddle.Tensor

    class StateWrapper(NamedTuple):
        """The search state: the cell's states [batch_size, beam_size, ...] and, [batch_size,
        beam_size] each, the beams' accumulated log-probabilities, finished flags and lengths."""
        cell_states: object
        log_probs: paddle.Tensor
        finished: paddle.Tensor
        lengths: paddle.Tensor

    def __init__(self, cell, start_token, end_token, beam_size, embedding_fn=None,
                 output_fn=None):
        if isinstance(beam_size, bool) or not isinstance(beam_size, (int, np.integer)):
            raise TypeError(f"BeamSearchDecoder: argument 'beam_size' must be an int, received "
                            f"{type(beam_size).__name__}")
        if beam_size <= 0:
            raise ValueError(f"BeamSearchDecoder: argument 'beam_size' must be positive, "
                             f"received {beam_size}")
        for arg, token in (("start_token", start_token), ("end_token", end_token)):
            if isinstance(token, bool) or not isinstance(token, (int, np.integer)):
                raise TypeError(f"BeamSearchDecoder: argument '{arg}' must be an int, received "
                                f"{type(token).__name__}")
        if not callable(cell):
            raise TypeError(f"BeamSearchDecoder: argument 'cell' must be callable, received "
                            f"{type(cell).__name__}")
        self.cell = cell
        self.start_token = int(start_token)
        self.end_token = int(end_token)
        self.beam_size = int(beam_size)
        self.embedding_fn = embedding_fn
        self.output_fn = output_fn

    @staticmethod
    def tile_beam_merge_with_batch(x, beam_size):
        """x [batch_size, ...] -> [batch_size * beam_size, ...], each entry repeated beam_size
        times in a row."""
        tiled = paddle.tile(paddle.unsqueeze(x, [1]), [1, beam_size] + [1] * (len(x.shape) - 1))
        return paddle.reshape(tiled, [-1] + list(x.shape[1:]))

    def _split_batch_beams(self, x):
        return paddle.reshape(x, [-1, self.beam_size] + list(x.shape[1:]))

    def _merge_batch_beams(self, x):
        return paddle.reshape(x, [-1] + list(x.shape[2:]))

    def _expand_to_beam_size(self, x):
        return paddle.tile(paddle.unsqueeze(x, [1]), [1, self.beam_size] + [1] * (len(x.shape) - 1))

    def _gather_beams(self, x, beam_indices):
        """x [batch_size, beam_size, ...] with the beams of each batch entry picked by
        beam_indices [batch_size, beam_size]."""
        batch_positions = paddle.tile(
            paddle.unsqueeze(paddle.arange(0, beam_indices.shape[0], dtype=beam_indices.dtype),
                             [1]), [1, self.beam_size])
        return paddle.gather_nd(x, paddle.stack([batch_positions, beam_indices], axis=2))

    def initialize(self, initial_cell_states):
        """The start: every beam's input is start_token, only the first beam of each batch entry
        is live (the others have log-probability -1e9, so the first step does not pick the same
        token once per beam), nothing is finished."""
        batch_size = _flatten(initial_cell_states)[0].shape[0]
        cell_states = _map_structure(self._expand_to_beam_size, initial_cell_states)
        start_ids = paddle.full([batch_size, self.beam_size], self.start_token, dtype="int64")
        dtype = "float64" if paddle.get_default_dtype() == "float64" else "float32"
        log_probs = paddle.tile(
            paddle.to_tensor([[0.0] + [_LOG_ZERO] * (self.beam_size - 1)], dtype=dtype),
            [batch_size, 1])
        finished = paddle.full([batch_size, self.beam_size], False, dtype="bool")
        lengths = paddle.zeros_like(start_ids)
        inputs = self.embedding_fn(start_ids) if self.embedding_fn else start_ids
        return inputs, self.StateWrapper(cell_states, log_probs, finished, lengths), finished

    def _beam_search_step(self, time, logits, next_cell_states, beam_state):
        vocab_size = logits.shape[-1]
        if not 0 <= self.end_token < vocab_size:
            raise ValueError(f"BeamSearchDecoder: end_token {self.end_token} is not a token of "
                             f"the vocabulary of {vocab_size} the logits score")
        step_log_probs = log_softmax(logits, axis=-1)
        only_end = np.full([vocab_size], _LOG_ZERO, dtype=np.float64)
        only_end[self.end_token] = 0.0
        step_log_probs = paddle.where(
            paddle.unsqueeze(beam_state.finished, [2]),
            paddle.to_tensor(only_end, dtype=step_log_probs.dtype), step_log_probs)
        log_probs = step_log_probs + paddle.unsqueeze(beam_state.log_probs, [2])
        scores = paddle.reshape(log_probs, [-1, self.beam_size * vocab_size])
        top_scores, top_indices = paddle.topk(scores, k=self.beam_size)
        beam_indices = paddle.floor_divide(top_indices, paddle.full_like(top_indices, vocab_size))
        token_indices = paddle.remainder(top_indices, paddle.full_like(top_indices, vocab_size))
        cell_states = _map_structure(lambda s: self._gather_beams(s, beam_indices),
                                     next_cell_states)
        finished = self._gather_beams(beam_state.finished, beam_indices)
        lengths = self._gather_beams(beam_state.lengths, beam_indices)
        lengths = lengths + paddle.cast(paddle.logical_not(finished), lengths.dtype)
        finished = paddle.logical_or(
            finished, paddle.equal(token_indices, paddle.full_like(token_indices, self.end_token)))
        output = self.OutputWrapper(top_scores, token_indices, beam_indices)
        return output, self.StateWrapper(cell_states, top_scores, finished, lengths)

    def step(self, time, inputs, states, **kwargs):
        """One step: the cell over the merged beams, then the beam_size best continuations.
        Returns (OutputWrapper, StateWrapper, the next inputs, the finished flags)."""
        inputs = _map_structure(self._merge_batch_beams, inputs)
        cell_states = _map_structure(self._merge_batch_beams, states.cell_states)
        cell_outputs, next_cell_states = self.cell(inputs, cell_states, **kwargs)
        cell_outputs = _map_structure(self._split_batch_beams, cell_outputs)
        next_cell_states = _map_structure(self._split_batch_beams, next_cell_states)
        if self.output_fn is not None:
            cell_outputs = self.output_fn(cell_outputs)
        output, state = self._beam_search_step(time, cell_outputs, next_cell_states, states)
        chosen_ids = output.predicted_ids
        chosen_ids.stop_gradient = True
        next_inputs = self.embedding_fn(chosen_ids) if self.embedding_fn else chosen_ids
        return output, state, next_inputs, state.finished

    def finalize(self, outputs, final_states, sequence_lengths):
        """The whole beams [time, batch_size, beam_size] from the stacked step outputs."""
        predicted_ids = gather_tree(outputs.predicted_ids, outputs.parent_ids)
        return predicted_ids, final_states

    @property
    def tracks_own_finished(self):
        return True


def dynamic_decode(decoder, inits=None, max_step_num=None, output_time_major=False,
                   impute_finished=False, is_test=False, return_length=False, **kwargs):
    """Runs decoder.step until every entry is finished, or for max_step_num + 1 steps at most
    (Paddle's count), then decoder.finalize where the decoder has one. Returns (final_outputs,
    final_states) and, with return_length, the decoded lengths: the step outputs stacked along
    time, batch first unless output_time_major. With impute_finished, a decoder that does not
    track its own finished flags keeps the states of finished entries. kwargs go to every
    decoder.step. Dygraph only."""
    if not in_dynamic_mode():
        raise NotImplementedError("dynamic_decode(): only dygraph decoding is supported; run it "
                                  "outside paddle.enable_static()")
    if not isinstance(decoder, Decoder):
        raise TypeError(f"dynamic_decode(): argument 'decoder' must be a paddle.nn.decode."
                        f"Decoder, received {type(decoder).__name__}")
    if max_step_num is not None and (isinstance(max_step_num, bool) or not isinstance(
            max_step_num, (int, np.integer)) or max_step_num < 0):
        raise ValueError(f"dynamic_decode(): argument 'max_step_num' must be None or a "
                         f"non-negative int, received {max_step_num!r}")

    def keep_finished(state, new_state, finished):
        mask = paddle.reshape(finished, list(finished.shape) + [1] * (len(state.shape) - 1))
        return paddle.where(mask, state, new_state)

    inputs, states, finished = decoder.initialize(inits)
    sequence_lengths = paddle.zeros(finished.shape, dtype="int64")
    step_outputs = []
    time = paddle.full([1], 0, dtype="int64")
    while not bool(paddle.all(finished)):
        outputs, next_states, next_inputs, next_finished = decoder.step(time, inputs, states,
                                                                        **kwargs)
        if decoder.tracks_own_finished:
            next_lengths = getattr(next_states, "lengths", sequence_lengths)
        else:
            # As in Paddle, an entry finishing at this step neither counts the step in its
            # length nor (with impute_finished) takes the step's states.
            next_finished = paddle.logical_or(next_finished, finished)
            next_lengths = sequence_lengths + paddle.cast(paddle.logical_not(next_finished),
                                                          "int64")
            if impute_finished:
                next_states = _map_structure(lambda s, n: keep_finished(s, n, next_finished),
                                             states, next_states)
        step_outputs.append(outputs)
        inputs, states, finished, sequence_lengths = (next_inputs, next_states, next_finished,
                                                      next_lengths)
        time = time + 1
        if max_step_num is not None and len(step_outputs) > max_step_num:
            break

    if not step_outputs:
        raise ValueError("dynamic_decode(): every entry of the decoder's initial state is "
                         "finished, so there is nothing to decode")
    final_outputs = _map_structure(lambda *steps: paddle.stack(list(steps), axis=0),
                                   *step_outputs)
    final_states = states
    try:
        final_outputs, final_states = decoder.finalize(final_outputs, final_states,
                                                       sequence_lengths)
    except NotImplementedError:
        pass
    if not output_time_major:
        final_outputs = _map_structure(
            lambda x: paddle.transpose(x, [1, 0] + list(range(2, len(x.shape)))), final_outputs)
    if return_length:
        return final_outputs, final_states, sequence_lengths
    return final_outputs, final_states
