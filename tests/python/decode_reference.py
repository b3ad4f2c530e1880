"""NumPy references of the step-wise decoders (paddle/ops/yaml/decode.yaml): one LoD beam search
step and the back-tracing of its steps, written from the LoD form Paddle's ops read (offset
lists), and Viterbi decoding written batch-wise with the length masks of Paddle's kernel (the
op's kernel runs one sequence at a time)."""
import numpy as np


def _offsets(source_offsets, rows):
    if source_offsets is None:
        return list(range(rows + 1))
    return [int(v) for v in np.asarray(source_offsets).ravel()]


def np_beam_search(pre_ids, pre_scores, ids, scores, source_offsets=None, beam_size=1, end_id=0,
                   is_accumulated=True):
    """-> selected_ids [M, 1], selected_scores [M, 1], parent_idx [M] int32, selected_offsets."""
    pre_ids = np.asarray(pre_ids).ravel()
    pre_scores = np.asarray(pre_scores).ravel()
    scores = np.asarray(scores)
    rows, width = scores.shape
    offsets = _offsets(source_offsets, rows)
    kept = [[] for _ in range(rows)]
    for s in range(len(offsets) - 1):
        # Candidates as (score, row, arrival) with Paddle's insertion into a sorted beam: a
        # candidate enters behind those it does not beat, and when the beam is full replaces
        # the last one unless the last beats it. "Beats" compares score, then row.
        beam = []
        for r in range(offsets[s], offsets[s + 1]):
            if pre_ids[r] == end_id:
                found = [(pre_scores[r], r, end_id)]
            else:
                found = []
                for c in range(width):
                    value = scores[r, c] if is_accumulated else \
                        pre_scores[r] + np.log(scores[r, c])
                    found.append((value, r, c if ids is None else int(np.asarray(ids)[r, c])))
            for cand in found:
                def beats(a, b):
                    return (a[0], a[1]) > (b[0], b[1])
                if len(beam) == beam_size:
                    if beats(beam[-1], cand):
                        continue
                    beam.pop()
                k = len(beam)
                while k > 0 and beats(cand, beam[k - 1]):
                    k -= 1
                beam.insert(k, cand)
        if all(c[2] == end_id and pre_ids[c[1]] == end_id for c in beam):
            continue
        for cand in beam:
            kept[cand[1]].append(cand)
    selected = [c for row in kept for c in row]
    before = np.cumsum([0] + [len(row) for row in kept])
    dtype = scores.dtype
    return (np.array([[c[2]] for c in selected], dtype=np.int64).reshape(-1, 1),
            np.array([[c[0]] for c in selected], dtype=dtype).reshape(-1, 1),
            np.array([c[1] for c in selected], dtype=np.int32),
            np.array([before[o] for o in offsets], dtype=np.int64))


def np_beam_search_decode(ids, scores, parent_idx, source_offsets, beam_size, end_id):
    """-> sentence_ids, sentence_scores (1-D) and sentence_offsets [S * beam_size + 1].

    Each candidate of the last step a source has candidates in starts a sentence, which is
    followed back through the parents; an end_id before a sentence's last token only repeats
    its end and is left out."""
    steps = len(ids)
    ids = [np.asarray(v).ravel() for v in ids]
    scores = [np.asarray(v).ravel() for v in scores]
    parents = [np.asarray(v).ravel().astype(np.int64) for v in parent_idx]
    sources = [_offsets(o, 0) for o in source_offsets]
    num_sources = len(sources[0]) - 1
    out_ids, out_scores, offsets = [], [], [0]
    for s in range(num_sources):
        sentences = []
        for last in reversed(range(steps)):
            # The candidates of source s at step `last`: those whose parent is one of its rows.
            rows = range(sources[last][s], sources[last][s + 1])
            start = [c for c in range(len(ids[last])) if parents[last][c] in rows]
            if start:
                break
        for c in start:
            tokens, values = [ids[last][c]], [scores[last][c]]
            row = parents[last][c]
            for t in reversed(range(last)):
                if ids[t][row] != end_id:
                    tokens.append(ids[t][row])
                    values.append(scores[t][row])
                row = parents[t][row]
            sentences.append((tokens[::-1], values[::-1]))
        assert len(sentences) <= beam_size
        sentences.sort(key=lambda sentence: -sentence[1][-1])
        sentences += [([], [])] * (beam_size - len(sentences))
        for tokens, values in sentences:
            out_ids += tokens
            out_scores += values
            offsets.append(offsets[-1] + len(tokens))
    return (np.array(out_ids, dtype=np.int64), np.array(out_scores, dtype=scores[0].dtype),
            np.array(offsets, dtype=np.int64))


def np_viterbi_decode(potentials, transition_params, lengths, include_bos_eos_tag=True):
    """-> scores [B], path [B, max(lengths)] int64, with Paddle's masked batch recurrence."""
    potentials = np.asarray(potentials)
    trans = np.asarray(transition_params)
    lengths = np.asarray(lengths).astype(np.int64)
    batch, _, tags = potentials.shape
    longest = int(lengths.max()) if batch else 0
    stop, start = trans[tags - 2], trans[tags - 1]
    alpha = potentials[:, 0].copy()
    if include_bos_eos_tag:
        alpha = alpha + start + (lengths == 1)[:, None] * stop
    left = lengths - 1
    history = []
    for i in range(1, longest):
        total = alpha[:, :, None] + trans[None]
        history.append(total.argmax(1))
        nxt = total.max(1) + potentials[:, i]
        alpha = np.where((left > 0)[:, None], nxt, alpha)
        if include_bos_eos_tag:
            alpha = alpha + (left == 1)[:, None] * stop
        left = left - 1
    scores = alpha.max(1)
    last = alpha.argmax(1)
    path = np.zeros((batch, longest), dtype=np.int64)
    if longest:
        path[:, longest - 1] = np.where(left >= 0, last, 0)
    for i in reversed(range(1, longest)):
        left = left + 1
        step = np.where(left > 0, history[i - 1][np.arange(batch), last], 0)
        step = np.where(left == 0, last, step)
        path[:, i - 1] = step
        last = np.where(left >= 0, step, last)
    return scores, path
