"""Recurrent layers of paddle.nn: the cells (SimpleRNNCell, LSTMCell, GRUCell), the layers that run
a cell over time (RNN, BiRNN) and the multi-layer networks (SimpleRNN, LSTM, GRU).

Hand-written because the work here is Paddle's Python: the cells are composed from matmul,
split and the activations, and RNN / BiRNN loop over the time steps in Python, as Paddle does (the
loop is unrolled into a static Program too, which needs the number of time steps when it is
built). SimpleRNN, LSTM and GRU keep their parameters under Paddle's names (weight_ih_l0,
bias_hh_l1_reverse, ...) and run the fused `rnn` op (paddle/ops/yaml/rnn.yaml) with Paddle's
WeightList order, except an LSTM with proj_size, which Paddle also runs cell by cell."""
import math
import numbers

import paddle

from .. import functional as F
from .. import initializer as I
from .container import LayerList
from .layers import Layer

__all__ = ["RNNCellBase", "SimpleRNNCell", "LSTMCell", "GRUCell", "RNN", "BiRNN", "SimpleRNN",
           "LSTM", "GRU"]

_BIDIRECTIONAL = ("bidirectional", "bidirect")


# ---------------------------------------------------------------- nested structures of states
def _is_shape(value):
    return isinstance(value, (list, tuple)) and all(isinstance(v, numbers.Integral)
                                                    for v in value)


def _flatten(structure):
    if isinstance(structure, (list, tuple)):
        return [leaf for item in structure for leaf in _flatten(item)]
    return [structure]


def _map(fn, *structures):
    """fn applied to the matching leaves of equally nested lists/tuples (the structure kept)."""
    first = structures[0]
    if isinstance(first, (list, tuple)):
        return type(first)(_map(fn, *items) for items in zip(*structures))
    return fn(*structures)


def _check_size(value, cls, what):
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{what} of {cls} must be greater than 0, but now equals to {value}")


# ---------------------------------------------------------------- cells
class RNNCellBase(Layer):
    """The base of the cells: a cell maps (inputs, states) to (outputs, new_states). Its
    parameters take the default dtype (paddle.set_default_dtype)."""

    def __init__(self, name_scope=None, dtype=None):
        super().__init__(name_scope, paddle.get_default_dtype() if dtype is None else dtype)

    def get_initial_states(self, batch_ref, shape=None, dtype=None, init_value=0.0,
                           batch_dim_idx=0):
        """States filled with init_value: one tensor [batch, *shape] per shape of `shape` (the
        cell's state_shape by default), batch taken from dim batch_dim_idx of batch_ref."""
        batch_ref = _flatten(batch_ref)[0]
        batch = batch_ref.shape[batch_dim_idx]
        if batch is None or batch < 0:
            raise ValueError(f"{type(self).__name__}.get_initial_states(): the batch size (dim "
                             f"{batch_dim_idx} of batch_ref, shape {list(batch_ref.shape)}) must be "
                             "known; pass initial_states for a batch of unknown size")
        shapes = self.state_shape if shape is None else shape
        if dtype is None:
            try:
                dtype = self.state_dtype
            except NotImplementedError:
                dtype = paddle.get_default_dtype()

        def make(state_shape):
            dims = list(state_shape)
            if dims and dims[0] == -1:
                dims = dims[1:]
            return paddle.full([batch] + dims, init_value, dtype=dtype)
        if _is_shape(shapes):
            return make(shapes)
        return type(shapes)(make(s) if _is_shape(s) else
                            type(s)(make(x) for x in s) for s in shapes)

    @property
    def state_shape(self):
        raise NotImplementedError("Please add implementation for `state_shape` in the used cell.")

    @property
    def state_dtype(self):
        raise NotImplementedError("Please add implementation for `state_dtype` in the used cell.")

    def _weights(self, input_size, hidden_size, gates, hh_columns, weight_ih_attr,
                 weight_hh_attr, bias_ih_attr, bias_hh_attr):
        """weight_ih [gates * H, input_size], weight_hh [gates * H, hh_columns], bias_ih and
        bias_hh [gates * H], uniform in +-1/sqrt(H). An attr of False gives a fixed parameter
        (weights 1, biases 0) that takes no gradient, as in Paddle."""
        std = 1.0 / math.sqrt(hidden_size)
        rows = gates * hidden_size

        def make(shape, attr, is_bias):
            if attr is not False:
                return self.create_parameter(shape, attr, is_bias=is_bias,
                                             default_initializer=I.Uniform(-std, std))
            param = self.create_parameter(shape, None, is_bias=is_bias,
                                          default_initializer=I.Constant(0.0 if is_bias else 1.0))
            param.stop_gradient = True
            return param
        self.weight_ih = make((rows, input_size), weight_ih_attr, False)
        self.weight_hh = make((rows, hh_columns), weight_hh_attr, False)
        self.bias_ih = make((rows,), bias_ih_attr, True)
        self.bias_hh = make((rows,), bias_hh_attr, True)


class SimpleRNNCell(RNNCellBase):
    """h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh), act tanh or relu."""

    def __init__(self, input_size, hidden_size, activation="tanh", weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__()
        _check_size(hidden_size, type(self).__name__, "hidden_size")
        self._weights(input_size, hidden_size, 1, hidden_size, weight_ih_attr, weight_hh_attr,
                      bias_ih_attr, bias_hh_attr)
        self.input_size = input_size
        self.hidden_size = hidden_size
        if activation not in ["tanh", "relu"]:
            raise ValueError(f"activation for SimpleRNNCell should be tanh or relu, but get "
                             f"{activation}")
        self.activation = activation
        self._activation_fn = paddle.tanh if activation == "tanh" else F.relu

    def forward(self, inputs, states=None):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        i2h = paddle.matmul(inputs, self.weight_ih, transpose_y=True) + self.bias_ih
        h2h = paddle.matmul(states, self.weight_hh, transpose_y=True) + self.bias_hh
        h = self._activation_fn(i2h + h2h)
        return h, h

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        return s + (f", activation={self.activation}" if self.activation != "tanh" else "")


class LSTMCell(RNNCellBase):
    """Gates i, f, g, o of x W_ih^T + b_ih + h W_hh^T + b_hh; c' = f c + i g, h' = o tanh(c')
    (times weight_ho [hidden_size, proj_size] when proj_size > 0). States (h, c)."""

    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size=0, name=None):
        super().__init__()
        _check_size(hidden_size, type(self).__name__, "hidden_size")
        if proj_size < 0:
            raise ValueError(f"proj_size of {type(self).__name__} must be greater than 0, but now "
                             f"equals to {proj_size}")
        if proj_size >= hidden_size:
            raise ValueError("proj_size must be smaller than hidden_size")
        self._weights(input_size, hidden_size, 4, proj_size or hidden_size, weight_ih_attr,
                      weight_hh_attr, bias_ih_attr, bias_hh_attr)
        self.proj_size = proj_size
        if proj_size > 0:
            std = 1.0 / math.sqrt(hidden_size)
            self.weight_ho = self.create_parameter((hidden_size, proj_size), weight_hh_attr,
                                                   default_initializer=I.Uniform(-std, std))
        self.hidden_size = hidden_size
        self.input_size = input_size

    def forward(self, inputs, states=None):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        pre_hidden, pre_cell = states
        gates = paddle.matmul(inputs, self.weight_ih, transpose_y=True) + self.bias_ih
        gates = gates + paddle.matmul(pre_hidden, self.weight_hh, transpose_y=True) + self.bias_hh
        i, f, g, o = paddle.split(gates, num_or_sections=4, axis=-1)
        c = F.sigmoid(f) * pre_cell + F.sigmoid(i) * paddle.tanh(g)
        h = F.sigmoid(o) * paddle.tanh(c)
        if self.proj_size > 0:
            h = paddle.matmul(h, self.weight_ho)
        return h, (h, c)

    @property
    def state_shape(self):
        return ((self.proj_size or self.hidden_size,), (self.hidden_size,))

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}"


class GRUCell(RNNCellBase):
    """Gates r, z of x W_ih^T + b_ih + h W_hh^T + b_hh; c = tanh(x_c + r (h W_hc^T + b_hc)),
    h' = z h + (1 - z) c."""

    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__()
        _check_size(hidden_size, type(self).__name__, "hidden_size")
        self._weights(input_size, hidden_size, 3, hidden_size, weight_ih_attr, weight_hh_attr,
                      bias_ih_attr, bias_hh_attr)
        self.hidden_size = hidden_size
        self.input_size = input_size

    def forward(self, inputs, states=None):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        x_gates = paddle.matmul(inputs, self.weight_ih, transpose_y=True) + self.bias_ih
        h_gates = paddle.matmul(states, self.weight_hh, transpose_y=True) + self.bias_hh
        x_r, x_z, x_c = paddle.split(x_gates, num_or_sections=3, axis=1)
        h_r, h_z, h_c = paddle.split(h_gates, num_or_sections=3, axis=1)
        r = F.sigmoid(x_r + h_r)
        z = F.sigmoid(x_z + h_z)
        c = paddle.tanh(x_c + r * h_c)  # the reset gate applies after the matmul
        h = (states - c) * z + c
        return h, h

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}"


# ---------------------------------------------------------------- running a cell over time
def _keep_finished(state, new_state, step_mask):
    """new_state where the step is inside the sequence, the old state past its end."""
    mask = paddle.unsqueeze(step_mask, [1])
    return new_state * mask + state * (1 - mask)


def rnn(cell, inputs, initial_states=None, sequence_length=None, time_major=False,
        is_reverse=False, **kwargs):
    """Runs `cell` over the time steps of inputs ([batch, time, ...] or, time_major, [time,
    batch, ...]); returns (outputs stacked over time, final states). Past a sequence's
    sequence_length its state is carried unchanged."""
    time_axis = 0 if time_major else 1
    first = _flatten(inputs)[0]
    time_steps = first.shape[time_axis]
    if time_steps is None or time_steps < 0:
        raise ValueError(f"rnn(): the number of time steps (dim {time_axis} of inputs, shape "
                         f"{list(first.shape)}) must be known when the loop is built")
    if initial_states is None:
        initial_states = cell.get_initial_states(batch_ref=inputs,
                                                 batch_dim_idx=1 if time_major else 0)
    if not time_major:
        inputs = _map(lambda x: paddle.transpose(x, [1, 0] + list(range(2, len(x.shape)))),
                      inputs)
    mask = None
    if sequence_length is not None:
        steps = paddle.arange(time_steps, dtype=sequence_length.dtype)
        mask = paddle.cast(paddle.unsqueeze(steps, [1]) < paddle.unsqueeze(sequence_length, [0]),
                           _flatten(inputs)[0].dtype)  # [time, batch]
    order = range(time_steps - 1, -1, -1) if is_reverse else range(time_steps)
    states = initial_states
    outputs = []
    for i in order:
        step_outputs, new_states = cell(_map(lambda x: x[i], inputs), states, **kwargs)
        if mask is not None:
            new_states = _map(lambda s, n: _keep_finished(s, n, mask[i]), states, new_states)
        states = new_states
        outputs.append(step_outputs)
    if is_reverse:
        outputs.reverse()
    final_outputs = _map(lambda *steps: paddle.stack(list(steps), axis=time_axis), *outputs)
    return final_outputs, states


def birnn(cell_fw, cell_bw, inputs, initial_states=None, sequence_length=None, time_major=False,
          **kwargs):
    """cell_fw forward and cell_bw backward over inputs; returns (outputs concatenated on the
    last axis, (final states of cell_fw, final states of cell_bw))."""
    if initial_states is None:
        batch_dim = 1 if time_major else 0
        states_fw = cell_fw.get_initial_states(batch_ref=inputs, batch_dim_idx=batch_dim)
        states_bw = cell_fw.get_initial_states(batch_ref=inputs, batch_dim_idx=batch_dim)
    else:
        states_fw, states_bw = initial_states
    outputs_fw, states_fw = rnn(cell_fw, inputs, states_fw, sequence_length, time_major=time_major,
                                **kwargs)
    outputs_bw, states_bw = rnn(cell_bw, inputs, states_bw, sequence_length, time_major=time_major,
                                is_reverse=True, **kwargs)
    outputs = _map(lambda x, y: paddle.concat([x, y], -1), outputs_fw, outputs_bw)
    return outputs, (states_fw, states_bw)


class RNN(Layer):
    """Runs `cell` over the time steps of its input (in reverse with is_reverse)."""

    def __init__(self, cell, is_reverse=False, time_major=False):
        super().__init__()
        self.cell = cell
        if not hasattr(self.cell, "call"):
            self.cell.call = self.cell.forward
        self.is_reverse = is_reverse
        self.time_major = time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        return rnn(self.cell, inputs, initial_states=initial_states,
                   sequence_length=sequence_length, time_major=self.time_major,
                   is_reverse=self.is_reverse, **kwargs)


class BiRNN(Layer):
    """cell_fw forward and cell_bw backward in time; the outputs are concatenated."""

    def __init__(self, cell_fw, cell_bw, time_major=False):
        super().__init__()
        self.cell_fw = cell_fw
        self.cell_bw = cell_bw
        if cell_fw.input_size != cell_bw.input_size:
            raise ValueError(f"input size of forward cell({cell_fw.input_size}) does not equals"
                             f"that of backward cell({cell_bw.input_size})")
        for cell in [self.cell_fw, self.cell_bw]:
            if not hasattr(cell, "call"):
                cell.call = cell.forward
        self.time_major = time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        if isinstance(initial_states, (list, tuple)) and len(initial_states) != 2:
            raise ValueError("BiRNN: initial_states must hold the states of the forward and the "
                             f"backward cell (2 entries), received {len(initial_states)}")
        return birnn(self.cell_fw, self.cell_bw, inputs, initial_states, sequence_length,
                     self.time_major, **kwargs)


# ---------------------------------------------------------------- multi-layer networks
def _split_states(states, bidirectional, state_components):
    """[L * D, B, H] states (one tensor per component) into one entry per layer (a pair per
    layer when bidirectional), each the cell's state structure."""
    if state_components == 1:
        states = paddle.unstack(states)
        return list(zip(states[::2], states[1::2])) if bidirectional else states
    per_unit = list(zip(*[paddle.unstack(s) for s in states]))
    return list(zip(per_unit[::2], per_unit[1::2])) if bidirectional else per_unit


def _concat_states(states, state_components):
    states = _flatten(states)
    if state_components == 1:
        return paddle.stack(states)
    return tuple(paddle.stack(states[i::state_components]) for i in range(state_components))


class RNNBase(LayerList):
    """The multi-layer networks: mode LSTM, GRU, RNN_TANH or RNN_RELU."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size=0):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.dropout = dropout
        self.num_directions = 2 if direction in _BIDIRECTIONAL else 1
        self.time_major = time_major
        self.num_layers = num_layers
        self.state_components = 2 if mode == "LSTM" else 1
        _check_size(num_layers, type(self).__name__, "num_layers")
        if not 0.0 <= dropout <= 1.0:
            raise ValueError(f"dropout of {type(self).__name__} must be in [0, 1], received "
                             f"{dropout}")
        attrs = {"weight_ih_attr": weight_ih_attr, "weight_hh_attr": weight_hh_attr,
                 "bias_ih_attr": bias_ih_attr, "bias_hh_attr": bias_hh_attr}
        self.proj_size = proj_size
        if proj_size > 0 and mode != "LSTM":
            raise ValueError(f"proj_size is for LSTM only, received mode {mode}")
        if mode == "LSTM":
            cell_cls = LSTMCell
            attrs["proj_size"] = proj_size
        elif mode == "GRU":
            cell_cls = GRUCell
        else:
            cell_cls = SimpleRNNCell
            attrs["activation"] = "relu" if mode == "RNN_RELU" else "tanh"
        in_size = proj_size or hidden_size
        if direction == "forward":
            self.append(RNN(cell_cls(input_size, hidden_size, **attrs), False, time_major))
            for _ in range(1, num_layers):
                self.append(RNN(cell_cls(in_size, hidden_size, **attrs), False, time_major))
        elif direction in _BIDIRECTIONAL:
            self.append(BiRNN(cell_cls(input_size, hidden_size, **attrs),
                              cell_cls(input_size, hidden_size, **attrs), time_major))
            for _ in range(1, num_layers):
                self.append(BiRNN(cell_cls(2 * in_size, hidden_size, **attrs),
                                  cell_cls(2 * in_size, hidden_size, **attrs), time_major))
        else:
            raise ValueError("direction should be forward or bidirect (or bidirectional), "
                             f"received direction = {direction}")
        # The fused op takes exactly 4 parameters per layer and direction (no projection).
        self.could_use_cudnn = len(self.parameters()) == num_layers * 4 * self.num_directions
        # Paddle also registers the cells' parameters on the network itself under flat names
        # (weight_ih_l0, bias_hh_l1_reverse, ...), which state_dict lists as well.
        param_names = []
        for layer in range(self.num_layers):
            for num in range(self.num_directions):
                suffix = "_reverse" if num == 1 else ""
                param_names.extend(["weight_ih_l{}{}", "weight_hh_l{}{}"])
                if bias_ih_attr is not False:
                    param_names.append("bias_ih_l{}{}")
                if bias_hh_attr is not False:
                    param_names.append("bias_hh_l{}{}")
                param_names = [x.format(layer, suffix) for x in param_names]
        for name, param in zip(param_names, self.parameters()):
            setattr(self, name, param)
        self._param_names = param_names
        self.flatten_parameters()

    def flatten_parameters(self):
        """Orders the parameters as the op's WeightList: every weight_ih, weight_hh (layer by
        layer, forward direction first), then every bias_ih, bias_hh. The order is kept as
        names, looked up at each call, so that paddle.jit tracing (which swaps parameters for
        program variables) reaches the op too."""
        if not self.could_use_cudnn:
            return
        units = self.num_layers * self.num_directions
        self._weight_order = [None] * len(self._param_names)
        for i, name in enumerate(self._param_names):
            offset = 0 if i % 4 < 2 else 2 * units
            self._weight_order[offset + (i // 4) * 2 + i % 2] = name

    def _fused_forward(self, inputs, initial_states, sequence_length):
        if not self.time_major:
            inputs = paddle.transpose(inputs, [1, 0, 2])
        out, _, state, _ = paddle._C_ops.rnn(
            inputs, list(initial_states), [getattr(self, n) for n in self._weight_order],
            sequence_length, float(self.dropout),
            self.num_directions == 2, self.input_size, self.hidden_size, self.num_layers,
            self.mode, 0, not self.training)
        if not self.time_major:
            out = paddle.transpose(out, [1, 0, 2])
        return out, tuple(state) if len(state) > 1 else state[0]

    def _zero_states(self, inputs, batch_index):
        units = self.num_layers * self.num_directions
        sizes = (self.proj_size or self.hidden_size, self.hidden_size)[:self.state_components]
        batch = inputs.shape[batch_index]
        if batch is not None and batch >= 0:
            return tuple(paddle.full([units, batch, size], 0, dtype=inputs.dtype)
                         for size in sizes)
        # A program traced for any batch size (paddle.jit.save with a None batch dimension):
        # the zeros take their batch size from the inputs when the program runs.
        column = paddle.full_like(paddle.index_select(
            inputs, paddle.to_tensor([0]), axis=1 - batch_index), 0)  # [batch, 1, input] or so
        column = paddle.full_like(column.reshape([-1, self.input_size])[:, :1], 0)  # [batch, 1]
        return tuple(column.unsqueeze(0).expand([units, -1, size]) for size in sizes)

    def forward(self, inputs, initial_states=None, sequence_length=None):
        batch_index = 1 if self.time_major else 0
        if initial_states is None:
            initial_states = self._zero_states(inputs, batch_index)
        elif not isinstance(initial_states, (list, tuple)):
            initial_states = [initial_states]
        if self.could_use_cudnn:
            return self._fused_forward(inputs, initial_states, sequence_length)
        states = _split_states(initial_states if self.state_components > 1 else initial_states[0],
                               self.num_directions == 2, self.state_components)
        final_states = []
        for i, rnn_layer in enumerate(self):
            if i > 0:
                inputs = F.dropout(inputs, self.dropout, training=self.training,
                                   mode="upscale_in_train")
            outputs, final_state = rnn_layer(inputs, states[i], sequence_length)
            final_states.append(final_state)
            inputs = outputs
        return outputs, _concat_states(final_states, self.state_components)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.time_major is not False:
            s += f", time_major={self.time_major}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        return s


class SimpleRNN(RNNBase):
    """A multi-layer Elman network, h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh)."""

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, activation="tanh", weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None):
        if activation == "tanh":
            mode = "RNN_TANH"
        elif activation == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown activation '{activation}'")
        self.activation = activation
        super().__init__(mode, input_size, hidden_size, num_layers, direction, time_major,
                         dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr, 0)


class LSTM(RNNBase):
    """A multi-layer LSTM; final states (h, c), each [num_layers * D, batch, hidden]."""

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size=0, name=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, direction, time_major,
                         dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr,
                         proj_size)


class GRU(RNNBase):
    """A multi-layer GRU; final state [num_layers * D, batch, hidden]."""

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__("GRU", input_size, hidden_size, num_layers, direction, time_major,
                         dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr, 0)
