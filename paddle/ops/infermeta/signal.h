// InferMeta of the spectral ops: the FFTs (fft_c2c, fft_r2c, fft_c2r and the kernels of their
// gradients) and frame / overlap_add.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// x complex; axes distinct, in [-rank, rank), none of size 0; out is x's meta.
void FftC2CInferMeta(const TensorMeta& x, const std::vector<int64_t>& axes,
                     const std::string& normalization, bool forward, TensorMeta* out);
// x float32/float64; out complex, the last of axes n / 2 + 1 long when onesided.
void FftR2CInferMeta(const TensorMeta& x, const std::vector<int64_t>& axes,
                     const std::string& normalization, bool forward, bool onesided,
                     TensorMeta* out);
// x complex; out real, the last of axes last_dim_size long (2 * (m - 1) for 0, m its length in x).
void FftC2RInferMeta(const TensorMeta& x, const std::vector<int64_t>& axes,
                     const std::string& normalization, bool forward, int64_t last_dim_size,
                     TensorMeta* out);
// The gradient kernels: out_grad is the forward op's output, x_grad has x's meta.
void FftR2CGradInferMeta(const TensorMeta& x, const TensorMeta& out_grad,
                         const std::vector<int64_t>& axes, const std::string& normalization,
                         bool forward, bool onesided, TensorMeta* x_grad);
void FftC2RGradInferMeta(const TensorMeta& x, const TensorMeta& out_grad,
                         const std::vector<int64_t>& axes, const std::string& normalization,
                         bool forward, int64_t last_dim_size, TensorMeta* x_grad);
// axis -1: [..., seq_len] -> [..., frame_length, frames]; axis 0: [seq_len, ...] ->
// [frames, frame_length, ...], frames = 1 + (seq_len - frame_length) / hop_length.
void FrameInferMeta(const TensorMeta& x, int32_t frame_length, int32_t hop_length, int32_t axis,
                    TensorMeta* out);
// The inverse layout: seq_len = (frames - 1) * hop_length + frame_length.
void OverlapAddInferMeta(const TensorMeta& x, int32_t hop_length, int32_t axis, TensorMeta* out);

}  // namespace paddle
