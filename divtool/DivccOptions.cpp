//===- DivccOptions.cpp - divcc options for the builds divtool runs -------===//

#include "divtool/DivccOptions.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace divcc {

bool hasWhiteSpace(StringRef Text) {
  return Text.find_first_of(" \t\n\v\f\r") != StringRef::npos;
}

DivccOptions DivccOptions::fromEnvironment(const DivccEnvironment &Env) {
  DivccOptions O;
  if (Env.Options) {
    SmallVector<StringRef, 8> Parts;
    SplitString(*Env.Options, Parts);
    for (StringRef Part : Parts)
      O.Words.push_back(Part.str());
  }
  return O;
}

DivccOptions &DivccOptions::add(std::string Word) {
  // divcc splits DIVCC_OPTIONS at white space: a word holding some would
  // reach it as two options. Callers refuse such input first.
  if (Word.empty() || hasWhiteSpace(Word))
    report_fatal_error("divtool: a divcc option for DIVCC_OPTIONS holds white "
                       "space");
  Words.push_back(std::move(Word));
  return *this;
}

DivccOptions &DivccOptions::noDiversity() { return add("-fno-diversify"); }

DivccOptions &DivccOptions::diversify(StringRef List) {
  return add(("-fdiversify=" + List).str());
}

DivccOptions &DivccOptions::only(Transformation T, StringRef Functions) {
  return add(
      (Twine("-fdiversify-only=") + transformationName(T) + ":" + Functions)
          .str());
}

DivccOptions &DivccOptions::append(const DivccOptions &Other) {
  Words.insert(Words.end(), Other.Words.begin(), Other.Words.end());
  return *this;
}

std::string DivccOptions::str() const { return join(Words, " "); }

std::string DivccOptions::assignment() const {
  return divcc::assignment(EnvOptions, str());
}

} // namespace divcc
