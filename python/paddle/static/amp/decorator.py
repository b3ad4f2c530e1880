"""paddle.static.amp.decorate: mixed-precision training of a static program.

minimize() rewrites the forward ops of the loss's program by the AMP rules dygraph's auto_cast
applies (paddle/framework/amp_rewrite.h: each op rebuilt as inside auto_cast, with cast ops
before it), scales the loss by a persistable loss_scaling variable, appends the backward, and
before the updates unscales the gradients with check_finite_and_unscale; with dynamic loss
scaling (float16's default) update_loss_scaling then adjusts the scaling and zeroes the
gradients of a step with an inf or nan, which Adam-family updates also skip through their
SkipUpdate input. As in Paddle, bfloat16 turns dynamic loss scaling off and scales by 1.0 (no
scaling ops at all).

At O2 every op but the black list runs in the low dtype; the parameters stay float32 in the
scope and are cast where they are read, so they are their own master weights and amp_init has
no parameters to convert (Paddle converts them and keeps float32 copies in the optimizer)."""
import warnings

from ...amp.auto_cast import _LEVELS, _LOW_DTYPES, _dtype_name
from ...base import libpaddle
from ..program import _op_role_guard, default_startup_program, program_guard
from ..backward import append_backward
from ..tensor import create_global_var
from .fp16_lists import AutoMixedPrecisionLists

__all__ = ["decorate", "OptimizerWithMixedPrecision"]

_OP_ROLE_OPTIMIZE = 2


def rewrite_program(program, amp_lists, level, dtype, use_promote=False):
    """Rewrites the forward ops of `program`'s global block for AMP at `level` in `dtype`, by
    the lists; returns how many cast ops it inserted."""
    white, black = set(amp_lists.white_list), set(amp_lists.black_list)
    previous = libpaddle._get_amp_state()
    libpaddle._set_amp_state(_LEVELS[level], _LOW_DTYPES[dtype], white, black, bool(use_promote))
    try:
        casts = libpaddle._rebuild_forward_ops_with_amp(program.global_block().desc,
                                                        set(amp_lists.black_varnames))
    finally:
        libpaddle._set_amp_state(*previous)
    program._sync_with_cpp()
    return casts


class OptimizerWithMixedPrecision:
    """An optimizer that trains a static program in mixed precision (see the module's
    docstring); made by decorate()."""

    def __init__(self, optimizer, amp_lists, level, dtype, init_loss_scaling,
                 use_dynamic_loss_scaling, incr_every_n_steps, decr_every_n_nan_or_inf,
                 incr_ratio, decr_ratio, use_amp_guard=None, use_master_grad=False,
                 use_promote=False):
        # use_amp_guard and use_master_grad: see decorate()
        self._optimizer = optimizer
        self._amp_lists = amp_lists
        self._amp_level = level
        self._amp_dtype = dtype
        self._init_loss_scaling = float(init_loss_scaling)
        self._use_dynamic_loss_scaling = bool(use_dynamic_loss_scaling)
        if dtype == "bfloat16" and self._use_dynamic_loss_scaling:
            self._use_dynamic_loss_scaling = False
            self._init_loss_scaling = 1.0
            warnings.warn("Dynamic loss scaling for bfloat16 amp training is disabled, and the "
                          "init_loss_scaling is changed to 1.0 automatically by PaddlePaddle.")
        self._incr_every_n_steps = int(incr_every_n_steps)
        self._decr_every_n_nan_or_inf = int(decr_every_n_nan_or_inf)
        self._incr_ratio = float(incr_ratio)
        self._decr_ratio = float(decr_ratio)
        self.use_promote = use_promote
        self._train_program = None
        self._loss_scaling = None
        self._scaled_loss = None
        self._num_good_steps = None
        self._num_bad_steps = None
        self._found_inf = None
        self._scaler_scale = None  # a GradScaler's scale variable (static GradScaler.minimize)

    def __getattr__(self, name):
        # The wrapped optimizer's other methods and attributes (get_lr, state_dict, ...).
        if "_optimizer" not in self.__dict__:
            raise AttributeError(name)
        return getattr(self.__dict__["_optimizer"], name)

    def get_loss_scaling(self):
        """The loss_scaling variable (after minimize())."""
        if self._loss_scaling is None:
            raise RuntimeError("Please call minimize() before calling get_loss_scaling().")
        return self._loss_scaling

    def get_scaled_loss(self):
        """The scaled loss variable, to fetch when feeding a custom loss."""
        return self._scaled_loss

    def _scales(self):
        return self._use_dynamic_loss_scaling or self._init_loss_scaling != 1.0

    def _use_scaler(self, scale, use_dynamic_loss_scaling, init_loss_scaling, incr_every_n_steps,
                    decr_every_n_nan_or_inf, incr_ratio, decr_ratio):
        """GradScaler.minimize in static mode: the loss given to minimize() is already
        multiplied by the scaler's `scale` variable (None: a disabled scaler, no scaling)."""
        self._scaler_scale = scale
        self._use_dynamic_loss_scaling = scale is not None and use_dynamic_loss_scaling
        self._init_loss_scaling = float(init_loss_scaling) if scale is not None else 1.0
        if self._use_dynamic_loss_scaling:
            self._incr_every_n_steps = int(incr_every_n_steps)
            self._decr_every_n_nan_or_inf = int(decr_every_n_nan_or_inf)
            self._incr_ratio = float(incr_ratio)
            self._decr_ratio = float(decr_ratio)

    def _init_amp_vars(self):
        if self._scaler_scale is not None:
            self._loss_scaling = self._scaler_scale
        else:
            self._loss_scaling = create_global_var([1], self._init_loss_scaling, "float32",
                                                   persistable=True,
                                                   name=_unique("loss_scaling"))
        if self._use_dynamic_loss_scaling:
            self._num_good_steps = create_global_var([1], 0, "int32", persistable=True,
                                                     name=_unique("num_good_steps"))
            self._num_bad_steps = create_global_var([1], 0, "int32", persistable=True,
                                                    name=_unique("num_bad_steps"))

    def backward(self, loss, startup_program=None, parameter_list=None, no_grad_set=None,
                 callbacks=None):
        """Rewrites the program for AMP, scales the loss and appends the backward; returns
        [(parameter, scaled gradient)]."""
        program = loss.block.program
        self._train_program = program
        with program_guard(program, startup_program):
            rewrite_program(program, self._amp_lists, self._amp_level, self._amp_dtype,
                            self.use_promote)
            loss = program.global_block().var(loss.name)
            if loss.dtype != libpaddle.DataType.FLOAT32:
                loss = loss.astype("float32")
            self._init_amp_vars()
            scaled = self._scales() and self._scaler_scale is None
            self._scaled_loss = loss * self._loss_scaling if scaled else loss
            params = parameter_list or self._optimizer._parameter_list or None
            return append_backward(self._scaled_loss, params, no_grad_set, callbacks)

    def apply_gradients(self, params_grads):
        """Unscales the gradients (recording whether one is not finite), adjusts the loss
        scaling, and appends the updates; returns the update ops."""
        from ... import _C_ops
        program = self._train_program
        block = program.global_block()
        first = len(block.ops)
        with _op_role_guard(_OP_ROLE_OPTIMIZE):
            if self._scales() and params_grads:
                params = [p for p, _ in params_grads]
                grads, found_inf = _C_ops.check_finite_and_unscale(
                    [g for _, g in params_grads], self._loss_scaling)
                if self._use_dynamic_loss_scaling and self._amp_dtype == "float16":
                    grads = _C_ops.update_loss_scaling_(
                        grads, found_inf, self._loss_scaling, self._num_good_steps,
                        self._num_bad_steps, self._incr_every_n_steps,
                        self._decr_every_n_nan_or_inf, self._incr_ratio, self._decr_ratio,
                        False)[0]
                params_grads = list(zip(params, grads))
                self._found_inf = found_inf
                self._optimizer._set_auxiliary_var("found_inf", found_inf)
            self._optimizer._apply_optimize(params_grads, {})
        return block.ops[first:]

    def apply_optimize(self, loss, startup_program, params_grads):
        with program_guard(loss.block.program, startup_program):
            return self.apply_gradients(params_grads)

    def minimize(self, loss, startup_program=None, parameter_list=None, no_grad_set=None):
        """backward() then apply_optimize(); returns (update ops, [(parameter, gradient)])."""
        params_grads = self.backward(loss, startup_program, parameter_list, no_grad_set)
        startup_program = startup_program or default_startup_program()
        return self.apply_optimize(loss, startup_program, params_grads), params_grads

    def amp_init(self, place, scope=None, test_program=None, use_fp16_test=False,
                 rewrite_master_weight=False):
        """After the startup program: rewrites `test_program` for AMP as the training program
        was, at O2 or with use_fp16_test (the parameters need no conversion: they stay float32,
        see the module's docstring)."""
        if self._train_program is None:
            raise RuntimeError("Please call the minimize method first.")
        if test_program is not None and (self._amp_level == "O2" or use_fp16_test):
            rewrite_program(test_program, self._amp_lists, self._amp_level, self._amp_dtype,
                            self.use_promote)


def _unique(key):
    from ...utils import unique_name
    return unique_name.generate(key)


def decorate(optimizer, amp_lists=None, level="O1", dtype="float16", master_weight=None,
             master_grad=False, init_loss_scaling=2 ** 16, incr_every_n_steps=2000,
             decr_every_n_nan_or_inf=1, incr_ratio=2.0, decr_ratio=0.5,
             use_dynamic_loss_scaling=None, use_amp_guard=False, use_promote=False, **legacy):
    """Wraps `optimizer` for mixed-precision training of a static program: level 'O1' (white
    list low, black list float32), 'O2' (all but the black list low), 'OD' (only the white list
    low) or 'O0' (off), in 'float16' or 'bfloat16', with dynamic loss scaling by default for
    float16 only. Paddle's older keywords use_pure_fp16 (level O2), use_fp16_guard and use_bf16
    (dtype bfloat16) are accepted too.

    use_amp_guard and master_grad change nothing here: every forward op is rewritten (there is
    no fp16_guard to limit O2 to), and the parameters stay float32, so their gradients are
    float32 already."""
    unknown = set(legacy) - {"use_pure_fp16", "use_fp16_guard", "use_bf16"}
    if unknown:
        raise TypeError(f"decorate() got an unexpected keyword argument '{sorted(unknown)[0]}'")
    if legacy.get("use_pure_fp16"):
        level = "O2"
    if legacy.get("use_bf16"):
        dtype = "bfloat16"
    if not isinstance(level, str) or level.upper() not in ("O0", "OD", "O1", "O2"):
        raise ValueError(f"level should be O0, OD, O1 or O2, received {level!r}")
    level = level.upper()
    dtype = _dtype_name(dtype)
    if amp_lists is None or level == "OD":
        amp_lists = AutoMixedPrecisionLists(dtype=dtype)
    if use_dynamic_loss_scaling is None:
        use_dynamic_loss_scaling = dtype == "float16"
    if optimizer is not None:
        optimizer._multi_precision = master_weight is not False
    if level == "O0":
        return optimizer
    return OptimizerWithMixedPrecision(
        optimizer, amp_lists, level=level, dtype=dtype, init_loss_scaling=init_loss_scaling,
        use_dynamic_loss_scaling=use_dynamic_loss_scaling,
        incr_every_n_steps=incr_every_n_steps, decr_every_n_nan_or_inf=decr_every_n_nan_or_inf,
        incr_ratio=incr_ratio, decr_ratio=decr_ratio, use_amp_guard=use_amp_guard,
        use_promote=use_promote, use_master_grad=master_grad)
