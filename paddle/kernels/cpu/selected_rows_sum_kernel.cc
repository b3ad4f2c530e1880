// add_n (legacy type sum) over dense tensors and SelectedRows: how a static program sums the
// gradient contributions of a weight used twice when one of them is sparse. The result is
// dense: zeros, plus each dense input, plus each SelectedRows' rows.
#include <cstring>
#include <vector>

#include "paddle/kernels/funcs/math_type.h"
#include "paddle/kernels/funcs/selected_rows_functor.h"
#include "paddle/kernels/selected_rows_kernel.h"

namespace paddle {

namespace {

void AddNSparse(const KernelContext& ctx, const SelectedRowsInputs& sr) {
  std::vector<const DenseTensor*> inputs = ctx.InputList(0);
  DenseTensor* out = ctx.Output(0);
  std::memset(out->AllocateStorage(CPUPlace()), 0, out->nbytes());
  funcs::VisitFloatingType(out->dtype(), "add_n", [&](auto tag) {
    using T = decltype(tag);
    using MT = MathType<T>;
    T* sum = out->data<T>();
    for (size_t j = 0; j < inputs.size(); ++j) {
      if (sr[0][j] != nullptr) {
        funcs::AddRowsTo(*sr[0][j], out);
        continue;
      }
      const T* in = inputs[j]->data<T>();
      for (int64_t i = 0; i < out->numel(); ++i) {
        sum[i] = static_cast<T>(static_cast<MT>(sum[i]) + static_cast<MT>(in[i]));
      }
    }
  });
}

const bool kRegistered = RegisterSelectedRowsKernel("add_n", Backend::CPU, &AddNSparse);

}  // namespace

}  // namespace paddle
