// InferMeta of the layout ops: padding (pad, pad3d), flip, roll, tile, expand_as, the channel
// rearrangements (pixel_unshuffle, channel_shuffle) and the sliding-block ops (unfold, fold).
#pragma once

#include <string>
#include <vector>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// x of any rank padded by `paddings` = [before_0, after_0, before_1, after_1, ...] (2 * rank
// non-negative values, from the first axis).
void PadInferMeta(const TensorMeta& x, const std::vector<int32_t>& paddings, float pad_value,
                  TensorMeta* out);
// x is 5-D in `data_format` (NCDHW or NDHWC); `paddings` = [left, right, top, bottom, front, back]
// pad W, H and D. 'reflect' needs each padding below the size it pads; 'replicate' and
// 'circular' need a non-empty dimension wherever they pad.
void Pad3dInferMeta(const TensorMeta& x, const std::vector<int32_t>& paddings,
                    const std::string& mode, float pad_value, const std::string& data_format,
                    TensorMeta* out);
// The input of pad3d whose output has out_grad's shape: out_grad's spatial dims less the
// paddings, with the same checks.
void Pad3dGradInferMeta(const TensorMeta& out_grad, const std::vector<int32_t>& paddings,
                        const std::string& mode, const std::string& data_format,
                        TensorMeta* x_grad);

// Distinct axes of x.
void FlipInferMeta(const TensorMeta& x, const std::vector<int32_t>& axis, TensorMeta* out);
// One shift per axis, or one shift and no axis (x rolled as a flat sequence).
void RollInferMeta(const TensorMeta& x, const std::vector<int64_t>& shifts,
                   const std::vector<int64_t>& axis, TensorMeta* out);
// Non-negative repeats, aligned with x's trailing dims (the shorter side gets leading 1s).
void TileInferMeta(const TensorMeta& x, const std::vector<int32_t>& repeat_times, TensorMeta* out);
// x broadcast to `target_shape`, whose -1 entries (unknown dims of a static program) take y's
// dims; without target_shape, to y's shape.
void ExpandAsInferMeta(const TensorMeta& x, const TensorMeta* y,
                       const std::vector<int32_t>& target_shape, TensorMeta* out);

// [N, C, H*r, W*r] -> [N, C*r*r, H, W] (NHWC likewise), the inverse of pixel_shuffle.
void PixelUnshuffleInferMeta(const TensorMeta& x, int32_t downscale_factor,
                             const std::string& data_format, TensorMeta* out);
// 4-D x whose channels divide into `groups`; the shape is unchanged.
void ChannelShuffleInferMeta(const TensorMeta& x, int32_t groups, const std::string& data_format,
                             TensorMeta* out);

// im2col: [N, C, H, W] -> [N, C*kh*kw, L], L the number of kh x kw blocks that fit the padded
// input; paddings = [top, left, bottom, right].
void UnfoldInferMeta(const TensorMeta& x, const std::vector<int32_t>& kernel_sizes,
                     const std::vector<int32_t>& strides, const std::vector<int32_t>& paddings,
                     const std::vector<int32_t>& dilations, TensorMeta* out);
// col2im, unfold's adjoint: [N, C*kh*kw, L] -> [N, C, output_sizes[0], output_sizes[1]], where L
// must be the number of blocks unfold takes from that output.
void FoldInferMeta(const TensorMeta& x, const std::vector<int32_t>& output_sizes,
                   const std::vector<int32_t>& kernel_sizes, const std::vector<int32_t>& strides,
                   const std::vector<int32_t>& paddings, const std::vector<int32_t>& dilations,
                   TensorMeta* out);

}  // namespace paddle
