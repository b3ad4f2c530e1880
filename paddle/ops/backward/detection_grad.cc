// Backward rule of yolo_loss: one kernel over the matched cells and the objectness channel, as the
// loss is a sum of per-cell terms whose targets the forward chose (its objectness_mask and
// gt_match_mask record them). The kernel has no gradient of its own, so yolo_loss has first-order
// gradients only.
#include <vector>

#include "paddle/ops/generated/api/yolo_loss_grad.h"
#include "paddle/ops/generated/grad_rules/detection.h"

namespace paddle::ops::grad {

void yolo_loss_grad(const Tensor& x, const Tensor& gt_box, const Tensor& gt_label,
                    const Tensor& gt_score, const Tensor& objectness_mask,
                    const Tensor& gt_match_mask, const Tensor& loss_grad,
                    const std::vector<int32_t>& anchors, const std::vector<int32_t>& anchor_mask,
                    int32_t class_num, int32_t downsample_ratio, bool use_label_smooth,
                    float scale_x_y, Tensor* x_grad) {
  if (!x_grad) return;
  *x_grad = ops::yolo_loss_grad(x, gt_box, gt_label, gt_score, objectness_mask, gt_match_mask,
                                loss_grad, anchors, anchor_mask, class_num, downsample_ratio,
                                use_label_smooth, scale_x_y);
}

}  // namespace paddle::ops::grad
