// InferMeta of the shape-manipulation and indexing ops.
#pragma once

#include <string>
#include <vector>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// Paddle's reshape rules: one -1 is inferred, 0 copies the input's dim at that position.
void ReshapeInferMeta(const TensorMeta& x, const std::vector<int64_t>& shape, TensorMeta* out);
void TransposeInferMeta(const TensorMeta& x, const std::vector<int32_t>& perm, TensorMeta* out);
void ConcatInferMeta(const std::vector<TensorMeta>& x, int64_t axis, TensorMeta* out);
// `sections` with one entry n splits into n equal parts; otherwise it lists the part sizes
// (one may be -1).
void SplitInferMeta(const TensorMeta& x, const std::vector<int64_t>& sections, int64_t axis,
                    std::vector<TensorMeta>* out);
void StackInferMeta(const std::vector<TensorMeta>& x, int32_t axis, TensorMeta* out);
void SqueezeInferMeta(const TensorMeta& x, const std::vector<int64_t>& axis, TensorMeta* out);
void UnsqueezeInferMeta(const TensorMeta& x, const std::vector<int64_t>& axis, TensorMeta* out);
void ShapeInferMeta(const TensorMeta& input, TensorMeta* out);
void FlattenInferMeta(const TensorMeta& x, int32_t start_axis, int32_t stop_axis, TensorMeta* out);
void ExpandInferMeta(const TensorMeta& x, const std::vector<int64_t>& shape, TensorMeta* out);
void SliceInferMeta(const TensorMeta& x, const std::vector<int64_t>& axes,
                    const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                    const std::vector<int64_t>& decrease_axis, TensorMeta* out);
void StridedSliceInferMeta(const TensorMeta& x, const std::vector<int32_t>& axes,
                           const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                           const std::vector<int64_t>& strides, TensorMeta* out);
void SetValueInferMeta(const TensorMeta& x, const TensorMeta& values,
                       const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                       const std::vector<int64_t>& steps, const std::vector<int64_t>& axes,
                       TensorMeta* out);
void GatherInferMeta(const TensorMeta& x, const TensorMeta& index, int64_t axis, TensorMeta* out);
void IndexSelectInferMeta(const TensorMeta& x, const TensorMeta& index, int32_t axis,
                          TensorMeta* out);
void IndexAddInferMeta(const TensorMeta& x, const TensorMeta& index, const TensorMeta& add_value,
                       int32_t axis, TensorMeta* out);
void GatherNdInferMeta(const TensorMeta& x, const TensorMeta& index, TensorMeta* out);
void ScatterInferMeta(const TensorMeta& x, const TensorMeta& index, const TensorMeta& updates,
                      bool overwrite, TensorMeta* out);
void ScatterNdAddInferMeta(const TensorMeta& x, const TensorMeta& index, const TensorMeta& updates,
                           TensorMeta* out);
// Data-dependent sizes are -1 here; the kernel sets the final dims.
void MaskedSelectInferMeta(const TensorMeta& x, const TensorMeta& mask, TensorMeta* out);
void MaskedScatterInferMeta(const TensorMeta& x, const TensorMeta& mask, const TensorMeta& value,
                            TensorMeta* out);
void NonZeroInferMeta(const TensorMeta& condition, TensorMeta* out);
// x is 4-D in `data_format` (NCHW or NHWC) with channels divisible by upscale_factor^2 (> 0):
// [N, C*r*r, H, W] -> [N, C, H*r, W*r]. The gradient's rule is the inverse.
void PixelShuffleInferMeta(const TensorMeta& x, int32_t upscale_factor,
                           const std::string& data_format, TensorMeta* out);
void PixelShuffleGradInferMeta(const TensorMeta& out_grad, int32_t upscale_factor,
                               const std::string& data_format, TensorMeta* x_grad);

}  // namespace paddle
