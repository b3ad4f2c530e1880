// CPU kernels of the unary elementwise and activation ops: their templates (impl/) over the CPU
// elementwise engine.
#pragma once

#include "paddle/kernels/funcs/elementwise_cpu.h"
#include "paddle/kernels/impl/activation_kernel_impl.h"
