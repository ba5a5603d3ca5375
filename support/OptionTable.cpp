//===- OptionTable.cpp - What every table of divcc's options shares -------===//

#include "support/OptionTable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace divcc {

bool matchesOption(StringRef Spelling, StringRef Arg, StringRef &Value) {
  if (Spelling.ends_with("=")) {
    if (!Arg.starts_with(Spelling))
      return false;
    Value = Arg.drop_front(Spelling.size());
    return true;
  }
  if (Arg != Spelling)
    return false;
  Value = "";
  return true;
}

Error invalidOptionValue(StringRef Spelling, StringRef Value,
                         const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           "invalid value '" + Value + "' in '" + Spelling +
                               Value + "': " + Why);
}

Expected<unsigned> parseBoundedOption(StringRef Spelling, StringRef Value,
                                      unsigned Lo, unsigned Hi) {
  unsigned N;
  if (Value.getAsInteger(10, N) || N < Lo || N > Hi)
    return invalidOptionValue(Spelling, Value,
                              "expected a whole number from " + Twine(Lo) +
                                  " to " + Twine(Hi));
  return N;
}

void printOptionHelp(raw_ostream &OS, StringRef Spelling, StringRef MetaVar,
                     StringRef Help, unsigned Indent, unsigned Width) {
  OS.indent(Indent) << left_justify((Spelling + MetaVar).str(), Width) << ' '
                    << Help << '\n';
}

} // namespace divcc
