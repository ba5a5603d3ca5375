//===- FunctionFilter.cpp - Per-function transformations turned off -------===//

#include "transforms/FunctionFilter.h"

#include "random/RandomStream.h"
#include "transforms/DiversityOptions.h"

using namespace llvm;

namespace divcc {

void FunctionFilter::skip(Transformation T, StringRef Function) {
  Rules[unsigned(T)].Skipped.insert(Function);
}

void FunctionFilter::restrict(Transformation T) {
  Rules[unsigned(T)].Restricted = true;
}

void FunctionFilter::allow(Transformation T, StringRef Function) {
  restrict(T);
  Rules[unsigned(T)].Only.insert(Function);
}

bool FunctionFilter::allows(Transformation T, StringRef Function) const {
  const Rule &R = Rules[unsigned(T)];
  if (R.Restricted && !R.Only.contains(Function))
    return false;
  return !R.Skipped.contains(Function);
}

bool FunctionFilter::empty() const {
  for (const Rule &R : Rules)
    if (R.Restricted || !R.Skipped.empty())
      return false;
  return true;
}

std::unique_ptr<RandomStream>
StreamSource::forFunction(Transformation T, StringRef Function) const {
  if (!Functions.allows(T, Function))
    return nullptr;
  return std::make_unique<RandomStream>(
      Key, StreamLabel{transformationName(T), ModuleName, Function});
}

RandomStream StreamSource::forModule(Transformation T) const {
  return RandomStream(Key, {transformationName(T), ModuleName, ""});
}

} // namespace divcc
