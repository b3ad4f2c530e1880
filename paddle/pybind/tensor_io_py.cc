// Paddle's tensor record format (.pdiparams, the `save` op's file, in-memory records) for the
// Python package's io modules. The file work runs without the GIL.
#include <pybind11/stl.h>

#include <sstream>
#include <streambuf>

#include "paddle/framework/tensor_io.h"
#include "paddle/pybind/bind.h"

namespace paddle::pybind {

namespace {

// A read-only, seekable stream buffer over bytes owned by a Python object, so a record is parsed
// without first copying it; seeking lets the reader check sizes before it allocates.
class BytesStreamBuf : public std::streambuf {
 public:
  BytesStreamBuf(const char* data, size_t size) {
    char* begin = const_cast<char*>(data);
    setg(begin, begin, begin + size);
  }

 protected:
  pos_type seekoff(off_type offset, std::ios_base::seekdir dir,
                   std::ios_base::openmode /*which*/) override {
    off_type base = dir == std::ios_base::beg   ? 0
                    : dir == std::ios_base::cur ? gptr() - eback()
                                                : egptr() - eback();
    off_type target = base + offset;
    if (target < 0 || target > egptr() - eback()) return pos_type(off_type(-1));
    setg(eback(), eback() + target, egptr());
    return pos_type(target);
  }
  pos_type seekpos(pos_type pos, std::ios_base::openmode which) override {
    return seekoff(off_type(pos), std::ios_base::beg, which);
  }
};

Tensor WrapDense(DenseTensor&& dense) {
  return Tensor(std::make_shared<DenseTensor>(std::move(dense)));
}

}  // namespace

void BindTensorIO(py::module_& m) {
  m.def(
      "_save_combine",
      [](const std::string& path, const std::vector<std::string>& names,
         const std::vector<Tensor>& tensors) {
        PD_CHECK(names.size() == tensors.size(),
                 errors::InvalidArgument("_save_combine: received ", names.size(), " names but ",
                                         tensors.size(), " tensors"));
        std::vector<std::pair<std::string, const DenseTensor*>> vars;
        vars.reserve(names.size());
        for (size_t i = 0; i < names.size(); ++i) vars.emplace_back(names[i], &tensors[i].dense());
        py::gil_scoped_release release;
        framework::SaveCombine(path, vars);
      },
      py::arg("path"), py::arg("names"), py::arg("tensors"));

  m.def(
      "_load_combine",
      [](const std::string& path, const std::vector<std::string>& names) {
        std::vector<DenseTensor> dense;
        {
          py::gil_scoped_release release;
          dense = framework::LoadCombine(path, names);
        }
        std::vector<Tensor> tensors;
        tensors.reserve(dense.size());
        for (DenseTensor& d : dense) tensors.push_back(WrapDense(std::move(d)));
        return tensors;
      },
      py::arg("path"), py::arg("names"));

  m.def(
      "_serialize_tensor",
      [](const Tensor& tensor) {
        std::ostringstream out;
        framework::SerializeDenseTensor(tensor.dense(), out);
        return py::bytes(out.str());
      },
      py::arg("tensor"));

  m.def(
      "_deserialize_combine",
      [](const py::bytes& data, const std::vector<std::string>& names, const std::string& source) {
        char* bytes = nullptr;
        Py_ssize_t size = 0;
        PyBytes_AsStringAndSize(data.ptr(), &bytes, &size);
        BytesStreamBuf buffer(bytes, static_cast<size_t>(size));
        std::istream in(&buffer);
        std::vector<DenseTensor> dense = framework::DeserializeCombine(in, names, source);
        std::vector<Tensor> tensors;
        tensors.reserve(dense.size());
        for (DenseTensor& d : dense) tensors.push_back(WrapDense(std::move(d)));
        return tensors;
      },
      py::arg("data"), py::arg("names"), py::arg("source") = "serialized persistables");
  m.def(
      "_deserialize_tensor",
      [](const py::bytes& data, const std::string& what) {
        char* bytes = nullptr;
        Py_ssize_t size = 0;
        PyBytes_AsStringAndSize(data.ptr(), &bytes, &size);
        BytesStreamBuf buffer(bytes, static_cast<size_t>(size));
        std::istream in(&buffer);
        DenseTensor dense = framework::DeserializeDenseTensor(in, what);
        // One record is expected: more bytes mean the caller passed something else.
        auto used = static_cast<Py_ssize_t>(in.tellg());
        PD_CHECK(used == size, errors::InvalidArgument(what, ": ", size - used,
                                                       " extra bytes after the tensor record"));
        return WrapDense(std::move(dense));
      },
      py::arg("data"), py::arg("what") = "serialized tensor");

  m.def(
      "_save_tensor",
      [](const std::string& path, const Tensor& tensor) {
        const DenseTensor& dense = tensor.dense();
        py::gil_scoped_release release;
        framework::SaveDenseTensor(path, dense);
      },
      py::arg("path"), py::arg("tensor"));

  m.def(
      "_load_tensor",
      [](const std::string& path) {
        DenseTensor dense;
        {
          py::gil_scoped_release release;
          dense = framework::LoadDenseTensor(path);
        }
        return WrapDense(std::move(dense));
      },
      py::arg("path"));
}

}  // namespace paddle::pybind
