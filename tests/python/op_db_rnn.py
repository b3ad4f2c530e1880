"""Harness entries (op_db.py) of the fused recurrent network op `rnn` (LSTM, GRU, RNN_TANH,
RNN_RELU) and its gradient kernel `rnn_grad`, against a NumPy reference that runs the cells step
by step.

The op takes lists (pre_state, weight_list); the entries flatten them into positional arrays so
the harness differentiates every one of them: rnn_op(x, h0[, c0], *weights). Dropout is random,
so the entries run the op in test mode; nn/test_rnn_layers.py checks dropout. The gradient
kernel's reference is the central difference of the NumPy forward (float64)."""
import numpy as np

import paddle
from harness import ErrorSample, OpInfo, Sample
from op_db import uniform
from paddle.utils import unique_name
from static_testing import static_mode

GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def state_count(mode):
    return 2 if mode == "LSTM" else 1


# ---------------------------------------------------------------- NumPy reference
def _sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def _step(mode, x_t, h, c, w_ih, w_hh, b_ih, b_hh):
    """One step of one cell: (h', c')."""
    xg = x_t @ w_ih.T + b_ih
    hg = h @ w_hh.T + b_hh
    if mode == "LSTM":
        i, f, g, o = np.split(xg + hg, 4, axis=-1)
        c_new = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        return _sigmoid(o) * np.tanh(c_new), c_new
    if mode == "GRU":
        x_r, x_z, x_c = np.split(xg, 3, axis=-1)
        h_r, h_z, h_c = np.split(hg, 3, axis=-1)
        r, z = _sigmoid(x_r + h_r), _sigmoid(x_z + h_z)
        cand = np.tanh(x_c + r * h_c)
        return z * h + (1 - z) * cand, c
    a = xg + hg
    return (np.tanh(a) if mode == "RNN_TANH" else np.maximum(a, 0)), c


def np_rnn(x, *tensors, mode, num_layers=1, is_bidirec=False, sequence_length=None,
           input_size=None, hidden_size=None):
    """[out, h_n(, c_n)] of Paddle's rnn op: each direction runs its cell over time (the reverse
    one from the last step); past a sequence's length the output is 0 and the state is kept."""
    n = state_count(mode)
    states, weights = tensors[:n], tensors[n:]
    steps, batch = x.shape[:2]
    directions = 2 if is_bidirec else 1
    units = num_layers * directions
    final = [np.array(s, dtype=np.float64) for s in states]
    layer_in = x.astype(np.float64)
    lengths = np.full(batch, steps) if sequence_length is None else np.asarray(sequence_length)
    for layer in range(num_layers):
        outs = []
        for d in range(directions):
            k = layer * directions + d
            w_ih, w_hh = weights[2 * k], weights[2 * k + 1]
            b_ih, b_hh = weights[2 * units + 2 * k], weights[2 * units + 2 * k + 1]
            h = final[0][k].copy()
            c = final[1][k].copy() if n == 2 else None
            out = np.zeros((steps, batch, h.shape[-1]))
            for t in (range(steps) if d == 0 else reversed(range(steps))):
                h_new, c_new = _step(mode, layer_in[t], h, c, w_ih, w_hh, b_ih, b_hh)
                valid = (t < lengths)[:, None]
                h = np.where(valid, h_new, h)
                if n == 2:
                    c = np.where(valid, c_new, c)
                out[t] = np.where(valid, h_new, 0.0)
            final[0][k] = h
            if n == 2:
                final[1][k] = c
            outs.append(out)
        layer_in = np.concatenate(outs, axis=-1)
    return [layer_in] + final


def rnn_op(x, *tensors, mode, num_layers=1, is_bidirec=False, sequence_length=None,
           input_size=None, hidden_size=None):
    """The op with its lists flattened: [out, h_n(, c_n)] (Reserve and DropoutState, which
    carry no gradient, left out)."""
    n = state_count(mode)
    if isinstance(sequence_length, np.ndarray):  # the error samples pass arrays as they are
        sequence_length = paddle.to_tensor(sequence_length)
    out, _, state, _ = paddle._C_ops.rnn(x, list(tensors[:n]), list(tensors[n:]), sequence_length,
                                         0.0, is_bidirec, input_size, hidden_size, num_layers,
                                         mode, 0, True)
    return [out] + list(state)


def rnn_arrays(rng, mode, steps, batch, input_size, hidden, num_layers=1, bidirec=False):
    """x, the initial states and Paddle's weight list for one configuration."""
    directions = 2 if bidirec else 1
    units = num_layers * directions
    gh = GATES[mode] * hidden
    x = uniform(rng, (steps, batch, input_size))
    states = [uniform(rng, (units, batch, hidden)) for _ in range(state_count(mode))]
    weights, biases = [], []
    for layer in range(num_layers):
        in_size = input_size if layer == 0 else directions * hidden
        for _ in range(directions):
            weights += [uniform(rng, (gh, in_size)), uniform(rng, (gh, hidden))]
            biases += [uniform(rng, (gh,)), uniform(rng, (gh,))]
    return [x] + states + weights + biases


def attrs(mode, input_size, hidden, num_layers=1, bidirec=False, lengths=None):
    kwargs = {"mode": mode, "num_layers": num_layers, "is_bidirec": bidirec,
              "input_size": input_size, "hidden_size": hidden}
    if lengths is not None:
        kwargs["sequence_length"] = np.asarray(lengths, dtype=np.int64)
    return kwargs


def rnn_samples(mode):
    def samples(rng):
        return [
            Sample(rnn_arrays(rng, mode, 4, 2, 3, 3), attrs(mode, 3, 3)),
            # Two layers, both directions, and sequences shorter than the time steps (one empty).
            Sample(rnn_arrays(rng, mode, 4, 3, 2, 2, num_layers=2, bidirec=True),
                   attrs(mode, 2, 2, num_layers=2, bidirec=True, lengths=[4, 2, 0])),
            Sample(rnn_arrays(rng, mode, 3, 2, 3, 2, bidirec=True),
                   attrs(mode, 3, 2, bidirec=True, lengths=np.array([1, 3], np.int32))),
        ]
    return samples


def rnn_errors(mode):
    def errors():
        rng = np.random.default_rng(0)
        arrays = [a.astype(np.float32) for a in rnn_arrays(rng, mode, 4, 2, 3, 3)]
        x, rest = arrays[0], arrays[1:]
        n = state_count(mode)
        wrong_state = [np.zeros((2, 2, 3), np.float32)] + rest[1:]
        return [
            ErrorSample(arrays, attrs(mode, 3, 3, lengths=[5, 2]), ValueError, "sequence_length"),
            ErrorSample(arrays, attrs(mode, 3, 3, lengths=[-1, 2]), ValueError, "sequence_length"),
            ErrorSample([np.zeros((4, 2, 5), np.float32)] + rest, attrs(mode, 5, 3), ValueError,
                        "weight_ih of layer 0"),
            ErrorSample([x] + wrong_state, attrs(mode, 3, 3), ValueError, "pre_state"),
            ErrorSample([x] + rest[:n] + rest[n + 1:], attrs(mode, 3, 3), ValueError,
                        "weight_list"),
            ErrorSample([x[0]] + rest, attrs(mode, 3, 3), ValueError, "rnn: argument 'x'"),
            ErrorSample(arrays, dict(attrs(mode, 3, 3), mode="LSTMX"), ValueError, "mode"),
        ]
    return errors


# ---------------------------------------------------------------- the gradient kernel
def rnn_grad_op(x, *tensors, mode, num_layers=1, is_bidirec=False, sequence_length=None,
                input_size=None, hidden_size=None):
    """The gradients of sum(out * out_grad) + sum(h_n * h_n_grad) (+ c_n) through Paddle's
    rnn_grad op as a training program holds it: tensors are the rnn_op arrays, then out_grad
    and the state gradients. In static mode the ops go into the program being built."""
    n = state_count(mode)
    units = num_layers * (2 if is_bidirec else 1)
    inputs = list(tensors[:-1 - n])
    out_grad, state_grads = tensors[-1 - n], list(tensors[-n:])
    if paddle.in_dynamic_mode():
        with static_mode():
            main = paddle.static.Program()
            with paddle.static.program_guard(main, paddle.static.Program()):
                feeds = [x] + list(tensors)
                data = [paddle.static.data(f"input_{k}", t.shape, t.dtype)
                        for k, t in enumerate(feeds)]
                lengths = None
                if sequence_length is not None:
                    lengths = paddle.static.data("lengths", sequence_length.shape,
                                                 sequence_length.dtype)
                    data.append(lengths)
                    feeds.append(sequence_length)
                fetch = rnn_grad_op(data[0], *data[1:1 + len(tensors)], mode=mode,
                                    num_layers=num_layers, is_bidirec=is_bidirec,
                                    sequence_length=lengths, input_size=input_size,
                                    hidden_size=hidden_size)
            return paddle.static.Executor(x.place).run(
                main, feed={d.name: t for d, t in zip(data, feeds)}, fetch_list=fetch,
                return_numpy=False)
    out, dropout_state, state, reserve = paddle._C_ops.rnn(
        x, inputs[:n], inputs[n:], sequence_length, 0.0, is_bidirec, input_size, hidden_size,
        num_layers, mode, 0, True)
    block = paddle.static.default_main_program().global_block()

    def like(v):
        return block.create_var(name=unique_name.generate("rnn_grad"), shape=v.shape,
                                dtype=v.dtype)
    x_grad = like(x)
    state_grads_out = [like(s) for s in inputs[:n]]
    weight_grads = [like(w) for w in inputs[n:]]
    slots = {"Input": [x], "PreState": inputs[:n], "WeightList": inputs[n:],
             "DropoutState": [dropout_state], "Reserve": [reserve], "Out": [out],
             "State": list(state), "Out@GRAD": [out_grad], "State@GRAD": state_grads}
    if sequence_length is not None:
        slots["SequenceLength"] = [sequence_length]
    block.append_op("rnn_grad", inputs=slots,
                    outputs={"Input@GRAD": [x_grad], "PreState@GRAD": state_grads_out,
                             "WeightList@GRAD": weight_grads},
                    attrs={"dropout_prob": 0.0, "is_bidirec": is_bidirec,
                           "input_size": input_size, "hidden_size": hidden_size,
                           "num_layers": num_layers, "mode": mode, "seed": 0, "is_test": True})
    assert len(weight_grads) == 4 * units
    return [x_grad] + state_grads_out + weight_grads


def np_rnn_grad(x, *tensors, eps=1e-6, **kwargs):
    """Central differences of sum(out * out_grad) + sum(state * state_grad) of np_rnn."""
    n = state_count(kwargs["mode"])
    arrays = [np.array(a, dtype=np.float64) for a in (x,) + tensors[:-1 - n]]
    grads = [np.asarray(g, dtype=np.float64) for g in tensors[-1 - n:]]

    def loss():
        return sum(float((r * g).sum()) for r, g in zip(np_rnn(*arrays, **kwargs), grads))
    results = []
    for a in arrays:
        g = np.zeros_like(a)
        flat, gflat = a.reshape(-1), g.reshape(-1)
        for i in range(flat.size):
            old = flat[i]
            flat[i] = old + eps
            plus = loss()
            flat[i] = old - eps
            gflat[i] = (plus - loss()) / (2 * eps)
            flat[i] = old
        results.append(g)
    return results


def rnn_grad_samples(rng):
    def sample(mode, steps, batch, input_size, hidden, num_layers=1, bidirec=False, lengths=None):
        arrays = rnn_arrays(rng, mode, steps, batch, input_size, hidden, num_layers, bidirec)
        units = num_layers * (2 if bidirec else 1)
        out_grad = uniform(rng, (steps, batch, (2 if bidirec else 1) * hidden))
        state_grads = [uniform(rng, (units, batch, hidden)) for _ in range(state_count(mode))]
        return Sample(arrays + [out_grad] + state_grads,
                      attrs(mode, input_size, hidden, num_layers, bidirec, lengths))
    return [sample("LSTM", 3, 2, 2, 2, num_layers=2, bidirec=True, lengths=[3, 1]),
            sample("GRU", 3, 2, 3, 2, bidirec=True, lengths=[2, 3]),
            sample("RNN_TANH", 3, 2, 2, 3, num_layers=2),
            sample("RNN_RELU", 2, 3, 2, 2, lengths=[2, 0, 1])]


KERNEL_GRAD = ("a gradient kernel without a gradient of its own; it is checked here against "
               "central differences of the NumPy forward, and as the first-order gradient of the "
               "rnn entries")

RNN_OPS = [
    OpInfo(f"rnn_{mode.lower()}", rnn_op, np_rnn, rnn_samples(mode), covers=["rnn"],
           errors=rnn_errors(mode), atol=1e-5, rtol=1e-4)
    for mode in GATES
] + [
    OpInfo("rnn_grad", rnn_grad_op, np_rnn_grad, rnn_grad_samples, grad=False,
           no_grad_reason=KERNEL_GRAD, atol=1e-5, rtol=1e-4),
]
