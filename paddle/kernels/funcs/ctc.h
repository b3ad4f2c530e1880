// The computations of the CTC and sequence-decoding ops (paddle/ops/yaml/ctc.yaml) on plain
// arrays, shared by their CPU kernels (cpu/ctc_kernels.h). Instantiated in ctc.cc: the loss for
// float and double, the decoders for int32 and int64 tokens. Callers check lengths and labels
// first; these routines assume them valid.
#pragma once

#include <cstdint>

namespace paddle::funcs {

// One sequence of CTC: the first `frames` rows of logits (row t at logits + t * frame_stride,
// `classes` values each) against `label_length` labels. Writes the loss -log p(label | softmax
// of the logits) and, for each of those rows, the gradient of the loss with respect to the
// logits (softmax minus the posterior occupancy of each class) at the same strides. A label
// that no alignment of `frames` rows can produce (too long for its repeats) has loss 0 and a
// zero gradient, the convention of warp-ctc that Paddle keeps.
template <typename T>
void CtcLossAndGradient(const T* logits, int64_t frames, int64_t frame_stride, int64_t classes,
                        const int64_t* label, int64_t label_length, int64_t blank, T* loss,
                        T* grad);

// Greedy CTC decoding of one sequence: the tokens of `input` that are not `blank` and, with
// merge_repeated, differ from the token before them (blank or not). Writes them to `output` and
// returns their count.
template <typename T>
int64_t CtcAlignSequence(const T* input, int64_t length, int64_t blank, bool merge_repeated,
                         T* output);

// The Levenshtein distance between hyp[0, m) and ref[0, n) (insertions, deletions and
// substitutions of cost 1).
template <typename T>
int64_t EditDistance(const T* hyp, int64_t m, const T* ref, int64_t n);

}  // namespace paddle::funcs
