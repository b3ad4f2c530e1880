#include "paddle/ops/infermeta/loss.h"

#include "paddle/common/errors.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

void CrossEntropyWithSoftmaxInferMeta(const TensorMeta& input, const TensorMeta& label,
                                      bool soft_label, bool use_softmax, bool numeric_stable_mode,
                                      int32_t ignore_index, int32_t axis, TensorMeta* softmax,
                                      TensorMeta* loss) {
  int rank = input.dims.size();
  PD_CHECK(rank >= 1, errors::InvalidArgument("argument 'input' must have at least one dim"));
  PD_CHECK(IsFloating(input.dtype),
           errors::InvalidArgument("argument 'input' must be floating-point, received ",
                                   DataTypeName(input.dtype)));
  int a = NormalizeAxis(axis, rank, "cross_entropy");
  PD_CHECK(label.dims.size() == rank,
           errors::InvalidArgument("argument 'label' must have the rank of 'input' (", rank,
                                   "), received shape ", label.dims.ToString(), " for input shape ",
                                   input.dims.ToString()));
  for (int i = 0; i < rank; ++i) {
    int64_t want = (i == a && !soft_label) ? 1 : input.dims[i];
    PD_CHECK(label.dims[i] == want || want == -1 || label.dims[i] == -1,
             errors::InvalidArgument("argument 'label' has shape ", label.dims.ToString(),
                                     ", expected dimension ", i, " to be ", want,
                                     soft_label ? " (soft labels match the input)"
                                                : " (hard labels have size 1 on the class axis)"));
  }
  if (soft_label) {
    PD_CHECK(label.dtype == input.dtype,
             errors::InvalidArgument("soft labels must have the input's dtype ",
                                     DataTypeName(input.dtype), ", received ",
                                     DataTypeName(label.dtype)));
  } else {
    PD_CHECK(label.dtype == DataType::INT64 || label.dtype == DataType::INT32,
             errors::InvalidArgument("hard labels must be int64 or int32, received ",
                                     DataTypeName(label.dtype)));
  }
  *softmax = input;
  loss->dims = input.dims;
  loss->dims[a] = 1;
  loss->dtype = input.dtype;
}

void CrossEntropyGradInferMeta(const TensorMeta& label, const TensorMeta& softmax,
                               const TensorMeta& loss_grad, bool soft_label, bool use_softmax,
                               bool numeric_stable_mode, int32_t ignore_index, int32_t axis,
                               TensorMeta* input_grad) {
  *input_grad = softmax;
}

namespace {

void CheckFloating(const TensorMeta& t, const char* arg) {
  PD_CHECK(t.dtype == DataType::FLOAT32 || t.dtype == DataType::FLOAT64,
           errors::InvalidType("argument '", arg, "' must be float32 or float64, received ",
                               DataTypeName(t.dtype)));
}

// `other` has `first`'s shape (dims unknown in a static program agree with any) and dtype.
void CheckLike(const TensorMeta& first, const char* first_arg, const TensorMeta& other,
               const char* other_arg) {
  PD_CHECK(
      ShapesAgree(first.dims, other.dims),
      errors::InvalidArgument("argument '", other_arg, "' must have the shape of '", first_arg,
                              "' ", first.dims.ToString(), ", received ", other.dims.ToString()));
  PD_CHECK(
      other.dtype == first.dtype,
      errors::InvalidType("argument '", other_arg, "' must have the dtype of '", first_arg, "' (",
                          DataTypeName(first.dtype), "), received ", DataTypeName(other.dtype)));
}

// The elementwise result of two agreeing inputs.
void SameShapeLoss(const TensorMeta& input, const char* input_arg, const TensorMeta& label,
                   const char* label_arg, TensorMeta* out) {
  CheckFloating(input, input_arg);
  CheckLike(input, input_arg, label, label_arg);
  out->dims = MergeShapes(input.dims, label.dims);
  out->dtype = input.dtype;
}

// nll_loss's input [N, C, d...], int64 label [N, d...] and weight [C] agree.
void CheckNllShapes(const TensorMeta& input, const TensorMeta& label, const TensorMeta* weight) {
  CheckFloating(input, "input");
  const int rank = input.dims.size();
  PD_CHECK(rank >= 2, errors::InvalidArgument("argument 'input' must be [N, C, d...] (rank 2 or "
                                              "more), received shape ",
                                              input.dims.ToString()));
  PD_CHECK(
      label.dtype == DataType::INT64,
      errors::InvalidType("argument 'label' must be int64, received ", DataTypeName(label.dtype)));
  bool label_agrees = label.dims.size() == rank - 1 && DimsAgree(label.dims[0], input.dims[0]);
  for (int i = 2; label_agrees && i < rank; ++i) {
    label_agrees = DimsAgree(label.dims[i - 1], input.dims[i]);
  }
  PD_CHECK(label_agrees, errors::InvalidArgument(
                             "argument 'label' must have the shape of 'input' without its class "
                             "dim 1, received label shape ",
                             label.dims.ToString(), " for input shape ", input.dims.ToString()));
  if (weight) {
    PD_CHECK(weight->dims.size() == 1 && DimsAgree(weight->dims[0], input.dims[1]),
             errors::InvalidArgument("argument 'weight' must have shape [C] = [", input.dims[1],
                                     "], received ", weight->dims.ToString()));
    PD_CHECK(weight->dtype == input.dtype,
             errors::InvalidType("argument 'weight' must have the dtype of 'input' (",
                                 DataTypeName(input.dtype), "), received ",
                                 DataTypeName(weight->dtype)));
  }
}

}  // namespace

void BceLossInferMeta(const TensorMeta& input, const TensorMeta& label, TensorMeta* out) {
  SameShapeLoss(input, "input", label, "label", out);
}

void SigmoidCrossEntropyWithLogitsInferMeta(const TensorMeta& x, const TensorMeta& label,
                                            const TensorMeta* pos_weight, bool normalize,
                                            int32_t ignore_index, TensorMeta* out) {
  SameShapeLoss(x, "x", label, "label", out);
  if (pos_weight) CheckLike(x, "x", *pos_weight, "pos_weight");
}

void HuberLossInferMeta(const TensorMeta& input, const TensorMeta& label, float delta,
                        TensorMeta* out, TensorMeta* residual) {
  SameShapeLoss(input, "input", label, "label", out);
  *residual = *out;
}

void KldivLossInferMeta(const TensorMeta& x, const TensorMeta& label, const std::string& reduction,
                        bool log_target, TensorMeta* out) {
  PD_CHECK(
      reduction == "none" || reduction == "mean" || reduction == "sum" || reduction == "batchmean",
      errors::InvalidArgument("argument 'reduction' must be 'none', 'batchmean', 'mean' or "
                              "'sum', received '",
                              reduction, "'"));
  SameShapeLoss(x, "x", label, "label", out);
  if (reduction != "none") out->dims = DDim();
}

void LogLossInferMeta(const TensorMeta& input, const TensorMeta& label, float epsilon,
                      TensorMeta* out) {
  PD_CHECK(input.dims.size() == 2 && DimsAgree(input.dims[1], 1),
           errors::InvalidArgument("argument 'input' must have shape [N, 1], received ",
                                   input.dims.ToString()));
  SameShapeLoss(input, "input", label, "label", out);
}

void NllLossInferMeta(const TensorMeta& input, const TensorMeta& label, const TensorMeta* weight,
                      int64_t ignore_index, const std::string& reduction, TensorMeta* out,
                      TensorMeta* total_weight) {
  PD_CHECK(reduction == "none" || reduction == "mean" || reduction == "sum",
           errors::InvalidArgument("argument 'reduction' must be 'none', 'mean' or 'sum', "
                                   "received '",
                                   reduction, "'"));
  CheckNllShapes(input, label, weight);
  out->dims = reduction == "none" ? label.dims : DDim();
  out->dtype = input.dtype;
  total_weight->dims = DDim();
  total_weight->dtype = input.dtype;
}

void NllLossGradInferMeta(const TensorMeta& input, const TensorMeta& label,
                          const TensorMeta* weight, const TensorMeta& total_weight,
                          const TensorMeta& out_grad, int64_t ignore_index,
                          const std::string& reduction, TensorMeta* input_grad) {
  // Checked again here: a gradient op in a loaded program need not come from a checked forward.
  CheckNllShapes(input, label, weight);
  *input_grad = input;
}

}  // namespace paddle
