"""The pooling layers: MaxPool1D/2D/3D, AvgPool1D/2D/3D, the adaptive ones, MaxUnPool1D/2D/3D and
LPPool1D/2D, with Paddle's constructor arguments, defaults, attribute names and extra_repr. They
hold no parameters; forward calls the functional form in nn.functional.pooling."""
from .. import functional as F
from .layers import Layer

__all__ = ["AvgPool1D", "AvgPool2D", "AvgPool3D", "MaxPool1D", "MaxPool2D", "MaxPool3D",
           "AdaptiveAvgPool1D", "AdaptiveAvgPool2D", "AdaptiveAvgPool3D", "AdaptiveMaxPool1D",
           "AdaptiveMaxPool2D", "AdaptiveMaxPool3D", "MaxUnPool1D", "MaxUnPool2D", "MaxUnPool3D",
           "LPPool1D", "LPPool2D"]


class AvgPool1D(Layer):
    def __init__(self, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False,
                 name=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.exclusive = exclusive
        self.name = name

    def forward(self, x):
        return F.avg_pool1d(x, self.kernel_size, self.stride, self.padding, self.exclusive,
                            self.ceil_mode, self.name)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class _PoolNd(Layer):
    """AvgPool2D/3D and MaxPool2D/3D keep kernel_size as `ksize`, as Paddle's do."""

    def extra_repr(self):
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"


class AvgPool2D(_PoolNd):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
                 divisor_override=None, data_format="NCHW", name=None):
        super().__init__()
        self.ksize = kernel_size
        self.stride = stride
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.exclusive = exclusive
        self.divisor = divisor_override
        self.data_format = data_format
        self.name = name

    def forward(self, x):
        return F.avg_pool2d(x, kernel_size=self.ksize, stride=self.stride, padding=self.padding,
                            ceil_mode=self.ceil_mode, exclusive=self.exclusive,
                            divisor_override=self.divisor, data_format=self.data_format,
                            name=self.name)


class AvgPool3D(_PoolNd):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
                 divisor_override=None, data_format="NCDHW", name=None):
        super().__init__()
        self.ksize = kernel_size
        self.stride = stride
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.exclusive = exclusive
        self.divisor = divisor_override
        self.data_format = data_format
        self.name = name

    def forward(self, x):
        return F.avg_pool3d(x, kernel_size=self.ksize, stride=self.stride, padding=self.padding,
                            ceil_mode=self.ceil_mode, exclusive=self.exclusive,
                            divisor_override=self.divisor, data_format=self.data_format,
                            name=self.name)


class MaxPool1D(Layer):
    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 name=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.return_mask = return_mask
        self.name = name

    def forward(self, input):
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.return_mask,
                            self.ceil_mode, self.name)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxPool2D(_PoolNd):
    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 data_format="NCHW", name=None):
        super().__init__()
        self.ksize = kernel_size
        self.stride = stride
        self.padding = padding
        self.return_mask = return_mask
        self.ceil_mode = ceil_mode
        self.data_format = data_format
        self.name = name

    def forward(self, x):
        return F.max_pool2d(x, kernel_size=self.ksize, stride=self.stride, padding=self.padding,
                            return_mask=self.return_mask, ceil_mode=self.ceil_mode,
                            data_format=self.data_format, name=self.name)


class MaxPool3D(_PoolNd):
    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 data_format="NCDHW", name=None):
        super().__init__()
        self.ksize = kernel_size
        self.stride = stride
        self.padding = padding
        self.return_mask = return_mask
        self.ceil_mode = ceil_mode
        self.data_format = data_format
        self.name = name

    def forward(self, x):
        return F.max_pool3d(x, kernel_size=self.ksize, stride=self.stride, padding=self.padding,
                            return_mask=self.return_mask, ceil_mode=self.ceil_mode,
                            data_format=self.data_format, name=self.name)


class AdaptiveAvgPool1D(Layer):
    def __init__(self, output_size, name=None):
        super().__init__()
        self.output_size = output_size
        self.name = name

    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self.output_size, self.name)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool2D(Layer):
    def __init__(self, output_size, data_format="NCHW", name=None):
        super().__init__()
        self._output_size = output_size
        self._data_format = data_format
        self._name = name

    def forward(self, x):
        return F.adaptive_avg_pool2d(x, output_size=self._output_size,
                                     data_format=self._data_format, name=self._name)

    def extra_repr(self):
        return f"output_size={self._output_size}"


class AdaptiveAvgPool3D(Layer):
    def __init__(self, output_size, data_format="NCDHW", name=None):
        super().__init__()
        self._output_size = output_size
        self._data_format = data_format
        self._name = name

    def forward(self, x):
        return F.adaptive_avg_pool3d(x, output_size=self._output_size,
                                     data_format=self._data_format, name=self._name)

    def extra_repr(self):
        return f"output_size={self._output_size}"


class AdaptiveMaxPool1D(Layer):
    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__()
        self.output_size = output_size
        self.return_mask = return_mask
        self.name = name

    def forward(self, input):
        return F.adaptive_max_pool1d(input, self.output_size, self.return_mask, self.name)

    def extra_repr(self):
        return f"output_size={self.output_size}, return_mask={self.return_mask}"


class AdaptiveMaxPool2D(Layer):
    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__()
        self._output_size = output_size
        self._return_mask = return_mask
        self._name = name

    def forward(self, x):
        return F.adaptive_max_pool2d(x, output_size=self._output_size,
                                     return_mask=self._return_mask, name=self._name)

    def extra_repr(self):
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


class AdaptiveMaxPool3D(Layer):
    def __init__(self, output_size, return_mask=False, name=None):
        super().__init__()
        self._output_size = output_size
        self._return_mask = return_mask
        self._name = name

    def forward(self, x):
        return F.adaptive_max_pool3d(x, output_size=self._output_size,
                                     return_mask=self._return_mask, name=self._name)

    def extra_repr(self):
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


class _MaxUnPoolNd(Layer):
    def __init__(self, kernel_size, stride, padding, data_format, output_size, name):
        super().__init__()
        self.ksize = kernel_size
        self.stride = stride
        self.padding = padding
        self.data_format = data_format
        self.output_size = output_size
        self.name = name

    def extra_repr(self):
        return f"output_size={self.output_size}"


class MaxUnPool1D(_MaxUnPoolNd):
    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCL", output_size=None,
                 name=None):
        super().__init__(kernel_size, stride, padding, data_format, output_size, name)

    def forward(self, x, indices):
        return F.max_unpool1d(x, indices, kernel_size=self.ksize, stride=self.stride,
                              padding=self.padding, data_format=self.data_format,
                              output_size=self.output_size, name=self.name)


class MaxUnPool2D(_MaxUnPoolNd):
    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCHW", output_size=None,
                 name=None):
        super().__init__(kernel_size, stride, padding, data_format, output_size, name)

    def forward(self, x, indices):
        return F.max_unpool2d(x, indices, kernel_size=self.ksize, stride=self.stride,
                              padding=self.padding, data_format=self.data_format,
                              output_size=self.output_size, name=self.name)


class MaxUnPool3D(_MaxUnPoolNd):
    def __init__(self, kernel_size, stride=None, padding=0, data_format="NCDHW",
                 output_size=None, name=None):
        super().__init__(kernel_size, stride, padding, data_format, output_size, name)

    def forward(self, x, indices):
        return F.max_unpool3d(x, indices, kernel_size=self.ksize, stride=self.stride,
                              padding=self.padding, data_format=self.data_format,
                              output_size=self.output_size, name=self.name)


class _LPPoolNd(Layer):
    def __init__(self, norm_type, kernel_size, stride, padding, ceil_mode, data_format, name):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.data_format = data_format
        self.name = name

    def extra_repr(self):
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, padding={self.padding}")


class LPPool1D(_LPPoolNd):
    def __init__(self, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
                 data_format="NCL", name=None):
        super().__init__(norm_type, kernel_size, stride, padding, ceil_mode, data_format, name)

    def forward(self, x):
        return F.lp_pool1d(x, self.norm_type, self.kernel_size, self.stride, self.padding,
                           self.ceil_mode, self.data_format, self.name)


class LPPool2D(_LPPoolNd):
    def __init__(self, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
                 data_format="NCHW", name=None):
        super().__init__(norm_type, kernel_size, stride, padding, ceil_mode, data_format, name)

    def forward(self, x):
        return F.lp_pool2d(x, self.norm_type, self.kernel_size, self.stride, self.padding,
                           self.ceil_mode, self.data_format, self.name)
