// float convolutions on oneDNN. Each primitive lets oneDNN choose its layouts (`any`): for most
// shapes it picks a blocked layout (nChw16c and the like) whose kernels run about 1.5x faster
// than on the plain layout even with the reorders around them (benchmarks/conv_bench.py). The
// exception is the 1x1, stride-1, unpadded convolution, a plain GEMM that is as fast on the
// user's layout, where the reorders would only cost. Primitives and reorders are cached by shape
// (onednn_context.h); scratch buffers for reordered tensors come from the CPU allocator.
// Geometries with a zero-size dim run on the im2col path, which oneDNN's checks would reject.
#include <string>

#include "paddle/kernels/funcs/conv_compute.h"
#include "paddle/kernels/funcs/onednn_context.h"

namespace paddle::funcs {

namespace {

using Tag = dnnl::memory::format_tag;

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

dnnl::memory::desc FilterDesc(const ConvGeometry& g, bool user) {
  dnnl::memory::dims d;
  if (g.groups > 1) d.push_back(g.groups);
  d.push_back(g.out_channels / g.groups);
  d.push_back(g.in_channels / g.groups);
  d.insert(d.end(), g.filter.begin(), g.filter.end());
  static const Tag plain[] = {Tag::oiw, Tag::oihw, Tag::oidhw};
  static const Tag grouped[] = {Tag::goiw, Tag::goihw, Tag::goidhw};
  Tag tag = user ? (g.groups > 1 ? grouped : plain)[g.spatial_rank() - 1] : Tag::any;
  return dnnl::memory::desc(d, dnnl::memory::data_type::f32, tag);
}

bool PlainGemm(const ConvGeometry& g) {
  for (int i = 0; i < g.spatial_rank(); ++i) {
    if (g.filter[i] != 1 || g.strides[i] != 1 || g.pad_before[i] != 0 || g.pad_after[i] != 0) {
      return false;
    }
  }
  return true;
}

dnnl::memory::desc InputDesc(const ConvGeometry& g, bool user) {
  Tag tag = user || PlainGemm(g) ? DataTag(g) : Tag::any;
  return dnnl::memory::desc(DataDims(g, g.in_channels, g.input), dnnl::memory::data_type::f32, tag);
}

dnnl::memory::desc OutputDesc(const ConvGeometry& g, bool user) {
  Tag tag = user || PlainGemm(g) ? DataTag(g) : Tag::any;
  return dnnl::memory::desc(DataDims(g, g.out_channels, g.output), dnnl::memory::data_type::f32,
                            tag);
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

dnnl::convolution_forward::primitive_desc ForwardDesc(const ConvGeometry& g) {
  Window w(g);
  dnnl::convolution_forward::desc desc(
      dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct, InputDesc(g, false),
      FilterDesc(g, false), OutputDesc(g, false), w.strides, w.dilations, w.pad_l, w.pad_r);
  return {desc, onednn::CpuEngine()};
}

struct ForwardEntry {
  dnnl::convolution_forward::primitive_desc desc;
  dnnl::convolution_forward primitive;
};

struct BackwardDataEntry {
  dnnl::convolution_backward_data::primitive_desc desc;
  dnnl::convolution_backward_data primitive;
};

struct BackwardFilterEntry {
  dnnl::convolution_backward_weights::primitive_desc desc;
  dnnl::convolution_backward_weights primitive;
};

dnnl::memory User(const dnnl::memory::desc& desc, const float* data) {
  return dnnl::memory(desc, onednn::CpuEngine(), const_cast<float*>(data));
}

}  // namespace

template <>
void ConvForward<float>(const ConvGeometry& g, const float* input, const float* filter,
                        float* output) {
  if (Empty(g)) return Im2colConvForward(g, input, filter, output);
  auto entry = onednn::Cached<ForwardEntry>(Key("conv_fwd", g), [&] {
    auto pd = ForwardDesc(g);
    return std::make_shared<ForwardEntry>(ForwardEntry{pd, dnnl::convolution_forward(pd)});
  });
  paddle::memory::AllocationPtr src_scratch, filter_scratch, dst_scratch;
  dnnl::memory src =
      onednn::Reordered(User(InputDesc(g, true), input), entry->desc.src_desc(), &src_scratch);
  dnnl::memory weights = onednn::Reordered(User(FilterDesc(g, true), filter),
                                           entry->desc.weights_desc(), &filter_scratch);
  dnnl::memory user_dst = User(OutputDesc(g, true), output);
  dnnl::memory dst = onednn::OutputIn(user_dst, entry->desc.dst_desc(), &dst_scratch);
  entry->primitive.execute(onednn::ThreadStream(),
                           {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}});
  onednn::CopyBack(dst, user_dst);
  onednn::ThreadStream().wait();
}

template <>
void ConvBackwardData<float>(const ConvGeometry& g, const float* out_grad, const float* filter,
                             float* input_grad) {
  if (Empty(g)) return Im2colConvBackwardData(g, out_grad, filter, input_grad);
  auto entry = onednn::Cached<BackwardDataEntry>(Key("conv_bwd_data", g), [&] {
    Window w(g);
    dnnl::convolution_backward_data::desc desc(
        dnnl::algorithm::convolution_direct, InputDesc(g, false), FilterDesc(g, false),
        OutputDesc(g, false), w.strides, w.dilations, w.pad_l, w.pad_r);
    dnnl::convolution_backward_data::primitive_desc pd(desc, onednn::CpuEngine(), ForwardDesc(g));
    return std::make_shared<BackwardDataEntry>(
        BackwardDataEntry{pd, dnnl::convolution_backward_data(pd)});
  });
  paddle::memory::AllocationPtr dst_scratch, filter_scratch, src_scratch;
  dnnl::memory diff_dst = onednn::Reordered(User(OutputDesc(g, true), out_grad),
                                            entry->desc.diff_dst_desc(), &dst_scratch);
  dnnl::memory weights = onednn::Reordered(User(FilterDesc(g, true), filter),
                                           entry->desc.weights_desc(), &filter_scratch);
  dnnl::memory user_diff_src = User(InputDesc(g, true), input_grad);
  dnnl::memory diff_src =
      onednn::OutputIn(user_diff_src, entry->desc.diff_src_desc(), &src_scratch);
  entry->primitive.execute(
      onednn::ThreadStream(),
      {{DNNL_ARG_DIFF_DST, diff_dst}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DIFF_SRC, diff_src}});
  onednn::CopyBack(diff_src, user_diff_src);
  onednn::ThreadStream().wait();
}

template <>
void ConvBackwardFilter<float>(const ConvGeometry& g, const float* input, const float* out_grad,
                               float* filter_grad) {
  if (Empty(g)) return Im2colConvBackwardFilter(g, input, out_grad, filter_grad);
  auto entry = onednn::Cached<BackwardFilterEntry>(Key("conv_bwd_filter", g), [&] {
    Window w(g);
    dnnl::convolution_backward_weights::desc desc(
        dnnl::algorithm::convolution_direct, InputDesc(g, false), FilterDesc(g, false),
        OutputDesc(g, false), w.strides, w.dilations, w.pad_l, w.pad_r);
    dnnl::convolution_backward_weights::primitive_desc pd(desc, onednn::CpuEngine(),
                                                          ForwardDesc(g));
    return std::make_shared<BackwardFilterEntry>(
        BackwardFilterEntry{pd, dnnl::convolution_backward_weights(pd)});
  });
  paddle::memory::AllocationPtr src_scratch, dst_scratch, filter_scratch;
  dnnl::memory src =
      onednn::Reordered(User(InputDesc(g, true), input), entry->desc.src_desc(), &src_scratch);
  dnnl::memory diff_dst = onednn::Reordered(User(OutputDesc(g, true), out_grad),
                                            entry->desc.diff_dst_desc(), &dst_scratch);
  dnnl::memory user_diff_weights = User(FilterDesc(g, true), filter_grad);
  dnnl::memory diff_weights =
      onednn::OutputIn(user_diff_weights, entry->desc.diff_weights_desc(), &filter_scratch);
  entry->primitive.execute(
      onednn::ThreadStream(),
      {{DNNL_ARG_SRC, src}, {DNNL_ARG_DIFF_DST, diff_dst}, {DNNL_ARG_DIFF_WEIGHTS, diff_weights}});
  onednn::CopyBack(diff_weights, user_diff_weights);
  onednn::ThreadStream().wait();
}

}  // namespace paddle::funcs
