/* The C API's common definitions, as PaddlePaddle's pd_common.h names them. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define PADDLE_CAPI_EXPORT __declspec(dllexport)
#else
#define PADDLE_CAPI_EXPORT __attribute__((visibility("default")))
#endif

#define PD_ENUM(type)   \
  typedef int32_t type; \
  enum

typedef int8_t PD_Bool;
#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif

PD_ENUM(PD_PrecisionType){PD_PRECISION_FLOAT32 = 0, PD_PRECISION_INT8, PD_PRECISION_HALF,
                          PD_PRECISION_BFLOAT16};

PD_ENUM(PD_PlaceType){PD_PLACE_UNK = -1, PD_PLACE_CPU, PD_PLACE_GPU, PD_PLACE_XPU};

PD_ENUM(PD_DataType){PD_DATA_UNK = -1, PD_DATA_FLOAT32, PD_DATA_INT32,
                     PD_DATA_INT64,    PD_DATA_UINT8,   PD_DATA_INT8,
                     PD_DATA_FLOAT16,  PD_DATA_BOOL,    PD_DATA_FLOAT64};
