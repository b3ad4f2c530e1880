#include "paddle/ops/infermeta/decode.h"

#include <string>
#include <utility>

#include "paddle/common/errors.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

TensorMeta MetaOf(const DDim& dims, DataType dtype) {
  TensorMeta meta;
  meta.dims = dims;
  meta.dtype = dtype;
  return meta;
}

void CheckRank(const TensorMeta& t, int rank, const char* op, const std::string& name) {
  PD_CHECK(t.dims.size() == rank,
           errors::InvalidArgument(op, ": argument '", name, "' must be ", rank,
                                   "-D, received shape ", t.dims.ToString()));
}

void CheckDtype(const TensorMeta& t, DataType dtype, const char* op, const std::string& name) {
  PD_CHECK(t.dtype == dtype,
           errors::InvalidType(op, ": argument '", name, "' must be ", DataTypeName(dtype),
                               ", received ", DataTypeName(t.dtype)));
}

void CheckFloating(const TensorMeta& t, const char* op, const std::string& name) {
  PD_CHECK(t.dtype == DataType::FLOAT32 || t.dtype == DataType::FLOAT64,
           errors::InvalidType(op, ": argument '", name, "' must be float32 or float64, received ",
                               DataTypeName(t.dtype)));
}

void CheckBeamSize(int32_t beam_size, const char* op) {
  PD_CHECK(beam_size > 0, errors::InvalidArgument(op,
                                                  ": argument 'beam_size' must be positive, "
                                                  "received ",
                                                  beam_size));
}

// [M] or [M, 1]: one value per row.
void CheckColumn(const TensorMeta& t, const char* op, const std::string& name) {
  const bool column = t.dims.size() == 1 || (t.dims.size() == 2 && DimsAgree(t.dims[1], 1));
  PD_CHECK(column,
           errors::InvalidArgument(op, ": argument '", name,
                                   "' must be [M] or [M, 1], received shape ", t.dims.ToString()));
}

}  // namespace

void BeamSearchInferMeta(const TensorMeta& pre_ids, const TensorMeta& pre_scores,
                         const TensorMeta* ids, const TensorMeta& scores,
                         const TensorMeta* source_offsets, int32_t beam_size, int32_t end_id,
                         bool is_accumulated, TensorMeta* selected_ids, TensorMeta* selected_scores,
                         TensorMeta* parent_idx, TensorMeta* selected_offsets) {
  (void)end_id;
  (void)is_accumulated;
  const char* op = "beam_search";
  CheckBeamSize(beam_size, op);
  CheckRank(scores, 2, op, "scores");
  CheckFloating(scores, op, "scores");
  const int64_t rows = scores.dims[0];
  CheckDtype(pre_ids, DataType::INT64, op, "pre_ids");
  CheckDtype(pre_scores, scores.dtype, op, "pre_scores");
  using Named = std::pair<const TensorMeta*, const char*>;
  for (const auto& [meta, name] : {Named{&pre_ids, "pre_ids"}, Named{&pre_scores, "pre_scores"}}) {
    PD_CHECK(ShapesAgree(meta->dims, DDim({rows, 1})),
             errors::InvalidArgument(op, ": argument '", name, "' must be [", rows,
                                     ", 1] (a row per row of 'scores' ", scores.dims.ToString(),
                                     "), received shape ", meta->dims.ToString()));
  }
  if (ids != nullptr) {
    CheckDtype(*ids, DataType::INT64, op, "ids");
    PD_CHECK(ShapesAgree(ids->dims, scores.dims),
             errors::InvalidArgument(op, ": argument 'ids' must have the shape of 'scores' ",
                                     scores.dims.ToString(), ", received ", ids->dims.ToString()));
  }
  int64_t sources_plus_one = IsUnknown(rows) ? kUnknownDim : rows + 1;
  if (source_offsets != nullptr) {
    CheckRank(*source_offsets, 1, op, "source_offsets");
    CheckDtype(*source_offsets, DataType::INT64, op, "source_offsets");
    sources_plus_one = source_offsets->dims[0];
  }
  *selected_ids = MetaOf(DDim({kUnknownDim, 1}), DataType::INT64);
  *selected_scores = MetaOf(DDim({kUnknownDim, 1}), scores.dtype);
  *parent_idx = MetaOf(DDim({kUnknownDim}), DataType::INT32);
  *selected_offsets = MetaOf(DDim({sources_plus_one}), DataType::INT64);
}

void BeamSearchDecodeInferMeta(const std::vector<TensorMeta>& ids,
                               const std::vector<TensorMeta>& scores,
                               const std::vector<TensorMeta>& parent_idx,
                               const std::vector<TensorMeta>& source_offsets, int32_t beam_size,
                               int32_t end_id, TensorMeta* sentence_ids,
                               TensorMeta* sentence_scores, TensorMeta* sentence_offsets) {
  (void)end_id;
  const char* op = "beam_search_decode";
  CheckBeamSize(beam_size, op);
  PD_CHECK(!ids.empty(), errors::InvalidArgument(op,
                                                 ": argument 'ids' must hold at least one "
                                                 "step, received none"));
  const size_t steps = ids.size();
  using Named = std::pair<const std::vector<TensorMeta>*, const char*>;
  for (const auto& [list, name] : {Named{&scores, "scores"}, Named{&parent_idx, "parent_idx"},
                                   Named{&source_offsets, "source_offsets"}}) {
    PD_CHECK(list->size() == steps, errors::InvalidArgument(op, ": argument '", name,
                                                            "' must hold one tensor per step of "
                                                            "'ids' (",
                                                            steps, "), received ", list->size()));
  }
  const DataType score_dtype = scores[0].dtype;
  CheckFloating(scores[0], op, "scores[0]");
  for (size_t t = 0; t < steps; ++t) {
    const std::string step = "[" + std::to_string(t) + "]";
    CheckDtype(ids[t], DataType::INT64, op, "ids" + step);
    CheckDtype(scores[t], score_dtype, op, "scores" + step);
    PD_CHECK(parent_idx[t].dtype == DataType::INT32 || parent_idx[t].dtype == DataType::INT64,
             errors::InvalidType(op, ": argument 'parent_idx", step,
                                 "' must be int32 or int64, received ",
                                 DataTypeName(parent_idx[t].dtype)));
    CheckDtype(source_offsets[t], DataType::INT64, op, "source_offsets" + step);
    CheckColumn(ids[t], op, "ids" + step);
    CheckColumn(scores[t], op, "scores" + step);
    CheckRank(parent_idx[t], 1, op, "parent_idx" + step);
    CheckRank(source_offsets[t], 1, op, "source_offsets" + step);
    PD_CHECK(DimsAgree(ids[t].dims[0], scores[t].dims[0]) &&
                 DimsAgree(ids[t].dims[0], parent_idx[t].dims[0]),
             errors::InvalidArgument(op, ": step ", t, " must have as many 'scores' ",
                                     scores[t].dims.ToString(), " and 'parent_idx' ",
                                     parent_idx[t].dims.ToString(), " as 'ids' ",
                                     ids[t].dims.ToString()));
  }
  *sentence_ids = MetaOf(DDim({kUnknownDim}), DataType::INT64);
  *sentence_scores = MetaOf(DDim({kUnknownDim}), score_dtype);
  *sentence_offsets = MetaOf(DDim({kUnknownDim}), DataType::INT64);
}

void ViterbiDecodeInferMeta(const TensorMeta& potentials, const TensorMeta& transition_params,
                            const TensorMeta& lengths, bool include_bos_eos_tag, TensorMeta* scores,
                            TensorMeta* path) {
  const char* op = "viterbi_decode";
  CheckRank(potentials, 3, op, "potentials");
  CheckFloating(potentials, op, "potentials");
  const int64_t batch = potentials.dims[0];
  const int64_t tags = potentials.dims[2];
  CheckDtype(transition_params, potentials.dtype, op, "transition_params");
  PD_CHECK(ShapesAgree(transition_params.dims, DDim({tags, tags})),
           errors::InvalidArgument(op, ": argument 'transition_params' must be [", tags, ", ", tags,
                                   "] (the tags of 'potentials' ", potentials.dims.ToString(),
                                   "), received shape ", transition_params.dims.ToString()));
  CheckDtype(lengths, DataType::INT64, op, "lengths");
  PD_CHECK(ShapesAgree(lengths.dims, DDim({batch})),
           errors::InvalidArgument(op, ": argument 'lengths' must hold one length per sequence [",
                                   batch, "], received shape ", lengths.dims.ToString()));
  PD_CHECK(!include_bos_eos_tag || IsUnknown(tags) || tags >= 2,
           errors::InvalidArgument(op,
                                   ": include_bos_eos_tag=True needs at least 2 tags (the "
                                   "last two are the stop and start tags), received ",
                                   tags));
  *scores = MetaOf(DDim({batch}), potentials.dtype);
  *path = MetaOf(DDim({batch, kUnknownDim}), DataType::INT64);
}

}  // namespace paddle
