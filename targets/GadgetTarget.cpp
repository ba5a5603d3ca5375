//===- GadgetTarget.cpp - Gadget kinds ------------------------------------===//

#include "targets/GadgetTarget.h"

namespace divcc {

const char *gadgetKindName(GadgetKind K) {
  switch (K) {
  case GadgetKind::Ret:
    return "ret";
  case GadgetKind::Jop:
    return "jop";
  case GadgetKind::Sys:
    return "sys";
  }
  return "?";
}

} // namespace divcc
