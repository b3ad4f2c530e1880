// The rewrites an inference predictor applies to a program before running it
// (paddle_infer::Config::SwitchIrOptim). Each keeps the program's results within float rounding
// and returns how many ops it rewrote.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "paddle/framework/program_desc.h"
#include "paddle/framework/scope.h"

namespace paddle::framework {

// Ops that behave differently in training switch to inference: every `is_test` attribute is set,
// and dropout goes: removed where it is the identity at inference ("upscale_in_train", its
// readers then read its input; a scale by 1 where nothing reads it, a model output keeping its
// name), a scale by 1 - p where it scales ("downgrade_in_infer").
int RemoveDropout(ProgramDesc* program);

// conv2d/depthwise_conv2d followed by an inference batch_norm that alone reads the convolution's
// output: the filter (in `scope`, read by that convolution only) is scaled per output channel by
// scale / sqrt(variance + epsilon), and the batch_norm becomes an elementwise_add of the folded
// bias, bias - mean * scale / sqrt(variance + epsilon), a new persistable variable in `scope`.
// float32 and float64 filters.
int FoldConvBatchNorm(ProgramDesc* program, Scope* scope);

// conv2d/depthwise_conv2d (float32 or float64), then an elementwise_add of a persistable bias
// on the channel axis, then optionally an elementwise_add of another tensor of the same static
// shape (a residual connection), then optionally relu, relu6, sigmoid or tanh, each result read
// only by the next op: one fused_conv2d_add_act (paddle/ops/yaml/fused.yaml), which oneDNN runs
// as one convolution with post-ops. Runs after FoldConvBatchNorm, whose folded biases it takes.
int FuseConvAddActivation(ProgramDesc* program, Scope* scope);

// matmul_v2 (no transposes) or mul of x by a persistable 2-D w, then an elementwise_add of a
// persistable bias [N] on the last axis, then optionally relu, each result read only by the next
// op: one fc op (paddle/ops/yaml/linalg.yaml).
int FuseFc(ProgramDesc* program, Scope* scope);

// elementwise_add or elementwise_mul whose result only a relu, tanh or sigmoid reads: one
// fused_elemwise_activation (paddle/ops/yaml/fused.yaml), which reads and writes memory once.
// Runs after FuseFc, which takes the matmul + add + relu chains.
int FuseElementwiseActivation(ProgramDesc* program);

// fused_conv2d_add_act ops (float32 filters, NCHW, groups 1, output channels in multiples of 16)
// whose output only other such convolutions read, as their input or residual, and which is none of
// `outputs` (what the caller fetches; fetch ops count as readers): that tensor stays in oneDNN's
// blocked layout (the onednn_blocked_* attributes of paddle/ops/yaml/fused.yaml), which saves
// its reorders to NCHW and back. Returns the number of tensors kept blocked.
int KeepConvOutputsBlocked(ProgramDesc* program, const std::vector<std::string>& outputs);

// All of them, in this order; (pass name, ops rewritten) for each. `outputs` as for
// KeepConvOutputsBlocked.
std::vector<std::pair<std::string, int>> ApplyInferencePasses(
    ProgramDesc* program, Scope* scope, const std::vector<std::string>& outputs = {});

}  // namespace paddle::framework
