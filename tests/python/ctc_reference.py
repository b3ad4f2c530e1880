"""NumPy references of the CTC and sequence-decoding ops (op_db_ctc.py): the CTC loss and its
gradient by the forward-backward recursions in log space, written from the definitions
independently of the kernel (whole state vectors per frame), a brute-force CTC likelihood over
every alignment (to check the recursions on tiny inputs), greedy CTC decoding, the Levenshtein
distance and gather_tree's back-tracing."""
import itertools

import numpy as np


def log_softmax(x, axis=-1):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def _logsumexp(values, axis=0):
    top = np.max(values, axis=axis, keepdims=True)
    safe_top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        out = np.log(np.exp(values - safe_top).sum(axis=axis, keepdims=True)) + safe_top
    return np.squeeze(out, axis=axis)


def _shift(v, k):
    """v moved k places right (k > 0: v[s - k] at s) or left (k < 0), -inf where nothing lands."""
    pad = np.full(abs(k), -np.inf)
    return (np.concatenate([pad, v])[:len(v)] if k > 0 else np.concatenate([v[-k:], pad])[:len(v)])


def _extended(label, blank):
    """blank, label[0], blank, label[1], ..., blank."""
    states = np.full(2 * len(label) + 1, blank, dtype=np.int64)
    states[1::2] = label
    return states


def ctc_sequence(logits, label, blank):
    """(loss, gradient with respect to the logits) of one sequence: logits [T, C], label [L]. An
    infeasible label gives (0, zeros), warp-ctc's convention."""
    frames, classes = logits.shape
    lp = log_softmax(logits.astype(np.float64))
    ext = _extended(np.asarray(label, dtype=np.int64), blank)
    states = len(ext)
    skip = np.zeros(states, dtype=bool)
    skip[2:] = (ext[2:] != blank) & (ext[2:] != ext[:-2])
    if frames == 0:  # an empty label has probability 1; any other is infeasible (loss 0)
        return 0.0, np.zeros((0, classes))
    alpha = np.full((frames, states), -np.inf)
    alpha[0, 0] = lp[0, ext[0]]
    if states > 1:
        alpha[0, 1] = lp[0, ext[1]]
    for t in range(1, frames):
        prev = alpha[t - 1]
        stay = prev
        step = _shift(prev, 1)
        jump = np.where(skip, _shift(prev, 2), -np.inf)
        alpha[t] = _logsumexp(np.stack([stay, step, jump]), axis=0) + lp[t, ext]
    log_likelihood = _logsumexp(alpha[-1, -2:] if states > 1 else alpha[-1, -1:], axis=0)
    if not np.isfinite(log_likelihood):
        return 0.0, np.zeros((frames, classes))
    beta = np.full((frames, states), -np.inf)
    beta[-1, -1] = lp[-1, ext[-1]]
    if states > 1:
        beta[-1, -2] = lp[-1, ext[-2]]
    skip_from = np.concatenate([skip[2:], [False, False]])[:states]  # s may jump to s + 2
    for t in range(frames - 2, -1, -1):
        nxt = beta[t + 1]
        stay = nxt
        step = _shift(nxt, -1)
        jump = np.where(skip_from, _shift(nxt, -2), -np.inf)
        beta[t] = _logsumexp(np.stack([stay, step, jump]), axis=0) + lp[t, ext]
    posterior = alpha + beta - lp[:, ext] - log_likelihood  # [T, S]
    occupancy = np.zeros((frames, classes))
    for s, c in enumerate(ext):
        occupancy[:, c] += np.exp(posterior[:, s])
    return -log_likelihood, np.exp(lp) - occupancy


def brute_force_ctc_loss(logits, label, blank):
    """-log p(label) summed over every alignment of T frames; only for tiny T and C."""
    frames, classes = logits.shape
    lp = log_softmax(logits.astype(np.float64))
    total = -np.inf
    for path in itertools.product(range(classes), repeat=frames):
        if ctc_collapse(path, blank) == list(label):
            total = np.logaddexp(total, sum(lp[t, c] for t, c in enumerate(path)))
    return -total


def ctc_collapse(path, blank, merge_repeated=True):
    """Greedy CTC decoding of one token sequence (the token before the first is -1)."""
    out, prev = [], -1
    for token in path:
        if token != blank and not (merge_repeated and token == prev):
            out.append(token)
        prev = token
    return out


def np_warpctc(logits, label, logits_length=None, labels_length=None, blank=0,
               norm_by_times=False):
    """loss [B, 1] and warpctcgrad [T, B, C] of logits [T, B, C] and padded labels [B, L]."""
    frames, batch, classes = logits.shape
    lengths = np.full(batch, frames) if logits_length is None else np.ravel(logits_length)
    label_lengths = (np.full(batch, label.shape[1]) if labels_length is None
                     else np.ravel(labels_length))
    loss = np.zeros((batch, 1))
    grad = np.zeros((frames, batch, classes))
    for b in range(batch):
        n = int(lengths[b])
        loss[b, 0], grad[:n, b] = ctc_sequence(logits[:n, b], label[b, :int(label_lengths[b])],
                                               blank)
    return loss.astype(logits.dtype), grad.astype(logits.dtype)


def np_warpctc_grad(logits, logits_length, warpctcgrad, loss_grad, blank=0,
                    norm_by_times=False):
    """warpctcgrad scaled by each sequence's loss gradient (and 1 / its frames)."""
    frames, batch, _ = warpctcgrad.shape
    scale = np.asarray(loss_grad, dtype=np.float64).reshape(batch)
    if norm_by_times:
        lengths = np.ravel(logits_length).astype(np.float64)
        scale = scale / np.where(lengths > 0, lengths, 1.0)
    return (warpctcgrad * scale[None, :, None]).astype(warpctcgrad.dtype)


def np_ctc_loss(log_probs, labels, input_lengths, label_lengths, blank=0, reduction="mean",
                norm_by_times=False, zero_infinity=False):
    loss = np_warpctc(log_probs, labels, input_lengths, label_lengths, blank)[0][:, 0]
    if reduction == "mean":
        return np.mean(loss / np.asarray(label_lengths, dtype=loss.dtype))
    if reduction == "sum":
        return np.sum(loss)
    return loss


def np_ctc_align(input, input_length=None, blank=0, merge_repeated=True, padding_value=0):
    """(output, output_length) of greedy CTC decoding, as ctc_align lays them out."""
    if input_length is None:
        decoded = ctc_collapse(list(np.ravel(input)), blank, merge_repeated)
        output = np.asarray(decoded if decoded else [-1], dtype=input.dtype).reshape(-1, 1)
        return output, np.asarray([[len(decoded)]], dtype=input.dtype)
    batch, width = input.shape
    output = np.full((batch, width), padding_value, dtype=input.dtype)
    counts = np.zeros(batch, dtype=input.dtype)
    for b, n in enumerate(np.ravel(input_length)):
        decoded = ctc_collapse(list(input[b, :int(n)]), blank, merge_repeated)
        output[b, :len(decoded)] = decoded
        counts[b] = len(decoded)
    return output, counts.reshape(np.shape(input_length))


def levenshtein(a, b):
    table = np.zeros((len(a) + 1, len(b) + 1), dtype=np.int64)
    table[:, 0] = np.arange(len(a) + 1)
    table[0, :] = np.arange(len(b) + 1)
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i, j] = min(table[i - 1, j] + 1, table[i, j - 1] + 1,
                              table[i - 1, j - 1] + (a[i - 1] != b[j - 1]))
    return int(table[-1, -1])


def np_edit_distance(hyps, refs, hypslength=None, refslength=None, normalized=False):
    """(sequencenum [1] int64, distances [B, 1] float32)."""
    batch = hyps.shape[0]
    hyp_lengths = np.full(batch, hyps.shape[1]) if hypslength is None else np.ravel(hypslength)
    ref_lengths = np.full(batch, refs.shape[1]) if refslength is None else np.ravel(refslength)
    out = np.zeros((batch, 1), dtype=np.float32)
    for b in range(batch):
        distance = levenshtein(list(hyps[b, :int(hyp_lengths[b])]),
                               list(refs[b, :int(ref_lengths[b])]))
        out[b, 0] = distance / ref_lengths[b] if normalized else distance
    return np.asarray([batch], dtype=np.int64), out


def np_gather_tree(ids, parents):
    steps, batch, beams = ids.shape
    out = np.zeros_like(ids)
    for b in range(batch):
        for k in range(beams):
            beam = k
            for t in range(steps - 1, -1, -1):
                out[t, b, k] = ids[t, b, beam]
                beam = parents[t, b, beam]
    return out
