#include "paddle/ops/infermeta/interpolate.h"

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/interpolate_geometry.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

// The op an interpolate call runs, for messages: "<interp_method>_interp".
std::string InterpolateOpName(const std::string& interp_method) {
  for (const char* method : {"linear", "bilinear", "bicubic", "trilinear", "nearest"}) {
    if (interp_method == method) return interp_method + "_interp";
  }
  return "interpolate";
}

bool IsIndexType(DataType dtype) { return dtype == DataType::INT32 || dtype == DataType::INT64; }

// Checks an integer size input holding `count` values (when its dims are known).
void CheckSizeInput(const TensorMeta& t, int64_t count, const std::string& op, const char* arg) {
  PD_CHECK(IsIndexType(t.dtype), errors::InvalidType(op, ": argument '", arg,
                                                     "' must be an int32 or int64 tensor, "
                                                     "received ",
                                                     DataTypeName(t.dtype)));
  const int64_t numel = KnownNumel(t.dims);
  PD_CHECK(
      t.dims.size() <= 1 && (IsUnknown(numel) || numel == count),
      errors::InvalidArgument(op, ": argument '", arg, "' must hold ", count,
                              " value(s) in at most one dim, received shape ", t.dims.ToString()));
}

}  // namespace

void InterpolateInferMeta(const TensorMeta& x, const TensorMeta* out_size,
                          const std::vector<TensorMeta>& size_tensor,
                          const TensorMeta* scale_tensor, const std::string& data_format,
                          int32_t out_d, int32_t out_h, int32_t out_w,
                          const std::vector<float>& scale, const std::string& interp_method,
                          bool align_corners, int32_t align_mode, TensorMeta* output) {
  const std::string op = InterpolateOpName(interp_method);
  PD_CHECK(IsFloating(x.dtype), errors::InvalidType(op,
                                                    ": argument 'x' must be floating-point, "
                                                    "received ",
                                                    DataTypeName(x.dtype)));
  funcs::InterpolateLayout layout =
      funcs::CheckInterpolateArgs(x.dims, data_format, interp_method, align_mode, op.c_str(), "x");
  const std::vector<int64_t> in = funcs::SpatialDims(x.dims, layout);
  for (int64_t d : in) {
    PD_CHECK(d != 0, errors::InvalidArgument(op,
                                             ": the spatial dims of argument 'x' must be "
                                             "positive, received shape ",
                                             x.dims.ToString()));
  }
  const std::vector<int64_t> attrs = funcs::SizeAttrs(layout.spatial, out_d, out_h, out_w);
  std::vector<int64_t> out(layout.spatial, kUnknownDim);
  if (!size_tensor.empty()) {
    PD_CHECK(
        static_cast<int>(size_tensor.size()) == layout.spatial,
        errors::InvalidArgument(op, ": argument 'size_tensor' must hold ", layout.spatial,
                                " tensors (one per spatial dim), received ", size_tensor.size()));
    for (const TensorMeta& t : size_tensor) CheckSizeInput(t, 1, op, "size_tensor");
    // Paddle's programs record the sizes known when they were built in out_d/out_h/out_w.
    for (int i = 0; i < layout.spatial; ++i) out[i] = attrs[i] > 0 ? attrs[i] : kUnknownDim;
  } else if (out_size != nullptr) {
    CheckSizeInput(*out_size, layout.spatial, op, "out_size");
  } else if (scale_tensor != nullptr) {
    PD_CHECK(scale_tensor->dtype == DataType::FLOAT32 || scale_tensor->dtype == DataType::FLOAT64,
             errors::InvalidType(op,
                                 ": argument 'scale_tensor' must be a float32 or float64 "
                                 "tensor, received ",
                                 DataTypeName(scale_tensor->dtype)));
    const int64_t numel = KnownNumel(scale_tensor->dims);
    PD_CHECK(scale_tensor->dims.size() <= 1 &&
                 (IsUnknown(numel) || numel == 1 || numel == layout.spatial),
             errors::InvalidArgument(op, ": argument 'scale_tensor' must hold 1 or ",
                                     layout.spatial, " factors in at most one dim, received shape ",
                                     scale_tensor->dims.ToString()));
  } else if (!scale.empty()) {
    const std::vector<float> factors = funcs::ScaleFactors(scale, layout.spatial, op.c_str());
    for (int i = 0; i < layout.spatial; ++i) {
      if (IsUnknown(in[i])) continue;
      out[i] = funcs::ScaledSize(in[i], factors[i]);
      PD_CHECK(out[i] > 0,
               errors::InvalidArgument(op, ": scale factor ", factors[i], " gives spatial dim ", i,
                                       " of argument 'x' (shape ", x.dims.ToString(),
                                       ") an output size of ", out[i], "; it must be positive"));
    }
  } else {
    for (int i = 0; i < layout.spatial; ++i) {
      PD_CHECK(attrs[i] > 0,
               errors::InvalidArgument(op,
                                       ": the output size must be positive in every spatial "
                                       "dim, received ",
                                       DDim(attrs).ToString()));
      out[i] = attrs[i];
    }
  }
  output->dims = funcs::WithSpatialDims(x.dims, layout, out);
  output->dtype = x.dtype;
  output->layout = x.layout;
}

void InterpolateGradInferMeta(const TensorMeta& x, const TensorMeta* out_size,
                              const std::vector<TensorMeta>& size_tensor,
                              const TensorMeta* scale_tensor, const TensorMeta& output_grad,
                              const std::string& data_format, int32_t out_d, int32_t out_h,
                              int32_t out_w, const std::vector<float>& scale,
                              const std::string& interp_method, bool align_corners,
                              int32_t align_mode, TensorMeta* x_grad) {
  const std::string op = InterpolateOpName(interp_method) + "_grad";
  PD_CHECK(IsFloating(output_grad.dtype),
           errors::InvalidType(op, ": argument 'output_grad' must be floating-point, received ",
                               DataTypeName(output_grad.dtype)));
  funcs::InterpolateLayout layout =
      funcs::CheckInterpolateArgs(x.dims, data_format, interp_method, align_mode, op.c_str(), "x");
  const int channel = layout.channel_last ? x.dims.size() - 1 : 1;
  PD_CHECK(output_grad.dims.size() == x.dims.size() && DimsAgree(output_grad.dims[0], x.dims[0]) &&
               DimsAgree(output_grad.dims[channel], x.dims[channel]),
           errors::InvalidArgument(
               op, ": argument 'output_grad' (shape ", output_grad.dims.ToString(),
               ") must have the rank, batch and channels of 'x' (shape ", x.dims.ToString(), ")"));
  x_grad->dims = x.dims;
  x_grad->dtype = output_grad.dtype;
  x_grad->layout = x.layout;
}

namespace {

void CheckGridSampleArgs(const TensorMeta& x, const TensorMeta& grid, const std::string& mode,
                         const std::string& padding_mode, const char* op) {
  PD_CHECK(x.dims.size() == 4 || x.dims.size() == 5,
           errors::InvalidArgument(op,
                                   ": argument 'x' must be a 4-D (NCHW) or 5-D (NCDHW) "
                                   "tensor, received shape ",
                                   x.dims.ToString()));
  const int spatial = x.dims.size() - 2;
  PD_CHECK(grid.dims.size() == x.dims.size() && DimsAgree(grid.dims[spatial + 1], spatial) &&
               DimsAgree(grid.dims[0], x.dims[0]),
           errors::InvalidArgument(op, ": argument 'grid' must have shape [N, ",
                                   spatial == 2 ? "H_out, W_out, 2" : "D_out, H_out, W_out, 3",
                                   "] for x of shape ", x.dims.ToString(), ", received ",
                                   grid.dims.ToString()));
  PD_CHECK(IsFloating(x.dtype) && grid.dtype == x.dtype,
           errors::InvalidType(op,
                               ": arguments 'x' and 'grid' must be floating-point tensors of "
                               "one dtype, received ",
                               DataTypeName(x.dtype), " and ", DataTypeName(grid.dtype)));
  for (int i = 2; i < x.dims.size(); ++i) {
    PD_CHECK(x.dims[i] != 0, errors::InvalidArgument(op,
                                                     ": the spatial dims of argument 'x' "
                                                     "must be positive, received shape ",
                                                     x.dims.ToString()));
  }
  PD_CHECK(mode == "bilinear" || mode == "nearest",
           errors::InvalidArgument(op,
                                   ": argument 'mode' must be 'bilinear' or 'nearest', "
                                   "received '",
                                   mode, "'"));
  PD_CHECK(padding_mode == "zeros" || padding_mode == "border" || padding_mode == "reflection",
           errors::InvalidArgument(op,
                                   ": argument 'padding_mode' must be 'zeros', 'border' or "
                                   "'reflection', received '",
                                   padding_mode, "'"));
}

}  // namespace

void GridSampleInferMeta(const TensorMeta& x, const TensorMeta& grid, const std::string& mode,
                         const std::string& padding_mode, bool align_corners, TensorMeta* out) {
  CheckGridSampleArgs(x, grid, mode, padding_mode, "grid_sample");
  std::vector<int64_t> dims = {MergeShapes(DDim({x.dims[0]}), DDim({grid.dims[0]}))[0], x.dims[1]};
  for (int i = 1; i < grid.dims.size() - 1; ++i) dims.push_back(grid.dims[i]);
  out->dims = DDim(dims);
  out->dtype = x.dtype;
  out->layout = x.layout;
}

void GridSampleGradInferMeta(const TensorMeta& x, const TensorMeta& grid,
                             const TensorMeta& out_grad, const std::string& mode,
                             const std::string& padding_mode, bool align_corners,
                             TensorMeta* x_grad, TensorMeta* grid_grad) {
  CheckGridSampleArgs(x, grid, mode, padding_mode, "grid_sample_grad");
  TensorMeta out;
  GridSampleInferMeta(x, grid, mode, padding_mode, align_corners, &out);
  PD_CHECK(ShapesAgree(out_grad.dims, out.dims) && out_grad.dtype == x.dtype,
           errors::InvalidArgument("grid_sample_grad: argument 'out_grad' must be a ",
                                   DataTypeName(x.dtype), " tensor of shape ", out.dims.ToString(),
                                   ", received ", DataTypeName(out_grad.dtype), " of shape ",
                                   out_grad.dims.ToString()));
  *x_grad = x;
  *grid_grad = grid;
}

void AffineGridInferMeta(const TensorMeta& input, const TensorMeta* output_shape_tensor,
                         const std::vector<int64_t>& output_shape, bool align_corners,
                         TensorMeta* output) {
  PD_CHECK(input.dtype == DataType::FLOAT32 || input.dtype == DataType::FLOAT64,
           errors::InvalidType("affine_grid: argument 'theta' must be float32 or float64, "
                               "received ",
                               DataTypeName(input.dtype)));
  const DDim& theta = input.dims;
  const bool theta_2d = theta.size() == 3 && DimsAgree(theta[1], 2) && DimsAgree(theta[2], 3);
  const bool theta_3d = theta.size() == 3 && DimsAgree(theta[1], 3) && DimsAgree(theta[2], 4);
  PD_CHECK(theta_2d || theta_3d,
           errors::InvalidArgument("affine_grid: argument 'theta' must have shape [N, 2, 3] or "
                                   "[N, 3, 4], received ",
                                   theta.ToString()));
  // The number of entries of the output shape: 4 ([N, C, H, W]) or 5 ([N, C, D, H, W]).
  int64_t entries = kUnknownDim;
  if (output_shape_tensor != nullptr) {
    PD_CHECK(IsIndexType(output_shape_tensor->dtype),
             errors::InvalidType("affine_grid: argument 'out_shape' must be an int32 or int64 "
                                 "tensor, received ",
                                 DataTypeName(output_shape_tensor->dtype)));
    PD_CHECK(output_shape_tensor->dims.size() == 1,
             errors::InvalidArgument("affine_grid: argument 'out_shape' must be a 1-D tensor, "
                                     "received shape ",
                                     output_shape_tensor->dims.ToString()));
    entries = output_shape_tensor->dims[0];
  } else {
    entries = static_cast<int64_t>(output_shape.size());
  }
  if (IsUnknown(entries)) entries = theta_2d && !theta_3d ? 4 : (theta_3d && !theta_2d ? 5 : -1);
  PD_CHECK(!IsUnknown(entries),
           errors::InvalidArgument("affine_grid: neither the shape of argument 'theta' ([N, 2, "
                                   "3] or [N, 3, 4]) nor the length of 'out_shape' is known, so "
                                   "the grid's rank is not; received theta of shape ",
                                   theta.ToString()));
  PD_CHECK((entries == 4 && theta_2d) || (entries == 5 && theta_3d),
           errors::InvalidArgument("affine_grid: argument 'out_shape' must hold 4 values [N, C, "
                                   "H, W] for theta [N, 2, 3] or 5 values [N, C, D, H, W] for "
                                   "theta [N, 3, 4]; received ",
                                   entries, " values for theta of shape ", theta.ToString()));
  std::vector<int64_t> dims = {theta[0]};
  for (int64_t i = 2; i < entries; ++i) {
    int64_t size = output_shape_tensor != nullptr ? kUnknownDim : output_shape[i];
    PD_CHECK(output_shape_tensor != nullptr || size >= 0,
             errors::InvalidArgument("affine_grid: the spatial sizes in argument 'out_shape' "
                                     "must not be negative, received ",
                                     DDim(output_shape).ToString()));
    dims.push_back(size);
  }
  dims.push_back(entries - 2);
  output->dims = DDim(dims);
  output->dtype = input.dtype;
  output->layout = input.layout;
}

void AffineGridGradInferMeta(const TensorMeta& output_grad, bool align_corners,
                             TensorMeta* input_grad) {
  const DDim& g = output_grad.dims;
  PD_CHECK((g.size() == 4 && DimsAgree(g[3], 2)) || (g.size() == 5 && DimsAgree(g[4], 3)),
           errors::InvalidArgument("affine_grid_grad: argument 'output_grad' must have shape "
                                   "[N, H, W, 2] or [N, D, H, W, 3], received ",
                                   g.ToString()));
  PD_CHECK(output_grad.dtype == DataType::FLOAT32 || output_grad.dtype == DataType::FLOAT64,
           errors::InvalidType("affine_grid_grad: argument 'output_grad' must be float32 or "
                               "float64, received ",
                               DataTypeName(output_grad.dtype)));
  input_grad->dims = g.size() == 4 ? DDim({g[0], 2, 3}) : DDim({g[0], 3, 4});
  input_grad->dtype = output_grad.dtype;
  input_grad->layout = output_grad.layout;
}

}  // namespace paddle
