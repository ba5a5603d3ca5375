# divcc's layers (docs/design.md): each folder of the source tree is one
# static library that may use only the layers it names, and those they name
# in turn. The build enforces it: a layer's sources see the headers of
# exactly those folders, through a directory of links made for the layer
# (build/layers/NAME/), so including a header from a layer above fails to
# compile; and a layer links only what it names, so calling into a layer
# above fails to link.

set(DIVCC_LAYER_ROOT ${CMAKE_BINARY_DIR}/layers)

# The folders a layer sees: itself and, transitively, what it uses.
function(divcc_layer_closure out)
  set(closure "")
  set(pending ${ARGN})
  while(pending)
    list(POP_FRONT pending layer)
    if(NOT layer IN_LIST closure)
      list(APPEND closure ${layer})
      get_property(uses GLOBAL PROPERTY DIVCC_LAYER_USES_${layer})
      list(APPEND pending ${uses})
    endif()
  endwhile()
  set(${out} ${closure} PARENT_SCOPE)
endfunction()

# divcc_layer_view(TARGET VIEW LAYER...): TARGET's sources see the headers
# of LAYER... and of what they use, and nothing else of divcc.
function(divcc_layer_view target view)
  divcc_layer_closure(closure ${ARGN})
  set(dir ${DIVCC_LAYER_ROOT}/${view})
  file(REMOVE_RECURSE ${dir})
  file(MAKE_DIRECTORY ${dir})
  foreach(layer ${closure})
    file(CREATE_LINK ${CMAKE_SOURCE_DIR}/${layer} ${dir}/${layer} SYMBOLIC)
  endforeach()
  target_include_directories(${target} PRIVATE ${dir})
endfunction()

# divcc_layer(NAME [USES LAYER...] [LINK LIBRARY...] SOURCES FILE...): the
# library divcc_NAME of the folder NAME.
function(divcc_layer name)
  cmake_parse_arguments(L "" "" "USES;LINK;SOURCES" ${ARGN})
  foreach(used ${L_USES})
    if(NOT TARGET divcc_${used})
      message(FATAL_ERROR "layer '${name}' uses '${used}', which is not "
        "below it: add_subdirectory(${used}) must come first")
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY DIVCC_LAYER_USES_${name} ${L_USES})
  add_library(divcc_${name} STATIC ${L_SOURCES})
  list(TRANSFORM L_USES PREPEND divcc_ OUTPUT_VARIABLE used_targets)
  target_link_libraries(divcc_${name} PUBLIC ${used_targets} ${L_LINK})
  divcc_layer_view(divcc_${name} ${name} ${name})
endfunction()
