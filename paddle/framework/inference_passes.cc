#include "paddle/framework/inference_passes.h"

#include <algorithm>
#include <cmath>

#include "paddle/common/errors.h"
#include "paddle/framework/block_desc.h"
#include "paddle/framework/proto_attribute.h"
#include "paddle/framework/var_desc.h"

namespace paddle::framework {

namespace {

// How many op inputs, in any block, read the variable `name`.
int Readers(const ProgramDesc& program, const std::string& name) {
  int count = 0;
  for (size_t b = 0; b < program.Size(); ++b) {
    for (const auto& op : program.Block(b)->ops()) {
      for (const std::string& input : op->InputNames()) count += input == name;
    }
  }
  return count;
}

void SetAttr(OpDesc* op, const std::string& name, const Attribute& value) {
  std::optional<ProtoAttr> attr = ToProtoAttr(name, value);
  PD_INTERNAL_ASSERT(attr.has_value(), "attribute ", name, " has no program form");
  op->SetAttr(*attr);
}

std::string StringAttr(const OpDesc& op, const std::string& name, const std::string& fallback) {
  const ProtoAttr* attr = op.FindAttr(name);
  return attr ? attr->s() : fallback;
}

bool BoolAttr(const OpDesc& op, const std::string& name) {
  const ProtoAttr* attr = op.FindAttr(name);
  return attr && attr->b();
}

// The one input variable in `slot`, or empty.
std::string Single(const std::vector<std::string>& names) {
  return names.size() == 1 ? names[0] : std::string();
}

// The CPU tensor of a persistable variable in `scope`, or null.
DenseTensor* Parameter(Scope* scope, const std::string& name) {
  if (name.empty()) return nullptr;
  Variable* var = scope->FindVar(name);
  if (var == nullptr || !var->tensor()->initialized()) return nullptr;
  return var->tensor();
}

template <typename T>
void Fold(DenseTensor* filter, const DenseTensor& scale, const DenseTensor& bias,
          const DenseTensor& mean, const DenseTensor& variance, double epsilon,
          DenseTensor* folded_bias) {
  const int64_t channels = filter->dims()[0];
  const int64_t per_channel = filter->numel() / channels;
  T* w = filter->data<T>();
  T* b = folded_bias->data<T>();
  for (int64_t c = 0; c < channels; ++c) {
    const double a = static_cast<double>(scale.data<T>()[c]) /
                     std::sqrt(static_cast<double>(variance.data<T>()[c]) + epsilon);
    for (int64_t i = 0; i < per_channel; ++i) {
      w[c * per_channel + i] = static_cast<T>(w[c * per_channel + i] * a);
    }
    b[c] = static_cast<T>(bias.data<T>()[c] - mean.data<T>()[c] * a);
  }
}

// Whether conv (at index i) and bn (at index j > i) of `block` fold, and if so folds them.
bool TryFold(ProgramDesc* program, BlockDesc* block, size_t j, Scope* scope) {
  OpDesc* bn = block->Op(j);
  if (bn->type() != "batch_norm") return false;
  if (!BoolAttr(*bn, "is_test") && !BoolAttr(*bn, "use_global_stats")) return false;
  const std::string conv_out = Single(bn->Input("X"));
  if (conv_out.empty() || Readers(*program, conv_out) != 1) return false;
  OpDesc* conv = nullptr;
  for (size_t i = 0; i < j; ++i) {
    OpDesc* op = block->Op(i);
    if (Single(op->Output("Output")) == conv_out) conv = op;
  }
  if (conv == nullptr || (conv->type() != "conv2d" && conv->type() != "depthwise_conv2d")) {
    return false;
  }
  const std::string filter_name = Single(conv->Input("Filter"));
  DenseTensor* filter = Parameter(scope, filter_name);
  DenseTensor* scale = Parameter(scope, Single(bn->Input("Scale")));
  DenseTensor* bias = Parameter(scope, Single(bn->Input("Bias")));
  DenseTensor* mean = Parameter(scope, Single(bn->Input("Mean")));
  DenseTensor* variance = Parameter(scope, Single(bn->Input("Variance")));
  if (!filter || !scale || !bias || !mean || !variance || Readers(*program, filter_name) != 1) {
    return false;
  }
  const DataType dtype = filter->dtype();
  const int64_t channels = filter->dims().size() > 0 ? filter->dims()[0] : -1;
  for (const DenseTensor* t : {scale, bias, mean, variance}) {
    if (t->dtype() != dtype || t->numel() != channels) return false;
  }
  if (dtype != DataType::FLOAT32 && dtype != DataType::FLOAT64) return false;
  const ProtoAttr* eps_attr = bn->FindAttr("epsilon");
  const double epsilon = eps_attr ? eps_attr->f() : 1e-5;
  const std::string layout = StringAttr(*bn, "data_layout", "NCHW");
  const bool channels_last = layout == "NHWC";

  // The folded bias broadcasts against the convolution's output on its channel axis.
  const std::string bias_name = conv_out + "@conv_bn_folded_bias";
  std::vector<int64_t> shape =
      channels_last ? std::vector<int64_t>{channels} : std::vector<int64_t>{1, channels, 1, 1};
  VarDesc* bias_desc = block->Var(bias_name);
  bias_desc->set_dtype(dtype);
  bias_desc->set_shape(shape);
  bias_desc->set_persistable(true);
  DenseTensor* folded_bias = scope->Var(bias_name)->tensor();
  folded_bias->Resize(DDim(shape));
  folded_bias->set_dtype(dtype);
  folded_bias->AllocateStorage(CPUPlace());
  if (dtype == DataType::FLOAT32) {
    Fold<float>(filter, *scale, *bias, *mean, *variance, epsilon, folded_bias);
  } else {
    Fold<double>(filter, *scale, *bias, *mean, *variance, epsilon, folded_bias);
  }

  const std::string out = Single(bn->Output("Y"));
  OpDesc* add = block->InsertOp(j);
  add->set_type("elementwise_add");
  add->SetInput("X", {conv_out});
  add->SetInput("Y", {bias_name});
  add->SetOutput("Out", {out});
  SetAttr(add, "axis", Attribute(int32_t{-1}));
  block->RemoveOps(j + 1, j + 2);
  return true;
}

int IntAttr(const OpDesc& op, const std::string& name, int fallback) {
  const ProtoAttr* attr = op.FindAttr(name);
  return attr ? static_cast<int>(attr->i()) : fallback;
}

// The index of the one op of `block` after `from` reading `name` as input `slot`, if that op
// has type `type`; else -1.
int SoleReader(const ProgramDesc& program, const BlockDesc& block, size_t from,
               const std::string& name, const std::string& type, const std::string& slot) {
  if (Readers(program, name) != 1) return -1;
  for (size_t j = from + 1; j < block.OpSize(); ++j) {
    const OpDesc* op = block.Op(j);
    if (op->type() == type && Single(op->Input(slot)) == name) return static_cast<int>(j);
  }
  return -1;
}

// Fuses the matmul at index i of the main block with the bias add (and relu) after it; see
// FuseFc.
bool TryFuseFc(ProgramDesc* program, size_t i, Scope* scope) {
  BlockDesc* block = program->MainBlock();
  const OpDesc* mm = block->Op(i);
  const std::string x = Single(mm->Input("X")), w = Single(mm->Input("Y"));
  const std::string mm_out = Single(mm->Output("Out"));
  if (x.empty() || w.empty() || mm_out.empty()) return false;
  int k = 0;
  if (mm->type() == "matmul_v2") {
    const VarDesc* x_desc = block->FindVarRecursive(x);
    if (!x_desc || BoolAttr(*mm, "trans_x") || BoolAttr(*mm, "trans_y")) return false;
    k = static_cast<int>(x_desc->shape().size()) - 1;
  } else if (mm->type() == "mul") {
    if (IntAttr(*mm, "y_num_col_dims", 1) != 1) return false;
    k = IntAttr(*mm, "x_num_col_dims", 1);
  } else {
    return false;
  }
  const DenseTensor* weight = Parameter(scope, w);
  if (k < 1 || !weight || weight->dims().size() != 2) return false;
  const DataType dtype = weight->dtype();
  if (dtype != DataType::FLOAT32 && dtype != DataType::FLOAT64) return false;
  const int add = SoleReader(*program, *block, i, mm_out, "elementwise_add", "X");
  if (add < 0) return false;
  const OpDesc* add_op = block->Op(add);
  const std::string bias = Single(add_op->Input("Y"));
  const DenseTensor* bias_tensor = Parameter(scope, bias);
  const int axis = IntAttr(*add_op, "axis", -1);
  if (!bias_tensor || bias_tensor->dtype() != dtype || (axis != -1 && axis != k) ||
      bias_tensor->dims().size() != 1 || bias_tensor->numel() != weight->dims()[1]) {
    return false;
  }
  std::string out = Single(add_op->Output("Out"));
  const int relu = SoleReader(*program, *block, add, out, "relu", "X");
  if (relu >= 0) {
    out = Single(block->Op(relu)->Output("Out"));
    block->RemoveOps(relu, relu + 1);
  }
  OpDesc* fc = block->InsertOp(add);
  fc->set_type("fc");
  fc->SetInput("Input", {x});
  fc->SetInput("W", {w});
  fc->SetInput("Bias", {bias});
  fc->SetOutput("Out", {out});
  SetAttr(fc, "in_num_col_dims", Attribute(int32_t{k}));
  SetAttr(fc, "activation_type", Attribute(std::string(relu >= 0 ? "relu" : "")));
  SetAttr(fc, "padding_weights", Attribute(false));
  block->RemoveOps(add + 1, add + 2);
  block->RemoveOps(i, i + 1);
  return true;
}

// Whether an op of `block` in [from, to) writes one of `names`.
bool WrittenBetween(const BlockDesc& block, size_t from, size_t to,
                    const std::vector<std::string>& names) {
  for (size_t k = from; k < to; ++k) {
    for (const std::string& out : block.Op(k)->OutputNames()) {
      if (std::find(names.begin(), names.end(), out) != names.end()) return true;
    }
  }
  return false;
}

// The index of the op of `block` before `before` that last writes `name`, or -1.
int Writer(const BlockDesc& block, int before, const std::string& name) {
  for (int k = before - 1; k >= 0; --k) {
    for (const std::string& out : block.Op(k)->OutputNames()) {
      if (out == name) return k;
    }
  }
  return -1;
}

// Whether `bias` (C values) broadcasts onto the channel axis of a conv output in an
// elementwise_add with `axis`.
bool OnChannelAxis(const DenseTensor& bias, int64_t channels, int axis, bool channels_last) {
  const DDim& d = bias.dims();
  if (bias.numel() != channels) return false;
  if (d.size() == 1) return channels_last ? (axis == -1 || axis == 3) : axis == 1;
  if (d.size() != 4 || (axis != -1 && axis != 0)) return false;
  return d[channels_last ? 3 : 1] == channels;
}

// Fuses the convolution at index i of the main block with the bias add, residual add and
// activation after it; see FuseConvAddActivation.
bool TryFuseConv(ProgramDesc* program, size_t i, Scope* scope) {
  BlockDesc* block = program->MainBlock();
  const OpDesc* conv = block->Op(i);
  if (conv->type() != "conv2d" && conv->type() != "depthwise_conv2d") return false;
  const std::string input = Single(conv->Input("Input")), filter = Single(conv->Input("Filter"));
  const std::string conv_out = Single(conv->Output("Output"));
  const DenseTensor* weights = Parameter(scope, filter);
  if (input.empty() || conv_out.empty() || !weights || weights->dims().size() != 4) return false;
  const DataType dtype = weights->dtype();
  if (dtype != DataType::FLOAT32 && dtype != DataType::FLOAT64) return false;
  const bool channels_last = StringAttr(*conv, "data_format", "NCHW") == "NHWC";

  const int add = SoleReader(*program, *block, i, conv_out, "elementwise_add", "X");
  if (add < 0) return false;
  const OpDesc* add_op = block->Op(add);
  std::string bias = Single(add_op->Input("Y"));
  const int64_t channels = weights->dims()[0];
  const DenseTensor* bias_tensor = Parameter(scope, bias);
  std::vector<int> chain{static_cast<int>(i), add};
  if (bias_tensor == nullptr) {
    // This framework's F.conv2d adds its bias reshaped to [1, C, 1, 1]: take the parameter.
    const int reshape = Writer(*block, add, bias);
    if (reshape < 0 || Readers(*program, bias) != 1) return false;
    const OpDesc* reshape_op = block->Op(reshape);
    const std::string source = Single(reshape_op->Input("X"));
    bias_tensor = Parameter(scope, source);
    if ((reshape_op->type() != "reshape2" && reshape_op->type() != "reshape") || !bias_tensor ||
        bias_tensor->dims().size() != 1 || channels_last) {
      return false;
    }
    bias = source;
    chain.push_back(reshape);
  } else if (!OnChannelAxis(*bias_tensor, channels, IntAttr(*add_op, "axis", -1), channels_last)) {
    return false;
  }
  if (bias_tensor->dtype() != dtype || bias_tensor->numel() != channels) return false;
  int last = add;
  std::string out = Single(add_op->Output("Out"));

  // A residual: the other operand of an add whose operands have the same static shape.
  std::string residual;
  int sum = SoleReader(*program, *block, last, out, "elementwise_add", "X");
  if (sum < 0) sum = SoleReader(*program, *block, last, out, "elementwise_add", "Y");
  if (sum >= 0) {
    const OpDesc* sum_op = block->Op(sum);
    const std::string x = Single(sum_op->Input("X")), y = Single(sum_op->Input("Y"));
    const std::string other = x == out ? y : x;
    const VarDesc* out_desc = block->FindVarRecursive(out);
    const VarDesc* other_desc = block->FindVarRecursive(other);
    if (!other.empty() && other != out && out_desc && other_desc &&
        other_desc->shape() == out_desc->shape() && other_desc->dtype() == out_desc->dtype() &&
        Parameter(scope, other) == nullptr) {
      residual = other;
      chain.push_back(sum);
      last = sum;
      out = Single(sum_op->Output("Out"));
    }
  }

  std::string activation = "identity";
  for (const char* type : {"relu", "relu6", "sigmoid", "tanh"}) {
    const int act = SoleReader(*program, *block, last, out, type, "X");
    if (act < 0) continue;
    const ProtoAttr* threshold = block->Op(act)->FindAttr("threshold");
    if (std::string(type) == "relu6" && threshold && threshold->f() != 6.0f) break;
    activation = type;
    chain.push_back(act);
    last = act;
    out = Single(block->Op(act)->Output("Out"));
    break;
  }
  if (out.empty()) return false;
  // The fused op runs where the last op of the chain ran: what the convolution and the residual
  // add read must still hold the same values there.
  if (WrittenBetween(*block, i + 1, last, {input, filter, bias}) ||
      (!residual.empty() && WrittenBetween(*block, sum + 1, last, {residual}))) {
    return false;
  }

  OpDesc* fused = block->InsertOp(last + 1);
  fused->set_type("fused_conv2d_add_act");
  fused->SetInput("Input", {input});
  fused->SetInput("Filter", {filter});
  fused->SetInput("Bias", {bias});
  if (!residual.empty()) fused->SetInput("ResidualData", {residual});
  fused->SetOutput("Output", {out});
  fused->SetOutput("Outputs", {});
  for (const char* name :
       {"strides", "paddings", "dilations", "groups", "padding_algorithm", "data_format"}) {
    if (const ProtoAttr* attr = conv->FindAttr(name)) fused->SetAttr(*attr);
  }
  SetAttr(fused, "activation", Attribute(activation));
  SetAttr(fused, "split_channels", Attribute(std::vector<int32_t>{}));
  SetAttr(fused, "exhaustive_search", Attribute(false));
  SetAttr(fused, "workspace_size_MB", Attribute(int32_t{512}));
  SetAttr(fused, "fuse_alpha", Attribute(0.0f));
  // From the last, so that each index still names its op.
  std::sort(chain.rbegin(), chain.rend());
  chain.erase(std::unique(chain.begin(), chain.end()), chain.end());
  for (int index : chain) block->RemoveOps(index, index + 1);
  return true;
}

// Fuses the elementwise_add or elementwise_mul at index i of the main block with the activation
// that alone reads its result; see FuseElementwiseActivation.
bool TryFuseActivation(ProgramDesc* program, size_t i) {
  BlockDesc* block = program->MainBlock();
  const OpDesc* op = block->Op(i);
  if (op->type() != "elementwise_add" && op->type() != "elementwise_mul") return false;
  const std::string x = Single(op->Input("X")), y = Single(op->Input("Y"));
  const std::string sum = Single(op->Output("Out"));
  if (x.empty() || y.empty() || sum.empty()) return false;
  int act = -1;
  std::string act_type;
  for (const char* type : {"relu", "tanh", "sigmoid"}) {
    act = SoleReader(*program, *block, i, sum, type, "X");
    if (act >= 0) {
      act_type = type;
      break;
    }
  }
  if (act < 0) return false;
  const std::string out = Single(block->Op(act)->Output("Out"));
  const int axis = IntAttr(*op, "axis", -1);
  OpDesc* fused = block->InsertOp(act);
  fused->set_type("fused_elemwise_activation");
  fused->SetInput("X", {x});
  fused->SetInput("Y", {y});
  fused->SetOutput("Out", {out});
  SetAttr(fused, "functor_list", Attribute(std::vector<std::string>{act_type, op->type()}));
  SetAttr(fused, "axis", Attribute(int32_t{axis}));
  SetAttr(fused, "scale", Attribute(0.0f));
  SetAttr(fused, "save_intermediate_out", Attribute(false));
  block->RemoveOps(act + 1, act + 2);
  block->RemoveOps(i, i + 1);
  return true;
}

// Whether `op` is a fused convolution whose tensors can hold oneDNN's blocked layout.
bool BlockableConv(const BlockDesc& block, const OpDesc& op) {
  if (op.type() != "fused_conv2d_add_act" || StringAttr(op, "data_format", "NCHW") != "NCHW" ||
      IntAttr(op, "groups", 1) != 1) {
    return false;
  }
  const ProtoAttr* split = op.FindAttr("split_channels");
  if (split && split->ints_size() > 0) return false;
  const VarDesc* filter = block.FindVarRecursive(Single(op.Input("Filter")));
  if (!filter || filter->dtype() != DataType::FLOAT32) return false;
  const std::vector<int64_t> shape = filter->shape();
  // Its output's channels; an input it reads blocked has as many (its producer's output).
  return shape.size() == 4 && shape[0] > 0 && shape[0] % 16 == 0;
}

}  // namespace

int RemoveDropout(ProgramDesc* program) {
  int rewritten = 0;
  for (size_t b = 0; b < program->Size(); ++b) {
    BlockDesc* block = program->Block(b);
    for (size_t i = 0; i < block->OpSize(); ++i) {
      OpDesc* op = block->Op(i);
      if (op->HasAttr("is_test") && !BoolAttr(*op, "is_test")) {
        SetAttr(op, "is_test", Attribute(true));
        ++rewritten;
      }
    }
  }
  BlockDesc* block = program->MainBlock();
  for (size_t i = 0; i < block->OpSize();) {
    OpDesc* op = block->Op(i);
    const std::string x = Single(op->Input("X")), out = Single(op->Output("Out"));
    if (op->type() != "dropout" || x.empty() || out.empty() || x == out) {
      ++i;
      continue;
    }
    // A result nothing reads is a model output: it keeps its name through a scale by 1.
    const bool identity =
        StringAttr(*op, "dropout_implementation", "upscale_in_train") == "upscale_in_train";
    if (identity && Readers(*program, out) > 0) {
      // The identity: the readers of out read x instead.
      for (size_t b = 0; b < program->Size(); ++b) {
        for (const auto& reader : program->Block(b)->ops()) reader->RenameInput(out, x);
      }
      block->RemoveOps(i, i + 1);
    } else {
      const ProtoAttr* p = op->FindAttr("dropout_prob");
      const float keep = identity ? 1.0f : 1.0f - (p ? p->f() : 0.5f);
      OpDesc* scale = block->InsertOp(i);
      scale->set_type("scale");
      scale->SetInput("X", {x});
      scale->SetOutput("Out", {out});
      SetAttr(scale, "scale", Attribute(keep));
      SetAttr(scale, "bias", Attribute(0.0f));
      SetAttr(scale, "bias_after_scale", Attribute(true));
      block->RemoveOps(i + 1, i + 2);
      ++i;
    }
    ++rewritten;
  }
  return rewritten;
}

int FoldConvBatchNorm(ProgramDesc* program, Scope* scope) {
  int folded = 0;
  BlockDesc* block = program->MainBlock();
  for (size_t j = 0; j < block->OpSize(); ++j) folded += TryFold(program, block, j, scope);
  return folded;
}

int FuseConvAddActivation(ProgramDesc* program, Scope* scope) {
  int fused = 0;
  for (size_t i = 0; i < program->MainBlock()->OpSize();) {
    if (TryFuseConv(program, i, scope)) {
      ++fused;  // the convolution at i is gone: look at what follows it now
    } else {
      ++i;
    }
  }
  return fused;
}

int FuseFc(ProgramDesc* program, Scope* scope) {
  int fused = 0;
  for (size_t i = 0; i < program->MainBlock()->OpSize();) {
    if (TryFuseFc(program, i, scope)) {
      ++fused;  // the matmul at i is gone: look at what follows it now
    } else {
      ++i;
    }
  }
  return fused;
}

int FuseElementwiseActivation(ProgramDesc* program) {
  int fused = 0;
  for (size_t i = 0; i < program->MainBlock()->OpSize();) {
    if (TryFuseActivation(program, i)) {
      ++fused;
    } else {
      ++i;
    }
  }
  return fused;
}

int KeepConvOutputsBlocked(ProgramDesc* program, const std::vector<std::string>& outputs) {
  BlockDesc* block = program->MainBlock();
  int kept = 0;
  for (size_t i = 0; i < block->OpSize(); ++i) {
    OpDesc* producer = block->Op(i);
    if (!BlockableConv(*block, *producer)) continue;
    const std::string out = Single(producer->Output("Output"));
    if (out.empty() || std::find(outputs.begin(), outputs.end(), out) != outputs.end()) continue;
    std::vector<OpDesc*> readers;
    bool blockable = Readers(*program, out) > 0;
    for (size_t j = i + 1; blockable && j < block->OpSize(); ++j) {
      OpDesc* op = block->Op(j);
      const std::vector<std::string> inputs = op->InputNames();
      const int uses = static_cast<int>(std::count(inputs.begin(), inputs.end(), out));
      if (uses == 0) continue;
      const int data_uses =
          (Single(op->Input("Input")) == out) + (Single(op->Input("ResidualData")) == out);
      blockable = BlockableConv(*block, *op) && uses == data_uses;
      readers.push_back(op);
    }
    // Readers in other blocks (control flow) are not in `readers`: their count differs.
    int counted = 0;
    for (const OpDesc* op : readers) {
      const std::vector<std::string> inputs = op->InputNames();
      counted += static_cast<int>(std::count(inputs.begin(), inputs.end(), out));
    }
    if (!blockable || counted != Readers(*program, out)) continue;
    SetAttr(producer, "onednn_blocked_output", Attribute(true));
    for (OpDesc* op : readers) {
      if (Single(op->Input("Input")) == out) SetAttr(op, "onednn_blocked_input", Attribute(true));
      if (Single(op->Input("ResidualData")) == out) {
        SetAttr(op, "onednn_blocked_residual", Attribute(true));
      }
    }
    ++kept;
  }
  return kept;
}

std::vector<std::pair<std::string, int>> ApplyInferencePasses(
    ProgramDesc* program, Scope* scope, const std::vector<std::string>& outputs) {
  std::vector<std::pair<std::string, int>> applied;
  applied.emplace_back("remove_dropout", RemoveDropout(program));
  applied.emplace_back("fold_conv_batch_norm", FoldConvBatchNorm(program, scope));
  applied.emplace_back("fuse_conv_add_activation", FuseConvAddActivation(program, scope));
  applied.emplace_back("fuse_fc", FuseFc(program, scope));
  applied.emplace_back("fuse_elementwise_activation", FuseElementwiseActivation(program));
  applied.emplace_back("keep_conv_outputs_blocked", KeepConvOutputsBlocked(program, outputs));
  return applied;
}

}  // namespace paddle::framework
