"""Harness entries (op_db.py) of the ops that build complex numbers and take them apart: complex,
real, imag, conj, angle (and its gradient kernel), as_real and as_complex. The harness runs every
other op that registers complex64/complex128 through its own entry: a floating sample array
becomes, for a complex dtype, the complex array with those real parts (harness.sample_values), the
NumPy reference runs in complex128, and the complex128 gradient check compares Paddle's gradient
dL/dRe(z) + i dL/dIm(z) with central differences in each part."""
import numpy as np

import paddle
from harness import COMPLEX_DTYPES, ErrorSample, OpInfo, Sample
from op_db import away_from_zero, binary_samples, np_reduce, program_op, uniform


def pair_samples(rng):
    return [
        Sample([uniform(rng, (3, 4)), uniform(rng, (3, 4))]),
        Sample([uniform(rng, (2, 3, 4)), uniform(rng, (4,))]),  # broadcast imag
        Sample([uniform(rng, ()), uniform(rng, (2, 3))]),       # 0-d real
    ]


def unary_samples(make=uniform):
    def samples(rng):
        return [Sample([make(rng, (3, 4))]), Sample([make(rng, (2, 3, 4))]), Sample([make(rng, ())]),
                Sample([make(rng, (0, 3))])]
    return samples


def pairs_last(rng):
    """Arrays whose last dimension holds (real, imaginary) pairs."""
    return [Sample([uniform(rng, (3, 2))]), Sample([uniform(rng, (2, 3, 2))]),
            Sample([uniform(rng, (2,))])]


def angle_grad_op(x, out_grad):
    """angle_grad as a Paddle program holds it; its out_grad is real (angle's output), so a
    complex sample's upstream gradient is its real part."""
    if out_grad.dtype in (paddle.complex64, paddle.complex128):
        out_grad = paddle.real(out_grad)
    return program_op("angle_grad", {"X": x, "Out@GRAD": out_grad}, {"X@GRAD": "X"}, {})[0]


def np_angle_grad(x, out_grad):
    out_grad = np.real(out_grad)
    if np.iscomplexobj(x):
        norm = np.abs(x) ** 2
        safe = np.where(norm == 0, 1.0, norm)
        return np.where(norm == 0, 0, 1j * x * out_grad / safe)
    return np.zeros_like(x)


def np_as_real(x):
    return np.stack([np.real(x), np.imag(x)], axis=-1)


def _float_errors(api):
    return [ErrorSample([np.zeros((2,), np.float32)], {}, TypeError, api)]


COMPLEX_OPS = [
    OpInfo("complex", paddle.complex, lambda re, im: re + 1j * im, pair_samples,
           errors=lambda: [
               ErrorSample([np.zeros(2, np.float32), np.zeros(2, np.float64)], {}, TypeError, "imag"),
               ErrorSample([np.zeros(2, np.int64), np.zeros(2, np.int64)], {}, TypeError, "real"),
               ErrorSample([np.zeros((2, 3)), np.zeros((4,))], {}, ValueError, "[2, 3]")]),
    OpInfo("real", paddle.real, np.real, unary_samples(), errors=lambda: _float_errors("real")),
    OpInfo("imag", paddle.imag, np.imag, unary_samples(), errors=lambda: _float_errors("imag")),
    OpInfo("conj", paddle.conj, np.conj, unary_samples(), second_order=True,
           no_second_order_reason="linear in its input: the gradient is constant"),
    # Away from 0, where the angle of a complex number has no derivative (and the angle of a real
    # one jumps).
    OpInfo("angle", paddle.angle, np.angle, unary_samples(away_from_zero)),
    OpInfo("angle_grad", angle_grad_op, np_angle_grad, lambda rng: [
        Sample([away_from_zero(rng, (3, 4)), uniform(rng, (3, 4))]),
        Sample([np.array([0.0, 1.0, 0.0]), np.array([1.0, 2.0, 3.0])])],  # 0: a zero gradient
        grad=False),
    OpInfo("as_real", paddle.as_real, np_as_real, unary_samples(),
           errors=lambda: _float_errors("as_real")),
    # The elementwise_pow entry of op_db.py runs the real floats (its integer sibling the
    # integers).
    OpInfo("complex_elementwise_pow", paddle.pow, np.power, binary_samples(0.5, 2.0),
           covers=["elementwise_pow"], only_dtypes=COMPLEX_DTYPES),
    # The prod entry of op_db.py runs the real floats (its integer sibling the integers).
    OpInfo("complex_prod", paddle.prod, np_reduce(np.prod), lambda rng: [
        Sample([away_from_zero(rng, (3, 4))]), Sample([away_from_zero(rng, (3, 4))], {"axis": 0}),
        Sample([away_from_zero(rng, (2, 3, 2))], {"axis": [1, 2], "keepdim": True})],
        covers=["prod"], only_dtypes=COMPLEX_DTYPES),
    OpInfo("as_complex", paddle.as_complex, lambda x: x[..., 0] + 1j * x[..., 1], pairs_last,
           errors=lambda: [
               ErrorSample([np.zeros((2, 3))], {}, ValueError, "last dimension"),
               ErrorSample([np.zeros((2, 2), np.int32)], {}, TypeError, "as_complex")]),
]
