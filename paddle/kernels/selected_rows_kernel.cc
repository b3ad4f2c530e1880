#include "paddle/kernels/selected_rows_kernel.h"

#include <map>
#include <utility>

namespace paddle {

namespace {

std::map<std::pair<std::string, Backend>, SelectedRowsKernelFn>& Table() {
  static std::map<std::pair<std::string, Backend>, SelectedRowsKernelFn> table;
  return table;
}

}  // namespace

bool RegisterSelectedRowsKernel(const std::string& kernel_name, Backend backend,
                                SelectedRowsKernelFn fn) {
  Table()[{kernel_name, backend}] = fn;
  return true;
}

SelectedRowsKernelFn FindSelectedRowsKernel(const std::string& kernel_name, Backend backend) {
  auto it = Table().find({kernel_name, backend});
  return it == Table().end() ? nullptr : it->second;
}

}  // namespace paddle
