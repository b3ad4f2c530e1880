"""paddle.nn.functional: the stateless forms of the layers in paddle.nn. The functions of single
ops (relu, gelu, one_hot, ...) are generated from the op declarations (paddle.base.generated_api);
the modules here hold the hand-written ones."""
from ...base import generated_api as _generated_api
from .activation import gelu, glu, log_softmax, mish, prelu, rrelu, softmax, softmax_
from .ctc import ctc_loss
from .conv import (conv1d, conv1d_transpose, conv2d, conv2d_transpose, conv3d,  # noqa: F401
                   conv3d_transpose)
from .common import dropout, interpolate, linear, upsample
from .input import embedding, embedding_renorm_
from .extension import sequence_mask
from .layout import fold, pad, unfold, zeropad2d
from .loss import cross_entropy, l1_loss, mse_loss, nll_loss
from .loss import label_smooth, softmax_with_cross_entropy
from .loss import (binary_cross_entropy, binary_cross_entropy_with_logits,  # noqa: F401
                   cosine_embedding_loss, gaussian_nll_loss, hinge_embedding_loss, kl_div,
                   margin_ranking_loss, multi_label_soft_margin_loss, poisson_nll_loss,
                   sigmoid_focal_loss, smooth_l1_loss, soft_margin_loss, square_error_cost,
                   triplet_margin_loss, triplet_margin_with_distance_loss)
from .norm import batch_norm, layer_norm, normalize
from .norm import group_norm, instance_norm, local_response_norm
from .vision import affine_grid
from .sdpa import scaled_dot_product_attention
from .pooling import (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d,  # noqa: F401
                      adaptive_max_pool1d, adaptive_max_pool2d, adaptive_max_pool3d, avg_pool1d,
                      avg_pool2d, avg_pool3d, lp_pool1d, lp_pool2d, max_pool1d, max_pool2d,
                      max_pool3d, max_unpool1d, max_unpool2d, max_unpool3d)

__all__ = ["cross_entropy", "dropout", "l1_loss", "linear", "log_softmax", "mse_loss", "nll_loss",
           "softmax"]
__all__ += ["gelu", "glu", "mish", "prelu", "rrelu", "softmax_"]
__all__ += ["embedding"]
__all__ += ["label_smooth", "sequence_mask", "softmax_with_cross_entropy"]
__all__ += ["ctc_loss"]
__all__ += ["conv1d", "conv1d_transpose", "conv2d", "conv2d_transpose", "conv3d",
            "conv3d_transpose"]
__all__ += ["fold", "pad", "unfold", "zeropad2d"]
__all__ += ["batch_norm", "layer_norm", "normalize"]
__all__ += ["group_norm", "instance_norm", "local_response_norm"]
__all__ += ["affine_grid", "interpolate", "upsample"]
__all__ += ["scaled_dot_product_attention"]
__all__ += ["adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
            "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d", "avg_pool1d",
            "avg_pool2d", "avg_pool3d", "lp_pool1d", "lp_pool2d", "max_pool1d", "max_pool2d",
            "max_pool3d", "max_unpool1d", "max_unpool2d", "max_unpool3d"]
__all__ += ["binary_cross_entropy", "binary_cross_entropy_with_logits", "cosine_embedding_loss",
            "gaussian_nll_loss", "hinge_embedding_loss", "kl_div", "margin_ranking_loss",
            "multi_label_soft_margin_loss", "poisson_nll_loss", "sigmoid_focal_loss",
            "smooth_l1_loss", "soft_margin_loss", "square_error_cost", "triplet_margin_loss",
            "triplet_margin_with_distance_loss"]
__all__ += _generated_api.EXPORTS["paddle.nn.functional"]
globals().update({name: getattr(_generated_api, name)
                  for name in _generated_api.EXPORTS["paddle.nn.functional"]})
