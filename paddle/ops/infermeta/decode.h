// InferMeta of the step-wise decoders (paddle/ops/yaml/decode.yaml). How many candidates a beam
// search keeps depends on the scores, so those sizes are -1 until the kernel runs.
#pragma once

#include <vector>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// pre_ids [N, 1] int64, pre_scores [N, 1], ids [N, K] int64, scores [N, K] (float),
// source_offsets [S + 1] int64; beam_size > 0 -> selected_ids, selected_scores [-1, 1],
// parent_idx [-1] int32, selected_offsets [S + 1] int64.
void BeamSearchInferMeta(const TensorMeta& pre_ids, const TensorMeta& pre_scores,
                         const TensorMeta* ids, const TensorMeta& scores,
                         const TensorMeta* source_offsets, int32_t beam_size, int32_t end_id,
                         bool is_accumulated, TensorMeta* selected_ids, TensorMeta* selected_scores,
                         TensorMeta* parent_idx, TensorMeta* selected_offsets);

// As many steps of ids (int64), scores (float), parent_idx (int32 or int64) and source_offsets
// (int64), at least one; beam_size > 0 -> sentence_ids [-1] int64, sentence_scores [-1],
// sentence_offsets [-1] int64.
void BeamSearchDecodeInferMeta(const std::vector<TensorMeta>& ids,
                               const std::vector<TensorMeta>& scores,
                               const std::vector<TensorMeta>& parent_idx,
                               const std::vector<TensorMeta>& source_offsets, int32_t beam_size,
                               int32_t end_id, TensorMeta* sentence_ids,
                               TensorMeta* sentence_scores, TensorMeta* sentence_offsets);

// potentials [B, T, N] (float), transition_params [N, N] of its dtype, lengths [B] int64 ->
// scores [B], path [B, -1] int64 (the longest length, known when the kernel runs).
void ViterbiDecodeInferMeta(const TensorMeta& potentials, const TensorMeta& transition_params,
                            const TensorMeta& lengths, bool include_bos_eos_tag, TensorMeta* scores,
                            TensorMeta* path);

}  // namespace paddle
