#include "paddle/ops/infermeta/ctc.h"

#include "paddle/common/errors.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

void CheckRank(const TensorMeta& t, int rank, const char* op, const char* name) {
  PD_CHECK(t.dims.size() == rank,
           errors::InvalidArgument(op, ": argument '", name, "' must be ", rank,
                                   "-D, received shape ", t.dims.ToString()));
}

void CheckIntegerTokens(const TensorMeta& t, const char* op, const char* name) {
  PD_CHECK(t.dtype == DataType::INT32 || t.dtype == DataType::INT64,
           errors::InvalidArgument(op, ": argument '", name, "' must be int32 or int64, received ",
                                   DataTypeName(t.dtype)));
}

// One length per sequence of a batch of `batch`: [B] or [B, 1].
void CheckLengths(const TensorMeta* t, int64_t batch, const char* op, const char* name) {
  if (t == nullptr) return;
  CheckIntegerTokens(*t, op, name);
  const bool shaped = t->dims.size() == 1 || (t->dims.size() == 2 && DimsAgree(t->dims[1], 1));
  PD_CHECK(
      shaped && DimsAgree(t->dims[0], batch),
      errors::InvalidArgument(op, ": argument '", name, "' must hold one length per sequence (",
                              batch, "), as [B] or [B, 1], received shape ", t->dims.ToString()));
}

TensorMeta MetaOf(const DDim& dims, DataType dtype) {
  TensorMeta meta;
  meta.dims = dims;
  meta.dtype = dtype;
  return meta;
}

}  // namespace

void WarpctcInferMeta(const TensorMeta& logits, const TensorMeta& label,
                      const TensorMeta* logits_length, const TensorMeta* labels_length,
                      int32_t blank, bool norm_by_times, TensorMeta* loss,
                      TensorMeta* warpctcgrad) {
  (void)norm_by_times;
  const char* op = "warpctc";
  CheckRank(logits, 3, op, "logits");
  PD_CHECK(IsFloating(logits.dtype),
           errors::InvalidArgument(op, ": argument 'logits' must be floating-point, received ",
                                   DataTypeName(logits.dtype)));
  CheckRank(label, 2, op, "label");
  CheckIntegerTokens(label, op, "label");
  const int64_t batch = logits.dims[1];
  PD_CHECK(
      DimsAgree(label.dims[0], batch),
      errors::InvalidArgument(op,
                              ": argument 'label' must have one row per sequence of "
                              "'logits' [T, B, C] ",
                              logits.dims.ToString(), ", received shape ", label.dims.ToString()));
  CheckLengths(logits_length, batch, op, "logits_length");
  CheckLengths(labels_length, batch, op, "labels_length");
  const int64_t classes = logits.dims[2];
  PD_CHECK(blank >= 0 && (IsUnknown(classes) || blank < classes),
           errors::InvalidArgument(op, ": argument 'blank' must be a class of 'logits' in [0, ",
                                   classes, "), received ", blank));
  *loss = MetaOf(DDim({batch, 1}), logits.dtype);
  *warpctcgrad = MetaOf(logits.dims, logits.dtype);
}

void WarpctcGradInferMeta(const TensorMeta& logits, const TensorMeta* logits_length,
                          const TensorMeta& warpctcgrad, const TensorMeta& loss_grad, int32_t blank,
                          bool norm_by_times, TensorMeta* logits_grad) {
  (void)blank;
  (void)norm_by_times;
  const char* op = "warpctc_grad";
  CheckRank(warpctcgrad, 3, op, "warpctcgrad");
  PD_CHECK(ShapesAgree(logits.dims, warpctcgrad.dims),
           errors::InvalidArgument(op, ": argument 'logits' ", logits.dims.ToString(),
                                   " must have the shape of 'warpctcgrad' ",
                                   warpctcgrad.dims.ToString()));
  const int64_t batch = warpctcgrad.dims[1];
  CheckLengths(logits_length, batch, op, "logits_length");
  PD_CHECK(
      ShapesAgree(loss_grad.dims, DDim({batch, 1})) && loss_grad.dtype == warpctcgrad.dtype,
      errors::InvalidArgument(op, ": argument 'loss_grad' must be [", batch, ", 1] of ",
                              DataTypeName(warpctcgrad.dtype), ", received shape ",
                              loss_grad.dims.ToString(), " of ", DataTypeName(loss_grad.dtype)));
  *logits_grad = MetaOf(warpctcgrad.dims, warpctcgrad.dtype);
}

void CtcAlignInferMeta(const TensorMeta& input, const TensorMeta* input_length, int32_t blank,
                       bool merge_repeated, int32_t padding_value, TensorMeta* output,
                       TensorMeta* output_length) {
  (void)blank;
  (void)merge_repeated;
  (void)padding_value;
  const char* op = "ctc_align";
  CheckRank(input, 2, op, "input");
  CheckIntegerTokens(input, op, "input");
  if (input_length == nullptr) {
    PD_CHECK(DimsAgree(input.dims[1], 1),
             errors::InvalidArgument(op,
                                     ": without 'input_length', argument 'input' must be one "
                                     "sequence [N, 1], received shape ",
                                     input.dims.ToString()));
    *output = MetaOf(DDim({kUnknownDim, 1}), input.dtype);
    *output_length = MetaOf(DDim({1, 1}), input.dtype);
    return;
  }
  CheckLengths(input_length, input.dims[0], op, "input_length");
  *output = MetaOf(input.dims, input.dtype);
  *output_length = MetaOf(input_length->dims, input.dtype);
}

void EditDistanceInferMeta(const TensorMeta& hyps, const TensorMeta& refs,
                           const TensorMeta* hypslength, const TensorMeta* refslength,
                           bool normalized, TensorMeta* sequencenum, TensorMeta* out) {
  (void)normalized;
  const char* op = "edit_distance";
  CheckRank(hyps, 2, op, "hyps");
  CheckRank(refs, 2, op, "refs");
  CheckIntegerTokens(hyps, op, "hyps");
  PD_CHECK(
      refs.dtype == hyps.dtype,
      errors::InvalidArgument(op, ": argument 'refs' must have the dtype of 'hyps' (",
                              DataTypeName(hyps.dtype), "), received ", DataTypeName(refs.dtype)));
  PD_CHECK(
      DimsAgree(hyps.dims[0], refs.dims[0]),
      errors::InvalidArgument(op, ": arguments 'hyps' ", hyps.dims.ToString(), " and 'refs' ",
                              refs.dims.ToString(), " must hold the same number of sequences"));
  PD_CHECK((hypslength == nullptr) == (refslength == nullptr),
           errors::InvalidArgument(op,
                                   ": arguments 'hypslength' and 'refslength' must be given "
                                   "together, received only ",
                                   hypslength != nullptr ? "'hypslength'" : "'refslength'"));
  const int64_t batch = IsUnknown(hyps.dims[0]) ? refs.dims[0] : hyps.dims[0];
  CheckLengths(hypslength, batch, op, "hypslength");
  CheckLengths(refslength, batch, op, "refslength");
  *sequencenum = MetaOf(DDim({1}), DataType::INT64);
  *out = MetaOf(DDim({batch, 1}), DataType::FLOAT32);
}

void GatherTreeInferMeta(const TensorMeta& ids, const TensorMeta& parents, TensorMeta* out) {
  const char* op = "gather_tree";
  CheckRank(ids, 3, op, "ids");
  CheckIntegerTokens(ids, op, "ids");
  PD_CHECK(
      ShapesAgree(parents.dims, ids.dims) && parents.dtype == ids.dtype,
      errors::InvalidArgument(op, ": argument 'parents' must match 'ids' (", ids.dims.ToString(),
                              " of ", DataTypeName(ids.dtype), "), received ",
                              parents.dims.ToString(), " of ", DataTypeName(parents.dtype)));
  *out = MetaOf(MergeShapes(ids.dims, parents.dims), ids.dtype);
}

}  // namespace paddle
