// Autograd entry points: backward, grad, the grad mode switch behind paddle.no_grad, and the
// dygraph AMP state behind paddle.amp.auto_cast.
#include <pybind11/stl.h>

#include <set>
#include <string>

#include "paddle/common/errors.h"
#include "paddle/imperative/amp.h"
#include "paddle/imperative/backward.h"
#include "paddle/imperative/grad_mode.h"
#include "paddle/pybind/bind.h"

namespace paddle::pybind {

namespace {

// None entries (no gradient given) become undefined tensors.
std::vector<Tensor> TensorsOrUndefined(const std::vector<py::object>& values) {
  std::vector<Tensor> tensors;
  for (const py::object& v : values) tensors.push_back(v.is_none() ? Tensor() : v.cast<Tensor>());
  return tensors;
}

}  // namespace

void BindAutograd(py::module_& m) {
  m.def(
      "_run_backward",
      [](const std::vector<Tensor>& tensors, const std::vector<py::object>& grad_tensors,
         bool retain_graph) {
        imperative::Backward(tensors, TensorsOrUndefined(grad_tensors), retain_graph);
      },
      py::arg("tensors"), py::arg("grad_tensors"), py::arg("retain_graph"));
  m.def(
      "_run_grad",
      [](const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
         const std::vector<py::object>& grad_outputs, bool retain_graph, bool create_graph,
         bool allow_unused, const std::vector<Tensor>& no_grad_vars) {
        std::vector<Tensor> grads =
            imperative::Grad(outputs, inputs, TensorsOrUndefined(grad_outputs), retain_graph,
                             create_graph, allow_unused, no_grad_vars);
        py::list result;
        for (const Tensor& g : grads) {
          result.append(g.defined() ? py::cast(g) : py::none());
        }
        return result;
      },
      py::arg("outputs"), py::arg("inputs"), py::arg("grad_outputs"), py::arg("retain_graph"),
      py::arg("create_graph"), py::arg("allow_unused"), py::arg("no_grad_vars"));
  m.def("is_grad_enabled", &imperative::GradEnabled);
  m.def("set_grad_enabled", &imperative::SetGradEnabled, py::arg("enabled"));
  // level: 0 (O0), 1 (OD), 2 (O1), 3 (O2).
  m.def(
      "_set_amp_state",
      [](int level, DataType dtype, std::set<std::string> white_list,
         std::set<std::string> black_list, bool use_promote) {
        PD_CHECK(level >= 0 && level <= 3,
                 errors::InvalidArgument("_set_amp_state: level must be 0 (O0), 1 (OD), 2 (O1) "
                                         "or 3 (O2), received ",
                                         level));
        imperative::AmpState state;
        state.level = static_cast<imperative::AmpLevel>(level);
        state.dtype = dtype;
        state.use_promote = use_promote;
        state.white_list = std::move(white_list);
        state.black_list = std::move(black_list);
        imperative::SetAmpState(std::move(state));
      },
      py::arg("level"), py::arg("dtype"), py::arg("white_list"), py::arg("black_list"),
      py::arg("use_promote"));
  m.def("_get_amp_state", []() {
    const imperative::AmpState& state = imperative::GetAmpState();
    return py::make_tuple(static_cast<int>(state.level), state.dtype, state.white_list,
                          state.black_list, state.use_promote);
  });
}

}  // namespace paddle::pybind
