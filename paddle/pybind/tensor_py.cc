// paddle.Tensor: the Python class over the C++ Tensor handle, and NumPy conversion. The Python
// package adds the operator and math methods (python/paddle/tensor/tensor_methods.py).
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>

#include "paddle/imperative/autograd_meta.h"
#include "paddle/imperative/grad_node.h"
#include "paddle/kernels/funcs/selected_rows_functor.h"
#include "paddle/memory/memcpy.h"
#include "paddle/ops/generated/api/full_like.h"
#include "paddle/pybind/bind.h"

namespace paddle::pybind {

namespace {

using imperative::AutogradMeta;
using imperative::EnsureAutogradMeta;
using imperative::GetAutogradMeta;

// NumPy's type string for each dtype; bfloat16 has no NumPy type and travels as uint16, as in
// PaddlePaddle.
const char* NumpyFormat(DataType dtype) {
  switch (dtype) {
    case DataType::BOOL:
      return "?";
    case DataType::INT8:
      return "i1";
    case DataType::UINT8:
      return "u1";
    case DataType::INT16:
      return "i2";
    case DataType::INT32:
      return "i4";
    case DataType::INT64:
      return "i8";
    case DataType::FLOAT16:
      return "f2";
    case DataType::BFLOAT16:
      return "u2";
    case DataType::FLOAT32:
      return "f4";
    case DataType::FLOAT64:
      return "f8";
    case DataType::COMPLEX64:
      return "c8";
    case DataType::COMPLEX128:
      return "c16";
    default:
      PD_THROW(errors::Unimplemented("numpy(): no NumPy type for ", DataTypeName(dtype)));
  }
}

// Reads the dtype through its Python attributes: pybind11 2.10's direct field access predates
// NumPy 2's descriptor layout.
DataType DataTypeOfNumpy(const py::dtype& dt) {
  char kind = dt.attr("kind").cast<std::string>()[0];
  size_t size = dt.attr("itemsize").cast<size_t>();
  if (kind == 'b') return DataType::BOOL;
  if (kind == 'i') {
    switch (size) {
      case 1:
        return DataType::INT8;
      case 2:
        return DataType::INT16;
      case 4:
        return DataType::INT32;
      case 8:
        return DataType::INT64;
    }
  }
  if (kind == 'u') {
    if (size == 1) return DataType::UINT8;
  }
  if (kind == 'f') {
    switch (size) {
      case 2:
        return DataType::FLOAT16;
      case 4:
        return DataType::FLOAT32;
      case 8:
        return DataType::FLOAT64;
    }
  }
  if (kind == 'c') {
    if (size == 8) return DataType::COMPLEX64;
    if (size == 16) return DataType::COMPLEX128;
  }
  PD_THROW(errors::InvalidType("cannot make a tensor from a NumPy array of dtype ",
                               std::string(py::str(py::handle(dt))),
                               "; supported: bool, int8, uint8, int16, "
                               "int32, int64, float16, float32, float64, complex64, complex128"));
}

}  // namespace

py::array TensorToNumpy(const Tensor& t) {
  const DenseTensor& dense = t.dense();
  std::vector<py::ssize_t> shape(dense.dims().data(), dense.dims().data() + dense.dims().size());
  // Explicit strides: pybind11 2.10 derives them from the dtype's itemsize field, which moved
  // in NumPy 2.
  std::vector<py::ssize_t> strides(shape.size());
  py::ssize_t stride = static_cast<py::ssize_t>(SizeOf(dense.dtype()));
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    strides[i] = stride;
    // Only a zero-size array can have dims whose product overflows; its strides are never used.
    if (__builtin_mul_overflow(stride, std::max<py::ssize_t>(shape[i], 1), &stride)) stride = 0;
  }
  py::array array(py::dtype(NumpyFormat(dense.dtype())), shape, strides);
  memory::Copy(CPUPlace(), array.mutable_data(), dense.place(), dense.raw_data(), dense.nbytes());
  return array;
}

// `dtype` overrides the array's (only to read uint16 data as bfloat16).
Tensor TensorFromNumpy(const py::array& source, const Place& place, DataType dtype) {
  py::array array = py::array::ensure(source, py::array::c_style);
  PD_CHECK(array, errors::InvalidArgument("to_tensor: the data is not a valid array"));
  DataType from;
  if (dtype == DataType::BFLOAT16) {
    PD_CHECK(array.dtype().attr("itemsize").cast<size_t>() == 2,
             errors::InvalidArgument("bfloat16 data must be given as a uint16 array"));
    from = DataType::BFLOAT16;
  } else {
    from = DataTypeOfNumpy(array.dtype());
  }
  std::vector<int64_t> dims(array.shape(), array.shape() + array.ndim());
  TensorMeta meta{DDim(dims), from, DataLayout::NCHW};
  auto dense = std::make_shared<DenseTensor>(meta);
  void* dst = dense->AllocateStorage(place);
  memory::Copy(place, dst, CPUPlace(), array.data(), dense->nbytes());
  return Tensor(std::move(dense));
}

namespace {

// Copies `src`'s data into `dst`'s buffer (same shape and dtype): used to load parameters and
// by optimizers, without recording autograd.
void CopyDataInto(Tensor& dst, const Tensor& src) {
  DenseTensor& d = dst.dense();
  const DenseTensor& s = src.dense();
  PD_CHECK(d.dims() == s.dims() && d.dtype() == s.dtype(),
           errors::InvalidArgument("set_value: expected a tensor of shape ", d.dims().ToString(),
                                   " and dtype ", DataTypeName(d.dtype()), ", received shape ",
                                   s.dims().ToString(), " and dtype ", DataTypeName(s.dtype())));
  void* out = d.has_allocation() ? d.raw_data() : d.AllocateStorage(s.place());
  memory::Copy(d.place(), out, s.place(), s.raw_data(), s.nbytes());
  d.BumpInplaceVersion();
}

const SelectedRows& SelectedRowsOf(const Tensor& t, const char* api) {
  PD_CHECK(t.is_selected_rows(),
           errors::InvalidArgument(api,
                                   ": expected a SelectedRows tensor (a sparse gradient), "
                                   "received a dense one"));
  return *t.selected_rows();
}

struct HookHandle {
  std::shared_ptr<imperative::GradNode> node;
  int64_t id;
  bool remove() { return node && node->RemoveHook(id); }
};

}  // namespace

void BindTensor(py::module_& m) {
  py::class_<HookHandle>(m, "TensorHookRemoveHelper").def("remove", &HookHandle::remove);

  py::class_<Tensor>(m, "Tensor", py::dynamic_attr())
      .def(py::init<>())
      .def_property_readonly("shape", [](const Tensor& t) { return t.dims().ToVector(); })
      .def_property_readonly("dtype", &Tensor::dtype)
      .def_property_readonly("place", [](const Tensor& t) { return PlaceToPy(t.place()); })
      .def_property_readonly("ndim", [](const Tensor& t) { return t.dims().size(); })
      .def_property_readonly("size", &Tensor::numel)
      .def("_is_initialized",
           [](const Tensor& t) { return t.defined() && t.dense().initialized(); })
      .def_property(
          "stop_gradient",
          [](const Tensor& t) {
            const AutogradMeta* meta = GetAutogradMeta(t);
            return meta == nullptr || meta->stop_gradient;
          },
          [](Tensor& t, bool v) { EnsureAutogradMeta(&t).stop_gradient = v; })
      .def_property(
          "persistable",
          [](const Tensor& t) {
            const AutogradMeta* meta = GetAutogradMeta(t);
            return meta != nullptr && meta->persistable;
          },
          [](Tensor& t, bool v) { EnsureAutogradMeta(&t).persistable = v; })
      .def_property(
          "name",
          [](Tensor& t) {
            // Paddle names unnamed tensors on first use; optimizers key their state by name.
            static std::atomic<int64_t> counter{0};
            if (t.name().empty()) t.set_name("generated_tensor_" + std::to_string(counter++));
            return t.name();
          },
          &Tensor::set_name)
      .def_property(
          "grad",
          [](const Tensor& t) -> py::object {
            const AutogradMeta* meta = GetAutogradMeta(t);
            if (meta == nullptr || !meta->grad.defined()) return py::none();
            return py::cast(meta->grad);
          },
          [](Tensor& t, py::object grad) {
            AutogradMeta& meta = EnsureAutogradMeta(&t);
            if (grad.is_none()) {
              meta.grad = Tensor();
              return;
            }
            Tensor g = grad.cast<Tensor>();
            const DDim g_dims =
                g.is_selected_rows() ? g.selected_rows()->complete_dims() : g.dims();
            PD_CHECK(g_dims == t.dims(),
                     errors::InvalidArgument("the grad of a tensor of shape ", t.dims().ToString(),
                                             " cannot be set to shape ", g_dims.ToString()));
            meta.grad = g;
          })
      .def_property_readonly("is_leaf",
                             [](const Tensor& t) {
                               const AutogradMeta* meta = GetAutogradMeta(t);
                               return meta == nullptr || meta->is_leaf();
                             })
      .def_property_readonly("inplace_version",
                             [](const Tensor& t) { return t.dense().inplace_version(); })
      .def("_grad_node_name",
           [](const Tensor& t) -> py::object {
             const AutogradMeta* meta = GetAutogradMeta(t);
             if (meta == nullptr || !meta->grad_node) return py::none();
             return py::str(meta->grad_node->name());
           })
      .def("numpy", &TensorToNumpy)
      .def("detach", [](const Tensor& t) { return Tensor(t.impl()); })
      .def("_share_data_from",
           [](Tensor& self, const Tensor& other) { self.set_impl(other.impl()); })
      .def("_set_value", &CopyDataInto)
      .def("_is_shared_buffer_with",
           [](const Tensor& a, const Tensor& b) { return a.dense().SharesBufferWith(b.dense()); })
      .def("_copy_to",
           [](const Tensor& t, py::object place) {
             Place dst = PlaceFromPy(place);
             auto dense = std::make_shared<DenseTensor>(t.dense().meta());
             void* out = dense->AllocateStorage(dst);
             memory::Copy(dst, out, t.place(), t.dense().raw_data(), t.dense().nbytes());
             return Tensor(std::move(dense));
           })
      .def("_register_hook",
           [](Tensor& t, py::function fn) {
             auto [node, id] = imperative::RegisterHook(&t, [fn](const Tensor& grad) -> Tensor {
               py::object result = fn(grad);
               return result.is_none() ? Tensor() : result.cast<Tensor>();
             });
             return HookHandle{node, id};
           })
      .def("retain_grads", [](Tensor& t) { imperative::RetainGrads(&t); })
      .def("_clear_grad",
           [](Tensor& t, bool set_to_zero) {
             AutogradMeta* meta = GetAutogradMeta(t);
             if (meta == nullptr || !meta->grad.defined()) return;
             // A SelectedRows gradient is dropped either way, as in PaddlePaddle: zeroing it would
             // keep rows that the next backward does not touch.
             bool zero = set_to_zero && !meta->grad.is_selected_rows();
             meta->grad = zero ? ops::full_like(meta->grad, 0.0) : Tensor();
           })
      .def("is_selected_rows", &Tensor::is_selected_rows)
      .def("is_dense", [](const Tensor& t) { return t.defined() && !t.is_selected_rows(); })
      .def("rows", [](const Tensor& t) { return SelectedRowsOf(t, "rows").rows(); });

  // The pieces of a SelectedRows tensor, for the optimizers and gradient clipping.
  m.def("_selected_rows_height",
        [](const Tensor& t) { return SelectedRowsOf(t, "_selected_rows_height").height(); });
  m.def("_selected_rows_value", [](const Tensor& t) {
    return Tensor(SelectedRowsOf(t, "_selected_rows_value").shared_value());
  });
  m.def("_merge_selected_rows", [](const Tensor& t) {
    return Tensor(funcs::MergeRows(SelectedRowsOf(t, "_merge_selected_rows")));
  });
  m.def("_selected_rows_to_dense", [](const Tensor& t) {
    return Tensor(funcs::RowsToDense(SelectedRowsOf(t, "_selected_rows_to_dense")));
  });
  m.def(
      "_make_selected_rows",
      [](std::vector<int64_t> rows, const Tensor& value, int64_t height) {
        PD_CHECK(value.defined() && !value.is_selected_rows() && value.dims().size() >= 1 &&
                     value.dims()[0] == static_cast<int64_t>(rows.size()),
                 errors::InvalidArgument("_make_selected_rows: 'value' must be a dense tensor "
                                         "with one row per entry of 'rows' (",
                                         rows.size(), ")"));
        auto selected = std::make_shared<SelectedRows>(std::move(rows), height, value.impl());
        funcs::CheckRowsInRange(*selected, "_make_selected_rows");
        return Tensor(std::move(selected));
      },
      py::arg("rows"), py::arg("value"), py::arg("height"));

  m.def("_tensor_from_numpy", &TensorFromNumpy, py::arg("array"), py::arg("place"),
        py::arg("dtype") = DataType::UNDEFINED);
}

}  // namespace paddle::pybind
