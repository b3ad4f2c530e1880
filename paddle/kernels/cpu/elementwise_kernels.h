// CPU kernels of the elementwise binary ops: their templates (impl/) over the CPU elementwise
// engine.
#pragma once

#include "paddle/kernels/funcs/elementwise_cpu.h"
#include "paddle/kernels/impl/elementwise_kernel_impl.h"
