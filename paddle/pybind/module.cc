// paddle.base.libpaddle: the Python binding of the C++ core.
#include "paddle/common/flags.h"
#include "paddle/imperative/eager_dispatch.h"
#include "paddle/pybind/bind.h"

PYBIND11_MODULE(libpaddle, m) {
  m.doc() = "The C++ core of paddle";
  paddle::flags::InitFromEnvironment();
  paddle::imperative::InitEager();
  paddle::pybind::BindErrors(m);
  paddle::pybind::BindCommon(m);
  paddle::pybind::BindTensor(m);
  paddle::pybind::BindTensorIO(m);
  paddle::pybind::BindFramework(m);
  paddle::pybind::BindParallelExecutor(m);
  paddle::pybind::BindOps(m);
  paddle::pybind::BindAutograd(m);
  paddle::pybind::BindRuntime(m);
  paddle::pybind::BindInference(m);
  paddle::pybind::BindDistributed(m);
}
