"""Harness entries of the resampling ops (paddle/ops/yaml/interpolate.yaml): interpolate in each
mode, grid_sample and affine_grid, and their gradient ops. The NumPy references encode Paddle's
CPU coordinate rules (paddle/phi/kernels/cpu/interpolate_kernel.cc, grid_sample_kernel.cc,
affine_grid_kernel.cc): the interpolate ratio and linear weights in float32, Paddle's
truncations, its half-pixel rule for align_mode 0, Keys' cubic with a = -0.75, the copy Paddle
makes when no spatial dim changes."""
import functools
import itertools
import math

import numpy as np

import paddle.nn.functional as F
from harness import ErrorSample, OpInfo, Sample
from op_db import LINEAR, program_op, uniform

f32 = np.float32


# ---------------------------------------------------------------- interpolate
def _ratio(in_size, out_size, factor, align_corners):
    """Paddle's source-per-output ratio along an axis, in float32."""
    if out_size <= 1:
        return f32(0)
    if align_corners:
        return f32(in_size - 1) / f32(out_size - 1)
    if factor > 0:
        return f32(1.0 / float(factor))
    return f32(in_size) / f32(out_size)


def _truncated(position, in_size):
    """Paddle's source index: the position truncated toward zero, at least 0 (and, here, at most
    in_size - 1, which Paddle's own sizes never exceed)."""
    return min(int(position), in_size - 1) if position > 0 else 0


def _cubic(t):
    """Keys' cubic convolution weights (a = -0.75) of the 4 taps around a position t past the
    second one."""
    a = -0.75

    def near(s):
        return ((a + 2) * s - (a + 3)) * s * s + 1

    def far(s):
        return ((a * s - 5 * a) * s + 8 * a) * s - 4 * a
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _axis_matrix(mode, in_size, out_size, factor, align_corners, align_mode):
    """[out_size, in_size]: each output index as a weighted sum of input indices."""
    m = np.zeros((out_size, in_size))
    ratio = _ratio(in_size, out_size, factor, align_corners)
    for k in range(out_size):
        plain = f32(ratio * f32(k))                # float32 * int in Paddle
        centered = float(ratio) * (k + 0.5) - 0.5  # float32 * double
        if mode == "nearest":
            m[k, _truncated(float(plain) + 0.5 if align_corners else float(plain), in_size)] = 1
        elif mode == "bicubic":
            source = float(plain) if align_corners else centered
            first = math.floor(source)
            for j, w in enumerate(_cubic(source - first)):
                m[k, min(max(first - 1 + j, 0), in_size - 1)] += w
        else:
            half_pixel = align_mode == 0 and not align_corners
            i0 = _truncated(centered if half_pixel else float(plain), in_size)
            lam = (max(f32(centered), f32(0)) if half_pixel else plain) - f32(i0)
            m[k, i0] += f32(1) - lam
            m[k, min(i0 + 1, in_size - 1)] += lam
    return m


def _resample(values, mode, axes, in_sizes, out_sizes, factors, align_corners, align_mode,
              adjoint=False):
    """Applies each axis's matrix (or its transpose) along its axis; a call that changes no
    size is Paddle's copy."""
    if list(in_sizes) == list(out_sizes):
        return values.copy()
    for axis, n, m, factor in zip(axes, in_sizes, out_sizes, factors):
        matrix = _axis_matrix(mode, n, m, factor, align_corners, align_mode)
        matrix = matrix.T if adjoint else matrix
        values = np.moveaxis(np.tensordot(matrix, values, axes=([1], [axis])), 0, axis)
    return values


def _spatial_axes(rank, channel_last):
    return list(range(1, rank - 1)) if channel_last else list(range(2, rank))


def _values(v):
    return [x.item() for x in np.asarray(v).reshape(-1)]


def np_interpolate(x, size=None, scale_factor=None, mode="nearest", align_corners=False,
                   align_mode=0, data_format=None, recompute_scale_factor=None):
    """F.interpolate: the sizes and factors as Paddle's Python and kernel resolve them."""
    channel_last = data_format is not None and data_format.upper() in ("NWC", "NHWC", "NDHWC")
    axes = _spatial_axes(x.ndim, channel_last)
    in_sizes = [x.shape[a] for a in axes]
    factors = [-1.0] * len(axes)
    if size is not None:
        sizes = ([int(_values(s)[0]) for s in size] if isinstance(size, (list, tuple))
                 else [int(s) for s in _values(size)])
    else:
        scale = _values(scale_factor)
        scale = scale * len(axes) if len(scale) == 1 else scale
        if recompute_scale_factor:
            sizes = [math.floor(n * s) for n, s in zip(in_sizes, scale)]
        else:
            factors = [f32(s) for s in scale]
            sizes = [int(f32(n) * s) for n, s in zip(in_sizes, factors)]
    return _resample(x, mode, axes, in_sizes, sizes, factors, align_corners, align_mode)


def _interp_attrs(mode, data_format, sizes, scale, align_corners, align_mode):
    """The attributes of Paddle's <mode>_interp_v2 (and its _grad) op."""
    out_d, out_h, out_w = [-1] * (3 - len(sizes)) + list(sizes)
    return {"data_layout": data_format, "out_d": out_d, "out_h": out_h, "out_w": out_w,
            "scale": list(scale), "interp_method": mode, "align_corners": align_corners,
            "align_mode": align_mode}


def interp_grad_op(mode):
    """The <mode>_interp_v2_grad op, run as a Paddle training program holds it."""
    def run(x, out_grad, sizes, scale=(), data_format="NCHW", align_corners=False, align_mode=0):
        return program_op(f"{mode}_interp_v2_grad", {"X": x, "Out@GRAD": out_grad},
                          {"X@GRAD": "X"},
                          _interp_attrs(mode, data_format, sizes, scale, align_corners,
                                        align_mode))[0]
    return run


def np_interp_grad(mode):
    """The transpose of the forward resampling: out_grad back to x's shape."""
    def ref(x, out_grad, sizes, scale=(), data_format="NCHW", align_corners=False, align_mode=0):
        axes = _spatial_axes(x.ndim, data_format == "NHWC")
        in_sizes = [x.shape[a] for a in axes]
        factors = [f32(s) for s in scale] or [-1.0] * len(axes)
        return _resample(out_grad, mode, axes, in_sizes, sizes, factors, align_corners,
                         align_mode, adjoint=True)
    return ref


def _interp_entry(mode, samples, errors):
    return OpInfo(f"{mode}_interp", functools.partial(F.interpolate, mode=mode),
                  functools.partial(np_interpolate, mode=mode), samples,
                  second_order=True, no_second_order_reason=LINEAR, errors=errors)


def _int32(*values):
    return np.array(values, dtype=np.int32)


def nearest_samples(rng):
    return [
        Sample([uniform(rng, (2, 3, 4, 5)), [7, 3]]),
        Sample([uniform(rng, (1, 2, 3, 4)), None, 2.0]),
        Sample([uniform(rng, (1, 2, 5, 4)), None, [0.6, 1.5]]),
        Sample([uniform(rng, (2, 4, 3, 2)), [5, 3]], {"data_format": "NHWC"}),
        Sample([uniform(rng, (1, 2, 2, 3, 4)), [3, 5, 2]]),
        Sample([uniform(rng, (1, 2, 3, 2, 3)), None, 2], {"data_format": "NDHWC"}),
        # A size tensor (a static program's OutSize input), a list of them (SizeTensor) and a
        # factor tensor (Scale, which is not differentiated).
        Sample([uniform(rng, (1, 2, 4, 3)), _int32(6, 2)]),
        Sample([uniform(rng, (1, 2, 4, 3)), [_int32(5), np.array([2], dtype=np.int64)]]),
        Sample([uniform(rng, (1, 2, 3, 3)), None, np.array([1.5, 2.0])], grad_args=[0]),
    ]


def bilinear_samples(rng):
    return [
        Sample([uniform(rng, (2, 3, 4, 5)), [7, 3]]),
        Sample([uniform(rng, (1, 2, 4, 5)), [7, 3]], {"align_corners": True}),
        Sample([uniform(rng, (1, 2, 4, 5)), [6, 8]], {"align_mode": 1}),
        Sample([uniform(rng, (1, 2, 6, 5)), None, [0.5, 1.7]]),
        Sample([uniform(rng, (1, 2, 3, 4)), None, 2.5], {"align_mode": 1}),
        Sample([uniform(rng, (2, 4, 3, 2)), [5, 3]], {"data_format": "NHWC"}),
        Sample([uniform(rng, (1, 3, 4, 3)), [2, 5]], {"data_format": "NHWC", "align_corners": True}),
        Sample([uniform(rng, (1, 2, 4, 3)), _int32(6, 2)]),
        Sample([uniform(rng, (1, 2, 4, 3)), [_int32(5), _int32(2)]], {"align_corners": True}),
        Sample([uniform(rng, (1, 2, 3, 3)), None, np.array([1.5, 2.0])], grad_args=[0]),
        Sample([uniform(rng, (1, 2, 3, 4)), [3, 4]]),  # no size changes: Paddle's copy
    ]


def bicubic_samples(rng):
    return [
        Sample([uniform(rng, (1, 2, 4, 5)), [7, 3]]),
        Sample([uniform(rng, (2, 2, 4, 5)), [7, 3]], {"align_corners": True}),
        Sample([uniform(rng, (1, 2, 6, 6)), None, [0.5, 1.5]]),
        Sample([uniform(rng, (1, 3, 4, 3)), [2, 5]], {"data_format": "NHWC"}),
        Sample([uniform(rng, (1, 2, 3, 3)), [1, 4]]),
    ]


def trilinear_samples(rng):
    return [
        Sample([uniform(rng, (1, 2, 2, 3, 4)), [3, 5, 2]]),
        Sample([uniform(rng, (1, 2, 3, 3, 2)), [2, 4, 3]], {"align_corners": True}),
        Sample([uniform(rng, (1, 2, 2, 3, 2)), None, [1.5, 2.0, 0.5]], {"align_mode": 1}),
        Sample([uniform(rng, (2, 3, 2, 3, 2)), [3, 2, 4]], {"data_format": "NDHWC"}),
        Sample([uniform(rng, (1, 1, 2, 2, 3)), _int32(3, 3, 2)]),
    ]


def linear_samples(rng):
    return [
        Sample([uniform(rng, (2, 3, 5)), [8]]),
        Sample([uniform(rng, (1, 2, 5)), [3]], {"align_corners": True}),
        Sample([uniform(rng, (1, 2, 4)), None, 2.5], {"align_mode": 1}),
        Sample([uniform(rng, (2, 6, 3)), [7]], {"data_format": "NWC"}),
        Sample([uniform(rng, (1, 2, 4)), [_int32(6)]]),
    ]


def interp_errors(rank, mode):
    shape = {3: (1, 2, 4), 4: (1, 2, 4, 4), 5: (1, 2, 2, 3, 4)}[rank]
    spatial = rank - 2

    def errors():
        x = np.zeros(shape)
        wrong_rank = np.zeros((1, 2, 4) if rank != 3 else (1, 2, 4, 4))
        cases = [
            ErrorSample([x, [0] * spatial], {}, ValueError, "must be positive"),
            ErrorSample([x, [-3] + [2] * (spatial - 1)], {}, ValueError, "must be positive"),
            ErrorSample([x, [2] * spatial, 2.0], {}, ValueError, "only one of 'size' and "
                                                                 "'scale_factor'"),
            ErrorSample([x], {}, ValueError, "one of 'size' and 'scale_factor' must be given"),
            ErrorSample([x, None, -2.0], {}, ValueError, "'scale_factor' must be positive"),
            ErrorSample([x, [2] * (spatial + 1)], {}, ValueError, f"must hold {spatial} values"),
            ErrorSample([wrong_rank, [2, 2]], {}, ValueError, f"mode '{mode}' resamples"),
            ErrorSample([x, [2] * spatial], {"data_format": "NCHWD"}, ValueError, "'data_format'"),
            ErrorSample([x, [2] * spatial], {"align_mode": 2}, ValueError, "'align_mode' must be "
                                                                           "0 or 1"),
            ErrorSample([x, "big"], {}, TypeError, "'size' must be a list"),
            ErrorSample([x.astype(np.int64), [2] * spatial], {}, TypeError,
                        "must be floating-point"),
            ErrorSample([x.tolist(), [2] * spatial], {}, TypeError, "must be a Tensor"),
        ]
        if mode == "nearest":
            cases.append(ErrorSample([x, [2] * spatial], {"align_corners": True}, ValueError,
                                     "'align_corners' applies to"))
        return cases
    return errors


def interp_grad_entry(mode, samples):
    return OpInfo(f"{mode}_interp_grad", interp_grad_op(mode), np_interp_grad(mode), samples,
                  grad=False,
                  no_grad_reason=f"its gradient, {mode}_interp, is the forward op, whose own "
                                 f"entry checks it (and test_resample_ops.py its gradient)")


def interp_grad_samples(mode):
    nhwc = {"data_format": "NHWC"}
    cases = {
        "nearest": [((2, 3, 4, 5), (7, 3), {}), ((1, 2, 3, 2, 4), (2, 5, 3), {}),
                    ((1, 4, 3, 2), (5, 3), nhwc)],
        "bilinear": [((2, 3, 4, 5), (7, 3), {}), ((1, 2, 4, 5), (6, 8), {"align_corners": True}),
                     ((1, 2, 4, 4), (6, 10), {"scale": (1.5, 2.5), "align_mode": 1}),
                     ((1, 4, 3, 2), (5, 3), nhwc)],
        "bicubic": [((1, 2, 4, 5), (7, 3), {}),
                    ((1, 3, 4, 3), (2, 5), {**nhwc, "align_corners": True})],
        "trilinear": [((1, 2, 2, 3, 4), (3, 5, 2), {}),
                      ((1, 2, 3, 2, 2), (2, 4, 3), {**nhwc, "align_corners": True})],
        "linear": [((2, 3, 5), (8,), {}), ((1, 6, 3), (7,), {**nhwc, "align_mode": 1})],
    }[mode]

    def samples(rng):
        out = []
        for x_shape, sizes, kwargs in cases:
            axes = _spatial_axes(len(x_shape), kwargs.get("data_format") == "NHWC")
            g_shape = list(x_shape)
            for a, s in zip(axes, sizes):
                g_shape[a] = s
            out.append(Sample([uniform(rng, x_shape), uniform(rng, tuple(g_shape)), list(sizes)],
                              kwargs))
        return out
    return samples


# ---------------------------------------------------------------- grid_sample
def _grid_position(g, size, align_corners, padding):
    """The source position of grid coordinate g along an axis of `size` pixels (Paddle's
    unnormalisation and padding) and its slope d(position)/d(g)."""
    factor = (size - 1) / 2 if align_corners else size / 2
    pos = (g + 1) * factor if align_corners else (g + 1) * factor - 0.5
    slope = factor
    if padding == "border":
        clamped = min(max(pos, 0.0), size - 1.0)
        return clamped, slope if clamped == pos else 0.0
    if padding == "reflection":
        if align_corners and size == 1:
            return 0.0, 0.0
        low, period = (0.0, 2.0 * (size - 1)) if align_corners else (-0.5, 2.0 * size)
        distance = abs(pos - low)
        extra = distance - math.floor(distance / period) * period
        flipped = extra > period - extra
        slope = slope if (pos < low) == flipped else -slope
        reflected = min(extra, period - extra) + low
        if not align_corners:
            clamped = min(max(reflected, 0.0), size - 1.0)
            return clamped, slope if clamped == reflected else 0.0
        return reflected, slope
    return pos, slope


def _grid_taps(coords, sizes, mode, padding, align_corners):
    """[(pixel index tuple, weight, d weight / d coordinate per grid coordinate)] of one point:
    the in-range neighbours (bilinear) or the nearest pixel, rounded half away from zero."""
    spatial = len(sizes)
    positions = [_grid_position(coords[spatial - 1 - a], sizes[a], align_corners, padding)
                 for a in range(spatial)]
    if not all(math.isfinite(p) for p, _ in positions):
        return []
    if mode == "nearest":
        index = tuple(int(math.copysign(math.floor(abs(p) + 0.5), p)) for p, _ in positions)
        inside = all(0 <= i < s for i, s in zip(index, sizes))
        return [(index, 1.0, [0.0] * spatial)] if inside else []
    low = [math.floor(p) for p, _ in positions]
    taps = []
    for corner in itertools.product((0, 1), repeat=spatial):
        index = tuple(lo + c for lo, c in zip(low, corner))
        if not all(0 <= i < s for i, s in zip(index, sizes)):
            continue
        w = [(p - lo) if c else 1 - (p - lo) for (p, _), lo, c in zip(positions, low, corner)]
        slopes = []
        for a in range(spatial):
            d = (1.0 if corner[a] else -1.0) * positions[a][1]
            for b in range(spatial):
                if b != a:
                    d *= w[b]
            slopes.append(d)
        # Per grid coordinate (x first): axis a of D, H, W order is coordinate spatial - 1 - a.
        taps.append((index, float(np.prod(w)), slopes[::-1]))
    return taps


def _grid_points(x, grid):
    n, spatial = x.shape[0], x.ndim - 2
    return grid.reshape(n, -1, spatial)


def np_grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=True):
    n, c = x.shape[:2]
    points = _grid_points(x, grid)
    out = np.zeros((n, c, points.shape[1]))
    for b, p in itertools.product(range(n), range(points.shape[1])):
        for index, w, _ in _grid_taps(points[b, p], x.shape[2:], mode, padding_mode,
                                      align_corners):
            out[b, :, p] += w * x[(b, slice(None)) + index]
    return out.reshape((n, c) + grid.shape[1:-1])


def np_grid_sample_grad(x, grid, out_grad, mode="bilinear", padding_mode="zeros",
                        align_corners=True):
    n, c = x.shape[:2]
    points = _grid_points(x, grid)
    og = out_grad.reshape(n, c, -1)
    x_grad = np.zeros(x.shape)
    grid_grad = np.zeros(points.shape)
    for b, p in itertools.product(range(n), range(points.shape[1])):
        for index, w, slopes in _grid_taps(points[b, p], x.shape[2:], mode, padding_mode,
                                           align_corners):
            x_grad[(b, slice(None)) + index] += w * og[b, :, p]
            grid_grad[b, p] += np.asarray(slopes) * float(og[b, :, p] @ x[(b, slice(None)) + index])
    return x_grad, grid_grad.reshape(grid.shape)


def grid_coords(rng, shape, sizes, align_corners, mode="bilinear", outside=False):
    """A grid of `shape` ([N, ..., spatial]) whose source positions stay away from the kinks:
    their fractional parts are clear of 0 (bilinear) or of 0.5 (nearest), so the numeric
    gradient does not cross a pixel boundary; with `outside`, positions reach beyond the edges."""
    spatial = shape[-1]
    grid = np.zeros(shape)
    for a in range(spatial):
        size = sizes[spatial - 1 - a]  # coordinate a (x first) samples axis spatial - 1 - a
        low, high = (-2, size + 1) if outside else (0, size - 1)
        whole = rng.integers(low, max(high, low + 1), size=shape[:-1])
        if mode == "nearest":
            frac = rng.uniform(0.1, 0.35, size=shape[:-1]) * rng.choice([-1.0, 1.0], shape[:-1])
        else:
            frac = rng.uniform(0.15, 0.85, size=shape[:-1])
        pos = whole + frac
        grid[..., a] = pos * 2 / (size - 1) - 1 if align_corners else (pos + 0.5) * 2 / size - 1
    return grid


def grid_sample_samples(rng):
    out = []
    for padding, align, mode in [("zeros", True, "bilinear"), ("zeros", False, "bilinear"),
                                 ("border", False, "bilinear"), ("reflection", True, "bilinear"),
                                 ("reflection", False, "bilinear"), ("zeros", False, "nearest"),
                                 ("border", True, "nearest")]:
        out.append(Sample([uniform(rng, (2, 3, 4, 5)),
                           grid_coords(rng, (2, 3, 2, 2), (4, 5), align, mode, outside=True)],
                          {"mode": mode, "padding_mode": padding, "align_corners": align}))
    for padding, align, mode in [("zeros", True, "bilinear"), ("reflection", False, "bilinear"),
                                 ("border", False, "nearest")]:
        out.append(Sample([uniform(rng, (1, 2, 3, 4, 3)),
                           grid_coords(rng, (1, 2, 2, 3, 3), (3, 4, 3), align, mode, outside=True)],
                          {"mode": mode, "padding_mode": padding, "align_corners": align}))
    return out


def grid_sample_errors():
    x, grid = np.zeros((1, 2, 3, 3)), np.zeros((1, 2, 2, 2))
    return [
        ErrorSample([np.zeros((2, 3, 3)), grid], {}, ValueError, "'x' must be a 4-D"),
        ErrorSample([x, np.zeros((1, 2, 2, 3))], {}, ValueError, "argument 'grid' must have shape"),
        ErrorSample([x, np.zeros((2, 2, 2, 2))], {}, ValueError, "argument 'grid' must have shape"),
        ErrorSample([x, grid], {"mode": "bicubic"}, ValueError, "'mode' must be"),
        ErrorSample([x, grid], {"padding_mode": "circular"}, ValueError, "'padding_mode' must be"),
        ErrorSample([x, grid.astype(np.float32)], {}, TypeError, "of one dtype"),
        ErrorSample([np.zeros((1, 2, 0, 3)), grid], {}, ValueError, "must be positive"),
    ]


def grid_sample_grad_op(x, grid, out_grad, mode="bilinear", padding_mode="zeros",
                        align_corners=True):
    """The grid_sampler_grad op, run as a Paddle training program holds it."""
    return program_op("grid_sampler_grad", {"X": x, "Grid": grid, "Output@GRAD": out_grad},
                      {"X@GRAD": "X", "Grid@GRAD": "Grid"},
                      {"mode": mode, "padding_mode": padding_mode, "align_corners": align_corners})


def grid_sample_grad_samples(rng):
    out = []
    for sample in grid_sample_samples(rng):
        x, grid = sample.args
        out_grad = uniform(rng, (x.shape[0], x.shape[1]) + grid.shape[1:-1])
        out.append(Sample([x, grid, out_grad], sample.kwargs))
    return out


# ---------------------------------------------------------------- affine_grid
def _affine_axis(count, align_corners):
    if count == 1:
        return np.zeros(1)
    values = np.linspace(-1.0, 1.0, count)
    return values if align_corners else values * (count - 1) / count


def _affine_base(spatial_sizes, align_corners):
    """[..., s + 1]: each output pixel's (x, y[, z], 1)."""
    axes = [_affine_axis(n, align_corners) for n in spatial_sizes]
    mesh = np.meshgrid(*axes, indexing="ij")  # D, H, W order
    return np.stack(list(mesh[::-1]) + [np.ones_like(mesh[0])], axis=-1)


def np_affine_grid(theta, out_shape, align_corners=True):
    shape = [int(v) for v in _values(out_shape)]
    base = _affine_base(shape[2:], align_corners)
    return np.einsum("...k,njk->n...j", base, theta)


def affine_grid_grad_op(output_grad, align_corners=True):
    """The affine_grid_grad op, run as a Paddle training program holds it."""
    s = len(output_grad.shape) - 2
    theta_shape = [output_grad.shape[0], s, s + 1]
    return program_op("affine_grid_grad", {"Output@GRAD": output_grad},
                      {"Theta@GRAD": (theta_shape, "Output@GRAD")},
                      {"align_corners": align_corners})[0]


def np_affine_grid_grad(output_grad, align_corners=True):
    n, s = output_grad.shape[0], output_grad.shape[-1]
    base = _affine_base(output_grad.shape[1:-1], align_corners).reshape(-1, s + 1)
    return np.einsum("npj,pk->njk", output_grad.reshape(n, -1, s), base)


def affine_grid_samples(rng):
    return [
        Sample([uniform(rng, (2, 2, 3)), [2, 3, 4, 5]]),
        Sample([uniform(rng, (1, 2, 3)), [1, 1, 3, 3]], {"align_corners": False}),
        Sample([uniform(rng, (2, 3, 4)), [2, 1, 2, 3, 4]]),
        Sample([uniform(rng, (1, 3, 4)), [1, 2, 3, 1, 2]], {"align_corners": False}),
        Sample([uniform(rng, (2, 2, 3)), _int32(2, 3, 3, 2)]),  # a static program's OutputShape
    ]


def affine_grid_errors():
    return [
        ErrorSample([np.zeros((1, 2, 2)), [1, 1, 3, 3]], {}, ValueError, "'theta' must have shape"),
        ErrorSample([np.zeros((1, 2, 3)), [1, 1, 2, 3, 3]], {}, ValueError, "'out_shape' must hold"),
        ErrorSample([np.zeros((1, 2, 3)), [1, 1, -3, 3]], {}, ValueError, "must not be negative"),
        ErrorSample([np.zeros((1, 2, 3)), [1, 1, 3, 3]], {"align_corners": 1}, TypeError,
                    "'align_corners' must be a bool"),
        ErrorSample([[[1.0, 0, 0], [0, 1.0, 0]], [1, 1, 3, 3]], {}, TypeError, "must be a Tensor"),
        ErrorSample([np.zeros((1, 2, 3), dtype=np.int64), [1, 1, 3, 3]], {}, TypeError,
                    "float32 or float64"),
    ]


RESAMPLE_OPS = [
    _interp_entry("nearest", nearest_samples, interp_errors(4, "nearest")),
    _interp_entry("bilinear", bilinear_samples, interp_errors(4, "bilinear")),
    _interp_entry("bicubic", bicubic_samples, interp_errors(4, "bicubic")),
    _interp_entry("trilinear", trilinear_samples, interp_errors(5, "trilinear")),
    _interp_entry("linear", linear_samples, interp_errors(3, "linear")),
] + [interp_grad_entry(mode, interp_grad_samples(mode))
     for mode in ("nearest", "bilinear", "bicubic", "trilinear", "linear")] + [
    OpInfo("grid_sample", F.grid_sample, np_grid_sample, grid_sample_samples,
           errors=grid_sample_errors),
    OpInfo("grid_sample_grad", grid_sample_grad_op, np_grid_sample_grad, grid_sample_grad_samples,
           grad=False, no_grad_reason="grid_sample has no second-order gradient (nor does "
                                      "Paddle's)"),
    OpInfo("affine_grid", F.affine_grid, np_affine_grid, affine_grid_samples,
           second_order=True, no_second_order_reason=LINEAR, errors=affine_grid_errors),
    OpInfo("affine_grid_grad", affine_grid_grad_op, np_affine_grid_grad, lambda rng: [
        Sample([uniform(rng, (2, 3, 4, 2))]),
        Sample([uniform(rng, (1, 2, 3, 2, 3))], {"align_corners": False})],
        grad=False, no_grad_reason="its gradient, affine_grid, is the forward op, whose own "
                                   "entry checks it"),
]
