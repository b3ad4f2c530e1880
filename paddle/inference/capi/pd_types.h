/* Arrays and strings the C API returns; each has a Destroy function that frees it. */
#pragma once

#include "pd_common.h"

typedef struct PD_OneDimArrayInt32 {
  size_t size;
  int32_t* data;
} PD_OneDimArrayInt32;

typedef struct PD_OneDimArraySize {
  size_t size;
  size_t* data;
} PD_OneDimArraySize;

typedef struct PD_OneDimArrayCstr {
  size_t size;
  char** data;
} PD_OneDimArrayCstr;

typedef struct PD_Cstr {
  size_t size; /* including the terminating NUL */
  char* data;
} PD_Cstr;

typedef struct PD_TwoDimArraySize {
  size_t size;
  PD_OneDimArraySize** data;
} PD_TwoDimArraySize;

#ifdef __cplusplus
extern "C" {
#endif

PADDLE_CAPI_EXPORT void PD_OneDimArrayInt32Destroy(PD_OneDimArrayInt32* array);
PADDLE_CAPI_EXPORT void PD_OneDimArrayCstrDestroy(PD_OneDimArrayCstr* array);
PADDLE_CAPI_EXPORT void PD_OneDimArraySizeDestroy(PD_OneDimArraySize* array);
PADDLE_CAPI_EXPORT void PD_TwoDimArraySizeDestroy(PD_TwoDimArraySize* array);
PADDLE_CAPI_EXPORT void PD_CstrDestroy(PD_Cstr* cstr);

/* Errors: a function that fails returns NULL (pointers), FALSE (PD_Bool) or leaves its output
   unwritten, and records a message for this thread; PD_GetLastErrorMessage returns it (NULL
   when the last call of this thread succeeded). The pointer is valid until the next call. */
PADDLE_CAPI_EXPORT const char* PD_GetLastErrorMessage(void);

#ifdef __cplusplus
}
#endif
