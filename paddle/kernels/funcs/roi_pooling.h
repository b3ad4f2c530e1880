// The RoI pooling routines of roi_align, roi_pool and psroi_pool and their gradients, with the
// geometry of Paddle's CPU kernels (paddle/ops/yaml/roi.yaml describes each op). x is
// [N, C, H, W], boxes [num_rois, 4] (x1, y1, x2, y2) in x's dtype, and image[r] is the sample of
// x that box r belongs to. Forward routines overwrite their outputs; backward routines overwrite
// x_grad ([N, C, H, W]) with the sum of what every box's bins scatter back. RoIs run in parallel
// forward and channels backward (no two threads then write the same element).
#pragma once

#include <cstdint>
#include <vector>

#include "paddle/core/dense_tensor.h"

namespace paddle::funcs {

struct RoiPoolingShape {
  int64_t batch = 0, channels = 0, height = 0, width = 0;  // x
  int64_t num_rois = 0;
  int64_t pooled_height = 1, pooled_width = 1;
  float spatial_scale = 1.0f;
};

// The image of each box: boxes_num's counts (int32 or int64) in order, or every box in image 0
// without boxes_num. A count below 0, counts not adding up to num_rois, or no boxes_num for a
// batch of several images is an InvalidArgument naming `op`.
std::vector<int64_t> RoiImages(const char* op, const DenseTensor* boxes_num, int64_t num_rois,
                               int64_t batch);

// out: [num_rois, C, pooled_height, pooled_width].
template <typename T>
void RoiAlignForward(const RoiPoolingShape& s, const T* x, const T* boxes, const int64_t* image,
                     int sampling_ratio, bool aligned, T* out);
template <typename T>
void RoiAlignBackward(const RoiPoolingShape& s, const T* boxes, const int64_t* image,
                      int sampling_ratio, bool aligned, const T* out_grad, T* x_grad);

// out and arg_max: [num_rois, C, pooled_height, pooled_width].
template <typename T>
void RoiPoolForward(const RoiPoolingShape& s, const T* x, const T* boxes, const int64_t* image,
                    T* out, int64_t* arg_max);
// arg_max may come from a program file: an index outside [-1, H * W) is an InvalidArgument.
template <typename T>
void RoiPoolBackward(const RoiPoolingShape& s, const int64_t* image, const int64_t* arg_max,
                     const T* out_grad, T* x_grad);

// out: [num_rois, output_channels, pooled_height, pooled_width], C = output_channels *
// pooled_height * pooled_width.
template <typename T>
void PsroiPoolForward(const RoiPoolingShape& s, const T* x, const T* boxes, const int64_t* image,
                      T* out);
template <typename T>
void PsroiPoolBackward(const RoiPoolingShape& s, const T* boxes, const int64_t* image,
                       const T* out_grad, T* x_grad);

}  // namespace paddle::funcs
