// InferMeta of the CTC and sequence-decoding ops (paddle/ops/yaml/ctc.yaml). Token tensors
// (labels, ids, hypotheses) are int32 or int64; a lengths tensor holds one length per sequence,
// as [B] or [B, 1], int32 or int64.
#pragma once

#include "paddle/core/tensor_meta.h"

namespace paddle {

// logits [T, B, C] (float), label [B, L], lengths [B] -> loss [B, 1] and warpctcgrad [T, B, C];
// blank in [0, C).
void WarpctcInferMeta(const TensorMeta& logits, const TensorMeta& label,
                      const TensorMeta* logits_length, const TensorMeta* labels_length,
                      int32_t blank, bool norm_by_times, TensorMeta* loss, TensorMeta* warpctcgrad);

// logits and warpctcgrad [T, B, C], loss_grad [B, 1] -> logits_grad [T, B, C].
void WarpctcGradInferMeta(const TensorMeta& logits, const TensorMeta* logits_length,
                          const TensorMeta& warpctcgrad, const TensorMeta& loss_grad, int32_t blank,
                          bool norm_by_times, TensorMeta* logits_grad);

// input [B, T] with input_length -> output [B, T], output_length like input_length; input
// [N, 1] without -> output [-1, 1] (sized by the data), output_length [1, 1].
void CtcAlignInferMeta(const TensorMeta& input, const TensorMeta* input_length, int32_t blank,
                       bool merge_repeated, int32_t padding_value, TensorMeta* output,
                       TensorMeta* output_length);

// hyps [B, Th], refs [B, Tr] of one dtype, both lengths or neither -> sequencenum [1] int64,
// out [B, 1] float32.
void EditDistanceInferMeta(const TensorMeta& hyps, const TensorMeta& refs,
                           const TensorMeta* hypslength, const TensorMeta* refslength,
                           bool normalized, TensorMeta* sequencenum, TensorMeta* out);

// ids and parents [T, B, K] of one dtype -> out [T, B, K].
void GatherTreeInferMeta(const TensorMeta& ids, const TensorMeta& parents, TensorMeta* out);

}  // namespace paddle
