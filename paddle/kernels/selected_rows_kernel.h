// Kernels for calls that pass a SelectedRows (a sparse gradient) where the op's kernel takes a
// dense tensor: the optimizer updates with a sparse Grad, as PaddlePaddle's
// <op>_dense_param_sparse_grad kernels. They live beside the registry of dense kernels rather
// than in it, so the dense kernel signatures stay plain DenseTensor ones.
//
// The caller builds the KernelContext exactly as for the op's dense kernel (inputs, attributes
// and outputs in schema order, a SelectedRows input appearing as its value tensor) and passes
// alongside, per input parameter and per tensor of it (one for a single tensor, none for an
// absent optional one), the SelectedRows or null for a dense tensor. One function serves every
// dtype it supports and raises Unimplemented for the others.
#pragma once

#include <string>
#include <vector>

#include "paddle/core/selected_rows.h"
#include "paddle/kernels/kernel_context.h"
#include "paddle/kernels/kernel_registry.h"

namespace paddle {

using SelectedRowsInputs = std::vector<std::vector<const SelectedRows*>>;
using SelectedRowsKernelFn = void (*)(const KernelContext& ctx,
                                      const SelectedRowsInputs& selected_rows);

bool RegisterSelectedRowsKernel(const std::string& kernel_name, Backend backend,
                                SelectedRowsKernelFn fn);
// Null when `kernel_name` has no SelectedRows kernel on `backend`.
SelectedRowsKernelFn FindSelectedRowsKernel(const std::string& kernel_name, Backend backend);

}  // namespace paddle
