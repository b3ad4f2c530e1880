// CPU kernels of the CTC and sequence-decoding ops (paddle/ops/yaml/ctc.yaml). The checks that
// depend on the data (lengths, label values, beam parents) happen here, before any loop that
// runs on the thread pool; the loops are in funcs/ctc.h.
#pragma once

#include <algorithm>
#include <atomic>
#include <exception>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/core/dense_tensor.h"
#include "paddle/kernels/funcs/ctc.h"
#include "paddle/kernels/funcs/parallel_for.h"

namespace paddle {

namespace ctc_detail {

// The values of an int32 or int64 tensor (labels, lengths) as int64.
inline std::vector<int64_t> Int64Values(const DenseTensor& t) {
  std::vector<int64_t> values(static_cast<size_t>(t.numel()));
  if (t.dtype() == DataType::INT64) {
    std::copy_n(t.data<int64_t>(), values.size(), values.begin());
  } else {
    std::copy_n(t.data<int32_t>(), values.size(), values.begin());
  }
  return values;
}

// One length per sequence from an optional lengths tensor, each in [0, limit]; without one,
// every sequence is `limit` long.
inline std::vector<int64_t> Lengths(const DenseTensor* lengths, int64_t count, int64_t limit,
                                    const char* op, const char* name, const char* limit_what) {
  if (lengths == nullptr) return std::vector<int64_t>(static_cast<size_t>(count), limit);
  std::vector<int64_t> values = Int64Values(*lengths);
  for (size_t i = 0; i < values.size(); ++i) {
    PD_CHECK(
        values[i] >= 0 && values[i] <= limit,
        errors::InvalidArgument(op, ": argument '", name, "' must hold lengths in [0, ", limit,
                                "] (", limit_what, "), received ", values[i], " for sequence ", i));
  }
  return values;
}

}  // namespace ctc_detail

// logits [T, B, C], label [B, L] -> loss [B, 1] and warpctcgrad [T, B, C] (the gradient of each
// sequence's loss with respect to its logits, zero past its length).
template <typename T, typename Context>
void WarpctcKernel(const Context& ctx, const DenseTensor& logits, const DenseTensor& label,
                   const DenseTensor* logits_length, const DenseTensor* labels_length,
                   int32_t blank, bool norm_by_times, DenseTensor* loss, DenseTensor* warpctcgrad) {
  (void)norm_by_times;  // it scales the gradient, which warpctc_grad applies
  const int64_t frames = logits.dims()[0];
  const int64_t batch = logits.dims()[1];
  const int64_t classes = logits.dims()[2];
  const int64_t max_label = label.dims()[1];
  const std::vector<int64_t> input_lengths = ctc_detail::Lengths(
      logits_length, batch, frames, "warpctc", "logits_length", "the frames of 'logits'");
  const std::vector<int64_t> label_lengths = ctc_detail::Lengths(
      labels_length, batch, max_label, "warpctc", "labels_length", "the width of 'label'");
  const std::vector<int64_t> labels = ctc_detail::Int64Values(label);
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t j = 0; j < label_lengths[b]; ++j) {
      const int64_t value = labels[b * max_label + j];
      PD_CHECK(value >= 0 && value < classes && value != blank,
               errors::InvalidArgument("warpctc: argument 'label' must hold classes in [0, ",
                                       classes, ") other than blank ", blank, ", received ", value,
                                       " at label ", j, " of sequence ", b));
    }
  }
  T* loss_data = ctx.template Alloc<T>(loss);
  T* grad = ctx.template Alloc<T>(warpctcgrad);
  const int64_t frame_stride = batch * classes;
  // An exception must not leave a thread of the pool (that would end the process): the first
  // one (a sequence whose workspace cannot be allocated) is kept and rethrown after the loop.
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  funcs::ParallelFor(
      batch,
      [&](int64_t begin, int64_t end) {
        try {
          for (int64_t b = begin; b < end; ++b) {
            const int64_t length = input_lengths[b];
            funcs::CtcLossAndGradient<T>(logits.data<T>() + b * classes, length, frame_stride,
                                         classes, labels.data() + b * max_label, label_lengths[b],
                                         blank, loss_data + b, grad + b * classes);
            for (int64_t t = length; t < frames; ++t) {
              std::fill_n(grad + t * frame_stride + b * classes, classes, T(0));
            }
          }
        } catch (...) {
          if (!failed.exchange(true)) failure = std::current_exception();
        }
      },
      /*threshold=*/2);
  if (failure) std::rethrow_exception(failure);
}

// logits_grad [T, B, C] = warpctcgrad * loss_grad[b] (divided by sequence b's length with
// norm_by_times). Only the shape of logits matters, which InferMeta checked.
template <typename T, typename Context>
void WarpctcGradKernel(const Context& ctx, const DenseTensor& logits,
                       const DenseTensor* logits_length, const DenseTensor& warpctcgrad,
                       const DenseTensor& loss_grad, int32_t blank, bool norm_by_times,
                       DenseTensor* logits_grad) {
  (void)logits;
  (void)blank;  // the forward's gradient already accounts for it
  const int64_t frames = warpctcgrad.dims()[0];
  const int64_t batch = warpctcgrad.dims()[1];
  const int64_t classes = warpctcgrad.dims()[2];
  const std::vector<int64_t> lengths = ctc_detail::Lengths(
      logits_length, batch, frames, "warpctc_grad", "logits_length", "the frames of 'logits'");
  const T* g = warpctcgrad.data<T>();
  const T* dloss = loss_grad.data<T>();
  T* out = ctx.template Alloc<T>(logits_grad);
  for (int64_t t = 0; t < frames; ++t) {
    for (int64_t b = 0; b < batch; ++b) {
      T scale = dloss[b];
      if (norm_by_times && lengths[b] > 0) scale /= static_cast<T>(lengths[b]);
      const int64_t offset = (t * batch + b) * classes;
      for (int64_t c = 0; c < classes; ++c) out[offset + c] = g[offset + c] * scale;
    }
  }
}

// With input_length: input [B, T] and its lengths -> output [B, T] (each row's decoded tokens,
// then padding_value) and output_length (the counts, shaped like input_length). Without: input
// [N, 1] is one sequence (Paddle's LoD form with one sequence) -> output [M, 1] of its M decoded
// tokens, or [[-1]] when none is left, as in Paddle, and output_length [[M]].
template <typename T, typename Context>
void CtcAlignKernel(const Context& ctx, const DenseTensor& input, const DenseTensor* input_length,
                    int32_t blank, bool merge_repeated, int32_t padding_value, DenseTensor* output,
                    DenseTensor* output_length) {
  const T* in = input.data<T>();
  if (input_length == nullptr) {
    const int64_t total = input.dims()[0];
    std::vector<T> decoded(static_cast<size_t>(total));
    const int64_t count =
        funcs::CtcAlignSequence<T>(in, total, blank, merge_repeated, decoded.data());
    output->Resize(DDim({std::max<int64_t>(count, 1), 1}));
    T* out = ctx.template Alloc<T>(output);
    if (count == 0) {
      out[0] = T(-1);
    } else {
      std::copy_n(decoded.data(), count, out);
    }
    output_length->Resize(DDim({1, 1}));
    *ctx.template Alloc<T>(output_length) = static_cast<T>(count);
    return;
  }
  const int64_t batch = input.dims()[0];
  const int64_t width = input.dims()[1];
  const std::vector<int64_t> lengths = ctc_detail::Lengths(input_length, batch, width, "ctc_align",
                                                           "input_length", "the width of 'input'");
  T* out = ctx.template Alloc<T>(output);
  T* out_length = ctx.template Alloc<T>(output_length);
  for (int64_t b = 0; b < batch; ++b) {
    T* row = out + b * width;
    const int64_t count =
        funcs::CtcAlignSequence<T>(in + b * width, lengths[b], blank, merge_repeated, row);
    std::fill(row + count, row + width, static_cast<T>(padding_value));
    out_length[b] = static_cast<T>(count);
  }
}

// hyps [B, Th] and refs [B, Tr] with optional lengths (full rows without) -> sequencenum [1]
// (int64: B) and out [B, 1] (float32: each distance, divided by the reference's length when
// normalized).
template <typename T, typename Context>
void EditDistanceKernel(const Context& ctx, const DenseTensor& hyps, const DenseTensor& refs,
                        const DenseTensor* hypslength, const DenseTensor* refslength,
                        bool normalized, DenseTensor* sequencenum, DenseTensor* out) {
  const int64_t batch = hyps.dims()[0];
  const int64_t hyp_width = hyps.dims()[1];
  const int64_t ref_width = refs.dims()[1];
  const std::vector<int64_t> hyp_lengths = ctc_detail::Lengths(
      hypslength, batch, hyp_width, "edit_distance", "hypslength", "the width of 'hyps'");
  const std::vector<int64_t> ref_lengths = ctc_detail::Lengths(
      refslength, batch, ref_width, "edit_distance", "refslength", "the width of 'refs'");
  if (normalized) {
    for (int64_t b = 0; b < batch; ++b) {
      PD_CHECK(ref_lengths[b] > 0,
               errors::InvalidArgument("edit_distance: reference ", b,
                                       " is empty, which normalized=True cannot divide by"));
    }
  }
  *ctx.template Alloc<int64_t>(sequencenum) = batch;
  float* distances = ctx.template Alloc<float>(out);
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t distance = funcs::EditDistance<T>(hyps.data<T>() + b * hyp_width, hyp_lengths[b],
                                                    refs.data<T>() + b * ref_width, ref_lengths[b]);
    distances[b] = normalized ? static_cast<float>(distance) / static_cast<float>(ref_lengths[b])
                              : static_cast<float>(distance);
  }
}

// ids and parents [T, B, K] -> out [T, B, K]: each beam's tokens traced back from its last step
// through the parents.
template <typename T, typename Context>
void GatherTreeKernel(const Context& ctx, const DenseTensor& ids, const DenseTensor& parents,
                      DenseTensor* out) {
  const int64_t steps = ids.dims()[0];
  const int64_t batch = ids.dims()[1];
  const int64_t beams = ids.dims()[2];
  const T* id = ids.data<T>();
  const T* parent = parents.data<T>();
  T* o = ctx.template Alloc<T>(out);
  if (steps == 0) return;
  const int64_t step_stride = batch * beams;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t k = 0; k < beams; ++k) {
      int64_t index = (steps - 1) * step_stride + b * beams + k;
      o[index] = id[index];
      int64_t from = static_cast<int64_t>(parent[index]);
      for (int64_t t = steps - 2; t >= 0; --t) {
        PD_CHECK(from >= 0 && from < beams,
                 errors::InvalidArgument("gather_tree: argument 'parents' must hold beam indices "
                                         "in [0, ",
                                         beams, "), received ", from, " at step ", t + 1,
                                         ", batch ", b));
        const int64_t row = t * step_stride + b * beams;
        o[row + k] = id[row + from];
        from = static_cast<int64_t>(parent[row + from]);
      }
    }
  }
}

}  // namespace paddle
