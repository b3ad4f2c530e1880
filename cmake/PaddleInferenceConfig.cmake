# find_package(PaddleInference): the imported target PaddleInference::paddle_inference for an
# installed libpaddle_inference (a `cmake --install` prefix or the pip-installed paddle package;
# both put this file in <prefix>/lib/cmake/PaddleInference).
get_filename_component(_paddle_inference_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET PaddleInference::paddle_inference)
  add_library(PaddleInference::paddle_inference SHARED IMPORTED)
  set_target_properties(PaddleInference::paddle_inference PROPERTIES
    IMPORTED_LOCATION "${_paddle_inference_prefix}/lib/libpaddle_inference.so"
    INTERFACE_INCLUDE_DIRECTORIES "${_paddle_inference_prefix}/include"
    INTERFACE_COMPILE_FEATURES cxx_std_17)
endif()
set(PaddleInference_INCLUDE_DIRS "${_paddle_inference_prefix}/include")
set(PaddleInference_LIBRARIES PaddleInference::paddle_inference)
unset(_paddle_inference_prefix)
