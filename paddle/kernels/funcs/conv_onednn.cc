// float convolutions on oneDNN. A primitive either lets oneDNN choose the layouts of the data
// (`any`: for most shapes a blocked layout such as nChw16c, whose kernels run about 1.5-2x
// faster than those on the plain layout even with the reorders around them) or takes the
// user's NCHW/NHWC layout as it is. The blocked layouts win clearly wherever the kernel is
// larger than 1x1; for 1x1 kernels, which oneDNN runs as a GEMM on the plain layout, it depends
// on the shape and the CPU, so the first call of each such shape times one forward pass both
// ways and keeps the faster (ChooseConvLayout). Primitives, reorders and those choices are cached
// by shape (onednn_context.h); scratch buffers for reordered tensors come from the CPU allocator.
// Geometries with a zero-size dim run on the im2col path, which oneDNN's checks would reject.
//
// bfloat16 convolutions run on oneDNN's bf16 kernels (bf16 operands, float32 accumulation, each
// result rounded once) where the CPU has native bf16 dot products, always in the layout oneDNN
// chooses; elsewhere oneDNN would emulate them more slowly than the float path, so they convert
// to float32, run that, and round the result (the same arithmetic).
#include <chrono>
#include <cstring>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/common/place.h"
#include "paddle/kernels/funcs/bf16_gemm_onednn.h"
#include "paddle/kernels/funcs/conv_compute.h"
#include "paddle/kernels/funcs/conv_onednn.h"
#include "paddle/kernels/funcs/onednn_context.h"
#include "paddle/memory/malloc.h"

namespace paddle::funcs {

namespace {

using Tag = dnnl::memory::format_tag;
using DataType = dnnl::memory::data_type;

template <typename T>
constexpr DataType kDataType = std::is_same_v<T, float> ? DataType::f32 : DataType::bf16;

dnnl::memory::dims Dims(const std::vector<int64_t>& v) {
  return dnnl::memory::dims(v.begin(), v.end());
}

dnnl::memory::dims DataDims(const ConvGeometry& g, int64_t channels,
                            const std::vector<int64_t>& size) {
  dnnl::memory::dims d{g.batch, channels};
  d.insert(d.end(), size.begin(), size.end());
  return d;
}

Tag DataTag(const ConvGeometry& g) {
  static const Tag first[] = {Tag::ncw, Tag::nchw, Tag::ncdhw};
  static const Tag last[] = {Tag::nwc, Tag::nhwc, Tag::ndhwc};
  return (g.channels_last ? last : first)[g.spatial_rank() - 1];
}

dnnl::memory::desc FilterDesc(const ConvGeometry& g, bool user, DataType type = DataType::f32) {
  dnnl::memory::dims d;
  if (g.groups > 1) d.push_back(g.groups);
  d.push_back(g.out_channels / g.groups);
  d.push_back(g.in_channels / g.groups);
  d.insert(d.end(), g.filter.begin(), g.filter.end());
  static const Tag plain[] = {Tag::oiw, Tag::oihw, Tag::oidhw};
  static const Tag grouped[] = {Tag::goiw, Tag::goihw, Tag::goidhw};
  Tag tag = user ? (g.groups > 1 ? grouped : plain)[g.spatial_rank() - 1] : Tag::any;
  return dnnl::memory::desc(d, type, tag);
}

// The data descs a primitive is created with (`user` false) or the user's tensors have (true).
dnnl::memory::desc InputDesc(const ConvGeometry& g, bool user,
                             ConvLayout layout = ConvLayout::kUser, DataType type = DataType::f32) {
  Tag tag = user || layout == ConvLayout::kUser ? DataTag(g) : Tag::any;
  return dnnl::memory::desc(DataDims(g, g.in_channels, g.input), type, tag);
}

dnnl::memory::desc OutputDesc(const ConvGeometry& g, bool user,
                              ConvLayout layout = ConvLayout::kUser,
                              DataType type = DataType::f32) {
  Tag tag = user || layout == ConvLayout::kUser ? DataTag(g) : Tag::any;
  return dnnl::memory::desc(DataDims(g, g.out_channels, g.output), type, tag);
}

struct Window {
  dnnl::memory::dims strides, dilations, pad_l, pad_r;
  explicit Window(const ConvGeometry& g)
      : strides(Dims(g.strides)), pad_l(Dims(g.pad_before)), pad_r(Dims(g.pad_after)) {
    for (int64_t d : g.dilations) dilations.push_back(d - 1);  // oneDNN counts the gaps
  }
};

std::string Key(const char* kind, const ConvGeometry& g) {
  std::string key = kind;
  auto add = [&key](int64_t v) { key += ',' + std::to_string(v); };
  add(g.channels_last);
  add(g.batch);
  add(g.in_channels);
  add(g.out_channels);
  add(g.groups);
  for (const auto* v :
       {&g.input, &g.filter, &g.output, &g.strides, &g.dilations, &g.pad_before, &g.pad_after}) {
    key += ';';
    for (int64_t x : *v) add(x);
  }
  return key;
}

bool Empty(const ConvGeometry& g) {
  int64_t n = g.batch * g.in_channels * g.out_channels;
  for (int64_t s : g.input) n *= s;
  for (int64_t s : g.output) n *= s;
  return n == 0;
}

dnnl::convolution_forward::primitive_desc ForwardDesc(const ConvGeometry& g, ConvLayout layout,
                                                      DataType type = DataType::f32) {
  Window w(g);
  dnnl::convolution_forward::desc desc(
      dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct,
      InputDesc(g, false, layout, type), FilterDesc(g, false, type),
      OutputDesc(g, false, layout, type), w.strides, w.dilations, w.pad_l, w.pad_r);
  return {desc, onednn::WithUserScratchpad(), onednn::CpuEngine()};
}

dnnl::memory::desc BiasDesc(const ConvGeometry& g) {
  return dnnl::memory::desc({g.out_channels}, dnnl::memory::data_type::f32, Tag::x);
}

// The epilogue's part of a forward primitive's key: which operands it has and its activation.
std::string EpilogueKey(const ConvEpilogue<float>* e) {
  if (e == nullptr) return "";
  return ";epilogue," + std::to_string(e->bias != nullptr) + "," +
         std::to_string(e->residual != nullptr) + "," +
         std::to_string(static_cast<int>(e->activation)) + "," + std::to_string(e->alpha);
}

// The residual as a sum post-op (added to what dst holds), then the activation as an eltwise one.
dnnl::primitive_attr EpilogueAttr(const ConvEpilogue<float>& e) {
  dnnl::post_ops ops;
  if (e.residual) ops.append_sum(1.0f);
  using Alg = dnnl::algorithm;
  switch (e.activation) {
    case ConvActivation::kIdentity:
      break;
    case ConvActivation::kRelu:
      ops.append_eltwise(1.0f, Alg::eltwise_relu, 0.0f, 0.0f);
      break;
    case ConvActivation::kRelu6:
      ops.append_eltwise(1.0f, Alg::eltwise_clip, 0.0f, 6.0f);
      break;
    case ConvActivation::kReluX:
      ops.append_eltwise(1.0f, Alg::eltwise_clip, 0.0f, e.alpha);
      break;
    case ConvActivation::kSigmoid:
      ops.append_eltwise(1.0f, Alg::eltwise_logistic, 0.0f, 0.0f);
      break;
    case ConvActivation::kTanh:
      ops.append_eltwise(1.0f, Alg::eltwise_tanh, 0.0f, 0.0f);
      break;
  }
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  return attr;
}

// forward_training like the plain convolutions: for forward_inference oneDNN 2.6 picks brgemm
// kernels on NHWC, whose reorders from and to NCHW cost more than the kernels save (measured on
// ResNet-50).
dnnl::convolution_forward::primitive_desc FusedForwardDesc(const ConvGeometry& g,
                                                           const dnnl::memory::desc& src,
                                                           const dnnl::memory::desc& dst,
                                                           const ConvEpilogue<float>& e) {
  Window w(g);
  const dnnl::memory::desc weights = FilterDesc(g, false);
  auto desc = e.bias ? dnnl::convolution_forward::desc(
                           dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct,
                           src, weights, BiasDesc(g), dst, w.strides, w.dilations, w.pad_l, w.pad_r)
                     : dnnl::convolution_forward::desc(
                           dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct,
                           src, weights, dst, w.strides, w.dilations, w.pad_l, w.pad_r);
  return {desc, onednn::WithUserScratchpad(EpilogueAttr(e)), onednn::CpuEngine()};
}

// The blocked layout of ConvBlockedOperands: channels in blocks of the vector width.
dnnl::memory::desc BlockedDesc(const ConvGeometry& g, int64_t channels,
                               const std::vector<int64_t>& size) {
  static const bool wide = dnnl::get_effective_cpu_isa() >= dnnl::cpu_isa::avx512_core;
  static const Tag by16[] = {Tag::nCw16c, Tag::nChw16c, Tag::nCdhw16c};
  static const Tag by8[] = {Tag::nCw8c, Tag::nChw8c, Tag::nCdhw8c};
  return dnnl::memory::desc(DataDims(g, channels, size), dnnl::memory::data_type::f32,
                            (wide ? by16 : by8)[g.spatial_rank() - 1]);
}

std::string BlockedKey(const ConvBlockedOperands& b) {
  if (!b.any()) return "";
  return ";blocked," + std::to_string(b.input) + std::to_string(b.residual) +
         std::to_string(b.output);
}

struct ForwardEntry {
  dnnl::convolution_forward::primitive_desc desc;
  dnnl::convolution_forward primitive;
};

std::string Key(const char* kind, const ConvGeometry& g, ConvLayout layout,
                DataType type = DataType::f32) {
  return Key(kind, g) + (layout == ConvLayout::kUser ? ";user" : ";chosen") +
         (type == DataType::f32 ? "" : ";bf16");
}

struct BackwardDataEntry {
  dnnl::convolution_backward_data::primitive_desc desc;
  dnnl::convolution_backward_data primitive;
};

struct BackwardFilterEntry {
  dnnl::convolution_backward_weights::primitive_desc desc;
  dnnl::convolution_backward_weights primitive;
};

template <typename T>
dnnl::memory User(const dnnl::memory::desc& desc, const T* data) {
  return dnnl::memory(desc, onednn::CpuEngine(), const_cast<T*>(data));
}

// bfloat16 through the float path, on CPUs without native bf16 dot products: the operands
// widened, the result rounded.
std::vector<float> Widened(const bfloat16* data, int64_t numel) {
  std::vector<float> wide(static_cast<size_t>(numel));
  for (int64_t i = 0; i < numel; ++i) wide[i] = static_cast<float>(data[i]);
  return wide;
}

void Narrow(const std::vector<float>& wide, bfloat16* data) {
  for (size_t i = 0; i < wide.size(); ++i) data[i] = static_cast<bfloat16>(wide[i]);
}

}  // namespace

void OneDnnConvForward(const ConvGeometry& g, ConvLayout layout, const float* input,
                       const float* filter, float* output, const ConvEpilogue<float>* epilogue,
                       const ConvBlockedOperands& blocked) {
  PD_INTERNAL_ASSERT(!blocked.any() || (epilogue && layout == ConvLayout::kOneDnnChoice),
                     "blocked operands are for fused convolutions in oneDNN's layout");
  // On the user layout oneDNN runs a GEMM and then applies post-ops in a slow pass of its own:
  // ApplyConvEpilogue afterwards is faster.
  const ConvEpilogue<float>* post_ops = layout == ConvLayout::kOneDnnChoice ? epilogue : nullptr;
  const dnnl::memory::desc user_src =
      blocked.input ? BlockedDesc(g, g.in_channels, g.input) : InputDesc(g, true);
  const dnnl::memory::desc user_dst =
      blocked.output ? BlockedDesc(g, g.out_channels, g.output) : OutputDesc(g, true);
  auto entry = onednn::Cached<ForwardEntry>(
      Key("conv_fwd", g, layout) + EpilogueKey(post_ops) + BlockedKey(blocked), [&] {
        auto pd = post_ops
                      ? FusedForwardDesc(g, blocked.input ? user_src : InputDesc(g, false, layout),
                                         blocked.output ? user_dst : OutputDesc(g, false, layout),
                                         *post_ops)
                      : ForwardDesc(g, layout);
        return std::make_shared<ForwardEntry>(ForwardEntry{pd, dnnl::convolution_forward(pd)});
      });
  paddle::memory::AllocationPtr src_scratch, filter_scratch, dst_scratch;
  dnnl::memory src = onednn::Reordered(User(user_src, input), entry->desc.src_desc(), &src_scratch);
  dnnl::memory weights = onednn::ReorderedWeights(User(FilterDesc(g, true), filter),
                                                  entry->desc.weights_desc(), &filter_scratch);
  dnnl::memory user_out = User(user_dst, output);
  dnnl::memory dst = onednn::OutputIn(user_out, entry->desc.dst_desc(), &dst_scratch);
  std::unordered_map<int, dnnl::memory> args{
      {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}};
  if (post_ops && post_ops->bias) args[DNNL_ARG_BIAS] = User(BiasDesc(g), post_ops->bias);
  // The sum post-op adds what dst holds when the primitive starts: the residual, in dst's layout.
  if (post_ops && post_ops->residual && post_ops->residual != output) {
    const dnnl::memory::desc residual_desc =
        blocked.residual ? BlockedDesc(g, g.out_channels, g.output) : OutputDesc(g, true);
    onednn::Reorder(User(residual_desc, post_ops->residual), dst);
  }
  onednn::Execute(entry->primitive, entry->desc.scratchpad_desc(), args);
  onednn::CopyBack(dst, user_out);
  onednn::ThreadStream().wait();
  if (epilogue && !post_ops) ApplyConvEpilogue(g, *epilogue, output);
}

// The layout every primitive of geometry g works on. Only 1x1 kernels are timed (see the top of
// the file): a forward pass each way on scratch data, after one untimed pass that compiles it.
// With an epilogue the fused primitives are timed: oneDNN's GEMM-based convolution (the user
// layout) applies post-ops in a slower separate pass than its blocked kernels do.
ConvLayout ChooseConvLayout(const ConvGeometry& g, const ConvEpilogue<float>* epilogue) {
  for (int64_t k : g.filter) {
    if (k != 1) return ConvLayout::kOneDnnChoice;
  }
  auto choice = onednn::Cached<ConvLayout>(Key("conv_layout", g) + EpilogueKey(epilogue), [&] {
    auto buffer = [](int64_t numel) {
      auto made = paddle::memory::AllocUnique(CPUPlace(), numel * sizeof(float));
      std::memset(made->ptr(), 0, made->size());
      return made;
    };
    auto x = buffer(g.InputDims().numel()), w = buffer(g.FilterDims().numel());
    auto y = buffer(g.OutputDims().numel()), residual = buffer(g.OutputDims().numel());
    auto bias = buffer(g.out_channels);
    ConvEpilogue<float> scratch_epilogue;
    if (epilogue) {
      scratch_epilogue = *epilogue;
      if (epilogue->bias) scratch_epilogue.bias = static_cast<float*>(bias->ptr());
      if (epilogue->residual) scratch_epilogue.residual = static_cast<float*>(residual->ptr());
    }
    auto seconds = [&](ConvLayout layout) {
      auto run = [&] {
        OneDnnConvForward(g, layout, static_cast<float*>(x->ptr()), static_cast<float*>(w->ptr()),
                          static_cast<float*>(y->ptr()), epilogue ? &scratch_epilogue : nullptr);
      };
      run();
      auto start = std::chrono::steady_clock::now();
      run();
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    const double chosen = seconds(ConvLayout::kOneDnnChoice);
    const double user = seconds(ConvLayout::kUser);
    return std::make_shared<ConvLayout>(user < chosen ? ConvLayout::kUser
                                                      : ConvLayout::kOneDnnChoice);
  });
  return *choice;
}

template <typename T>
void OneDnnConvBackwardData(const ConvGeometry& g, ConvLayout layout, const T* out_grad,
                            const T* filter, T* input_grad) {
  constexpr DataType type = kDataType<T>;
  auto entry = onednn::Cached<BackwardDataEntry>(Key("conv_bwd_data", g, layout, type), [&] {
    Window w(g);
    dnnl::convolution_backward_data::desc desc(
        dnnl::algorithm::convolution_direct, InputDesc(g, false, layout, type),
        FilterDesc(g, false, type), OutputDesc(g, false, layout, type), w.strides, w.dilations,
        w.pad_l, w.pad_r);
    dnnl::convolution_backward_data::primitive_desc pd(
        desc, onednn::WithUserScratchpad(), onednn::CpuEngine(), ForwardDesc(g, layout, type));
    return std::make_shared<BackwardDataEntry>(
        BackwardDataEntry{pd, dnnl::convolution_backward_data(pd)});
  });
  paddle::memory::AllocationPtr dst_scratch, filter_scratch, src_scratch;
  dnnl::memory diff_dst = onednn::Reordered(User(OutputDesc(g, true, layout, type), out_grad),
                                            entry->desc.diff_dst_desc(), &dst_scratch);
  dnnl::memory weights = onednn::Reordered(User(FilterDesc(g, true, type), filter),
                                           entry->desc.weights_desc(), &filter_scratch);
  dnnl::memory user_diff_src = User(InputDesc(g, true, layout, type), input_grad);
  dnnl::memory diff_src =
      onednn::OutputIn(user_diff_src, entry->desc.diff_src_desc(), &src_scratch);
  onednn::Execute(
      entry->primitive, entry->desc.scratchpad_desc(),
      {{DNNL_ARG_DIFF_DST, diff_dst}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DIFF_SRC, diff_src}});
  onednn::CopyBack(diff_src, user_diff_src);
  onednn::ThreadStream().wait();
}

template <typename T>
void OneDnnConvBackwardFilter(const ConvGeometry& g, ConvLayout layout, const T* input,
                              const T* out_grad, T* filter_grad) {
  constexpr DataType type = kDataType<T>;
  auto entry = onednn::Cached<BackwardFilterEntry>(Key("conv_bwd_filter", g, layout, type), [&] {
    Window w(g);
    dnnl::convolution_backward_weights::desc desc(
        dnnl::algorithm::convolution_direct, InputDesc(g, false, layout, type),
        FilterDesc(g, false, type), OutputDesc(g, false, layout, type), w.strides, w.dilations,
        w.pad_l, w.pad_r);
    dnnl::convolution_backward_weights::primitive_desc pd(
        desc, onednn::WithUserScratchpad(), onednn::CpuEngine(), ForwardDesc(g, layout, type));
    return std::make_shared<BackwardFilterEntry>(
        BackwardFilterEntry{pd, dnnl::convolution_backward_weights(pd)});
  });
  paddle::memory::AllocationPtr src_scratch, dst_scratch, filter_scratch;
  dnnl::memory src = onednn::Reordered(User(InputDesc(g, true, layout, type), input),
                                       entry->desc.src_desc(), &src_scratch);
  dnnl::memory diff_dst = onednn::Reordered(User(OutputDesc(g, true, layout, type), out_grad),
                                            entry->desc.diff_dst_desc(), &dst_scratch);
  dnnl::memory user_diff_weights = User(FilterDesc(g, true, type), filter_grad);
  dnnl::memory diff_weights =
      onednn::OutputIn(user_diff_weights, entry->desc.diff_weights_desc(), &filter_scratch);
  onednn::Execute(
      entry->primitive, entry->desc.scratchpad_desc(),
      {{DNNL_ARG_SRC, src}, {DNNL_ARG_DIFF_DST, diff_dst}, {DNNL_ARG_DIFF_WEIGHTS, diff_weights}});
  onednn::CopyBack(diff_weights, user_diff_weights);
  onednn::ThreadStream().wait();
}

template void OneDnnConvBackwardData<float>(const ConvGeometry&, ConvLayout, const float*,
                                            const float*, float*);
template void OneDnnConvBackwardData<bfloat16>(const ConvGeometry&, ConvLayout, const bfloat16*,
                                               const bfloat16*, bfloat16*);
template void OneDnnConvBackwardFilter<float>(const ConvGeometry&, ConvLayout, const float*,
                                              const float*, float*);
template void OneDnnConvBackwardFilter<bfloat16>(const ConvGeometry&, ConvLayout, const bfloat16*,
                                                 const bfloat16*, bfloat16*);

void OneDnnConvForward(const ConvGeometry& g, ConvLayout layout, const bfloat16* input,
                       const bfloat16* filter, bfloat16* output) {
  constexpr DataType type = DataType::bf16;
  auto entry = onednn::Cached<ForwardEntry>(Key("conv_fwd", g, layout, type), [&] {
    auto pd = ForwardDesc(g, layout, type);
    return std::make_shared<ForwardEntry>(ForwardEntry{pd, dnnl::convolution_forward(pd)});
  });
  paddle::memory::AllocationPtr src_scratch, filter_scratch, dst_scratch;
  dnnl::memory src = onednn::Reordered(User(InputDesc(g, true, layout, type), input),
                                       entry->desc.src_desc(), &src_scratch);
  dnnl::memory weights = onednn::ReorderedWeights(User(FilterDesc(g, true, type), filter),
                                                  entry->desc.weights_desc(), &filter_scratch);
  dnnl::memory user_out = User(OutputDesc(g, true, layout, type), output);
  dnnl::memory dst = onednn::OutputIn(user_out, entry->desc.dst_desc(), &dst_scratch);
  onednn::Execute(entry->primitive, entry->desc.scratchpad_desc(),
                  {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}});
  onednn::CopyBack(dst, user_out);
  onednn::ThreadStream().wait();
}

template <>
void ConvForward<float>(const ConvGeometry& g, const float* input, const float* filter,
                        float* output) {
  if (Empty(g)) return Im2colConvForward(g, input, filter, output);
  OneDnnConvForward(g, ChooseConvLayout(g), input, filter, output);
}

template <>
void FusedConvForward<float>(const ConvGeometry& g, const float* input, const float* filter,
                             const ConvEpilogue<float>& epilogue, float* output,
                             const ConvBlockedOperands& blocked) {
  if (blocked.any()) {
    PD_CHECK(!Empty(g) && (!blocked.input || g.in_channels % 16 == 0) &&
                 (!(blocked.output || blocked.residual) || g.out_channels % 16 == 0),
             errors::InvalidArgument("fused_conv2d_add_act: oneDNN's blocked layout needs "
                                     "channels in multiples of 16 and no zero-size dims, "
                                     "received input ",
                                     g.InputDims().ToString(), " and output ",
                                     g.OutputDims().ToString()));
    return OneDnnConvForward(g, ConvLayout::kOneDnnChoice, input, filter, output, &epilogue,
                             blocked);
  }
  if (Empty(g)) {
    Im2colConvForward(g, input, filter, output);
    return ApplyConvEpilogue(g, epilogue, output);
  }
  OneDnnConvForward(g, ChooseConvLayout(g, &epilogue), input, filter, output, &epilogue);
}

template <>
void ConvBackwardData<float>(const ConvGeometry& g, const float* out_grad, const float* filter,
                             float* input_grad) {
  if (Empty(g)) return Im2colConvBackwardData(g, out_grad, filter, input_grad);
  OneDnnConvBackwardData(g, ChooseConvLayout(g), out_grad, filter, input_grad);
}

template <>
void ConvBackwardFilter<float>(const ConvGeometry& g, const float* input, const float* out_grad,
                               float* filter_grad) {
  if (Empty(g)) return Im2colConvBackwardFilter(g, input, out_grad, filter_grad);
  OneDnnConvBackwardFilter(g, ChooseConvLayout(g), input, out_grad, filter_grad);
}

// bfloat16: oneDNN's bf16 kernels in the layout oneDNN chooses (ChooseConvLayout times float
// primitives) where the CPU has native bf16 dot products; elsewhere, and for geometries with a
// zero-size dim, the float path on widened operands.
template <>
void ConvForward<bfloat16>(const ConvGeometry& g, const bfloat16* input, const bfloat16* filter,
                           bfloat16* output) {
  if (!Empty(g) && Bf16GemmOnOnednn()) {
    return OneDnnConvForward(g, ConvLayout::kOneDnnChoice, input, filter, output);
  }
  std::vector<float> out(static_cast<size_t>(g.OutputDims().numel()));
  ConvForward<float>(g, Widened(input, g.InputDims().numel()).data(),
                     Widened(filter, g.FilterDims().numel()).data(), out.data());
  Narrow(out, output);
}

template <>
void ConvBackwardData<bfloat16>(const ConvGeometry& g, const bfloat16* out_grad,
                                const bfloat16* filter, bfloat16* input_grad) {
  if (!Empty(g) && Bf16GemmOnOnednn()) {
    return OneDnnConvBackwardData(g, ConvLayout::kOneDnnChoice, out_grad, filter, input_grad);
  }
  std::vector<float> dx(static_cast<size_t>(g.InputDims().numel()));
  ConvBackwardData<float>(g, Widened(out_grad, g.OutputDims().numel()).data(),
                          Widened(filter, g.FilterDims().numel()).data(), dx.data());
  Narrow(dx, input_grad);
}

template <>
void ConvBackwardFilter<bfloat16>(const ConvGeometry& g, const bfloat16* input,
                                  const bfloat16* out_grad, bfloat16* filter_grad) {
  if (!Empty(g) && Bf16GemmOnOnednn()) {
    return OneDnnConvBackwardFilter(g, ConvLayout::kOneDnnChoice, input, out_grad, filter_grad);
  }
  std::vector<float> dw(static_cast<size_t>(g.FilterDims().numel()));
  ConvBackwardFilter<float>(g, Widened(input, g.InputDims().numel()).data(),
                            Widened(out_grad, g.OutputDims().numel()).data(), dw.data());
  Narrow(dw, filter_grad);
}

}  // namespace paddle::funcs
