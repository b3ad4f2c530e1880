/* The whole C API of libpaddle_inference. */
#pragma once

#include "pd_common.h"
#include "pd_config.h"
#include "pd_predictor.h"
#include "pd_tensor.h"
#include "pd_types.h"
