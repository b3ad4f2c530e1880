"""paddle.static.nn.beam_search and beam_search_decode: Paddle's LoD beam search (the
`beam_search` and `beam_search_decode` ops, which Paddle's fluid.layers exposed under these
names), for static programs and dygraph alike.

Paddle reads the grouping of the rows (sources -> prefixes -> candidates) from the LoD of its
tensors, which tensors here do not carry; it is passed as tensors instead (see
paddle/ops/yaml/decode.yaml): `source_offsets`, the offsets of each source's rows, and
`parent_idx`, the row each selected candidate came from. beam_search returns the next step's
source offsets when asked (return_offsets=True), and beam_search_decode the offset of each
sentence, which Paddle's results carry as their LoD. Written by hand for those arguments and for
Paddle's argument checks."""
from ... import _C_ops
from ...tensor.creation import ones_like, zeros
from ...tensor.manipulation import concat
from ...tensor.search import cumsum

__all__ = ["beam_search", "beam_search_decode"]


def _check_int(value, op, name):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{op}: argument '{name}' must be an int, received "
                        f"{type(value).__name__}")


def beam_search(pre_ids, pre_scores, ids, scores, beam_size, end_id, level=0,
                is_accumulated=True, name=None, return_parent_idx=False, source_offsets=None,
                return_offsets=False):
    """One beam search step: of each source's candidates (ids [N, K], or the column index when
    ids is None, with scores [N, K]) keeps the beam_size best. pre_ids and pre_scores [N, 1] are
    the previous step's selections; a row whose pre_id is end_id keeps only itself. The rows of
    source s are [source_offsets[s], source_offsets[s + 1]) (every row its own source when None).

    Returns selected_ids and selected_scores [M, 1], then parent_idx [M] (int32) with
    return_parent_idx, then the selections' source offsets (the next step's source_offsets)
    with return_offsets."""
    op = "beam_search"
    _check_int(beam_size, op, "beam_size")
    _check_int(end_id, op, "end_id")
    _check_int(level, op, "level")
    if level != 0:
        raise ValueError(f"{op}: argument 'level' must be 0 (the sources' level, whose offsets "
                         f"source_offsets gives), received {level}")
    selected_ids, selected_scores, parent_idx, selected_offsets = _C_ops.beam_search(
        pre_ids, pre_scores, ids, scores, source_offsets, beam_size, end_id,
        bool(is_accumulated))
    results = [selected_ids, selected_scores]
    if return_parent_idx:
        results.append(parent_idx)
    if return_offsets:
        results.append(selected_offsets)
    return tuple(results)


def _start_token_lod(step_ids):
    """The parent_idx [0, 1, ..., M - 1] and source_offsets [0, 1, ..., M] of a step of M start
    tokens (counted from the rows, which a program knows only when it runs)."""
    counts = cumsum(ones_like(step_ids.reshape([-1])), axis=0)
    return counts - 1, concat([zeros([1], dtype=counts.dtype), counts])


def beam_search_decode(ids, scores, beam_size, end_id, name=None, parent_idx=None,
                       source_offsets=None, return_offsets=False):
    """The sentences of a finished beam search: ids and scores are lists with each step's
    selected_ids and selected_scores, parent_idx and source_offsets lists with each step's
    parent_idx and the source_offsets it was given. A None entry (or list) stands for the LoD of
    start tokens: one candidate per prefix, one prefix per source.

    Returns sentence_ids and sentence_scores (1-D, each source's beam_size sentences one after
    another, best first), then with return_offsets where each sentence starts (Paddle's LoD
    level 1; level 0 is beam_size sentences per source)."""
    op = "beam_search_decode"
    _check_int(beam_size, op, "beam_size")
    _check_int(end_id, op, "end_id")
    ids, scores = list(ids), list(scores)
    steps = len(ids)
    parent_idx = [None] * steps if parent_idx is None else list(parent_idx)
    source_offsets = [None] * steps if source_offsets is None else list(source_offsets)
    for listed, arg in ((scores, "scores"), (parent_idx, "parent_idx"),
                        (source_offsets, "source_offsets")):
        if len(listed) != steps:
            raise ValueError(f"{op}: argument '{arg}' must hold one entry per step of 'ids' "
                             f"({steps}), received {len(listed)}")
    for t, step_ids in enumerate(ids):
        if parent_idx[t] is None or source_offsets[t] is None:
            parents, offsets = _start_token_lod(step_ids)
            parent_idx[t] = parents if parent_idx[t] is None else parent_idx[t]
            source_offsets[t] = offsets if source_offsets[t] is None else source_offsets[t]
    sentence_ids, sentence_scores, sentence_offsets = _C_ops.beam_search_decode(
        ids, scores, parent_idx, source_offsets, beam_size, end_id)
    if return_offsets:
        return sentence_ids, sentence_scores, sentence_offsets
    return sentence_ids, sentence_scores
